"""Region-sum lines: where the line passes through a region, the digits on each
such stretch add up to the same number."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from sudosat.core.puzzle import Layout
from sudosat.rules.base import page_part, rule
from sudosat.rules.kinds import LineRule
from sudosat.sat.arith import cell_int, equal, total
from sudosat.sat.builder import Builder


def stretches(line: Sequence[int], layout: Layout) -> list[list[int]]:
    """The line cut where it leaves one region for another."""
    region = layout.unit_index[2]
    found: list[list[int]] = []
    for cell in line:
        if found and region[found[-1][-1]] == region[cell]:
            found[-1].append(cell)
        else:
            found.append([cell])
    return found


@rule
@dataclass(frozen=True)
class RegionSum(LineRule):
    title: ClassVar[str] = "region-sum line"
    example: ClassVar[str] = "region-sum: r2c2 r2c3 r2c4 r2c5"
    technique: ClassVar[str] = "region sums"
    meaning: ClassVar[str] = (
        "Where the line passes through a region (a box, or a jigsaw's region), the digits on each "
        "such stretch add up to the same number."
    )
    field: ClassVar[str] = "regionsumline"
    words: ClassVar[tuple[str, ...]] = ("region-sum", "region-sum-line")
    family: ClassVar[str] = "region-sum lines: equal sums"
    colour: ClassVar[str] = "#2e9bff"
    page = (page_part("region-sum", "Region-sum line", "line", colour=colour, width=0.18),)

    def encode(self, b: Builder) -> None:
        sums = [
            total(b, [cell_int(b, c) for c in part])
            for part in stretches(self.group, b.cnf.puzzle.layout)
        ]
        for other in sums[1:]:
            equal(b, sums[0], other)

    def broken(self, grid: Sequence[int], layout: Layout) -> str | None:
        sums = [sum(grid[c] for c in part) for part in stretches(self.group, layout)]
        return None if len(set(sums)) <= 1 else f"the stretches add up to {sums}"
