"""Killer cages: digits in a cage do not repeat and, when the cage has a sum,
add up to it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from ..arith import distinct, distinct_sum, reachable
from ..puzzle import Layout
from .base import GroupRule, Where, cell_list, rule
from .diagonals import repeated


@rule
@dataclass(frozen=True)
class KillerCage(GroupRule):
    field: ClassVar[str] = "killercage"
    words: ClassVar[tuple[str, ...]] = ("cage", "killer", "killer-cage")
    family: ClassVar[str] = "killer cages: distinct digits, sums"

    @classmethod
    def made(cls, cells: tuple[int, ...], value: int | None, where: Where) -> GroupRule:
        n = where.size
        if len(cells) > n:
            raise where.error(f"a cage of {len(cells)} cells cannot hold distinct digits 1..{n}")
        if value is not None and not reachable(n, len(cells), value):
            raise where.error(
                f"no {len(cells)} distinct digits 1..{n} add up to {value} "
                f"(cage {cell_list(cells, n)})"
            )
        return cls(cells, value)

    def encode(self, b: Any) -> None:
        distinct(b, self.group)
        if self.value is not None:
            distinct_sum(b, self.group, self.value)

    def broken(self, grid: Sequence[int], layout: Layout) -> str | None:
        why = repeated(grid, self.group)
        if why is None and self.value is not None:
            found = sum(grid[c] for c in self.group)
            why = f"adds up to {found}" if found != self.value else None
        return why

    def describe(self, size: int) -> str:
        total = "" if self.value is None else f" sum {self.value}"
        return f"cage {cell_list(self.group, size)}{total}"


@rule
@dataclass(frozen=True)
class ExtraRegion(GroupRule):
    """An extra region (windoku's windows): digits do not repeat in it, and one of
    N cells holds every digit once."""

    field: ClassVar[str] = "extraregion"
    words: ClassVar[tuple[str, ...]] = ("extra-region", "region+", "window")
    family: ClassVar[str] = "extra regions: distinct digits"

    @classmethod
    def made(cls, cells: tuple[int, ...], value: int | None, where: Where) -> GroupRule:
        if value is not None:
            raise where.error("an extra region takes no number")
        if len(cells) > where.size:
            raise where.error(f"an extra region of {len(cells)} cells cannot hold distinct digits")
        return cls(cells)

    def encode(self, b: Any) -> None:
        for digit in range(1, b.size + 1):
            lits = [b.lit(c, digit) for c in self.group]
            b.exactly_one(lits) if len(self.group) == b.size else b.at_most_one(lits)

    def broken(self, grid: Sequence[int], layout: Layout) -> str | None:
        return repeated(grid, self.group)
