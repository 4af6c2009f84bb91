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


PUZZLE_HOSTS = (
    r"(?:[a-z0-9-]+\.)*(?:sudokupad\.app|crackingthecryptic\.com|f-puzzles\.com|svencodes\.com)/"
)
"""The puzzle sites whose links people paste without ``https://`` (as the README
writes them: ``sudokupad.app/scl...``)."""

LINKS = {
    "FPUZZLES_LINK": r"(?:[?&]load=|fpuzzles)([A-Za-z0-9+/=%\-_. ]+)",
    "URL": rf"(?i:https?://|www\.|{PUZZLE_HOSTS})\S+",
    "BARE_PAYLOAD": r"\s*(scl|ctc)[A-Za-z0-9+/=\\]{40,}\s*",
}
"""The link patterns, compiled when first used (a classic solve uses none: their
compiling was a tenth of its imports' regular expressions): ``FPUZZLES_LINK``, an
f-puzzles link (its data in group 1), or where the text names f-puzzles;
``URL``; ``BARE_PAYLOAD``, SudokuPad's own puzzle data without its link (see
:mod:`sudokupad`); and ``LINK``, any of the three in one search (every line of a
batch that hints at one is asked)."""
LINKS["LINK"] = f"{LINKS['FPUZZLES_LINK']}|{LINKS['URL']}|^{LINKS['BARE_PAYLOAD']}$"


def __getattr__(name: str) -> re.Pattern[str]:
    """``FPUZZLES_LINK``, ``URL``, ``BARE_PAYLOAD`` and ``LINK``, each compiled once,
    when first imported or used."""
    if name not in LINKS:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    compiled = globals()[name] = re.compile(LINKS[name])
    return compiled


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
    return hinted and (globals().get("LINK") or __getattr__("LINK")).search(text) is not None


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
