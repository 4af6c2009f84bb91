"""Renban lines: the digits on the line are consecutive, in any order, none twice."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from sudosat.core.puzzle import Layout
from sudosat.rules.base import page_part, rule
from sudosat.rules.diagonals import repeated
from sudosat.rules.kinds import GroupRule, LineRule
from sudosat.rules.where import Where
from sudosat.sat.arith import distinct, holdable, one_of_sets
from sudosat.sat.builder import Builder


@rule
@dataclass(frozen=True)
class Renban(LineRule):
    title: ClassVar[str] = "renban line"
    example: ClassVar[str] = "renban: r7c2 r7c3 r7c4 r7c5"
    technique: ClassVar[str] = "renban run"
    meaning: ClassVar[str] = (
        "The digits on the line are a run of consecutive digits in any order, none twice, even "
        "where the line leaves and comes back to a unit."
    )
    field: ClassVar[str] = "renban"
    words: ClassVar[tuple[str, ...]] = ("renban",)
    family: ClassVar[str] = "renban lines: a run of consecutive digits"
    colour: ClassVar[str] = "#c257d6"
    page = (page_part("renban", "Renban line", "line", colour=colour, width=0.3),)
    least: ClassVar[int] = 1

    def relation(self, size: int) -> str:
        return "the digits are a run of consecutive digits, in any order"

    @classmethod
    def made(cls, cells: tuple[int, ...], value: int | None, where: Where) -> GroupRule:
        if len(cells) > where.size:
            raise where.error(f"a renban line of {len(cells)} cells cannot hold distinct digits")
        return super().made(cells, value, where)

    def encode(self, b: Builder) -> None:
        """Distinct digits that are one of the runs of its length: one selector per
        run, as a killer cage's digit sets (a digit in every run left is on the
        line, one in none is off it). Stronger than bounds on the smallest digit
        (order literals under a selector per start), which it replaced: the
        hard renban puzzles took 2.5 times the conflicts (BENCHMARKS.md)."""
        distinct(b, self.group)
        length, n = len(self.group), b.size
        possible = holdable(b, self.group)
        runs = [frozenset(range(low, low + length)) for low in range(1, n - length + 2)]
        one_of_sets(b, self.group, [run for run in runs if run <= possible])

    def broken(self, grid: Sequence[int], layout: Layout) -> str | None:
        digits = sorted(grid[c] for c in self.group)
        why = repeated(grid, self.group)
        if why is None and digits[-1] - digits[0] != len(digits) - 1:
            why = f"{', '.join(map(str, digits))} are not consecutive"
        return why
