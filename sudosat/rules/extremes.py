"""Minimum and maximum cells: smaller (greater) than every orthogonal neighbour
that is not a cell of the same kind, as f-puzzles reads them: two maximum cells
side by side are not compared with each other (a "fortress" of grey cells)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, ClassVar

from sudosat.core.puzzle import Layout, cell_name
from sudosat.rules.base import Rule, page_part, rule
from sudosat.rules.kinds import CellRule
from sudosat.rules.where import ORTHOGONAL, neighbours
from sudosat.sat.arith import cell_int, less
from sudosat.sat.builder import Builder

if TYPE_CHECKING:
    from sudosat.core.pen import Pen


@dataclass(frozen=True)
class Extreme(CellRule):
    family: ClassVar[str] = "minimum and maximum cells"
    cell_key: ClassVar[str] = "extreme"
    """Older f-puzzles saves keep them in the grid: ``"extreme": "Minimum"``."""
    smaller: ClassVar[bool] = True
    relative: ClassVar[bool] = True

    alike: frozenset[int] = field(default=frozenset(), compare=False)
    """The puzzle's other cells of this kind (settled once all rules are read)."""

    def settle(self, others: Sequence[Rule]) -> Rule:
        kind = [o.cell for o in others if isinstance(o, Extreme) and o.smaller == self.smaller]
        return replace(self, alike=frozenset(kind))

    def compared(self, size: int) -> list[int]:
        """The orthogonal neighbours it is compared with: those of another kind."""
        return [o for o in neighbours(self.cell, size, ORTHOGONAL) if o not in self.alike]

    def encode(self, b: Builder) -> None:
        for other in self.compared(b.size):
            self._compare(b, other)

    def encode_among(self, b: Builder, selectors: Sequence[tuple[Rule, int]]) -> None:
        """Compared with every neighbour, each unless it is a cell of the same kind
        that is there: taking one away compares its cell again."""
        alike = {
            o.cell: s
            for o, s in selectors
            if isinstance(o, Extreme) and o.smaller == self.smaller and o.cell != self.cell
        }
        for other in neighbours(self.cell, b.size, ORTHOGONAL):
            with b.unless([alike[other]] if other in alike else []):
                self._compare(b, other)

    def _compare(self, b: Builder, other: int) -> None:
        me, them = cell_int(b, self.cell), cell_int(b, other)
        less(b, me, them) if self.smaller else less(b, them, me)

    def broken(self, grid: Sequence[int], layout: Layout) -> str | None:
        me = grid[self.cell]
        for other in self.compared(layout.size):
            if (me >= grid[other]) if self.smaller else (me <= grid[other]):
                return f"{cell_name(layout.size, other)} holds {grid[other]}"
        return None

    def draw(self, pen: Pen) -> None:
        pen.note(self.cell, self.words[0][:3])


@rule
@dataclass(frozen=True)
class Minimum(Extreme):
    title: ClassVar[str] = "minimum cell"
    example: ClassVar[str] = "minimum: r5c5"
    technique: ClassVar[str] = "minimum neighbours"
    meaning: ClassVar[str] = (
        "The cell is smaller than every orthogonal neighbour that is not a minimum cell itself: "
        "touching minimum cells are not compared (f-puzzles' reading)."
    )
    field: ClassVar[str] = "minimum"
    words: ClassVar[tuple[str, ...]] = ("minimum", "min")
    page = (page_part("minimum", "Minimum", "mark", mark="down"),)


@rule
@dataclass(frozen=True)
class Maximum(Extreme):
    title: ClassVar[str] = "maximum cell"
    example: ClassVar[str] = "maximum: r5c5"
    technique: ClassVar[str] = "maximum neighbours"
    meaning: ClassVar[str] = (
        "The cell is greater than every orthogonal neighbour that is not a maximum cell itself: "
        "touching maximum cells are not compared (f-puzzles' reading, as in fortress puzzles)."
    )
    field: ClassVar[str] = "maximum"
    words: ClassVar[tuple[str, ...]] = ("maximum", "max")
    page = (page_part("maximum", "Maximum", "mark", mark="up"),)
    smaller: ClassVar[bool] = False
