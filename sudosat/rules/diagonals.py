"""Diagonals: each of the grid's two long diagonals holds every digit once."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from sudosat.core.puzzle import Layout
from sudosat.rules.base import Rule, rule
from sudosat.rules.kinds import FlagRule
from sudosat.rules.where import Where
from sudosat.sat.builder import Builder

if TYPE_CHECKING:
    from sudosat.core.pen import Pen


def repeated(grid: Sequence[int], cells: Sequence[int]) -> str | None:
    """Why ``cells`` do not hold distinct digits (the first repeat), or None."""
    seen: dict[int, int] = {}
    for cell in cells:
        if grid[cell] in seen:
            return f"{grid[cell]} appears twice"
        seen[grid[cell]] = cell
    return None


@dataclass(frozen=True)
class Diagonal(FlagRule):
    """A long diagonal holds every digit once."""

    def relabels(self) -> bool:  # digits renamed: still apart, still each once
        return True

    family: ClassVar[str] = "diagonals: each digit once"
    drawn: ClassVar[bool] = True
    rising: ClassVar[bool] = True

    def diagonal(self, size: int) -> tuple[int, ...]:
        if self.rising:  # from the bottom left to the top right
            return tuple(r * size + size - 1 - r for r in range(size))
        return tuple(r * size + r for r in range(size))

    def encode(self, b: Builder) -> None:
        cells = self.diagonal(b.size)
        for digit in range(1, b.size + 1):
            b.exactly_one([b.lit(c, digit) for c in cells])

    def broken(self, grid: Sequence[int], layout: Layout) -> str | None:
        return repeated(grid, self.diagonal(layout.size))

    def houses(self, layout: Layout) -> tuple[tuple[int, ...], ...]:
        return (self.diagonal(layout.size),)

    def draw(self, pen: Pen) -> None:
        pen.diagonal(self.rising)


@rule
@dataclass(frozen=True)
class DiagonalPlus(Diagonal):
    title: ClassVar[str] = "one diagonal (rising)"
    example: ClassVar[str] = "diagonal+"
    technique: ClassVar[str] = "diagonal"
    meaning: ClassVar[str] = (
        "The long diagonal from the bottom left to the top right holds every digit once."
    )
    field: ClassVar[str] = "diagonal+"
    words: ClassVar[tuple[str, ...]] = ("diagonal+", "positive-diagonal")


@rule
@dataclass(frozen=True)
class DiagonalMinus(Diagonal):
    title: ClassVar[str] = "one diagonal (falling)"
    example: ClassVar[str] = "diagonal-"
    technique: ClassVar[str] = "diagonal"
    meaning: ClassVar[str] = (
        "The long diagonal from the top left to the bottom right holds every digit once."
    )
    field: ClassVar[str] = "diagonal-"
    words: ClassVar[tuple[str, ...]] = ("diagonal-", "negative-diagonal")
    rising: ClassVar[bool] = False


@rule
@dataclass(frozen=True)
class Diagonals(FlagRule):
    """``diagonals`` in the text format: both diagonals (an X-Sudoku)."""

    def relabels(self) -> bool:  # digits renamed: still apart, still each once
        return True

    title: ClassVar[str] = "both diagonals (X-sudoku)"
    example: ClassVar[str] = "diagonals"
    technique: ClassVar[str] = "diagonal"
    meaning: ClassVar[str] = "Each long diagonal holds every digit once."
    words: ClassVar[tuple[str, ...]] = ("diagonals", "x-sudoku")
    written_as: ClassVar[str] = "`diagonal+` and `diagonal-`"

    @classmethod
    def from_text(cls, word: str, value: str, cells: str, where: Where) -> list[Rule]:
        super().from_text(word, value, cells, where)  # no value, no cells
        return [DiagonalPlus(), DiagonalMinus()]
