"""Extra regions (windoku's windows): digits do not repeat in one, and one of N
cells holds every digit once."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from sudosat.core.puzzle import Layout
from sudosat.rules.base import rule
from sudosat.rules.diagonals import repeated
from sudosat.rules.kinds import GroupRule
from sudosat.rules.where import Where
from sudosat.sat.builder import Builder

if TYPE_CHECKING:
    from sudosat.core.pen import Pen


@rule
@dataclass(frozen=True)
class ExtraRegion(GroupRule):
    """An extra region (windoku's windows): digits do not repeat in it, and one of
    N cells holds every digit once."""

    def relabels(self) -> bool:  # digits renamed: still apart, still each once
        return True

    title: ClassVar[str] = "extra region (windoku)"
    example: ClassVar[str] = "extra-region: r2c2 r2c3 r2c4 r3c2 r3c3 r3c4 r4c2 r4c3 r4c4"
    technique: ClassVar[str] = "extra region"
    meaning: ClassVar[str] = (
        "Digits in the extra region do not repeat (one of N cells holds every digit once)."
    )
    field: ClassVar[str] = "extraregion"
    words: ClassVar[tuple[str, ...]] = ("extra-region", "region+", "window")
    family: ClassVar[str] = "extra regions: distinct digits"

    @classmethod
    def made(cls, cells: tuple[int, ...], value: int | None, where: Where) -> GroupRule:
        if len(cells) > where.size:
            raise where.error(f"an extra region of {len(cells)} cells cannot hold distinct digits")
        return super().made(cells, value, where)

    def encode(self, b: Builder) -> None:
        for digit in range(1, b.size + 1):
            lits = [b.lit(c, digit) for c in self.group]
            b.exactly_one(lits) if len(self.group) == b.size else b.at_most_one(lits)

    def broken(self, grid: Sequence[int], layout: Layout) -> str | None:
        return repeated(grid, self.group)

    def houses(self, layout: Layout) -> tuple[tuple[int, ...], ...]:
        return (self.group,) if len(self.group) == layout.size else ()

    def draw(self, pen: Pen) -> None:
        pen.shade(self.group, "#d9d9d9")
