"""Disjoint groups: cells at the same place within their boxes hold different digits."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from sudosat.core.puzzle import Layout
from sudosat.rules.base import rule
from sudosat.rules.diagonals import repeated
from sudosat.rules.kinds import FlagRule
from sudosat.sat.builder import Builder


def disjoint_groups(layout: Layout) -> list[tuple[int, ...]]:
    """For each place within a region (in reading order), the cells at that place."""
    return [tuple(region[i] for region in layout.regions) for i in range(layout.size)]


@rule
@dataclass(frozen=True)
class DisjointGroups(FlagRule):
    def relabels(self) -> bool:  # digits renamed: still apart, still each once
        return True

    title: ClassVar[str] = "disjoint groups"
    example: ClassVar[str] = "disjoint-groups"
    technique: ClassVar[str] = "disjoint groups"
    meaning: ClassVar[str] = (
        "Cells at the same place in their boxes (every box's top left cell, ...) hold different "
        "digits."
    )
    field: ClassVar[str] = "disjointgroups"
    words: ClassVar[tuple[str, ...]] = ("disjoint-groups", "disjoint")
    family: ClassVar[str] = "disjoint groups: each digit once"

    def encode(self, b: Builder) -> None:
        for group in disjoint_groups(b.cnf.puzzle.layout):
            for digit in range(1, b.size + 1):
                b.exactly_one([b.lit(c, digit) for c in group])

    def houses(self, layout: Layout) -> tuple[tuple[int, ...], ...]:
        return tuple(disjoint_groups(layout))

    def broken(self, grid: Sequence[int], layout: Layout) -> str | None:
        for group in disjoint_groups(layout):
            why = repeated(grid, group)
            if why is not None:
                return why
        return None
