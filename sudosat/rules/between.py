"""Between lines: the digits on the line lie strictly between those in the
circles at its two ends."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from sudosat.core.puzzle import Layout, cell_name
from sudosat.rules.base import page_part, rule
from sudosat.rules.kinds import LineRule
from sudosat.sat.arith import cell_int, less
from sudosat.sat.builder import Builder

if TYPE_CHECKING:
    from sudosat.core.pen import Pen


@rule
@dataclass(frozen=True)
class Between(LineRule):
    title: ClassVar[str] = "between line"
    example: ClassVar[str] = "between: r2c2 r2c3 r2c4 r2c5 r2c6"
    technique: ClassVar[str] = "between bounds"
    meaning: ClassVar[str] = (
        "The digits on the line lie strictly between those in its two end circles (either end may "
        "hold the smaller)."
    )
    field: ClassVar[str] = "betweenline"
    words: ClassVar[tuple[str, ...]] = ("between", "between-line")
    colour: ClassVar[str] = "#a0a0a0"
    page = (
        page_part("between", "Between line", "line", colour=colour, width=0.1, least=3, ends=True),
    )
    family: ClassVar[str] = "between lines"

    def encode(self, b: Builder) -> None:
        first, last = cell_int(b, self.group[0]), cell_int(b, self.group[-1])
        rising = b.new()  # the first circle holds the smaller digit
        for cell in self.group[1:-1]:
            middle = cell_int(b, cell)
            less(b, first, middle, when=[rising])
            less(b, middle, last, when=[rising])
            less(b, last, middle, when=[-rising])
            less(b, middle, first, when=[-rising])

    def broken(self, grid: Sequence[int], layout: Layout) -> str | None:
        low, high = sorted((grid[self.group[0]], grid[self.group[-1]]))
        for cell in self.group[1:-1]:
            if not low < grid[cell] < high:
                where = cell_name(layout.size, cell)
                return f"{where} holds {grid[cell]}, not between {low} and {high}"
        return None

    def draw(self, pen: Pen) -> None:
        pen.line(self.group, self.colour, 0.08)
        for end in (self.group[0], self.group[-1]):
            pen.circle(end, 0.38, "#ffffff", self.colour)
