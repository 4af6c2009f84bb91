"""sudosat: Sudoku by SAT, from 9x9 to 36x36 and beyond.

The public API::

    from sudosat import parse, solve, encode, Encoding

    puzzle = parse(open("puzzles/ai-escargot.txt").read())
    outcome = solve(puzzle)             # outcome.status == "unique"
    cnf = encode(puzzle, Encoding("extended", "pairwise", reduced=False))
"""

from .encoding import Cnf, Encoding, encode
from .engine import Outcome, Stats, solve
from .formats import InputError, format_grid, format_line, parse, read_file, read_text
from .puzzle import Puzzle, verify

__version__ = "0.1.0"

__all__ = [
    "Cnf",
    "Encoding",
    "InputError",
    "Outcome",
    "Puzzle",
    "Stats",
    "encode",
    "format_grid",
    "format_line",
    "parse",
    "read_file",
    "read_text",
    "solve",
    "verify",
]
