"""Lockout lines: the digits in the diamonds at the two ends differ by at least
N/2 rounded down (4 on a 9x9, or the line's value), and every digit between them
on the line lies outside the range they span: below both ends or above both."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from sudosat.core.puzzle import Layout, cell_name
from sudosat.rules.base import rule
from sudosat.rules.kinds import SpacedLine
from sudosat.sat.arith import apart, cell_int, less
from sudosat.sat.builder import Builder

if TYPE_CHECKING:
    from sudosat.core.pen import Pen


@rule
@dataclass(frozen=True)
class Lockout(SpacedLine):
    title: ClassVar[str] = "lockout line"
    example: ClassVar[str] = "lockout: r2c2 r3c3 r4c4 r5c5"
    technique: ClassVar[str] = "lockout ends"
    meaning: ClassVar[str] = (
        "The digits in the diamonds at the two ends differ by at least N/2 rounded down (4 on a "
        "9x9, or the line's value); every digit between them on the line lies below both ends or "
        "above both."
    )
    takes: ClassVar[str] = "the least difference of the ends (default N/2 rounded down)"
    field: ClassVar[str] = "lockout"
    words: ClassVar[tuple[str, ...]] = ("lockout", "lockout-line")
    family: ClassVar[str] = "lockout lines: ends far apart, the rest outside them"
    colour: ClassVar[str] = "#7f3fbf"

    @classmethod
    def default_for(cls, size: int) -> int | None:
        return size // 2

    def encode(self, b: Builder) -> None:
        first, last = self.group[0], self.group[-1]
        apart(b, first, last, self.gap(b.size))
        ends = [cell_int(b, first), cell_int(b, last)]
        for cell in self.group[1:-1]:
            here, below = cell_int(b, cell), b.new()  # below both ends, or above both
            for end in ends:
                less(b, here, end, when=[below])
                less(b, end, here, when=[-below])

    def broken(self, grid: Sequence[int], layout: Layout) -> str | None:
        n = layout.size
        low, high = sorted((grid[self.group[0]], grid[self.group[-1]]))
        if high - low < self.gap(n):
            return f"its ends hold {low} and {high}, closer than {self.gap(n)}"
        for cell in self.group[1:-1]:
            if low <= grid[cell] <= high:
                return f"{cell_name(n, cell)} holds {grid[cell]}, within {low}..{high}"
        return None

    def draw(self, pen: Pen) -> None:
        pen.line(self.group, self.colour, 0.08)
        for end in (self.group[0], self.group[-1]):
            pen.diamond(end, 0.42, "#ffffff", self.colour)
