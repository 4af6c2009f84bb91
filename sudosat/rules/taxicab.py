"""Anti-taxicab: a digit d is never d cells away from another d, counting the
steps along rows and columns (the taxicab distance). f-puzzles has no field for it."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import ClassVar

from sudosat.core.puzzle import Layout, cell_name
from sudosat.rules.base import rule
from sudosat.rules.kinds import FlagRule
from sudosat.sat.builder import Builder


@rule
@dataclass(frozen=True)
class AntiTaxicab(FlagRule):
    title: ClassVar[str] = "anti-taxicab"
    example: ClassVar[str] = "anti-taxicab"
    technique: ClassVar[str] = "taxicab distance"
    meaning: ClassVar[str] = (
        "A digit d is never exactly d steps from another d, counting steps along rows and columns "
        "(the taxicab distance)."
    )
    field: ClassVar[str] = ""
    words: ClassVar[tuple[str, ...]] = ("anti-taxicab", "antitaxicab")
    family: ClassVar[str] = "anti-taxicab: a digit d never d steps from another d"

    def pairs(self, layout: Layout, digit: int) -> Iterable[tuple[int, int]]:
        """The pairs of cells ``digit`` steps apart that no unit already keeps apart."""
        n = layout.size
        rows, cols, regions = layout.unit_index
        for cell in range(n * n):
            r, c = divmod(cell, n)
            for dr in range(0, digit + 1):  # forward only: each pair once
                dc = digit - dr
                for col in {c + dc, c - dc} if dr else {c + dc}:
                    row = r + dr
                    if 0 <= row < n and 0 <= col < n:
                        other = row * n + col
                        units = (rows, cols, regions)
                        if all(unit[cell] != unit[other] for unit in units):
                            yield cell, other

    def encode(self, b: Builder) -> None:
        layout = b.cnf.puzzle.layout
        for digit in range(1, b.size + 1):
            for a, c in self.pairs(layout, digit):
                b.implies([b.lit(a, digit), b.lit(c, digit)], [])

    def broken(self, grid: Sequence[int], layout: Layout) -> str | None:
        for digit in range(1, layout.size + 1):
            for a, c in self.pairs(layout, digit):
                if grid[a] == digit == grid[c]:
                    n = layout.size
                    return f"{cell_name(n, a)} and {cell_name(n, c)} both hold {digit}"
        return None
