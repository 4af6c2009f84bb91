"""Little killers: a clue outside the grid with an arrow gives the sum of the
digits along the diagonal it points at (digits may repeat there)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import TYPE_CHECKING, Any, ClassVar

from sudosat.core.puzzle import Layout, cell_name
from sudosat.rules.base import Rule, page_part, rule
from sudosat.rules.where import CELL, Where, fpuzzles_cells, read_text_cells
from sudosat.sat.arith import sum_equals
from sudosat.sat.builder import Builder

if TYPE_CHECKING:
    from sudosat.core.pen import Pen

DIRECTIONS = {"UR": (-1, 1), "UL": (-1, -1), "DR": (1, 1), "DL": (1, -1)}


@rule
@dataclass(frozen=True)
class LittleKiller(Rule):
    title: ClassVar[str] = "little killer"
    example: ClassVar[str] = "little-killer 20: r0c1 dr"
    technique: ClassVar[str] = "little killer sum"
    meaning: ClassVar[str] = (
        "The digits along the diagonal the clue's arrow points at, from the clue beside the grid "
        "to the far edge, add up to the clue; they may repeat. The direction is the arrow's: dr "
        "(down and right), dl, ur, ul, from the clue's own square outside the grid (row or column "
        "0 or N+1)."
    )
    takes: ClassVar[str] = "the sum"
    field: ClassVar[str] = "littlekillersum"
    words: ClassVar[tuple[str, ...]] = ("little-killer", "little")
    page = (page_part("little-killer", "Little killer", "outside", diagonal=True),)
    family: ClassVar[str] = "little killers: diagonal sums"
    outside: ClassVar[bool] = True

    diagonal: tuple[int, ...]
    value: int

    @classmethod
    def from_fpuzzles(cls, value: Any, where: Where) -> list[Rule]:
        found: list[Rule] = []
        for here, entry, number in where.clues(value, cls.field):
            if entry.get("cells"):
                cells = here.cells(entry["cells"])
            else:
                cells = walk(here.place(entry.get("cell")), str(entry.get("direction", "")), here)
            found.append(cls.made(cells, number, here))
        return found

    @classmethod
    def from_text(cls, word: str, value: str, cells: str, where: Where) -> list[Rule]:
        number = where.number(value)
        if number is None:
            raise where.error("a little killer needs its sum")
        parts = cells.split()
        if len(parts) == 2 and not CELL.fullmatch(parts[1]):  # r0c2 dr: a clue and its arrow
            diagonal = walk(where.place(parts[0]), parts[1], where)
        else:
            diagonal = read_text_cells(cells, where)
        return [cls.made(diagonal, number, where)]

    @classmethod
    def made(cls, cells: tuple[int, ...], value: int, where: Where) -> LittleKiller:
        n = where.size
        if not whole_diagonal(cells, n):
            raise where.error(
                "a little killer's cells are a whole diagonal, edge to edge: give its clue and "
                "direction (r0c3 dl) or every cell of the diagonal"
            )
        if not len(cells) <= value <= n * len(cells):
            digits = "one digit" if len(cells) == 1 else f"{len(cells)} digits"
            raise where.error(f"{digits} 1..{n} cannot add up to {value}")
        return cls(cells, value)

    def encode(self, b: Builder) -> None:
        sum_equals(b, self.diagonal, self.value)

    def broken(self, grid: Sequence[int], layout: Layout) -> str | None:
        found = sum(grid[c] for c in self.diagonal)
        return None if found == self.value else f"adds up to {found}"

    def cells(self) -> tuple[int, ...]:
        return self.diagonal

    def relation(self, size: int) -> str:
        return f"the diagonal sums to {self.value}"

    def describe(self, size: int) -> str:
        a, z = cell_name(size, self.diagonal[0]), cell_name(size, self.diagonal[-1])
        return f"little killer {self.value} {a} to {z}"

    def text(self, size: int) -> str:
        return f"little-killer {self.value}: " + " ".join(cell_name(size, c) for c in self.diagonal)

    def to_fpuzzles(self, size: int) -> tuple[str, Any]:
        first, second = divmod(self.diagonal[0], size)
        if len(self.diagonal) > 1:
            step = divmod(self.diagonal[1], size)
            dr, dc = step[0] - first, step[1] - second
        else:  # one corner cell: an arrow from outside the corner
            dr = 1 if first == 0 else -1
            dc = 1 if second == 0 else -1
        direction = next(k for k, v in DIRECTIONS.items() if v == (dr, dc))
        clue = f"R{first - dr + 1}C{second - dc + 1}"
        entry = {"cell": clue, "cells": fpuzzles_cells(self.diagonal, size)}
        return "littlekillersum", {**entry, "direction": direction, "value": str(self.value)}

    def draw(self, pen: Pen) -> None:
        pen.diagonal_clue(self.diagonal, str(self.value))


def whole_diagonal(cells: Sequence[int], size: int) -> bool:
    """Whether ``cells`` run along a diagonal, one step at a time in one direction,
    from the grid's edge to its edge (what a clue's arrow covers)."""
    places = [divmod(c, size) for c in cells]
    steps = {(b[0] - a[0], b[1] - a[1]) for a, b in pairwise(places)} or set(DIRECTIONS.values())
    (r0, c0), (r1, c1) = places[0], places[-1]

    def outside(r: int, c: int) -> bool:
        return not (0 <= r < size and 0 <= c < size)

    return len(steps) in (1, 4) and any(
        outside(r0 - dr, c0 - dc) and outside(r1 + dr, c1 + dc)
        for dr, dc in steps
        if (dr, dc) in DIRECTIONS.values()
    )


def walk(start: tuple[int, int], direction: str, where: Where) -> tuple[int, ...]:
    """The cells from an outside clue (row, column, 1-based) along its arrow."""
    step = DIRECTIONS.get(direction.strip().upper())
    if step is None:
        raise where.error(f"expected a direction dl, dr, ul or ur, found {direction[:10]!r}")
    n = where.size
    row, col = start[0] - 1 + step[0], start[1] - 1 + step[1]
    found = []
    while 0 <= row < n and 0 <= col < n:
        found.append(row * n + col)
        row, col = row + step[0], col + step[1]
    if not found:
        raise where.error(f"the arrow from R{start[0]}C{start[1]} misses the grid")
    return tuple(found)
