"""Arrows: the digits along an arrow add up to the number in its circle; a
circle of two or three cells (a pill) reads as a number, in reading order."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from ..arith import Int, cell_int, equal, scaled, total
from ..builder import Builder
from ..puzzle import Layout, cell_name
from .base import Rule, Where, fpuzzles_cells, lines_of, read_text_cells, rule

if TYPE_CHECKING:
    from ..draw import Pen


@rule
@dataclass(frozen=True)
class Arrow(Rule):
    field: ClassVar[str] = "arrow"
    words: ClassVar[tuple[str, ...]] = ("arrow",)
    family: ClassVar[str] = "arrows: circle = sum of the line"

    circle: tuple[int, ...]
    line: tuple[int, ...]

    @classmethod
    def from_fpuzzles(cls, value: Any, where: Where) -> list[Rule]:
        found: list[Rule] = []
        for here, entry in where.entries(value, cls.field):
            circle = tuple(sorted(here.cells(entry.get("cells"))))
            for line in lines_of(entry.get("lines"), here, 1):
                body = tuple(c for c in line if c not in circle)
                found.append(cls.made(circle, body, here))
        return found

    @classmethod
    def from_text(cls, word: str, value: str, cells: str, where: Where) -> list[Rule]:
        circle, arrow, body = cells.partition(">")
        if not arrow:
            raise where.error("arrow: the circle's cells, >, then the line (r5c5 > r5c6 r5c7)")
        found = tuple(sorted(read_text_cells(circle, where)))
        return [cls.made(found, read_text_cells(body, where), where)]

    @classmethod
    def made(cls, circle: tuple[int, ...], line: tuple[int, ...], where: Where) -> Arrow:
        if not 1 <= len(circle) <= 3:
            raise where.error(f"a circle of {len(circle)} cells: expected 1 to 3")
        if not line:
            raise where.error("an arrow with no cells beyond its circle")
        return cls(circle, line)

    def number(self, b: Builder) -> Int:
        """The circle's number: one digit, or a pill's digits in reading order."""
        places = len(self.circle)
        digits = [scaled(cell_int(b, c), 10 ** (places - 1 - i)) for i, c in enumerate(self.circle)]
        return total(b, digits)

    def encode(self, b: Any) -> None:
        equal(b, self.number(b), total(b, [cell_int(b, c) for c in self.line]))

    def broken(self, grid: Sequence[int], layout: Layout) -> str | None:
        number = int("".join(str(grid[c]) for c in self.circle))
        found = sum(grid[c] for c in self.line)
        return None if found == number else f"the line adds up to {found}, the circle is {number}"

    def cells(self) -> tuple[int, ...]:
        return self.circle + self.line

    def describe(self, size: int) -> str:
        head = "-".join(cell_name(size, c) for c in self.circle)
        return f"arrow {head}>{cell_name(size, self.line[-1])}"

    def text(self, size: int) -> str:
        circle = " ".join(cell_name(size, c) for c in self.circle)
        return f"arrow: {circle} > {' '.join(cell_name(size, c) for c in self.line)}"

    def to_fpuzzles(self, size: int) -> tuple[str, Any]:
        line = fpuzzles_cells(self.circle[-1:] + self.line, size)
        return "arrow", {"cells": fpuzzles_cells(self.circle, size), "lines": [line]}

    def draw(self, pen: Pen) -> None:
        pen.arrow(self.circle, self.line, "#808080")
