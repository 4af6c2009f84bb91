"""Clones: two shapes of cells hold the same digits in the same places."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from sudosat.core.puzzle import Layout, cell_name
from sudosat.rules.base import Rule, rule
from sudosat.rules.where import Where, cell_list, fpuzzles_cells, read_text_cells, text_cells
from sudosat.sat.builder import Builder

if TYPE_CHECKING:
    from sudosat.core.pen import Pen


@rule
@dataclass(frozen=True)
class Clone(Rule):
    def relabels(self) -> bool:  # digits renamed: the copies still the same
        return True

    title: ClassVar[str] = "clone"
    example: ClassVar[str] = "clone: r1c1 r1c2 = r5c5 r5c6"
    technique: ClassVar[str] = "clone copy"
    meaning: ClassVar[str] = "The two shapes hold the same digits in the same places."
    field: ClassVar[str] = "clone"
    words: ClassVar[tuple[str, ...]] = ("clone",)
    family: ClassVar[str] = "clones: same digits"

    original: tuple[int, ...]
    copy: tuple[int, ...]

    @classmethod
    def from_fpuzzles(cls, value: Any, where: Where) -> list[Rule]:
        found: list[Rule] = []
        for here, entry in where.entries(value, cls.field):
            original = here.cells(entry.get("cells"))
            copy = here.cells(entry.get("cloneCells"))
            found.append(cls.made(original, copy, here))
        return found

    @classmethod
    def from_text(cls, word: str, value: str, cells: str, where: Where) -> list[Rule]:
        left, equals, right = cells.partition("=")
        if not equals:
            raise where.error("clone: the cells, =, then their clones (r1c1 r1c2 = r5c5 r5c6)")
        original = read_text_cells(left, where)
        return [cls.made(original, read_text_cells(right, where), where)]

    @classmethod
    def made(cls, original: tuple[int, ...], copy: tuple[int, ...], where: Where) -> Clone:
        if len(original) != len(copy):
            raise where.error(f"{len(original)} cells and {len(copy)} clones")
        return cls(original, copy)

    def encode(self, b: Builder) -> None:
        for a, c in zip(self.original, self.copy, strict=True):
            for v in range(1, b.size + 1):
                b.implies([b.lit(a, v)], [b.lit(c, v)])
                b.implies([b.lit(c, v)], [b.lit(a, v)])

    def broken(self, grid: Sequence[int], layout: Layout) -> str | None:
        for a, c in zip(self.original, self.copy, strict=True):
            if grid[a] != grid[c]:
                n = layout.size
                return f"{cell_name(n, a)} holds {grid[a]}, {cell_name(n, c)} {grid[c]}"
        return None

    def cells(self) -> tuple[int, ...]:
        return self.original + self.copy

    def describe(self, size: int) -> str:
        return f"clone {cell_list(self.original, size)} = {cell_list(self.copy, size)}"

    def text(self, size: int) -> str:
        return f"clone: {text_cells(self.original, size)} = {text_cells(self.copy, size)}"

    def to_fpuzzles(self, size: int) -> tuple[str, Any]:
        entry = {"cells": fpuzzles_cells(self.original, size)}
        return "clone", {**entry, "cloneCells": fpuzzles_cells(self.copy, size)}

    def draw(self, pen: Pen) -> None:
        pen.shade((*self.original, *self.copy), "#dcdcff")
