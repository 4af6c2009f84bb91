"""Rellik cages: digits in the cage do not repeat, and no digit or set of its
digits adds up to the cage's number (f-puzzles has no field for them)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import TYPE_CHECKING, ClassVar

from sudosat.core.puzzle import Layout
from sudosat.rules.base import rule
from sudosat.rules.diagonals import repeated
from sudosat.rules.kinds import GroupRule
from sudosat.rules.where import Where, cell_list
from sudosat.sat.arith import distinct
from sudosat.sat.builder import Builder

if TYPE_CHECKING:
    from sudosat.core.pen import Pen


@rule
@dataclass(frozen=True)
class Rellik(GroupRule):
    title: ClassVar[str] = "rellik cage"
    example: ClassVar[str] = "rellik 10: r2c2 r2c3 r3c2"
    technique: ClassVar[str] = "rellik sums"
    meaning: ClassVar[str] = (
        "Digits in the cage do not repeat, and no digit or set of its digits adds up to the cage's"
        " number."
    )
    takes: ClassVar[str] = "the sum no digits may make"
    field: ClassVar[str] = ""
    words: ClassVar[tuple[str, ...]] = ("rellik", "rellik-cage")
    family: ClassVar[str] = "rellik cages: no digits add up to the number"
    valued: ClassVar[bool] = True

    @classmethod
    def made(cls, cells: tuple[int, ...], value: int | None, where: Where) -> GroupRule:
        if value is None or value < 1:
            raise where.error("a rellik cage needs its number (1 or more)")
        if len(cells) > where.size:
            raise where.error(f"a cage of {len(cells)} cells cannot hold distinct digits")
        return super().made(cells, value, where)

    def forbidden(self, size: int) -> list[tuple[int, ...]]:
        """The sets of distinct digits that add up to the number: none may all be in
        the cage (a set is only as large as the cage)."""
        assert self.value is not None
        digits = range(1, min(size, self.value) + 1)
        return [
            chosen
            for k in range(1, len(self.group) + 1)
            for chosen in combinations(digits, k)
            if sum(chosen) == self.value
        ]

    def encode(self, b: Builder) -> None:
        distinct(b, self.group)
        for chosen in self.forbidden(b.size):
            held = b.present(self.group, chosen)
            b.clause([b.neg(held[d]) for d in chosen])

    def broken(self, grid: Sequence[int], layout: Layout) -> str | None:
        why = repeated(grid, self.group)
        if why is not None:
            return why
        held = {grid[c] for c in self.group}
        for chosen in self.forbidden(layout.size):
            if held.issuperset(chosen):
                return f"{' + '.join(map(str, chosen))} = {self.value}"
        return None

    def describe(self, size: int) -> str:
        return f"rellik {cell_list(self.group, size)} not {self.value}"

    def draw(self, pen: Pen) -> None:
        pen.cage(self.group, f"≠{self.value}", "#c0392b")
