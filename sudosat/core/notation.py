"""How a puzzle is written as text: the symbol alphabets, a grid on one line
or as rows, and the patterns that tell a link from a row of cells."""

from __future__ import annotations

import re

from sudosat.core.puzzle import Grid, Puzzle

DIGITS = "123456789"


PUZZLE_KEYS = ("quizzes", "quiz", "puzzle", "puzzles", "sudoku", "grid", "board", "question")
"""Names of the puzzle: a CSV's column, a JSON record's key (the first found wins)."""
SOLUTION_KEYS = ("solutions", "solution", "answer", "answers")
HEX = "0123456789abcdef"


BASE36 = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"


REXL = "1234567890ABCDEFGHIJKLMNOPQRSTUVWXYZ"


FPUZZLES_LINK = re.compile(r"(?:[?&]load=|fpuzzles)([A-Za-z0-9+/=%\-_. ]+)")
"""An f-puzzles link (its data in group 1), or where the text names f-puzzles."""


PUZZLE_HOSTS = (
    r"(?:[a-z0-9-]+\.)*(?:sudokupad\.app|crackingthecryptic\.com|f-puzzles\.com|svencodes\.com)/"
)
"""The puzzle sites whose links people paste without ``https://`` (as the README
writes them: ``sudokupad.app/scl...``)."""


URL = re.compile(rf"(?i:https?://|www\.|{PUZZLE_HOSTS})\S+")


BARE_PAYLOAD = re.compile(r"\s*(scl|ctc)[A-Za-z0-9+/=\\]{40,}\s*")
"""SudokuPad's own puzzle data without its link (see :mod:`sudokupad`)."""


LINK = re.compile(rf"{FPUZZLES_LINK.pattern}|{URL.pattern}|^{BARE_PAYLOAD.pattern}$")
"""Any of the three, in one search (every line of a batch is asked)."""


def is_link(text: str) -> bool:
    """Whether a line is a link (to any site) or a bare SudokuPad payload: read as
    one (:mod:`links`), so that what cannot be read is refused as a link, never
    as a row of cells. Plain substrings first: every line of a batch is asked, and
    a line of digits holds none of them (the regular expression costs 5x more)."""
    hinted = (
        "://" in text
        or "load=" in text
        or "fpuzzles" in text
        or "www." in text
        or "scl" in text
        or "ctc" in text
        or ".com/" in text
        or ".app/" in text
    )
    return hinted and LINK.search(text) is not None


def symbols_of(puzzle: Puzzle, grid: Grid) -> list[str]:
    width = len(str(puzzle.size))
    if puzzle.alphabet:
        return [puzzle.symbol(v) for v in grid]
    return [str(v).rjust(width) for v in grid]


def format_line(puzzle: Puzzle, grid: Grid | None = None) -> str:
    """One line: N*N symbols with ``.`` blanks, or numbers separated by spaces."""
    grid = puzzle.cells if grid is None else grid
    if puzzle.alphabet:
        return "".join(map(("." + puzzle.alphabet).__getitem__, grid))
    return " ".join(map(str, grid))


def format_grid(puzzle: Puzzle, grid: Grid | None = None) -> str:
    """N rows, cells separated by spaces, boxes by ``|`` and ``-+-`` rules (a
    jigsaw's irregular regions: no rules)."""
    grid = puzzle.cells if grid is None else grid
    n = puzzle.size
    rows, cols = puzzle.layout.box or (n, n)
    symbols = symbols_of(puzzle, grid)
    lines = []
    for r in range(n):
        if r and r % rows == 0:
            widths = [
                len(" ".join(symbols[r * n + b * cols : r * n + b * cols + cols]))
                for b in range(n // cols)
            ]
            lines.append("-+-".join("-" * w for w in widths))
        boxes = [
            " ".join(symbols[r * n + b * cols : r * n + b * cols + cols]) for b in range(n // cols)
        ]
        lines.append(" | ".join(boxes))
    return "\n".join(lines)
