"""Whispers: neighbours along the line differ by at least the line's value.
German whispers by at least N/2 rounded up (5 on a 9x9), Dutch whispers by at
least N/2 rounded down (4 on a 9x9); a number after the word sets another."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import ClassVar

from sudosat.core.puzzle import Layout, cell_name
from sudosat.rules.base import Rule, page_part, rule
from sudosat.rules.kinds import SpacedLine
from sudosat.rules.where import Where, read_text_cells
from sudosat.sat.arith import apart
from sudosat.sat.builder import Builder


@rule
@dataclass(frozen=True)
class Whispers(SpacedLine):
    title: ClassVar[str] = "whispers line"
    example: ClassVar[str] = "whispers: r8c2 r8c3 r8c4 r8c5"
    technique: ClassVar[str] = "whispers neighbours"
    meaning: ClassVar[str] = (
        "Neighbours along the line differ by at least the line's value: German whispers by N/2 "
        "rounded up (5 on a 9x9), Dutch whispers by N/2 rounded down (4). Digits may repeat where "
        "no unit forbids it."
    )
    takes: ClassVar[str] = "the least difference (default: German)"
    field: ClassVar[str] = "whispers"
    words: ClassVar[tuple[str, ...]] = ("whispers", "german-whispers", "dutch-whispers")
    family: ClassVar[str] = "whispers: neighbours far apart"
    colour: ClassVar[str] = "#3cb043"
    page = (page_part("whispers", "German whispers", "line", colour=colour, width=0.22),)

    def relation(self, size: int) -> str:
        return f"neighbours on the line differ by at least {self.gap(size)}"

    @classmethod
    def default_for(cls, size: int) -> int | None:
        return (size + 1) // 2

    @classmethod
    def from_text(cls, word: str, value: str, cells: str, where: Where) -> list[Rule]:
        number = where.number(value)
        if number is None and word.startswith("dutch"):
            number = where.size // 2
        return [cls.drawn_so_far(read_text_cells(cells, where, 1), number, where)]

    def encode(self, b: Builder) -> None:
        d = self.gap(b.size)
        for x, y in pairwise(self.group):
            apart(b, x, y, d)

    def broken(self, grid: Sequence[int], layout: Layout) -> str | None:
        for a, c in pairwise(self.group):
            if abs(grid[a] - grid[c]) < self.gap(layout.size):
                n = layout.size
                return f"{cell_name(n, a)} holds {grid[a]}, {cell_name(n, c)} {grid[c]}"
        return None
