"""Where a rule is read from, for its errors (:class:`Where`: file, line, column,
field), its cells as input names them and as sudosat writes them, and the
geometry rules share (orthogonal, touching, neighbours)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import pairwise
from typing import TYPE_CHECKING, Any

from sudosat.core.errors import InputError
from sudosat.core.jsonobject import JsonObject
from sudosat.core.puzzle import Layout, cell_name

if TYPE_CHECKING:
    pass


CELL = re.compile(r"[rR]([0-9]{1,9})[cC]([0-9]{1,9})")  # ASCII digits only (not fullwidth)


@dataclass
class Where:
    """Where rules are read from, to read cells and name the place in errors."""

    source: str
    line: int
    size: int
    what: str = ""
    """The field or line being read, for errors (``killercage 3``)."""
    layout: Layout | None = None
    regions: list[int] = field(default_factory=list)
    """The cells' f-puzzles region numbers, when the grid gives them."""

    def error(self, message: str) -> InputError:
        where = f"{self.what}: " if self.what else ""
        return InputError(self.source, self.line, 1, f"{where}{message}")

    def at(self, what: str) -> Where:
        return Where(self.source, self.line, self.size, what, self.layout, self.regions)

    def cell(self, name: Any) -> int:
        """A cell inside the grid, from ``R1C1`` (any case)."""
        row, col = self.place(name)
        n = self.size
        if not (1 <= row <= n and 1 <= col <= n):
            raise self.error(f"cell {name} is outside the {n}x{n} grid")
        return (row - 1) * n + col - 1

    def place(self, name: Any) -> tuple[int, int]:
        """Row and column (1-based, 0 or N+1 outside the grid) of ``R1C1``."""
        match = CELL.fullmatch(str(name).strip())
        if match is None:
            raise self.error(f"expected a cell such as R1C1, found {str(name)[:20]!r}")
        return int(match[1]), int(match[2])

    def cells(self, names: Any, least: int = 1) -> tuple[int, ...]:
        if not isinstance(names, list) or len(names) < least:
            raise self.error(f"expected a list of at least {least} cell(s)")
        found = tuple(self.cell(name) for name in names)
        if len(set(found)) != len(found):
            raise self.error("a cell is listed twice")
        return found

    def number(self, value: Any, default: int | None = None, low: int = 0) -> int | None:
        """An integer (f-puzzles writes them as strings); ``default`` when empty."""
        if value is None or (isinstance(value, str) and not value.strip()):
            return default
        text = str(value).strip()
        if not re.fullmatch(r"-?[0-9]{1,9}", text):
            raise self.error(f"expected a number in ASCII digits 0-9, found {text[:20]!r}")
        number = int(text)
        if number < low:
            raise self.error(f"expected a number of at least {low}, found {number}")
        return number

    def entries(self, value: Any, field: str) -> Iterator[tuple[Where, JsonObject]]:
        """Each entry (an object) of an f-puzzles field's list, with its place
        (``field 2``: the second) for errors."""
        if not isinstance(value, list) or not all(isinstance(e, dict) for e in value):
            raise self.error("expected a list of objects")
        for i, entry in enumerate(value, 1):
            yield self.at(f"{field} {i}"), entry

    def clues(self, value: Any, field: str) -> Iterator[tuple[Where, JsonObject, int]]:
        """Each entry of a field of numbered clues, with its place and its number;
        an entry with no number says nothing and is passed over."""
        for here, entry in self.entries(value, field):
            number = here.number(entry.get("value"))
            if number is not None:
                yield here, entry, number


