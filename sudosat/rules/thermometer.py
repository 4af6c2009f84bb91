"""Thermometers: digits increase from the bulb along the line; on a slow
thermometer they may also stay the same."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import TYPE_CHECKING, ClassVar

from sudosat.core.masks import from_values
from sudosat.core.puzzle import Layout, cell_name
from sudosat.rules.base import page_part, rule
from sudosat.rules.kinds import LineRule
from sudosat.sat.arith import cell_int, less
from sudosat.sat.builder import Builder

if TYPE_CHECKING:
    from sudosat.core.pen import Pen


@rule
@dataclass(frozen=True)
class Thermometer(LineRule):
    title: ClassVar[str] = "thermometer"
    example: ClassVar[str] = "thermo: r2c2 r2c3 r2c4 r2c5"
    technique: ClassVar[str] = "thermometer bounds"
    meaning: ClassVar[str] = "Digits rise strictly from the bulb along the line."
    field: ClassVar[str] = "thermometer"
    words: ClassVar[tuple[str, ...]] = ("thermo", "thermometer")
    family: ClassVar[str] = "thermometers: increasing from the bulb"
    colour: ClassVar[str] = "#b4b4b4"
    page = (page_part("thermo", "Thermometer", "line", colour=colour, width=0.3, bulb=True),)
    strict: ClassVar[bool] = True

    def allowed(self, size: int) -> dict[int, int]:
        if not self.strict:
            return {}
        length = len(self.group)  # the i-th cell: above i before it, below L-1-i after
        return {
            cell: from_values(range(i + 1, size - (length - 1 - i) + 1))
            for i, cell in enumerate(self.group)
        }

    def relation(self, size: int) -> str:
        rises = "rise" if self.strict else "never fall"
        return f"digits {rises} from the bulb {cell_name(size, self.group[0])}"

    def encode(self, b: Builder) -> None:
        for a, c in pairwise(self.group):
            less(b, cell_int(b, a), cell_int(b, c), self.strict)

    def broken(self, grid: Sequence[int], layout: Layout) -> str | None:
        for a, c in pairwise(self.group):
            if grid[a] > grid[c] or (self.strict and grid[a] == grid[c]):
                n = layout.size
                return f"{cell_name(n, a)} holds {grid[a]}, {cell_name(n, c)} {grid[c]}"
        return None

    def draw(self, pen: Pen) -> None:
        pen.circle(self.group[0], 0.38, pen.colour(self.colour))
        pen.line(self.group, self.colour, 0.3)


@rule
@dataclass(frozen=True)
class SlowThermometer(Thermometer):
    title: ClassVar[str] = "slow thermometer"
    example: ClassVar[str] = "slow-thermo: r2c2 r2c3 r2c4 r2c5"
    meaning: ClassVar[str] = (
        "Digits never fall from the bulb along the line; they may stay the same where no unit "
        "forbids it."
    )
    field: ClassVar[str] = "slowthermometer"
    words: ClassVar[tuple[str, ...]] = ("slow-thermo", "slow-thermometer")
    family: ClassVar[str] = "slow thermometers: never decreasing"
    colour: ClassVar[str] = "#d0b090"
    page = (
        page_part(
            "slow-thermo",
            "Slow thermometer",
            "line",
            colour=colour,
            width=0.3,
            bulb=True,
            dashed=True,
        ),
    )
    strict: ClassVar[bool] = False
