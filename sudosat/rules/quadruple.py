"""Quadruples: the digits in the circle on a corner appear in the (up to) four
cells around it; a digit written twice appears twice."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import TYPE_CHECKING, Any, ClassVar

from sudosat.core.puzzle import Layout
from sudosat.rules.base import Rule, page_part, rule
from sudosat.rules.where import Where, cell_list, fpuzzles_cells, read_text_cells, text_cells
from sudosat.sat.builder import Builder

if TYPE_CHECKING:
    from sudosat.core.pen import Pen


@rule
@dataclass(frozen=True)
class Quadruple(Rule):
    title: ClassVar[str] = "quadruple"
    example: ClassVar[str] = "quadruple 1234: r4c4 r4c5 r5c4 r5c5"
    technique: ClassVar[str] = "quadruple digits"
    meaning: ClassVar[str] = (
        "Each digit in the circle on the corner appears in the (up to) four cells around it; a "
        "digit written twice appears twice."
    )
    takes: ClassVar[str] = "the digits"
    field: ClassVar[str] = "quadruple"
    words: ClassVar[tuple[str, ...]] = ("quadruple", "quad")
    page = (page_part("quadruple", "Quadruple", "corner"),)
    family: ClassVar[str] = "quadruples: digits that must appear"

    group: tuple[int, ...]
    digits: tuple[int, ...]

    @classmethod
    def from_fpuzzles(cls, value: Any, where: Where) -> list[Rule]:
        found: list[Rule] = []
        for here, entry in where.entries(value, cls.field):
            cells = here.cells(entry.get("cells"))
            raw = entry.get("values")
            if not isinstance(raw, list):
                raise here.error("expected values: a list of digits")
            digits = [here.number(v, low=1) for v in raw]
            found.append(cls.made(cells, tuple(d for d in digits if d is not None), here))
        return found

    @classmethod
    def from_text(cls, word: str, value: str, cells: str, where: Where) -> list[Rule]:
        tokens = value.replace(",", " ").split()
        if len(tokens) == 1 and tokens[0].isdigit() and where.size <= 9:
            tokens = list(tokens[0])  # quadruple 129: the digits 1, 2 and 9
        digits = tuple(int(t) for t in tokens if where.number(t, low=1) is not None)
        return [cls.made(read_text_cells(cells, where), digits, where)]

    @classmethod
    def made(cls, cells: tuple[int, ...], digits: tuple[int, ...], where: Where) -> Quadruple:
        if not digits or len(digits) > len(cells):
            raise where.error(f"{len(digits)} digits cannot sit in {len(cells)} cells")
        if max(digits) > where.size:
            raise where.error(f"digit {max(digits)} is beyond 1..{where.size}")
        return cls(cells, tuple(sorted(digits)))

    def encode(self, b: Builder) -> None:
        for digit, times in Counter(self.digits).items():
            lits = [b.lit(c, digit) for c in self.group]
            # at least ``times`` of them: every set of len - times + 1 holds one
            for chosen in combinations(lits, len(lits) - times + 1):
                b.clause(chosen)

    def broken(self, grid: Sequence[int], layout: Layout) -> str | None:
        found = Counter(grid[c] for c in self.group)
        for digit, times in Counter(self.digits).items():
            if found[digit] < times:
                return f"{digit} appears {found[digit]} time(s), not {times}"
        return None

    def cells(self) -> tuple[int, ...]:
        return self.group

    def describe(self, size: int) -> str:
        return f"quadruple {','.join(map(str, self.digits))} {cell_list(self.group, size)}"

    def text(self, size: int) -> str:
        return f"quadruple {','.join(map(str, self.digits))}: {text_cells(self.group, size)}"

    def to_fpuzzles(self, size: int) -> tuple[str, Any]:
        return "quadruple", {"cells": fpuzzles_cells(self.group, size), "values": list(self.digits)}

    def draw(self, pen: Pen) -> None:
        pen.corner(self.group, "".join(str(d) for d in self.digits))
