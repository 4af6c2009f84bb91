"""Given pencil marks: a cell that holds one of the digits pencilled in it.

The f-puzzles solver plugin lets a setter give pencil marks as clues (its
"Edit Given Pencilmarks" mode writes ``givenPencilMarks`` into a cell of the
grid), and its solver keeps every answer to them; so does sudosat. The text
format writes ``marks 127: r1c1`` (``marks 1,12,15: r1c1`` past 9).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from sudosat.core.jsonobject import JsonObject
from sudosat.core.masks import from_values
from sudosat.core.puzzle import Layout, cell_name
from sudosat.rules.base import Rule, rule
from sudosat.rules.kinds import CellRule
from sudosat.rules.where import Where, read_text_cells
from sudosat.sat.builder import Builder

if TYPE_CHECKING:
    from sudosat.core.pen import Pen


@rule
@dataclass(frozen=True)
class GivenMarks(CellRule):
    title: ClassVar[str] = "given pencil marks"
    example: ClassVar[str] = "marks 13: r5c5"
    technique: ClassVar[str] = "given pencil marks"
    meaning: ClassVar[str] = (
        "The cell holds one of the digits pencilled in it (f-puzzles' given pencil marks, which "
        "the solver plugin lets a setter give as clues)."
    )
    takes: ClassVar[str] = "the digits the cell may hold"
    field: ClassVar[str] = "givenPencilMarks"
    cell_key: ClassVar[str] = "givenPencilMarks"
    words: ClassVar[tuple[str, ...]] = ("marks", "pencil-marks")
    family: ClassVar[str] = "given pencil marks"

    values: tuple[int, ...] = ()

    @classmethod
    def from_cell(cls, cell: int, marks: Any, where: Where) -> list[Rule]:
        if not isinstance(marks, list) or not all(type(m) is int for m in marks):
            raise where.error(f"givenPencilMarks: expected a list of digits, found {marks!r:.20}")
        return [cls.made(cell, marks, where)] if marks else []

    @classmethod
    def from_text(cls, word: str, value: str, cells: str, where: Where) -> list[Rule]:
        digits = value.split(",") if "," in value or where.size > 9 else list(value.strip())
        values = [where.number(d, low=1) for d in digits if d.strip()]
        return [cls.made(c, values, where) for c in read_text_cells(cells, where)]

    @classmethod
    def made(cls, cell: int, values: Sequence[int | None], where: Where) -> GivenMarks:
        n = where.size
        found = tuple(sorted({v for v in values if v is not None}))
        if not found or not all(1 <= v <= n for v in found):
            raise where.error(f"pencil marks of {cell_name(n, cell)}: expected digits 1..{n}")
        return cls(cell, found)

    def allowed(self, size: int) -> dict[int, int]:
        return {self.cell: from_values(self.values)}

    def encode(self, b: Builder) -> None:
        b.clause([b.lit(self.cell, v) for v in self.values])

    def broken(self, grid: Sequence[int], layout: Layout) -> str | None:
        if grid[self.cell] in self.values:
            return None
        return f"{cell_name(layout.size, self.cell)} holds {grid[self.cell]}"

    def spelled(self, size: int) -> str:
        return ("," if size > 9 else "").join(map(str, self.values))

    def describe(self, size: int) -> str:
        return f"{self.words[0]} {self.spelled(size)} {cell_name(size, self.cell)}"

    def text(self, size: int) -> str:
        return f"{self.words[0]} {self.spelled(size)}: {cell_name(size, self.cell)}"

    def grid_entry(self) -> tuple[int, JsonObject] | None:
        return self.cell, {self.field: list(self.values)}

    def draw(self, pen: Pen) -> None:
        pen.marks(self.cell, self.values)
