"""Kropki dots: a white dot between two cells, their digits differ by the dot's
value (1 unless it says); a black dot, one is the other times its value (2)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from sudosat.core.puzzle import Layout
from sudosat.rules.base import page_part, rule
from sudosat.rules.kinds import GroupRule, PairRule
from sudosat.rules.where import Where
from sudosat.sat.builder import Builder

if TYPE_CHECKING:
    from sudosat.core.pen import Pen


@rule
@dataclass(frozen=True)
class Difference(PairRule):
    title: ClassVar[str] = "kropki white dot"
    example: ClassVar[str] = "difference: r4c4 r5c4"
    technique: ClassVar[str] = "kropki neighbours"
    meaning: ClassVar[str] = (
        "The digits either side of the dot differ by its value (1 unless it says). Touching dots "
        "each hold on their own: a chain of dots is a chain of pairs."
    )
    takes: ClassVar[str] = "the difference (default 1)"
    field: ClassVar[str] = "difference"
    named: ClassVar[str] = "white dot"
    words: ClassVar[tuple[str, ...]] = ("difference", "white", "kropki-white")
    fill: ClassVar[str] = "#ffffff"
    page = (page_part("difference", "White kropki dot", "edge", fill=fill),)
    family: ClassVar[str] = "kropki white dots: difference"
    default: ClassVar[int | None] = 1
    valued: ClassVar[bool] = True

    @classmethod
    def made(cls, cells: tuple[int, ...], value: int | None, where: Where) -> GroupRule:
        n = where.size
        if value is not None and not 1 <= value <= n - 1:
            raise where.error(f"a white dot of {value}: digits 1..{n} differ by 1 to {n - 1}")
        return super().made(cells, value, where)

    def gap(self) -> int:
        return self.value if self.value is not None else 1

    def relation(self, size: int) -> str:
        return f"the digits differ by {self.gap()}"

    def encode(self, b: Builder) -> None:
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
        pen.dot(self.group, self.fill, self.shown_value(pen.size).strip())


@rule
@dataclass(frozen=True)
class Ratio(PairRule):
    title: ClassVar[str] = "kropki black dot"
    example: ClassVar[str] = "ratio: r4c4 r4c5"
    technique: ClassVar[str] = "kropki neighbours"
    meaning: ClassVar[str] = (
        "One digit either side of the dot is the other times its value (2 unless it says). "
        "Touching dots each hold on their own."
    )
    takes: ClassVar[str] = "the ratio (default 2)"
    field: ClassVar[str] = "ratio"
    named: ClassVar[str] = "black dot"
    words: ClassVar[tuple[str, ...]] = ("ratio", "black", "kropki-black")
    fill: ClassVar[str] = "#000000"
    page = (page_part("ratio", "Black kropki dot", "edge", fill=fill),)
    family: ClassVar[str] = "kropki black dots: ratio"
    default: ClassVar[int | None] = 2
    valued: ClassVar[bool] = True

    @classmethod
    def made(cls, cells: tuple[int, ...], value: int | None, where: Where) -> GroupRule:
        n = where.size
        if value is not None and not 2 <= value <= n:
            raise where.error(f"a black dot of {value}: digits 1..{n} are in ratios 2 to {n}")
        return super().made(cells, value, where)

    def factor(self) -> int:
        return self.value if self.value is not None else 2

    def relation(self, size: int) -> str:
        times = "twice" if self.factor() == 2 else f"{self.factor()} times"
        return f"one digit is {times} the other"

    def encode(self, b: Builder) -> None:
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
        pen.dot(self.group, self.fill, self.shown_value(pen.size).strip())
