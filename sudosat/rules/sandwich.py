"""Sandwich sums: a clue beside a row or column gives the sum of the digits
between its 1 and its N (9 on a 9x9), whichever comes first."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from ..arith import distinct_sum, subset_sums
from ..puzzle import Layout
from .base import OutsideRule, rule


@rule
@dataclass(frozen=True)
class Sandwich(OutsideRule):
    title: ClassVar[str] = "sandwich sum"
    meaning: ClassVar[str] = (
        "The digits between the 1 and the N (9 on a 9x9) of the row or column, whichever comes "
        "first, add up to the clue; 0 means the 1 and the N touch."
    )
    takes: ClassVar[str] = "the sum (0 to 35 on a 9x9)"
    field: ClassVar[str] = "sandwichsum"
    words: ClassVar[tuple[str, ...]] = ("sandwich",)
    family: ClassVar[str] = "sandwich sums"

    @classmethod
    def possible(cls, size: int) -> frozenset[int]:
        return subset_sums(tuple(range(2, size)))

    def encode(self, b: Any) -> None:
        line, n = self.line(b.size), b.size
        for i, low in enumerate(line):
            for j, high in enumerate(line):
                if i == j:
                    continue
                filling = line[min(i, j) + 1 : max(i, j)]
                crusts = [b.lit(low, 1), b.lit(high, n)]
                if not filling:
                    b.implies(crusts, [] if self.value else [True])
                    continue
                distinct_sum(b, filling, self.value, crusts, range(2, n))

    def broken(self, grid: Sequence[int], layout: Layout) -> str | None:
        digits = [grid[c] for c in self.line(layout.size)]
        if 1 not in digits or layout.size not in digits:
            return f"the line lacks its 1 or its {layout.size}"
        i, j = sorted((digits.index(1), digits.index(layout.size)))
        found = sum(digits[i + 1 : j])
        return None if found == self.value else f"the filling adds up to {found}"
