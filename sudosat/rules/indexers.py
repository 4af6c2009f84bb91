"""Indexers (the 1-5-9 family): a column-indexer cell in row r, column c holding
v says that row r holds c in column v; a row indexer, that column c holds r in
row v; a box indexer at place p of its box, that the box holds p at place v."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from sudosat.core.puzzle import Layout
from sudosat.rules.base import rule
from sudosat.rules.kinds import GroupRule
from sudosat.sat.builder import Builder

if TYPE_CHECKING:
    from sudosat.core.pen import Pen


@dataclass(frozen=True)
class Indexer(GroupRule):
    family: ClassVar[str] = "indexers"
    tint: ClassVar[str] = "#ffd6d6"

    def target(self, cell: int, value: int, layout: Layout) -> tuple[int, int]:
        """Where ``value`` in ``cell`` points, and the digit that must be there."""
        raise NotImplementedError

    def encode(self, b: Builder) -> None:
        layout = b.cnf.puzzle.layout
        for cell in self.group:
            for v in b.candidates(cell):
                there, digit = self.target(cell, v, layout)
                b.implies([b.lit(cell, v)], [b.lit(there, digit)])

    def broken(self, grid: Sequence[int], layout: Layout) -> str | None:
        for cell in self.group:
            there, digit = self.target(cell, grid[cell], layout)
            if grid[there] != digit:
                return f"{grid[cell]} points at a {grid[there]}, not a {digit}"
        return None

    def draw(self, pen: Pen) -> None:
        pen.shade(self.group, self.tint)


@rule
@dataclass(frozen=True)
class ColumnIndexer(Indexer):
    title: ClassVar[str] = "column indexer"
    example: ClassVar[str] = "column-indexer: r1c1-r9c1"
    technique: ClassVar[str] = "indexing"
    meaning: ClassVar[str] = (
        "A digit v in such a cell in row r, column c says that row r holds c in column v (the "
        "1-5-9 rule's columns)."
    )
    field: ClassVar[str] = "columnindexer"
    words: ClassVar[tuple[str, ...]] = ("column-indexer",)

    def target(self, cell: int, value: int, layout: Layout) -> tuple[int, int]:
        row, col = divmod(cell, layout.size)
        return row * layout.size + value - 1, col + 1


@rule
@dataclass(frozen=True)
class RowIndexer(Indexer):
    title: ClassVar[str] = "row indexer"
    example: ClassVar[str] = "row-indexer: r1c1-r1c9"
    technique: ClassVar[str] = "indexing"
    meaning: ClassVar[str] = (
        "A digit v in such a cell in row r, column c says that column c holds r in row v."
    )
    field: ClassVar[str] = "rowindexer"
    words: ClassVar[tuple[str, ...]] = ("row-indexer",)

    def target(self, cell: int, value: int, layout: Layout) -> tuple[int, int]:
        row, col = divmod(cell, layout.size)
        return (value - 1) * layout.size + col, row + 1


@rule
@dataclass(frozen=True)
class BoxIndexer(Indexer):
    title: ClassVar[str] = "box indexer"
    example: ClassVar[str] = "box-indexer: r2c2 r5c5"
    technique: ClassVar[str] = "indexing"
    meaning: ClassVar[str] = (
        "A digit v in such a cell at place p of its box (1-9 in reading order) says that the box "
        "holds p at place v."
    )
    field: ClassVar[str] = "boxindexer"
    words: ClassVar[tuple[str, ...]] = ("box-indexer",)

    def target(self, cell: int, value: int, layout: Layout) -> tuple[int, int]:
        region = layout.regions[layout.unit_index[2][cell]]
        return region[value - 1], region.index(cell) + 1
