"""Zipper lines: digits the same distance from the line's middle add up to the
same number; on a line of odd length, to the digit in the middle."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from sudosat.core.puzzle import Layout
from sudosat.rules.base import page_part, rule
from sudosat.rules.kinds import LineRule
from sudosat.sat.arith import add, cell_int, equal
from sudosat.sat.builder import Builder


@rule
@dataclass(frozen=True)
class Zipper(LineRule):
    title: ClassVar[str] = "zipper line"
    example: ClassVar[str] = "zipper: r2c2 r2c3 r2c4 r2c5 r2c6"
    technique: ClassVar[str] = "zipper sums"
    meaning: ClassVar[str] = (
        "Digits the same distance from the line's middle add up to the same number; on a line of "
        "odd length, to the digit in the middle."
    )
    field: ClassVar[str] = "zipperline"
    words: ClassVar[tuple[str, ...]] = ("zipper", "zipper-line")
    family: ClassVar[str] = "zipper lines: equal sums about the middle"
    colour: ClassVar[str] = "#7b68ee"
    page = (page_part("zipper", "Zipper line", "line", colour=colour, width=0.22),)

    def pairs(self) -> list[tuple[int, int]]:
        line = self.group
        return [(line[i], line[-1 - i]) for i in range(len(line) // 2)]

    def encode(self, b: Builder) -> None:
        sums = [add(b, cell_int(b, x), cell_int(b, y)) for x, y in self.pairs()]
        middle = self.group[len(self.group) // 2]
        target = cell_int(b, middle) if len(self.group) % 2 else sums[0]
        for found in sums:
            equal(b, target, found)

    def broken(self, grid: Sequence[int], layout: Layout) -> str | None:
        sums = {grid[x] + grid[y] for x, y in self.pairs()}
        if len(self.group) % 2:
            sums.add(grid[self.group[len(self.group) // 2]])
        return None if len(sums) <= 1 else f"the pairs add up to {sorted(sums)}"
