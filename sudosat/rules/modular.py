"""Modular lines: any three cells in a row along the line hold digits of three
different remainders on division by 3 (one of 1 4 7, one of 2 5 8, one of 3 6 9
on a 9x9); so do any two cells at most two apart on it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from sudosat.core.puzzle import Layout, cell_name
from sudosat.rules.base import page_part, rule
from sudosat.rules.kinds import LineRule
from sudosat.rules.where import close_pairs
from sudosat.sat.builder import Builder


@rule
@dataclass(frozen=True)
class Modular(LineRule):
    title: ClassVar[str] = "modular line"
    example: ClassVar[str] = "modular: r6c2 r6c3 r6c4 r6c5"
    technique: ClassVar[str] = "modular remainders"
    meaning: ClassVar[str] = (
        "Any three cells in a row along the line hold digits of three different remainders on "
        "division by 3 (one of 1 4 7, one of 2 5 8, one of 3 6 9). A line of two cells has no "
        "three in a row and is refused."
    )
    field: ClassVar[str] = "modularline"
    words: ClassVar[tuple[str, ...]] = ("modular", "modular-line")
    family: ClassVar[str] = "modular lines: three remainders in every three"
    colour: ClassVar[str] = "#1ba39c"
    page = (page_part("modular", "Modular line", "line", colour=colour, width=0.22, least=3),)
    least: ClassVar[int] = 3  # it speaks of three cells in a row: two say nothing

    def encode(self, b: Builder) -> None:
        for a, c in close_pairs(self.group):
            for v in b.candidates(a):
                for w in b.candidates(c):
                    if v % 3 == w % 3:
                        b.implies([b.lit(a, v), b.lit(c, w)], [])

    def broken(self, grid: Sequence[int], layout: Layout) -> str | None:
        for a, c in close_pairs(self.group):
            if grid[a] % 3 == grid[c] % 3:
                n = layout.size
                return f"{cell_name(n, a)} and {cell_name(n, c)} hold {grid[a]} and {grid[c]}"
        return None
