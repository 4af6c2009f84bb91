"""Solving: one function chooses the engine; the general engine; counting; many puzzles.

Two engines answer a puzzle, both with a verified :class:`Outcome`:

* the batch engine (:mod:`fast`): propagation over rules kept loaded, then a
  small search over what is left; ranks 2-4 when neither a solver nor an
  encoding is asked for;
* the general engine (below): the puzzle's CNF on a fresh solver of any kind,
  a PySAT solver in process or a solver program.

:func:`solve` picks one (:func:`uses_batch_engine`); the CLI, :func:`count` and
:func:`solve_many` all go through it. Uniqueness is decided by re-solving with
the found solution blocked; the blocking clause only names the cells the CNF
decides, so variables that are in no clause (which some solvers set freely)
cannot fake a second solution. Every solution is checked against the rules and
the givens before it counts.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace
from functools import cache
from itertools import islice
from typing import TYPE_CHECKING, Any

from sudosat.core.errors import SolverError, SolverTimeout
from sudosat.core.puzzle import Grid, Puzzle, a_puzzle, verify
from sudosat.sat.cnf import Cnf, Encoding
from sudosat.sat.deadline import deadline_after, interruptible
from sudosat.sat.encoding import decode_model, encode
from sudosat.sat.limits import check_solvable
from sudosat.sat.solvers import DEFAULT_SOLVER, SolverSpec, solver_spec
from sudosat.sat.solvers.base import SatSolver
from sudosat.sat.solvers.native import Native, load_cnf
from sudosat.solving import progress
from sudosat.solving.fast import NAME as BATCH_ENGINE
from sudosat.solving.fast import FastSolver
from sudosat.solving.outcome import (
    Interrupted,
    Outcome,
    Stats,
    Status,
    accept,
    forced_grid_breaks,
    interrupted,
    no_solution,
    status_of,
)
from sudosat.system.lazy import lazy

if TYPE_CHECKING:
    import multiprocessing

    from sudosat.sat import dimacs
    from sudosat.sat.dimacs import Answer
    from sudosat.solving import deduce, race
    from sudosat.solving.race import Report
    from sudosat.system import pool
else:  # processes for a portfolio, a deadline or many puzzles: not for one puzzle
    multiprocessing = lazy("multiprocessing")
    pool = lazy("sudosat.system.pool")
    deduce = lazy("sudosat.solving.deduce")  # the general engine's singles
    race = lazy("sudosat.solving.race")  # a child process per solver
    dimacs = lazy("sudosat.sat.dimacs")  # a solver program's answer

BATCH_ENGINE_RANKS = range(2, 5)
"""Above rank 4 the batch engine's rules are too large to keep loaded."""
COUNT_LIMIT = 10000
"""How many solutions :func:`count` looks for unless told."""
CHILD_RANK = 5
"""From this rank on, PySAT solvers always run in a child process (see :func:`_general`)."""
CHUNK = 128
"""Puzzles per task when :func:`solve_many` uses worker processes."""


@dataclass(frozen=True)
class Options:
    """How to solve: what :func:`solve` takes as keywords, as one value for workers."""

    solver: SolverSpec | None = None
    """None: the batch engine where it applies, else :data:`DEFAULT_SOLVER`."""
    encoding: Encoding | None = None
    """None: the default :class:`Encoding` (for the general engine)."""
    max_solutions: int = 2
    timeout: float | None = None

    @classmethod
    def of(
        cls,
        solver: str | SolverSpec | None = None,
        encoding: Encoding | None = None,
        max_solutions: int = 2,
        timeout: float | None = None,
    ) -> Options:
        if max_solutions < 1:
            raise ValueError("max_solutions must be at least 1")
        if timeout is not None and timeout <= 0:
            raise ValueError("timeout must be positive")
        spec = solver_spec(solver) if isinstance(solver, str) else solver
        return cls(spec, encoding, max_solutions, timeout)


def uses_batch_engine(rank: int, options: Options) -> bool:
    """The engine rule: the batch engine for ranks 2-4 unless a solver or an encoding
    is asked for; the general engine otherwise."""
    return options.solver is None and options.encoding is None and rank in BATCH_ENGINE_RANKS


