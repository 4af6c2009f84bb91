"""Odd and even cells: a circle (square) marks a cell that holds an odd (even) digit."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from sudosat.core.masks import from_values
from sudosat.core.puzzle import Layout
from sudosat.rules.base import page_part, rule
from sudosat.rules.kinds import CellRule
from sudosat.sat.builder import Builder

if TYPE_CHECKING:
    from sudosat.core.pen import Pen


@dataclass(frozen=True)
class Parity(CellRule):
    family: ClassVar[str] = "odd and even cells"
    cell_key: ClassVar[str] = "parity"
    """Older f-puzzles saves keep an odd or even cell in the grid: ``"parity": "Even"``."""
    remainder: ClassVar[int] = 1
    fill: ClassVar[str] = "#d0d0d0"
    """Its shading, in pictures and on the page."""

    def allowed(self, size: int) -> dict[int, int]:
        mask = from_values(v for v in range(1, size + 1) if v % 2 == self.remainder)
        return {self.cell: mask}

    def encode(self, b: Builder) -> None:
        for v in b.candidates(self.cell):
            if v % 2 != self.remainder:
                b.clause([b.neg(b.lit(self.cell, v))])

    def broken(self, grid: Sequence[int], layout: Layout) -> str | None:
        return None if grid[self.cell] % 2 == self.remainder else f"holds {grid[self.cell]}"


@rule
@dataclass(frozen=True)
class Odd(Parity):
    title: ClassVar[str] = "odd cell"
    example: ClassVar[str] = "odd: r2c2 r4c4"
    technique: ClassVar[str] = "odd or even cell"
    meaning: ClassVar[str] = "The cell holds an odd digit."
    field: ClassVar[str] = "odd"
    words: ClassVar[tuple[str, ...]] = ("odd",)
    page = (page_part("odd", "Odd", "mark", mark="circle", fill=Parity.fill),)

    def draw(self, pen: Pen) -> None:
        pen.circle(self.cell, 0.36, self.fill)


@rule
@dataclass(frozen=True)
class Even(Parity):
    title: ClassVar[str] = "even cell"
    example: ClassVar[str] = "even: r2c2 r4c4"
    technique: ClassVar[str] = "odd or even cell"
    meaning: ClassVar[str] = "The cell holds an even digit."
    field: ClassVar[str] = "even"
    words: ClassVar[tuple[str, ...]] = ("even",)
    page = (page_part("even", "Even", "mark", mark="square", fill=Parity.fill),)
    remainder: ClassVar[int] = 0

    def draw(self, pen: Pen) -> None:
        pen.square(self.cell, 0.7, self.fill)
