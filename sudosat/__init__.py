"""sudosat: Sudoku by SAT, from 9x9 to 36x36 and beyond.

The public API::

    from sudosat import parse, solve, encode, Encoding

    puzzle = parse(open("puzzles/ai-escargot.txt").read())
    outcome = solve(puzzle)             # outcome.status == "unique"
    cnf = encode(puzzle, Encoding("extended", "pairwise", reduced=False))
"""

from .dimacs import Answer, read_answer
from .encoding import Cnf, Encoding, decode_model, encode
from .engine import Outcome, Stats, check_answer, solve
from .formats import InputError, format_grid, format_line, parse, read_file, read_text
from .puzzle import Puzzle, verify
from .solvers import SolverError, SolverSpec, command_spec, solver_spec

__version__ = "0.1.0"

__all__ = [
    "Answer",
    "Cnf",
    "Encoding",
    "InputError",
    "Outcome",
    "Puzzle",
    "SolverError",
    "SolverSpec",
    "Stats",
    "check_answer",
    "command_spec",
    "decode_model",
    "encode",
    "format_grid",
    "format_line",
    "parse",
    "read_answer",
    "read_file",
    "read_text",
    "solve",
    "solver_spec",
    "verify",
]
