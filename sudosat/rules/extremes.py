"""Minimum and maximum cells: smaller (greater) than every orthogonal neighbour."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from ..arith import cell_int, less
from ..puzzle import Layout, cell_name
from .base import ORTHOGONAL, CellRule, neighbours, rule

if TYPE_CHECKING:
    from ..draw import Pen


@dataclass(frozen=True)
class Extreme(CellRule):
    family: ClassVar[str] = "minimum and maximum cells"
    smaller: ClassVar[bool] = True

    def encode(self, b: Any) -> None:
        me = cell_int(b, self.cell)
        for other in neighbours(self.cell, b.size, ORTHOGONAL):
            them = cell_int(b, other)
            less(b, me, them) if self.smaller else less(b, them, me)

    def broken(self, grid: Sequence[int], layout: Layout) -> str | None:
        me = grid[self.cell]
        for other in neighbours(self.cell, layout.size, ORTHOGONAL):
            if (me >= grid[other]) if self.smaller else (me <= grid[other]):
                return f"{cell_name(layout.size, other)} holds {grid[other]}"
        return None

    def draw(self, pen: Pen) -> None:
        pen.note(self.cell, self.words[0][:3])


@rule
@dataclass(frozen=True)
class Minimum(Extreme):
    field: ClassVar[str] = "minimum"
    words: ClassVar[tuple[str, ...]] = ("minimum", "min")


@rule
@dataclass(frozen=True)
class Maximum(Extreme):
    field: ClassVar[str] = "maximum"
    words: ClassVar[tuple[str, ...]] = ("maximum", "max")
    smaller: ClassVar[bool] = False
