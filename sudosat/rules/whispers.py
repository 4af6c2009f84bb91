"""German whispers: neighbours along the line differ by at least 5 (or the
line's value)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import Any, ClassVar

from ..puzzle import Layout, cell_name
from .base import LineRule, rule


@rule
@dataclass(frozen=True)
class Whispers(LineRule):
    field: ClassVar[str] = "whispers"
    words: ClassVar[tuple[str, ...]] = ("whispers", "german-whispers")
    family: ClassVar[str] = "whispers: neighbours far apart"
    colour: ClassVar[str] = "#3cb043"
    default: ClassVar[int | None] = 5

    def gap(self) -> int:
        return self.value if self.value is not None else 5

    def encode(self, b: Any) -> None:
        d = self.gap()
        for x, y in pairwise(self.group):
            for a, c in ((x, y), (y, x)):
                for v in b.candidates(a):  # c <= v - d or c >= v + d
                    b.implies([b.lit(a, v)], [b.neg(b.ge(c, v - d + 1)), b.ge(c, v + d)])

    def broken(self, grid: Sequence[int], layout: Layout) -> str | None:
        for a, c in pairwise(self.group):
            if abs(grid[a] - grid[c]) < self.gap():
                n = layout.size
                return f"{cell_name(n, a)} holds {grid[a]}, {cell_name(n, c)} {grid[c]}"
        return None
