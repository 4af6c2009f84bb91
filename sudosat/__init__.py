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
(:mod:`process`) starts before the heavy imports of the work it watches.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .dimacs import Answer, read_answer, write_dimacs
    from .encoding import Cnf, Encoding, decode_model, encode
    from .engine import Count, check_answer, count, solve, solve_many
    from .formats import InputError, format_grid, format_line, parse, read_text
    from .inputs import read_file, read_puzzles
    from .outcome import Outcome, Stats, Status
    from .puzzle import Layout, Puzzle, verify
    from .rules import Rule, Rules
    from .solvers import SolverError, SolverSpec, command_spec, solver_spec

__version__ = "0.1.0"

_HOMES = {
    "dimacs": ("Answer", "read_answer", "write_dimacs"),
    "encoding": ("Cnf", "Encoding", "decode_model", "encode"),
    "engine": ("Count", "check_answer", "count", "solve", "solve_many"),
    "formats": ("InputError", "format_grid", "format_line", "parse", "read_text"),
    "inputs": ("read_file", "read_puzzles"),
    "outcome": ("Outcome", "Stats", "Status"),
    "puzzle": ("Layout", "Puzzle", "verify"),
    "rules": ("Rule", "Rules"),
    "solvers": ("SolverError", "SolverSpec", "command_spec", "solver_spec"),
}
_HOME_OF = {name: module for module, names in _HOMES.items() for name in names}

__all__ = [
    "Answer",
    "Cnf",
    "Count",
    "Encoding",
    "InputError",
    "Layout",
    "Outcome",
    "Puzzle",
    "Rule",
    "Rules",
    "SolverError",
    "SolverSpec",
    "Stats",
    "Status",
    "check_answer",
    "command_spec",
    "count",
    "decode_model",
    "encode",
    "format_grid",
    "format_line",
    "parse",
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
    return sorted([*globals(), *__all__])
