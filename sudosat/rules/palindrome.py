"""Palindromes: the line reads the same from either end."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from sudosat.core.puzzle import Layout, cell_name
from sudosat.rules.base import page_part, rule
from sudosat.rules.kinds import LineRule
from sudosat.sat.builder import Builder


@rule
@dataclass(frozen=True)
class Palindrome(LineRule):
    title: ClassVar[str] = "palindrome"
    example: ClassVar[str] = "palindrome: r2c2 r3c3 r4c4 r5c5 r6c6"
    technique: ClassVar[str] = "palindrome mirror"
    meaning: ClassVar[str] = (
        "The line reads the same from either end; its digits may repeat where no unit forbids it."
    )
    field: ClassVar[str] = "palindrome"
    words: ClassVar[tuple[str, ...]] = ("palindrome",)
    family: ClassVar[str] = "palindromes: the same from either end"
    colour: ClassVar[str] = "#a0522d"
    """Not f-puzzles' grey: grey without a bulb reads as a thermometer on paper."""
    page = (page_part("palindrome", "Palindrome", "line", colour=colour, width=0.22),)

    def relation(self, size: int) -> str:
        return "the line reads the same from either end"

    def relabels(self) -> bool:  # digits renamed: still the same from either end
        return True

    def mirrored(self) -> list[tuple[int, int]]:
        line = self.group
        return [(line[i], line[-1 - i]) for i in range(len(line) // 2)]

    def encode(self, b: Builder) -> None:
        for a, c in self.mirrored():
            for v in range(1, b.size + 1):
                b.implies([b.lit(a, v)], [b.lit(c, v)])
                b.implies([b.lit(c, v)], [b.lit(a, v)])

    def broken(self, grid: Sequence[int], layout: Layout) -> str | None:
        for a, c in self.mirrored():
            if grid[a] != grid[c]:
                n = layout.size
                return f"{cell_name(n, a)} holds {grid[a]}, {cell_name(n, c)} {grid[c]}"
        return None
