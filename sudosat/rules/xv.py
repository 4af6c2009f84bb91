"""XV: an X between two cells, their digits add up to 10; a V, to 5."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from sudosat.core.puzzle import Layout, cell_name
from sudosat.rules.base import Rule, page_part, rule
from sudosat.rules.kinds import PairRule
from sudosat.rules.where import Where, fpuzzles_cells, read_text_cells
from sudosat.sat.builder import Builder

if TYPE_CHECKING:
    from sudosat.core.pen import Pen

SUMS = {"X": 10, "V": 5}


@rule
@dataclass(frozen=True)
class XV(PairRule):
    title: ClassVar[str] = "XV"
    example: ClassVar[str] = "x: r4c4 r4c5"
    technique: ClassVar[str] = "XV neighbours"
    meaning: ClassVar[str] = (
        "The digits either side of an X add up to 10; of a V, to 5. Marks each hold on their own."
    )
    takes: ClassVar[str] = "X or V"
    field: ClassVar[str] = "xv"
    words: ClassVar[tuple[str, ...]] = ("x", "v", "xv")
    page = (
        page_part("x", "X (sum 10)", "edge", letter="X"),
        page_part("v", "V (sum 5)", "edge", letter="V"),
    )
    family: ClassVar[str] = "XV: sums of 10 and 5"
    valued: ClassVar[bool] = True

    @classmethod
    def from_fpuzzles(cls, value: Any, where: Where) -> list[Rule]:
        found: list[Rule] = []
        for here, entry in where.entries(value, cls.field):
            mark = str(entry.get("value", "")).strip().upper()
            if mark not in SUMS:
                raise here.error(f"expected X or V, found {mark[:10]!r}")
            found.append(cls.made(here.cells(entry.get("cells"), 2), SUMS[mark], here))
        return found

    @classmethod
    def from_text(cls, word: str, value: str, cells: str, where: Where) -> list[Rule]:
        mark = (value or word).strip().upper()
        if mark not in SUMS:
            raise where.error(f"expected x or v, found {mark[:10]!r}")
        return [cls.made(read_text_cells(cells, where, 2), SUMS[mark], where)]

    def mark(self) -> str:
        return "X" if self.value == 10 else "V"

    def relation(self, size: int) -> str:
        return f"the digits sum to {self.value}"

    def encode(self, b: Builder) -> None:
        a, c = self.group
        assert self.value is not None
        for x, y in ((a, c), (c, a)):
            for v in b.candidates(x):
                b.implies([b.lit(x, v)], [b.lit(y, self.value - v)])

    def broken(self, grid: Sequence[int], layout: Layout) -> str | None:
        a, c = self.group
        if grid[a] + grid[c] != self.value:
            return f"{grid[a]} + {grid[c]} is not {self.value}"
        return None

    def describe(self, size: int) -> str:
        a, c = (cell_name(size, x) for x in self.group)
        return f"{self.mark()} {a}-{c}"

    def text(self, size: int) -> str:
        a, c = (cell_name(size, x) for x in self.group)
        return f"{self.mark().lower()}: {a} {c}"

    def to_fpuzzles(self, size: int) -> tuple[str, Any]:
        return "xv", {"cells": fpuzzles_cells(self.group, size), "value": self.mark()}

    def draw(self, pen: Pen) -> None:
        pen.mark(self.group, self.mark())