def solve(
    puzzle: Puzzle,
    *,
    solver: str | SolverSpec | None = None,
    encoding: Encoding | None = None,
    max_solutions: int = 2,
    timeout: float | None = None,
) -> Outcome:
    """Solve ``puzzle``, looking for up to ``max_solutions`` (2: the uniqueness check).

    ``solver``: None (the batch engine for ranks 2-4, else ``cadical195``), a PySAT
    solver name or alias (``glucose4``, ``g4``), a solver program's name
    (``minisat``, ``cadical``, ...) or a :class:`SolverSpec`. ``encoding``: the CNF
    for the general engine. Past ``timeout`` seconds the outcome is ``timeout``,
    with the solutions found by then. A solver that fails raises SolverError.
    """
    puzzle = a_puzzle(puzzle, "solve")
    return solve_with(puzzle, Options.of(solver, encoding, max_solutions, timeout))


def solve_with(puzzle: Puzzle, options: Options) -> Outcome:
    """:func:`solve` with its keywords as one :class:`Options`."""
    start = time.perf_counter()
    try:
        if puzzle.classic and uses_batch_engine(puzzle.rank, options):
            engine = batch_engine(puzzle.rank)
            outcome = engine.solve(puzzle, options.max_solutions, options.timeout)
        else:
            outcome = _general(puzzle, options)
    except Interrupted as stop:  # the time it had searched, in its record too
        stop.outcome.stats.time = time.perf_counter() - start
        raise
    outcome.stats.time = time.perf_counter() - start
    return outcome


def solve_or_error(puzzle: Puzzle, options: Options) -> Outcome:
    """Like :func:`solve_with`, but a solver failure is an ``error`` outcome."""
    try:
        return solve_with(puzzle, options)
    except SolverError as err:
        return Outcome(puzzle, Status.ERROR, reason=str(err), solver=_engine_name(puzzle, options))


def _engine_name(puzzle: Puzzle, options: Options) -> str:
    if puzzle.classic and uses_batch_engine(puzzle.rank, options):
        return BATCH_ENGINE
    return options.solver.name if options.solver else DEFAULT_SOLVER


@cache
def batch_engine(rank: int) -> FastSolver:
    """One batch engine per rank and process, made when first needed."""
    return FastSolver(rank)


class Count(int):
    """A number of solutions that knows whether it is complete: ``complete`` is False
    when the search stopped at its limit or its timeout (then it is a lower bound)."""

    complete: bool

    def __new__(cls, value: int, complete: bool) -> Count:
        made = super().__new__(cls, value)
        made.complete = complete
        return made

    def __reduce__(self) -> tuple[type[Count], tuple[int, bool]]:
        return Count, (int(self), self.complete)  # crosses processes

    def __repr__(self) -> str:
        return f"Count({int(self)}, complete={self.complete})"

    def __str__(self) -> str:
        return int.__repr__(self)


def count(
    puzzle: Puzzle,
    *,
    solver: str | SolverSpec | None = None,
    encoding: Encoding | None = None,
    max_solutions: int = COUNT_LIMIT,
    timeout: float | None = None,
) -> Count:
    """The number of solutions of ``puzzle``, searching up to ``max_solutions``."""
    puzzle = a_puzzle(puzzle, "count")
    outcome = solve(
        puzzle, solver=solver, encoding=encoding, max_solutions=max_solutions, timeout=timeout
    )
    return Count(len(outcome.solutions), outcome.exhausted)


def solve_many(
    puzzles: Iterable[Puzzle],
    *,
    solver: str | SolverSpec | None = None,
    encoding: Encoding | None = None,
    max_solutions: int = 2,
    timeout: float | None = None,
    jobs: int = 1,
) -> Iterator[Outcome]:
    """An outcome for every puzzle, in order, lazily; a solver failure is an ``error``
    outcome, not an exception. ``jobs`` > 1 solves in that many worker processes."""
    options = Options.of(solver, encoding, max_solutions, timeout)
    if jobs <= 1:
        return (solve_or_error(puzzle, options) for puzzle in puzzles)
    return _in_workers(puzzles, options, jobs)


def _in_workers(puzzles: Iterable[Puzzle], options: Options, jobs: int) -> Iterator[Outcome]:
    iterator = iter(puzzles)
    tasks = iter(lambda: (list(islice(iterator, CHUNK)), options), ([], options))
    for outcomes in pool.ordered_map(_solve_chunk, tasks, jobs, describe=_describe_chunk):
        yield from outcomes


