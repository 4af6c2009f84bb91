"""sudosat: Sudoku by SAT, from 4x4 to 36x36 and beyond.

The public API, in PySAT's words (model, clauses, solver names)::

    from sudosat import parse, solve, count, solve_many, encode, write_dimacs

    puzzle = parse(open("puzzles/ai-escargot.txt").read())
    outcome = solve(puzzle)          # outcome.status == Status.UNIQUE
    count(puzzle)                    # 1 (a Count: an int with .complete)
    cnf = encode(puzzle)             # cnf.clauses, cnf.nv, cnf.decode(model)
    write_dimacs(cnf, open("escargot.cnf", "w"))
    for outcome in solve_many(read_puzzles("puzzles/royle17-25.txt")):
        ...

:func:`solve`, :func:`count` and :func:`solve_many` share their keywords and the
CLI's defaults: ``solver=None`` (the batch engine for ranks 2-4, CaDiCaL 1.9.5
above), ``encoding=None``, ``max_solutions=2``, ``timeout=None``.

The names are imported when first used, so that the command line's supervisor
(:mod:`sudosat.system.process`) starts before the heavy imports of the work it watches.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from sudosat.core.errors import InputError, SolverError
    from sudosat.core.notation import format_grid, format_line
    from sudosat.core.puzzle import Layout, Puzzle, verify
    from sudosat.logic.board import Step
    from sudosat.logic.path import logical_path
    from sudosat.logic.rating import rate_by_path
    from sudosat.logic.solve_path import SolvePath
    from sudosat.making.explain import Explanation, explain
    from sudosat.reading.formats import parse, read_text
    from sudosat.reading.inputs import read_file, read_puzzles
    from sudosat.rules import Rule, Rules
    from sudosat.sat.cnf import Cnf, Encoding
    from sudosat.sat.dimacs import Answer, read_answer, write_dimacs
    from sudosat.sat.encoding import decode_model, encode
    from sudosat.sat.solvers import SolverSpec, command_spec, solver_spec
    from sudosat.solving.candidates import Candidates, candidates
    from sudosat.solving.engine import Count, check_answer, count, solve, solve_many
    from sudosat.solving.estimate import Estimate, estimate
    from sudosat.solving.outcome import Outcome, Stats, Status

__version__ = "0.1.0"

_HOMES = {
    "core.errors": ("InputError", "SolverError"),
    "core.notation": ("format_grid", "format_line"),
    "core.puzzle": ("Layout", "Puzzle", "verify"),
    "solving.candidates": ("Candidates", "candidates"),
    "logic.board": ("Step",),
    "making.explain": ("Explanation", "explain"),
    "logic.path": ("logical_path",),
    "logic.rating": ("rate_by_path",),
    "logic.solve_path": ("SolvePath",),
    "reading.formats": ("parse", "read_text"),
    "reading.inputs": ("read_file", "read_puzzles"),
    "rules": ("Rule", "Rules"),
    "sat.cnf": ("Cnf", "Encoding"),
    "sat.dimacs": ("Answer", "read_answer", "write_dimacs"),
    "sat.encoding": ("decode_model", "encode"),
    "sat.solvers": ("SolverSpec", "command_spec", "solver_spec"),
    "solving.engine": ("Count", "check_answer", "count", "solve", "solve_many"),
    "solving.estimate": ("Estimate", "estimate"),
    "solving.outcome": ("Outcome", "Stats", "Status"),
}
_HOME_OF = {name: module for module, names in _HOMES.items() for name in names}

__all__ = [
    "Answer",
    "Candidates",
    "Cnf",
    "Count",
    "Encoding",
    "Estimate",
    "Explanation",
    "InputError",
    "Layout",
    "Outcome",
    "Puzzle",
    "Rule",
    "Rules",
    "SolvePath",
    "SolverError",
    "SolverSpec",
    "Stats",
    "Status",
    "Step",
    "candidates",
    "check_answer",
    "command_spec",
    "count",
    "decode_model",
    "encode",
    "estimate",
    "explain",
    "format_grid",
    "format_line",
    "logical_path",
    "parse",
    "rate_by_path",
    "read_answer",
    "read_file",
    "read_puzzles",
    "read_text",
    "solve",
    "solve_many",
    "solver_spec",
    "verify",
    "write_dimacs",
]


def __getattr__(name: str) -> Any:
    module = _HOME_OF.get(name)
    if module is None:
        raise AttributeError(f"module 'sudosat' has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value  # once
    return value


def __dir__() -> list[str]:
    """The public API alone: not the names this module uses (sys, cast, ...)."""
    return sorted([*__all__, "__version__"])
