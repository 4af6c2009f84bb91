"""Anti-knight and anti-king: cells a chess knight's (or king's) move apart
hold different digits."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import ClassVar

from sudosat.core.puzzle import Layout, cell_name
from sudosat.rules.base import rule
from sudosat.rules.kinds import FlagRule
from sudosat.rules.where import neighbours
from sudosat.sat.builder import Builder

KNIGHT = ((1, 2), (2, 1), (1, -2), (2, -1))
KING = ((1, 1), (1, -1))
"""Moves forward only, so that each pair is met once; a king's orthogonal moves
stay in a row or a column, which holds different digits already."""


@dataclass(frozen=True)
class AntiChess(FlagRule):
    def relabels(self) -> bool:  # digits renamed: still apart, still each once
        return True

    moves: ClassVar[tuple[tuple[int, int], ...]] = ()

    def pairs(self, layout: Layout) -> Iterable[tuple[int, int]]:
        """The pairs a move apart that no row, column or region already keeps apart."""
        regions = layout.unit_index[2]
        for cell in range(layout.size**2):
            for other in neighbours(cell, layout.size, self.moves):
                if regions[cell] != regions[other]:
                    yield cell, other

    def sees(self, layout: Layout, cell: int, value: int) -> Iterable[tuple[int, int]]:
        both = self.moves + tuple((-dr, -dc) for dr, dc in self.moves)
        return ((other, value) for other in neighbours(cell, layout.size, both))

    def encode(self, b: Builder) -> None:
        for a, c in self.pairs(b.cnf.puzzle.layout):
            for digit in set(b.candidates(a)) & set(b.candidates(c)):
                b.implies([b.lit(a, digit), b.lit(c, digit)], [])

    def broken(self, grid: Sequence[int], layout: Layout) -> str | None:
        for a, c in self.pairs(layout):
            if grid[a] == grid[c]:
                n = layout.size
                return f"{cell_name(n, a)} and {cell_name(n, c)} both hold {grid[a]}"
        return None


@rule
@dataclass(frozen=True)
class AntiKnight(AntiChess):
    title: ClassVar[str] = "anti-knight"
    example: ClassVar[str] = "anti-knight"
    technique: ClassVar[str] = "knight's move"
    meaning: ClassVar[str] = "Two cells a chess knight's move apart never hold the same digit."
    field: ClassVar[str] = "antiknight"
    words: ClassVar[tuple[str, ...]] = ("anti-knight", "antiknight")
    family: ClassVar[str] = "anti-knight: a knight's move apart, different"
    moves: ClassVar[tuple[tuple[int, int], ...]] = KNIGHT


@rule
@dataclass(frozen=True)
class AntiKing(AntiChess):
    title: ClassVar[str] = "anti-king"
    example: ClassVar[str] = "anti-king"
    technique: ClassVar[str] = "king's move"
    meaning: ClassVar[str] = (
        "Two cells a chess king's move apart (diagonal neighbours; orthogonal ones share a row or "
        "column anyway) never hold the same digit."
    )
    field: ClassVar[str] = "antiking"
    words: ClassVar[tuple[str, ...]] = ("anti-king", "antiking")
    family: ClassVar[str] = "anti-king: diagonally touching, different"
    moves: ClassVar[tuple[tuple[int, int], ...]] = KING