def _solve_chunk(task: tuple[list[Puzzle], Options]) -> list[Outcome]:
    puzzles, options = task
    return [solve_or_error(puzzle, options) for puzzle in puzzles]


def _describe_chunk(task: tuple[list[Puzzle], Options]) -> str:
    first = task[0][0]
    return f"{first.source} from line {first.line}"


# --- the general engine ------------------------------------------------------


def _search(cnf: Cnf, solver: SatSolver, max_solutions: int) -> Iterator[Grid]:
    """Solutions, verified, until ``max_solutions`` or there are no more (the solver
    holds the CNF already)."""
    found: list[Grid] = []
    while len(found) < max_solutions:
        if not solver.solve():
            return
        grid = accept(cnf.puzzle, cnf.decode(solver.get_model()), found, solver.name)
        yield grid
        solver.add_clauses([cnf.blocking_clause(grid)])


def _answer(grids: Iterable[Grid], solver: SatSolver, limit: int, report: Report) -> None:
    """Reports each solution as it comes, then the solver's effort."""
    found = 0
    for grid in grids:
        found += 1
        report("solution", grid)
    stats = Stats(solves=found + (found < limit))
    stats.add_search(solver.accum_stats())
    report("done", (solver.name, stats))


def _run(
    puzzle: Puzzle,
    encoding: Encoding,
    solver: SolverSpec,
    limit: int,
    report: Report,
    deadline: float | None = None,
    quick_first: bool = False,
) -> None:
    """Deduce, encode, search and report: the same steps in process and in a child.
    ``quick_first``: a short Minicard search (:class:`_Quick`) before ``solver``."""
    target, masks = puzzle, None
    if encoding.reduced:  # singles first: what they place holds in every solution
        deduced = deduce.deduce(puzzle)
        report("deduced", (deduced.placed, deduced.removed))
        if deduced.contradiction:
            report("none", deduced.contradiction)
            return
        target, masks = replace(puzzle, cells=deduced.grid), deduced.masks
    cnf = encode(target, encoding, compact=True, masks=masks)
    report("size", (cnf.variable_count, cnf.clause_count))
    if cnf.names:
        report("families", cnf.families())
    if not cnf.open_cells:  # the singles filled every cell: the one candidate, no solve
        broken = forced_grid_breaks(puzzle, target.cells)
        if broken:  # the rows, columns and regions force a grid that a rule forbids
            report("none", broken)
            return
        report("solution", accept(puzzle, target.cells, [], "the singles"))
        report("done", (solver.name, Stats()))
        return
    if quick_first:
        with _Quick(cnf) as quick:
            try:  # held back until decided: CaDiCaL would find them again
                grids = list(_search(cnf, quick, limit))
            except _OutOfBudget:
                pass
            else:
                _answer(grids, quick, limit, report)
                return
    with solver.open(deadline) as backend:
        backend.add_clauses(cnf.iter_clauses())
        _answer(_search(cnf, backend, limit), backend, limit, report)


QUICK_SOLVER = "minicard"
QUICK_BUDGET = 10000
"""Conflicts each solve of the quick search may spend before the default solver
takes over."""


class _OutOfBudget(Exception):
    pass


class _Quick(SatSolver):
    """A fresh Minicard (on PySAT's C functions: :class:`native.Native`) with the
    rules' groups as native "exactly one" constraints, whose solves give up
    (_OutOfBudget) after QUICK_BUDGET conflicts.

    Big puzzles that singles leave nearly solved load in a fraction of the
    time of their pairwise clauses (a 144x144: 26 thousand constraints against
    918 thousand clauses); hard ones run out of budget, and CaDiCaL, much
    better at them, starts afresh (benchmarks/large.py)."""

    name = QUICK_SOLVER

    def __init__(self, cnf: Cnf) -> None:
        self._search = Native(QUICK_SOLVER)
        load_cnf(self._search.handle, cnf)

    def add_clauses(self, clauses: Iterable[list[int]]) -> None:
        for clause in clauses:
            self._search.add_clause(clause)

    def solve(self) -> bool:
        self._search.conf_budget(QUICK_BUDGET)
        answer = interruptible(self._search.solve_limited)
        if answer is None:
            raise _OutOfBudget
        return bool(answer)

    def get_model(self) -> list[int]:
        return self._search.get_model() or []

    def accum_stats(self) -> dict[str, int]:
        return dict(self._search.accum_stats())

    def close(self) -> None:
        self._search.delete()


