"""Arrows: the digits along an arrow add up to the number in its circle; a
circle of two or three cells (a pill) reads as a number, its digits written
one after another in reading order, as f-puzzles and SudokuPad read it: 1 and
2 make 12; on a 16x16, 1 and 12 make 112 and 12 and 1 make 121. Digits on the
line may repeat where no row, column or region forbids it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise, product
from typing import TYPE_CHECKING, Any, ClassVar

from sudosat.core.puzzle import Layout, cell_name
from sudosat.rules.base import Rule, page_part, rule
from sudosat.rules.kinds import Sketch
from sudosat.rules.where import (
    Where,
    fpuzzles_cells,
    joined,
    lines_of,
    read_text_cells,
    stepped,
    touching,
)
from sudosat.sat.arith import Int, cell_int, equal, scaled, total
from sudosat.sat.builder import Builder, Lit

if TYPE_CHECKING:
    from sudosat.core.pen import Pen


@rule
@dataclass(frozen=True)
class Arrow(Rule):
    title: ClassVar[str] = "arrow"
    example: ClassVar[str] = "arrow: r2c2 > r3c3 r4c4 r5c5"
    technique: ClassVar[str] = "arrow sums"
    meaning: ClassVar[str] = (
        "The digits on the line add up to the number in its circle; digits on the line may repeat "
        "where no row, column or region forbids it. A circle of 2 or 3 cells (a pill) reads its "
        "digits one after another in reading order, as written: 1 and 2 make 12; on a 16x16, 1 and"
        " 12 make 112."
    )
    field: ClassVar[str] = "arrow"
    words: ClassVar[tuple[str, ...]] = ("arrow",)
    colour: ClassVar[str] = "#808080"
    page = (page_part("arrow", "Arrow", "arrow", colour=colour),)
    family: ClassVar[str] = "arrows: circle = sum of the line"

    circle: tuple[int, ...]
    line: tuple[int, ...]

    @classmethod
    def from_fpuzzles(cls, value: Any, where: Where) -> list[Rule]:
        found: list[Rule] = []
        for here, entry in where.entries(value, cls.field):
            circle = tuple(sorted(here.cells(entry.get("cells"))))
            lines = entry.get("lines")
            if lines in (None, []) or lines == [[]]:  # f-puzzles' circle before its shaft
                found.append(cls.circle_alone(circle, here))
                continue
            for line in lines_of(lines, here, 1):
                body = tuple(c for c in line if c not in circle)
                found.append(
                    cls.made(circle, body, here) if body else cls.circle_alone(circle, here)
                )
        return found

    @classmethod
    def from_text(cls, word: str, value: str, cells: str, where: Where) -> list[Rule]:
        circle, _, body = cells.partition(">")
        found = tuple(sorted(read_text_cells(circle, where)))
        if not body.strip():  # "arrow: r3c3": a circle whose shaft is not drawn yet
            return [cls.circle_alone(found, where)]
        return [cls.made(found, read_text_cells(body, where), where)]

    @classmethod
    def circle_alone(cls, circle: tuple[int, ...], where: Where) -> Rule:
        """An arrow's circle before its shaft is drawn: a :class:`Sketch`."""
        if not 1 <= len(circle) <= 3:
            raise where.error(f"a circle of {len(circle)} cells: expected 1 to 3")
        if not joined(circle, where.size):
            raise where.error("a pill's cells must touch one another")
        return Sketch(cls, circle, None, "has no shaft yet")

    @classmethod
    def made(cls, circle: tuple[int, ...], line: tuple[int, ...], where: Where) -> Arrow:
        if not 1 <= len(circle) <= 3:
            raise where.error(f"a circle of {len(circle)} cells: expected 1 to 3")
        if not line:
            raise where.error("an arrow with no cells beyond its circle")
        n = where.size
        if not joined(circle, n):
            raise where.error("a pill's cells must touch one another")
        if not any(touching(c, line[0], n) for c in circle):
            start = cell_name(n, line[0])
            raise where.error(f"the line starts at {start}, which does not touch its circle")
        stepped(line, where)
        low, high = reading(1, len(circle)), reading(n, len(circle))
        if high < len(line) or low > n * len(line):
            head = "a circle" if len(circle) == 1 else f"a pill of {len(circle)} cells"
            raise where.error(
                f"{head} reads {low} to {high}, but {len(line)} digits 1..{n} on the line "
                f"add up to {len(line)} to {n * len(line)}"
            )
        return cls(circle, line)

    def number(self, b: Builder, most: int) -> Int:
        """The circle's number: one digit, or a pill's digits in reading order (a
        sum of tens and units while every digit is one figure, else a table of
        the numbers its digits can write, up to ``most``)."""
        places = len(self.circle)
        if b.size <= 9:
            digits = [
                scaled(cell_int(b, c), 10 ** (places - 1 - i)) for i, c in enumerate(self.circle)
            ]
            return total(b, digits)
        return written(b, self.circle, most)

    def encode(self, b: Builder) -> None:
        line = total(b, [cell_int(b, c) for c in self.line])
        equal(b, self.number(b, line.hi), line)

    def broken(self, grid: Sequence[int], layout: Layout) -> str | None:
        number = int("".join(str(grid[c]) for c in self.circle))
        found = sum(grid[c] for c in self.line)
        return None if found == number else f"the line adds up to {found}, the circle is {number}"

    def cells(self) -> tuple[int, ...]:
        return self.circle + self.line

    def relation(self, size: int) -> str:
        circle = " ".join(cell_name(size, c) for c in self.circle)
        return f"the circle {circle} is the sum of the shaft"

    def describe(self, size: int) -> str:
        head = "-".join(cell_name(size, c) for c in self.circle)
        return f"arrow {head}>{cell_name(size, self.line[-1])}"

    def text(self, size: int) -> str:
        circle = " ".join(cell_name(size, c) for c in self.circle)
        return f"arrow: {circle} > {' '.join(cell_name(size, c) for c in self.line)}"

    def to_fpuzzles(self, size: int) -> tuple[str, Any]:
        line = fpuzzles_cells(self.circle[-1:] + self.line, size)
        return "arrow", {"cells": fpuzzles_cells(self.circle, size), "lines": [line]}

    def draw(self, pen: Pen) -> None:
        pen.arrow(self.circle, self.line, self.colour)