def cell_list(cells: Sequence[int], size: int) -> str:
    """``r1c1-r1c3`` for a straight run, else the cells by name."""
    names = [cell_name(size, c) for c in cells]
    if len(cells) >= 2:
        rows, cols = {c // size for c in cells}, {c % size for c in cells}
        steps = {b - a for a, b in pairwise(cells)}
        if (len(rows) == 1 or len(cols) == 1) and len(steps) == 1 and steps <= {1, -1, size, -size}:
            return f"{names[0]}-{names[-1]}"
    return " ".join(names)


def text_cells(cells: Iterable[int], size: int) -> str:
    return " ".join(cell_name(size, c) for c in cells)


def read_text_cells(text: str, where: Where, least: int = 1) -> tuple[int, ...]:
    """Cells of a text line: ``r1c1 r1c2``, ``r1c1-r1c4`` (a straight run)."""
    found: list[int] = []
    for token in text.replace(",", " ").split():
        first, dash, last = token.partition("-")
        if not dash:
            found.append(where.cell(first))
            continue
        a, b = where.cell(first), where.cell(last)
        found += _run(a, b, where)
    if len(found) < least:
        raise where.error(f"expected at least {least} cell(s)")
    if len(set(found)) != len(found):
        raise where.error("a cell is listed twice")
    return tuple(found)


def _run(a: int, b: int, where: Where) -> list[int]:
    """The cells from ``a`` to ``b`` along a row, a column or a diagonal."""
    n = where.size
    (ra, ca), (rb, cb) = divmod(a, n), divmod(b, n)
    dr, dc = rb - ra, cb - ca
    if dr and dc and abs(dr) != abs(dc):
        raise where.error(f"{cell_name(n, a)}-{cell_name(n, b)} is no straight line")
    steps = max(abs(dr), abs(dc))
    sr, sc = (dr > 0) - (dr < 0), (dc > 0) - (dc < 0)
    return [(ra + i * sr) * n + ca + i * sc for i in range(steps + 1)]


def orthogonal(a: int, b: int, size: int) -> bool:
    (ra, ca), (rb, cb) = divmod(a, size), divmod(b, size)
    return abs(ra - rb) + abs(ca - cb) == 1


def touching(a: int, b: int, size: int) -> bool:
    """Side by side or corner to corner (a king's move apart)."""
    (ra, ca), (rb, cb) = divmod(a, size), divmod(b, size)
    return a != b and abs(ra - rb) <= 1 and abs(ca - cb) <= 1


def close_pairs(line: Sequence[int]) -> list[tuple[int, int]]:
    """The pairs of a line's cells at most two apart along it: those any three in a
    row along it hold (entropic and modular lines)."""
    return [(line[i], line[j]) for i in range(len(line)) for j in (i + 1, i + 2) if j < len(line)]


def joined(cells: Sequence[int], size: int) -> bool:
    """Whether ``cells`` are one piece, each reached from another by a king's move."""
    reached, todo = {cells[0]}, [cells[0]]
    while todo:
        here = todo.pop()
        for other in cells:
            if other not in reached and touching(here, other, size):
                reached.add(other)
                todo.append(other)
    return len(reached) == len(set(cells))


def stepped(cells: Sequence[int], where: Where) -> None:
    """A line's cells, each beside or corner to corner with the one before it (as
    every line is drawn); else an error naming the step."""
    for a, b in pairwise(cells):
        if not touching(a, b, where.size):
            x, y = cell_name(where.size, a), cell_name(where.size, b)
            raise where.error(f"{x} to {y} is no step of a line: each cell must touch the next")


def neighbours(cell: int, size: int, steps: Iterable[tuple[int, int]]) -> Iterable[int]:
    """The cells ``steps`` (row, column offsets) away from ``cell``, inside the grid."""
    r, c = divmod(cell, size)
    for dr, dc in steps:
        if 0 <= r + dr < size and 0 <= c + dc < size:
            yield (r + dr) * size + c + dc


ORTHOGONAL = ((-1, 0), (1, 0), (0, -1), (0, 1))


def adjacent_pairs(size: int) -> Iterable[tuple[int, int]]:
    """Every pair of orthogonally adjacent cells, once."""
    for cell in range(size * size):
        r, c = divmod(cell, size)
        if c + 1 < size:
            yield cell, cell + 1
        if r + 1 < size:
            yield cell, cell + size


def lines_of(value: Any, where: Where, least: int = 2) -> list[tuple[int, ...]]:
    """An f-puzzles ``lines`` list: each line a list of cells."""
    if not isinstance(value, list) or not value:
        raise where.error("expected lines: a list of lists of cells")
    return [where.cells(line, least) for line in value]


def fpuzzles_cells(cells: Iterable[int], size: int) -> list[str]:
    return [f"R{c // size + 1}C{c % size + 1}" for c in cells]


# --- the shapes most rules have ----------------------------------------------------
