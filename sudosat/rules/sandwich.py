"""Sandwich sums: a clue beside a row or column gives the sum of the digits
between its 1 and its N (9 on a 9x9), whichever comes first."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from sudosat.core.puzzle import Layout
from sudosat.rules.base import page_part, rule
from sudosat.rules.kinds import OutsideRule
from sudosat.sat.arith import distinct_sum, masked_sum, subset_sums
from sudosat.sat.builder import Builder, Lit

PAIRS_UP_TO = 16
"""Up to 16x16 a sandwich is written per place of its 1 and its N (the digit
sets of each filling: strong, N^2 of them); beyond, as one running sum over
"between the crusts" literals, which grows as N^2 x the clue, not N^4."""


@rule
@dataclass(frozen=True)
class Sandwich(OutsideRule):
    title: ClassVar[str] = "sandwich sum"
    example: ClassVar[str] = "sandwich 0: r0c3"
    technique: ClassVar[str] = "sandwich sum"
    meaning: ClassVar[str] = (
        "The digits between the 1 and the N (9 on a 9x9) of the row or column, whichever comes "
        "first, add up to the clue; 0 means the 1 and the N touch."
    )
    takes: ClassVar[str] = "the sum (0 to 35 on a 9x9)"
    field: ClassVar[str] = "sandwichsum"
    words: ClassVar[tuple[str, ...]] = ("sandwich",)
    page = (page_part("sandwich", "Sandwich", "outside"),)
    family: ClassVar[str] = "sandwich sums"

    @classmethod
    def possible(cls, size: int) -> frozenset[int]:
        return subset_sums(tuple(range(2, size)))

    def clause_estimate(self, size: int) -> int:
        if size > PAIRS_UP_TO:  # the running sum: (clue x N) a cell
            return 2 * size * size * (self.value + 2)
        return size**4  # a filling's digit sets per place of the crusts

    def encode(self, b: Builder) -> None:
        line, n = self.line(b.size), b.size
        if n > PAIRS_UP_TO:
            masked_sum(b, line, between_crusts(b, line), self.value)
            return
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

    def relation(self, size: int) -> str:
        return f"the digits between the 1 and the {size} sum to {self.value}"

    def broken(self, grid: Sequence[int], layout: Layout) -> str | None:
        digits = [grid[c] for c in self.line(layout.size)]
        if 1 not in digits or layout.size not in digits:
            return f"the line lacks its 1 or its {layout.size}"
        i, j = sorted((digits.index(1), digits.index(layout.size)))
        found = sum(digits[i + 1 : j])
        return None if found == self.value else f"the filling adds up to {found}"


def between_crusts(b: Builder, line: Sequence[int]) -> list[Lit]:
    """For each cell of a row or column, the literal "it lies between the 1 and the
    N": one of them is before it, not both, and it is neither."""
    n = b.size
    found: list[Lit] = []
    one: Lit = False  # a crust before this cell
    two: Lit = False  # both crusts before it
    for cell in line:
        crust = b.new()  # this cell holds 1 or N
        b.implies([crust], [b.lit(cell, 1), b.lit(cell, n)])
        b.implies([b.lit(cell, 1)], [crust])
        b.implies([b.lit(cell, n)], [crust])
        inside = b.new()
        b.implies([inside], [one])
        b.implies([inside, two], [])
        b.implies([inside, crust], [])
        b.implies([one], [two, crust, inside])
        found.append(inside)
        after_one, after_two = b.new(), b.new()  # the same, before the next cell
        for lit in (one, crust):
            b.implies([lit], [after_one])
        b.implies([after_one], [one, crust])
        b.implies([two], [after_two])
        b.implies([one, crust], [after_two])
        b.implies([after_two], [two, one])
        b.implies([after_two], [two, crust])
        one, two = after_one, after_two
    return found
