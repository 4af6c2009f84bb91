"""Double arrows: the digits in the circles at the line's two ends add up to the
digits between them on the line (which may repeat where no unit forbids it)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from sudosat.core.puzzle import Layout
from sudosat.rules.base import rule
from sudosat.rules.kinds import LineRule
from sudosat.sat.arith import cell_int, equal, total
from sudosat.sat.builder import Builder

if TYPE_CHECKING:
    from sudosat.core.pen import Pen


@rule
@dataclass(frozen=True)
class DoubleArrow(LineRule):
    title: ClassVar[str] = "double arrow"
    example: ClassVar[str] = "double-arrow: r3c2 r3c3 r3c4"
    technique: ClassVar[str] = "double arrow sums"
    meaning: ClassVar[str] = (
        "The digits in the circles at the line's two ends add up to the digits between them; those"
        " may repeat where no unit forbids it."
    )
    field: ClassVar[str] = "doublearrow"
    words: ClassVar[tuple[str, ...]] = ("double-arrow",)
    family: ClassVar[str] = "double arrows: the ends add up to the middle"
    colour: ClassVar[str] = "#808080"
    least: ClassVar[int] = 3

    def encode(self, b: Builder) -> None:
        ends = total(b, [cell_int(b, self.group[0]), cell_int(b, self.group[-1])])
        equal(b, ends, total(b, [cell_int(b, c) for c in self.group[1:-1]]))

    def broken(self, grid: Sequence[int], layout: Layout) -> str | None:
        ends = grid[self.group[0]] + grid[self.group[-1]]
        middle = sum(grid[c] for c in self.group[1:-1])
        return None if ends == middle else f"the ends add up to {ends}, the line to {middle}"

    def draw(self, pen: Pen) -> None:
        pen.line(self.group, self.colour, 0.05)
        for end in (self.group[0], self.group[-1]):
            pen.circle(end, 0.38, "#ffffff", self.colour)
