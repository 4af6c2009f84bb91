"""X-sums: a clue beside a row or column gives the sum of its first X digits,
seen from the clue, where X is the first of them."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import ClassVar

from sudosat.core.puzzle import Layout
from sudosat.rules.base import page_part, rule
from sudosat.rules.kinds import OutsideRule
from sudosat.sat.arith import distinct_sum, masked_sum, subset_sums
from sudosat.sat.builder import Builder

SETS_UP_TO = 16
"""Up to 16x16 an X-sum is written per value of its first digit (the digit sets
of what follows); beyond, as one running sum over its cells, each counted while
the first digit is more than its place."""


@rule
@dataclass(frozen=True)
class XSum(OutsideRule):
    title: ClassVar[str] = "X-sum"
    example: ClassVar[str] = "x-sum 15: r0c4"
    technique: ClassVar[str] = "X-sum"
    meaning: ClassVar[str] = (
        "The first X digits of the row or column, seen from the clue, add up to it, where X is the"
        " first of them (the first counts itself)."
    )
    takes: ClassVar[str] = "the sum"
    field: ClassVar[str] = "xsum"
    words: ClassVar[tuple[str, ...]] = ("x-sum", "xsum")
    page = (page_part("x-sum", "X-sum", "outside"),)
    family: ClassVar[str] = "x-sums"

    @classmethod
    def possible(cls, size: int) -> frozenset[int]:
        return x_sums(size)

    def clause_estimate(self, size: int) -> int:
        if size > SETS_UP_TO:
            return 2 * size * size * (self.value + 2)
        return size**4

    def encode(self, b: Builder) -> None:
        line = self.line(b.size)
        first = line[0]
        if b.size > SETS_UP_TO:  # the first X count: "the first digit is more than i"
            masked_sum(b, line, [b.ge(first, i + 1) for i in range(len(line))], self.value)
            return
        for count in b.candidates(first):
            here = b.lit(first, count)
            if count == 1:
                b.implies([here], [True] if self.value == 1 else [])
            else:  # the first holds count, so the other count - 1 add up to the rest
                distinct_sum(b, line[1:count], self.value - count, [here])

    def broken(self, grid: Sequence[int], layout: Layout) -> str | None:
        digits = [grid[c] for c in self.line(layout.size)]
        found = sum(digits[: digits[0]])
        return None if found == self.value else f"the first {digits[0]} add up to {found}"


@cache
def x_sums(size: int) -> frozenset[int]:
    """The clues a line of digits 1..size can give: its first digit X, and X - 1
    other digits after it."""
    digits = range(1, size + 1)
    found: set[int] = set()
    for first in digits:
        others = tuple(d for d in digits if d != first)
        found |= {first + s for s in subset_sums(others, first - 1)}
    return frozenset(found)
