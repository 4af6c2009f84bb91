"""Pencil marks: each cell's candidates as a solver has written them.

The format is the one ``sudosat candidates`` writes (``line`` or ``grid``): a
token per cell in row-major order, separated by spaces or line breaks, each
token the cell's candidates in the puzzle's symbols (joined by commas where a
symbol has several characters, as on grids written in numbers), ``-`` for a
cell with none. Box rules (``|``, ``---+---``) and ``#`` comments are passed
over. A cell with one candidate counts as filled.
"""

from __future__ import annotations

import re

from sudosat.core.errors import InputError
from sudosat.core.masks import bit
from sudosat.core.puzzle import Puzzle

RULING = re.compile(r"^[-+|=*:─━│┃┼╋┏┓┗┛┣┫┳┻]+$")
TOKEN = re.compile(r"\S+")


def read_marks(text: str, source: str, puzzle: Puzzle) -> tuple[int, ...]:
    """A candidate mask per cell of ``puzzle`` (:mod:`sudosat.core.masks`), read from ``text``;
    InputError naming the line and column of what cannot be read."""
    n = puzzle.size
    symbols = {puzzle.symbol(v): v for v in range(1, n + 1)}
    single = all(len(s) == 1 for s in symbols)
    masks: list[int] = []
    last = (0, 0)
    for number, line in enumerate(text.splitlines(), 1):
        line = line.split("#", 1)[0]
        for found in TOKEN.finditer(line):
            token, col = found.group(), found.start() + 1
            if RULING.match(token) and token != "-":
                continue
            last = (number, col)
            if len(masks) == n * n:
                raise InputError(source, number, col, f"more than the {n * n} cells of the grid")
            masks.append(_mask(token, symbols, single, (source, number, col)))
    if len(masks) < n * n:
        at, col = last
        raise InputError(source, at, col, f"{len(masks)} cells of pencil marks, expected {n * n}")
    return tuple(masks)


def _mask(token: str, symbols: dict[str, int], single: bool, where: tuple[str, int, int]) -> int:
    if token == "-":
        return 0
    parts = list(token) if single else token.split(",")
    mask = 0
    for part in parts:
        value = symbols.get(part)
        if value is None:
            source, line, col = where
            shown = ", ".join(list(symbols)[:3]) + (", ..." if len(symbols) > 3 else "")
            raise InputError(
                source, line, col, f"{part!r} is no symbol of this puzzle (expected {shown})"
            )
        mask |= bit(value)
    return mask