def _receive(outcome: Outcome, limit: int) -> Report:
    """A Report that fills ``outcome`` in."""

    def report(kind: str, payload: Any) -> None:
        if kind == "deduced":
            outcome.stats.deduced, outcome.stats.ruled_out = payload
        elif kind == "size":
            outcome.stats.variables, outcome.stats.clauses = payload
        elif kind == "families":
            outcome.stats.families = payload
        elif kind == "solution":
            outcome.solutions.append(payload)
            progress.tell("solutions found", len(outcome.solutions))
        elif kind == "none":  # singles proved there is no solution
            outcome.status, outcome.reason, outcome.exhausted = Status.NONE, payload, True
        else:
            outcome.solver, stats = payload
            stats.variables, stats.clauses = outcome.stats.variables, outcome.stats.clauses
            stats.deduced, stats.ruled_out = outcome.stats.deduced, outcome.stats.ruled_out
            stats.families = outcome.stats.families
            outcome.stats = stats
            outcome.exhausted = len(outcome.solutions) < limit
            outcome.status = status_of(len(outcome.solutions), outcome.exhausted)

    return report


def _general(puzzle: Puzzle, options: Options) -> Outcome:
    """The general engine. With a timeout, or from rank CHILD_RANK on, PySAT solvers
    run (singles and encoding included) in a child process, killed at the deadline
    or when sudosat is stopped: CaDiCaL holds the interpreter for a whole solve, so
    in process neither a deadline nor SIGTERM could act until it returned. Solver
    programs are killed at the deadline. A portfolio races its solvers, each in a
    child of its own. Solutions found by then are kept."""
    spec = options.solver or solver_spec(DEFAULT_SOLVER)
    encoding = options.encoding or Encoding()
    limit, timeout = options.max_solutions, options.timeout
    quick = options.solver is None and options.encoding is None  # the default: Minicard first
    if puzzle.size >= CHILD_RANK**2:
        check_solvable(puzzle, encoding.reduced)  # a one-line TooBig now, not a MemoryError later
    # clashing clues or (without the singles, which find it) a dead cell: nothing to solve
    outcome = no_solution(puzzle, spec.name, dead_cells=not encoding.reduced)
    outcome.encoding = encoding
    if outcome.reason:
        return outcome
    outcome.exhausted = False
    in_process = timeout is None and puzzle.size < CHILD_RANK**2 and not spec.members
    try:
        if spec.external or in_process:
            deadline = deadline_after(timeout)
            try:
                _run(puzzle, encoding, spec, limit, _receive(outcome, limit), deadline, quick)
            except SolverTimeout as stopped:
                outcome.status, outcome.reason = Status.TIMEOUT, str(stopped)
        else:
            members = spec.members or (spec,)
            race.race(outcome, members, limit, timeout, quick, _run, _receive)
    except Interrupted:
        raise
    except KeyboardInterrupt as stop:  # what the solver (or the race's) had reported by then
        raise interrupted(puzzle, outcome.solutions, spec.name, outcome.stats, stop) from None
    return outcome


def check_answer(
    puzzle: Puzzle, answer: Answer, solver: str = "", trusted: bool = False
) -> Outcome:
    """The outcome a solver's answer for one of ``puzzle``'s CNFs gives, verified.

    A model that is no solution raises SolverError; UNKNOWN is a timeout.
    UNSATISFIABLE is checked by solving the puzzle here, unless ``trusted``: a
    puzzle that has a solution raises SolverError.
    """
    if answer.status == dimacs.UNSAT:
        # Any solution found refutes the answer: a search that settles the puzzle
        # by deduction alone reports it unique, not merely solved.
        if not trusted and solve(puzzle, max_solutions=1).solutions:
            raise SolverError(
                "the solver answered UNSATISFIABLE, but the puzzle has a solution "
                "(--trust-solver skips this check)"
            )
        return no_solution(puzzle, solver)
    if answer.status != dimacs.SAT:
        reason = "the solver gave no answer (UNKNOWN)"
        return Outcome(puzzle, Status.TIMEOUT, reason=reason, solver=solver)
    grid = decode_model(puzzle, answer.model)
    problems = verify(puzzle, grid)
    if problems:
        raise SolverError(f"the model is no solution of the puzzle: {problems[0]}")
    return Outcome(puzzle, Status.SOLVED, [grid], solver=solver)
