"""sat/solvers/native.py: PySAT's C functions called directly answer as PySAT's
own classes do, on the formulas the engines give them."""

from __future__ import annotations

import time

import pytest
from pysat.solvers import Minicard, Solver

from sudosat.core.errors import SolverTimeout
from sudosat.reading.formats import parse
from sudosat.reading.inputs import read_file
from sudosat.sat.cnf import Encoding
from sudosat.sat.deadline import solve_by
from sudosat.sat.encoding import augmented, encode
from sudosat.sat.solvers.native import Native, load_cnf
from tests.conftest import ESCARGOT, PUZZLES


def test_minicard_gives_pysats_answers_models_and_effort() -> None:
    """Each puzzle's CNF loaded both ways: the same answer, model and statistics,
    solved and solved again with the solution blocked."""
    puzzles = [parse(ESCARGOT), *read_file(str(PUZZLES / "variants.links"))[:6]]
    for puzzle in puzzles:
        assert not isinstance(puzzle, Exception)
        cnf = encode(puzzle, Encoding(), compact=True)
        theirs, mine = Minicard(), Native("minicard")
        load_cnf(theirs.minicard, cnf)
        load_cnf(mine.handle, cnf)
        for _ in range(2):
            answer = theirs.solve()
            assert mine.solve() == answer
            assert mine.get_model() == theirs.get_model()
            assert mine.accum_stats() == theirs.accum_stats()
            if not answer:
                break
            model = theirs.get_model()
            blocked = [-lit for lit in model[: cnf.nv] if lit > 0]
            theirs.add_clause(blocked)
            mine.add_clause(blocked)
        theirs.delete()
        mine.delete()


def test_glucose_propagates_as_pysats() -> None:
    rules, _ = augmented(3)
    theirs = Solver(name="glucose4", bootstrap_with=rules)
    mine = Native("glucose41", rules)
    givens = [cell * 9 + v for cell, v in parse(ESCARGOT).givens]
    for assumptions in ([], givens[:5], givens, [1, 2]):  # [1, 2]: two values in a cell
        assert mine.propagate(assumptions) == theirs.propagate(assumptions=assumptions)
    theirs.delete()


def pigeons(holes: int) -> list[list[int]]:
    """holes + 1 pigeons in ``holes`` holes, each pigeon in one, no two in a hole:
    unsatisfiable, and exponential for resolution (no CDCL solver ends it soon)."""

    def x(p: int, h: int) -> int:
        return p * holes + h + 1

    clauses = [[x(p, h) for h in range(holes)] for p in range(holes + 1)]
    for h in range(holes):
        for p in range(holes + 1):
            clauses += [[-x(p, h), -x(q, h)] for q in range(p + 1, holes + 1)]
    return clauses


def test_a_deadline_interrupts_a_native_solve_which_stays_usable() -> None:
    search = Native("minicard", pigeons(13))
    with pytest.raises(SolverTimeout):
        solve_by(search, time.monotonic() + 0.2)
    search.conf_budget(100)
    assert search.solve_limited() is None  # out of budget: it searches again
    search.delete()
