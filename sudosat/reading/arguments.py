"""A puzzle given on the command line where a file is expected: a puzzle line
(``4.....8.5.3...``) or a link (``https://f-puzzles.com/?load=...``).

An argument names a file when one exists by that name; otherwise it is a puzzle
when it reads as one, so a mistyped file name still gets "no such file". Digits
alone, shorter than a 9x9's 81, read as a puzzle only with ``--rank``: a 4x4's
sixteen (``2024010112000000``) are as likely a file named by a date.
"""

from __future__ import annotations

import os

from sudosat.core.errors import InputError
from sudosat.core.notation import is_link
from sudosat.core.puzzle import Puzzle
from sudosat.reading.chunks import ARGUMENT
from sudosat.reading.formats import read_text
from sudosat.reading.lines import NO_VARIANTS, Variants

SHORTEST_DIGITS = 81
"""The fewest digits an argument of digits alone may have to be read as a puzzle
without --rank."""


def is_puzzle_argument(
    argument: str,
    *,
    rank: int | None = None,
    alphabet: str | None = None,
    variants: Variants = NO_VARIANTS,
) -> bool:
    """``argument`` is not a file (nor ``-``) but reads as one puzzle or more."""
    if argument == "-" or os.path.lexists(argument):
        return False
    if is_link(argument):  # never a file name: its errors are a puzzle's, not "no such file"
        return True
    if os.sep in argument or argument.endswith((".txt", ".json", ".links", ".csv")):
        return False  # a path, mistyped
    if rank is None and argument.isdigit() and len(argument) < SHORTEST_DIGITS:
        return False  # a number: a file name as likely as a small puzzle
    try:
        found = read_text(argument, ARGUMENT, rank=rank, alphabet=alphabet, variants=variants)
    except InputError:
        return False
    return bool(found) and all(isinstance(entry, Puzzle) for entry in found)


SEPARATORS = ",;| \t"
"""What a pasted puzzle may have between its cells."""
CELL_MARKS = set("0123456789.*_-")
"""Characters that are cells in every alphabet's puzzles: digits and blanks."""
SHORTEST_TEXT = 16
"""The fewest cell characters of an argument read as a puzzle gone wrong (a 4x4's)."""


def why_not_a_puzzle(
    argument: str,
    *,
    rank: int | None = None,
    alphabet: str | None = None,
    variants: Variants = NO_VARIANTS,
) -> str | None:
    """For an argument that names no file: what is wrong with it as a puzzle when it
    looks like one (digits and blanks, one cell short: "found 80 cells, expected
    81"); None when it looks like a file name (mistyped) instead."""
    if os.sep in argument or argument.endswith((".txt", ".json", ".links", ".csv")):
        return None
    if rank is None and argument.isdigit() and len(argument) < SHORTEST_DIGITS:
        return None  # a number: a file name as likely as a small puzzle
    cells = [ch for ch in argument if ch not in SEPARATORS]
    marks = sum(ch in CELL_MARKS for ch in cells)
    if len(cells) < SHORTEST_TEXT or marks < 0.8 * len(cells):
        return None
    try:
        found = read_text(argument, ARGUMENT, rank=rank, alphabet=alphabet, variants=variants)
        why = next((entry.message for entry in found if isinstance(entry, InputError)), None)
    except InputError as err:
        why = err.message
    if why is None:
        return None
    if "," in argument:
        why += "; commas are read as cells: give the cells with nothing between them, or spaces"
    return why