def reading(digit: int, places: int) -> int:
    """The number ``places`` copies of ``digit`` write: the least and the most a
    circle of that many cells can read."""
    return int(str(digit) * places)


def written(b: Builder, cells: Sequence[int], most: int) -> Int:
    """The number the digits of ``cells`` write one after another, in the order
    encoding over the numbers they can write up to ``most`` (a pill of 16x16
    digits): each choice of digits names its number, and larger ones are ruled out."""
    choices: dict[int, list[tuple[int, ...]]] = {}
    for digits in product(*(b.candidates(c) for c in cells)):
        choices.setdefault(int("".join(map(str, digits))), []).append(digits)
    numbers = sorted(choices)
    kept = [v for v in numbers if v <= most] or numbers[:1]
    at_least = {v: b.new() for v in kept[1:]}
    for lower, higher in pairwise(kept[1:]):
        b.implies([at_least[higher]], [at_least[lower]])
    for value in numbers:
        for digits in choices[value]:
            chosen = [b.lit(c, d) for c, d in zip(cells, digits, strict=True)]
            if value not in kept:  # more than the line can add up to
                b.implies(chosen, [])
                continue
            k = kept.index(value)
            if k:
                b.implies(chosen, [at_least[value]])
            if k + 1 < len(kept):
                b.implies(chosen, [b.neg(at_least[kept[k + 1]])])

    def ge(t: int) -> Lit:
        return at_least[next(v for v in kept if v >= t)]

    return Int(kept[0], kept[-1], ge)
