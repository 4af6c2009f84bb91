"""The kinds most rules are, each reading, writing and describing itself: a
flag over the whole grid, a mark in one cell, a group of cells with a value,
a pair, a line, a clue outside the grid. A rule's own module adds its clauses
and its check."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from sudosat.core.jsonobject import JsonObject
from sudosat.core.puzzle import cell_name
from sudosat.rules.base import Rule
from sudosat.rules.where import (
    Where,
    cell_list,
    fpuzzles_cells,
    lines_of,
    orthogonal,
    read_text_cells,
    stepped,
    text_cells,
)

if TYPE_CHECKING:
    from sudosat.core.pen import Pen


@dataclass(frozen=True)
class FlagRule(Rule):
    """A rule of the whole grid, on or off (``anti-knight``)."""

    flag: ClassVar[bool] = True
    drawn: ClassVar[bool] = False

    @classmethod
    def from_fpuzzles(cls, value: Any, where: Where) -> list[Rule]:
        if not isinstance(value, bool):
            raise where.error("expected true or false")
        return [cls()] if value else []

    @classmethod
    def from_text(cls, word: str, value: str, cells: str, where: Where) -> list[Rule]:
        if value or cells:
            raise where.error(f"{word} takes no value and no cells")
        return [cls()]

    def describe(self, size: int) -> str:
        return self.words[0]

    def text(self, size: int) -> str:
        return self.words[0]

    def to_fpuzzles(self, size: int) -> tuple[str, Any]:
        return self.fpuzzles_field(), True


@dataclass(frozen=True)
class CellRule(Rule):
    """A rule of one cell (``odd: r1c1``); f-puzzles: ``{"cell": "R1C1"}``."""

    cell: int

    @classmethod
    def from_fpuzzles(cls, value: Any, where: Where) -> list[Rule]:
        found: list[Rule] = []
        for here, entry in where.entries(value, cls.field):
            found.append(cls(here.cell(entry.get("cell"))))
        return found

    @classmethod
    def from_text(cls, word: str, value: str, cells: str, where: Where) -> list[Rule]:
        if value:
            raise where.error(f"{word} takes no value")
        return [cls(cell) for cell in read_text_cells(cells, where)]

    def cells(self) -> tuple[int, ...]:
        return (self.cell,)

    def describe(self, size: int) -> str:
        return f"{self.words[0]} {cell_name(size, self.cell)}"

    def text(self, size: int) -> str:
        return f"{self.words[0]}: {cell_name(size, self.cell)}"

    def to_fpuzzles(self, size: int) -> tuple[str, Any]:
        return self.fpuzzles_field(), {"cell": fpuzzles_cells([self.cell], size)[0]}


@dataclass(frozen=True)
class GroupRule(Rule):
    """A rule of some cells and maybe a number (a cage: ``cage 15: r1c1 r1c2``);
    f-puzzles: ``{"cells": [...], "value": "15"}``. One cell or more."""

    group: tuple[int, ...]
    value: int | None = None
    least: ClassVar[int] = 1
    default: ClassVar[int | None] = None
    valued: ClassVar[bool] = False
    """Whether it takes a number (a cage's sum, a dot's value)."""

    def __post_init__(self) -> None:
        if self.value is None and self.default is not None:  # one rule, however made
            object.__setattr__(self, "value", self.default)

    @classmethod
    def from_fpuzzles(cls, value: Any, where: Where) -> list[Rule]:
        found: list[Rule] = []
        for here, entry in where.entries(value, cls.field):
            cells = here.cells(entry.get("cells"), cls.least)
            found.append(cls.made(cells, here.number(entry.get("value"), cls.default), here))
        return found

    @classmethod
    def from_text(cls, word: str, value: str, cells: str, where: Where) -> list[Rule]:
        group = read_text_cells(cells, where, cls.least)
        return [cls.made(group, where.number(value, cls.default), where)]

    @classmethod
    def made(cls, cells: tuple[int, ...], value: int | None, where: Where) -> GroupRule:
        """The rule, checked as it is read (a subclass refuses what cannot be, then
        asks its base): a number where the rule takes none is refused, never ignored."""
        if value is not None and not cls.valued:
            raise where.error(f"{cls.words[0]} takes no number, found {value}")
        return cls(cells, value)

    def cells(self) -> tuple[int, ...]:
        return self.group

    @classmethod
    def default_for(cls, size: int) -> int | None:
        """The number it has when none is written (a dot's 1 or 2; whispers' N/2)."""
        return cls.default

    def shown_value(self, size: int) -> str:
        """Its number as written after its word: nothing when it is the default."""
        if self.value is None or self.value == self.default_for(size):
            return ""
        return f" {self.value}"

    def describe(self, size: int) -> str:
        return f"{self.words[0]} {cell_list(self.group, size)}{self.shown_value(size)}"

    def text(self, size: int) -> str:
        return f"{self.words[0]}{self.shown_value(size)}: {text_cells(self.group, size)}"

    def to_fpuzzles(self, size: int) -> tuple[str, Any]:
        entry: JsonObject = {"cells": fpuzzles_cells(self.group, size)}
        if self.value is not None:
            entry["value"] = str(self.value)
        return self.fpuzzles_field(), entry


@dataclass(frozen=True)
class PairRule(GroupRule):
    """A rule of two cells (a kropki dot: ``difference: r1c1 r1c2``)."""

    least: ClassVar[int] = 2
    named: ClassVar[str] = ""
    """What a step calls it (``black dot``; the first of its words unless set)."""

    @classmethod
    def made(cls, cells: tuple[int, ...], value: int | None, where: Where) -> GroupRule:
        if len(cells) != 2:
            raise where.error(f"expected two cells, found {len(cells)}")
        if not orthogonal(*cells, where.size):
            a, b = (cell_name(where.size, c) for c in cells)
            raise where.error(f"{a} and {b} are not side by side: a mark lies between neighbours")
        return super().made(cells, value, where)

    def describe(self, size: int) -> str:
        a, b = (cell_name(size, c) for c in sorted(self.group))
        return f"{self.named or self.words[0]}{self.shown_value(size)} {a}-{b}"

    def to_fpuzzles(self, size: int) -> tuple[str, Any]:
        key, entry = super().to_fpuzzles(size)
        if self.value == self.default_for(size):  # f-puzzles' plain dot: no number in it
            entry.pop("value", None)
        return key, entry


@dataclass(frozen=True)
class Sketch(Rule):
    """A part still being drawn, kept as f-puzzles keeps it while a setter draws:
    an arrow's circle before its shaft, a thermometer's bulb, a line of fewer
    cells than its kind speaks of. Read, drawn and written back as it came; it
    constrains nothing (the plugin's own solver reads it so), and says once
    what it lacks (:attr:`note`). ``kind``: the rule it is becoming."""

    title: ClassVar[str] = "part still being drawn"
    family: ClassVar[str] = "parts still being drawn: nothing yet"
    meaning: ClassVar[str] = "Nothing yet: a part of a rule whose drawing is not finished."

    kind: type[Rule]
    group: tuple[int, ...]
    value: int | None = None
    lacks: str = ""
    """What it lacks, said after its name: ``has no shaft yet``."""

    def encode(self, b: Any) -> None:
        """Nothing: what it will say is not drawn yet."""

    def relabels(self) -> bool:
        return True

    def broken(self, grid: Any, layout: Any) -> str | None:
        return None

    def cells(self) -> tuple[int, ...]:
        return self.group

    def describe(self, size: int) -> str:
        first, last = cell_name(size, self.group[0]), cell_name(size, self.group[-1])
        where = first if len(self.group) == 1 else f"{first} to {last}"
        return f"{self.kind.words[0]} at {where}"

    def note(self, size: int) -> str:
        """What it lacks, in a sentence: ``arrow at r3c3 has no shaft yet``."""
        return f"{self.describe(size)} {self.lacks}".strip()

    def text(self, size: int) -> str:  # its kind's word over its cells: read back as itself
        number = "" if self.value is None else f" {self.value}"
        return f"{self.kind.words[0]}{number}: {text_cells(self.group, size)}"

    def fpuzzles_field(self) -> str:
        return self.kind.field

    def to_fpuzzles(self, size: int) -> tuple[str, Any]:
        cells = fpuzzles_cells(self.group, size)
        entry: JsonObject = (
            {"cells": cells, "lines": []} if self.kind.words[0] == "arrow" else {"lines": [cells]}
        )
        if self.value is not None:
            entry["value"] = str(self.value)
        return self.kind.field, entry

    def draw(self, pen: Pen) -> None:
        colour = pen.colour(getattr(self.kind, "colour", "#a0a0a0"))
        for cell in self.group:  # a circle, a bulb, a dot: where the part begins
            if self.kind.words[0] == "arrow":
                pen.circle(cell, 0.4, "none", "#808080", 0.06)
            else:
                pen.circle(cell, 0.38 if "thermo" in self.kind.words[0] else 0.15, colour)


@dataclass(frozen=True)
class LineRule(GroupRule):
    """A rule of a line through cells, in order (``thermo: r1c1 r1c2 r1c3``);
    f-puzzles: ``{"lines": [[...], ...]}``, each line a rule of its own. A line
    shorter than its kind speaks of (one cell; two of a rule of three in a row)
    is a :class:`Sketch`: a line still being drawn."""

    least: ClassVar[int] = 2
    colour: ClassVar[str] = "#a0a0a0"
    """The line's colour in pictures, as f-puzzles draws it."""

    @classmethod
    def from_fpuzzles(cls, value: Any, where: Where) -> list[Rule]:
        found: list[Rule] = []
        for here, entry in where.entries(value, cls.field):
            number = here.number(entry.get("value"), cls.default)
            for line in lines_of(entry.get("lines"), here, 1):
                found.append(cls.drawn_so_far(line, number, here))
        return found

    @classmethod
    def from_text(cls, word: str, value: str, cells: str, where: Where) -> list[Rule]:
        line = read_text_cells(cells, where, 1)
        return [cls.drawn_so_far(line, where.number(value, cls.default), where)]

    @classmethod
    def drawn_so_far(cls, cells: tuple[int, ...], value: int | None, where: Where) -> Rule:
        """The line, or a :class:`Sketch` of it while it is shorter than ``least``."""
        if len(cells) < cls.least:
            stepped(cells, where)
            got = "one cell" if len(cells) == 1 else f"{len(cells)} cells"
            lacks = f"has {got} so far: a line of {cls.least} or more says something"
            return Sketch(cls, cells, value, lacks)
        return cls.made(cells, value, where)

    @classmethod
    def made(cls, cells: tuple[int, ...], value: int | None, where: Where) -> GroupRule:
        stepped(cells, where)
        return super().made(cells, value, where)

    def describe(self, size: int) -> str:
        names = [cell_name(size, c) for c in self.group]
        # "to", not ">": a line has two ends, and ">" reads as "greater than"
        return f"{self.words[0]}{self.shown_value(size)} {names[0]} to {names[-1]}"

    def draw(self, pen: Pen) -> None:
        pen.line(self.group, self.colour)

    def to_fpuzzles(self, size: int) -> tuple[str, Any]:
        entry: JsonObject = {"lines": [fpuzzles_cells(self.group, size)]}
        if self.value is not None:
            entry["value"] = str(self.value)
        return self.fpuzzles_field(), entry


@dataclass(frozen=True)
class SpacedLine(LineRule):
    """A line some of whose digits differ by at least its value (whispers' and
    lockout lines' least difference): a default that depends on the grid's size
    when none is written, kept as None so that a rule is one however written."""

    valued: ClassVar[bool] = True

    @classmethod
    def made(cls, cells: tuple[int, ...], value: int | None, where: Where) -> GroupRule:
        n = where.size
        if value is not None and not 1 <= value <= n - 1:
            raise where.error(f"{cls.words[0]} {value}: digits 1..{n} differ by 1 to {n - 1}")
        if value == cls.default_for(n):
            value = None
        return super().made(cells, value, where)

    def gap(self, size: int) -> int:
        """The least difference: its value, else the default for the grid's size."""
        if self.value is not None:
            return self.value
        default = self.default_for(size)
        assert default is not None
        return default


SIDES = {"top": "from the top", "bottom": "from the bottom", "left": "from the left"}
SIDES["right"] = "from the right"


@dataclass(frozen=True)
class OutsideRule(Rule):
    """A clue outside the grid about the row or column it faces, read from its
    side (``sandwich 10: r0c3``: above column 3); f-puzzles:
    ``{"cell": "R0C3", "value": "10"}``."""

    clue: tuple[int, int]
    """Row and column of the clue: row 0 or N+1 (a column's), column 0 or N+1."""
    value: int
    outside: ClassVar[bool] = True

    @classmethod
    def from_fpuzzles(cls, value: Any, where: Where) -> list[Rule]:
        return [
            cls.made(here.place(entry.get("cell")), number, here)
            for here, entry, number in where.clues(value, cls.field)
        ]

    @classmethod
    def from_text(cls, word: str, value: str, cells: str, where: Where) -> list[Rule]:
        number = where.number(value)
        if number is None:
            raise where.error(f"{word} needs a number")
        return [cls.made(where.place(cells), number, where)]

    @classmethod
    def made(cls, clue: tuple[int, int], value: int, where: Where) -> OutsideRule:
        n = where.size
        row, col = clue
        inside = (row in (0, n + 1)) != (col in (0, n + 1))
        if not inside or not (0 <= row <= n + 1 and 0 <= col <= n + 1):
            raise where.error(f"R{row}C{col} is no place beside a row or a column")
        if value not in cls.possible(n):
            raise where.error(f"{cls.words[0]} {value}: {cls.range_text(n)}")
        return cls(clue, value)

    @classmethod
    def possible(cls, size: int) -> frozenset[int]:
        """The clues a row or column of ``size`` digits can give."""
        raise NotImplementedError

    @classmethod
    def range_text(cls, size: int) -> str:
        """What the clues can be, said in the error that refuses one."""
        found = sorted(cls.possible(size))
        gaps = [v for v in range(found[0], found[-1] + 1) if v not in found]
        but = f" but {', '.join(map(str, gaps))}" if gaps else ""
        return f"expected {found[0]} to {found[-1]}{but} on a {size}x{size}"

    def line(self, size: int) -> tuple[int, ...]:
        """The cells of its row or column, from the clue inwards."""
        row, col = self.clue
        n = size
        if row == 0:
            return tuple(r * n + col - 1 for r in range(n))
        if row == n + 1:
            return tuple(r * n + col - 1 for r in reversed(range(n)))
        if col == 0:
            return tuple((row - 1) * n + c for c in range(n))
        return tuple((row - 1) * n + c for c in reversed(range(n)))

    def side(self, size: int) -> str:
        row, col = self.clue
        if row in (0, size + 1):
            return f"column {col} {SIDES['top' if row == 0 else 'bottom']}"
        return f"row {row} {SIDES['left' if col == 0 else 'right']}"

    def describe(self, size: int) -> str:
        return f"{self.words[0]} {self.value} on {self.side(size)}"

    def text(self, size: int) -> str:
        return f"{self.words[0]} {self.value}: r{self.clue[0]}c{self.clue[1]}"

    def to_fpuzzles(self, size: int) -> tuple[str, Any]:
        return self.fpuzzles_field(), {
            "cell": f"R{self.clue[0]}C{self.clue[1]}",
            "value": str(self.value),
        }

    def draw(self, pen: Pen) -> None:
        pen.outside(*self.clue, str(self.value))
