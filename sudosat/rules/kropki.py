"""Kropki dots: a white dot between two cells, their digits differ by the dot's
value (1 unless it says); a black dot, one is the other times its value (2)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from ..puzzle import Layout
from .base import PairRule, rule

if TYPE_CHECKING:
    from ..draw import Pen


@rule
@dataclass(frozen=True)
class Difference(PairRule):
    field: ClassVar[str] = "difference"
    words: ClassVar[tuple[str, ...]] = ("difference", "white", "kropki-white")
    family: ClassVar[str] = "kropki white dots: difference"
    default: ClassVar[int | None] = 1

    def gap(self) -> int:
        return self.value if self.value is not None else 1

    def encode(self, b: Any) -> None:
        a, c = self.group
        k = self.gap()
        for x, y in ((a, c), (c, a)):
            for v in b.candidates(x):
                b.implies([b.lit(x, v)], [b.lit(y, v - k), b.lit(y, v + k)])

    def broken(self, grid: Sequence[int], layout: Layout) -> str | None:
        a, c = self.group
        if abs(grid[a] - grid[c]) != self.gap():
            return f"{grid[a]} and {grid[c]} do not differ by {self.gap()}"
        return None

    def draw(self, pen: Pen) -> None:
        pen.dot(self.group, "#ffffff", self.shown_value().strip())


@rule
@dataclass(frozen=True)
class Ratio(PairRule):
    field: ClassVar[str] = "ratio"
    words: ClassVar[tuple[str, ...]] = ("ratio", "black", "kropki-black")
    family: ClassVar[str] = "kropki black dots: ratio"
    default: ClassVar[int | None] = 2

    def factor(self) -> int:
        return self.value if self.value is not None else 2

    def encode(self, b: Any) -> None:
        a, c = self.group
        k = self.factor()
        for x, y in ((a, c), (c, a)):
            for v in b.candidates(x):
                halves = [b.lit(y, v // k)] if v % k == 0 else []
                b.implies([b.lit(x, v)], [b.lit(y, v * k), *halves])

    def broken(self, grid: Sequence[int], layout: Layout) -> str | None:
        a, c = self.group
        k = self.factor()
        if grid[a] != k * grid[c] and grid[c] != k * grid[a]:
            return f"{grid[a]} and {grid[c]} are not in the ratio 1:{k}"
        return None

    def draw(self, pen: Pen) -> None:
        pen.dot(self.group, "#000000", self.shown_value().strip())
