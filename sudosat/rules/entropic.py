"""Entropic lines: any three cells in a row along the line hold a low, a middle
and a high digit (1-3, 4-6, 7-9 on a 9x9: the digits in three equal bands)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from sudosat.core.puzzle import Layout, cell_name
from sudosat.rules.base import page_part, rule
from sudosat.rules.kinds import GroupRule, LineRule
from sudosat.rules.where import Where, close_pairs
from sudosat.sat.builder import Builder


def bands(size: int) -> list[tuple[int, int]]:
    third = size // 3
    return [(1, third), (third + 1, 2 * third), (2 * third + 1, size)]


@rule
@dataclass(frozen=True)
class Entropic(LineRule):
    title: ClassVar[str] = "entropic line"
    example: ClassVar[str] = "entropic: r5c2 r5c3 r5c4 r5c5 r5c6"
    technique: ClassVar[str] = "entropic bands"
    meaning: ClassVar[str] = (
        "Any three cells in a row along the line hold one low, one middle and one high digit (1-3,"
        " 4-6, 7-9 on a 9x9: the digits in three equal bands). A line of two cells has no three in"
        " a row and is refused."
    )
    field: ClassVar[str] = "entropicline"
    words: ClassVar[tuple[str, ...]] = ("entropic", "entropic-line")
    family: ClassVar[str] = "entropic lines: low, middle, high"
    colour: ClassVar[str] = "#ff8c00"
    page = (page_part("entropic", "Entropic line", "line", colour=colour, width=0.22, least=3),)
    least: ClassVar[int] = 3  # it speaks of three cells in a row: two say nothing

    @classmethod
    def made(cls, cells: tuple[int, ...], value: int | None, where: Where) -> GroupRule:
        if where.size % 3:
            raise where.error(
                f"entropic lines need digits in three equal bands, not 1..{where.size}"
            )
        return super().made(cells, value, where)

    def encode(self, b: Builder) -> None:
        for a, c in close_pairs(self.group):
            for low, high in bands(b.size):  # not both in [low, high]
                b.clause(
                    [b.neg(b.ge(a, low)), b.ge(a, high + 1), b.neg(b.ge(c, low)), b.ge(c, high + 1)]
                )

    def broken(self, grid: Sequence[int], layout: Layout) -> str | None:
        band = {v: i for i, (lo, hi) in enumerate(bands(layout.size)) for v in range(lo, hi + 1)}
        for a, c in close_pairs(self.group):
            if band[grid[a]] == band[grid[c]]:
                n = layout.size
                return f"{cell_name(n, a)} and {cell_name(n, c)} hold {grid[a]} and {grid[c]}"
        return None
