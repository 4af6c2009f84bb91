"""What every variant rule is: one small object that reads itself, writes its
clauses, checks a solved grid, and says what it is.

A rule class lives in a module of its own in this package and registers
itself with :func:`rule`, under its f-puzzles field and its words in the text
format. Its instances are frozen (puzzles are values) and hold cells as
indexes, ``r*N + c``.
"""

from __future__ import annotations

import importlib
import pkgutil
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import pairwise
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

from sudosat.core.errors import InputError
from sudosat.core.jsonobject import JsonObject
from sudosat.core.puzzle import Layout, cell_name
from sudosat.rules.index import FIELDS, IN_CELLS, WORDS

if TYPE_CHECKING:
    from sudosat.core.pen import Pen
    from sudosat.sat.builder import Builder


class Rule:
    """One constraint of a variant puzzle (a frozen dataclass in each subclass)."""

    field: ClassVar[str] = ""
    """The f-puzzles field it is read from (``killercage``), or "" for none."""
    words: ClassVar[tuple[str, ...]] = ()
    """Its names in the text format (``cage``, ``killer``); the first is the one written."""
    family: ClassVar[str] = ""
    """Its clause family, as ``--stats`` and the CNF's comment blocks name it."""
    flag: ClassVar[bool] = False
    """A rule of the whole grid, switched on by a word alone (``anti-knight``)."""
    outside: ClassVar[bool] = False
    """Whether its picture puts a clue outside the grid (a sandwich's number)."""
    drawn: ClassVar[bool] = True
    """Whether its picture shows it on the grid (else it is named under it)."""
    title: ClassVar[str] = ""
    """Its name for people (``killer cage``), in the README's rule table."""
    meaning: ClassVar[str] = ""
    """What it means exactly, as setters say it and f-puzzles applies it."""
    takes: ClassVar[str] = ""
    """What its number says, when it takes one (``the sum``)."""
    written_as: ClassVar[str] = ""
    """Where f-puzzles writes it when it has no field of its own."""
    technique: ClassVar[str] = "rule"
    """The name setters give a deduction of this rule alone (``cage combinations``),
    as a logical path's step says it."""
    cell_key: ClassVar[str] = ""
    """The key of f-puzzles' grid cells it is read from, where f-puzzles keeps it in
    a cell (``givenPencilMarks``; ``parity``, as older saves keep odd and even
    cells), or "": read by :meth:`from_cell`, written back by :meth:`grid_entry`
    when it has no field of its own."""
    relative: ClassVar[bool] = False
    """Its meaning depends on which other rules are there (:meth:`settle`), so
    taking one of them away can constrain more, not less (a negative constraint)."""

    @classmethod
    def from_fpuzzles(cls, value: Any, where: Where) -> list[Rule]:
        """The rules of an f-puzzles field's value (a list of entries, or a flag)."""
        raise NotImplementedError

    @classmethod
    def from_text(cls, word: str, value: str, cells: str, where: Where) -> list[Rule]:
        """The rules of a text line ``WORD [VALUE]: CELLS`` (a flag: ``WORD`` alone)."""
        raise NotImplementedError

    @classmethod
    def from_cell(cls, cell: int, value: Any, where: Where) -> list[Rule]:
        """The rules a grid cell's :attr:`cell_key` holds. By default ``value`` names
        the rule by its f-puzzles field, in f-puzzles' spelling (``"Even"``), as
        f-puzzles reads it: lower case, spaces removed."""
        kind = BY_FIELD.get(value.replace(" ", "").lower()) if isinstance(value, str) else None
        if kind is None or kind.cell_key != cls.cell_key:
            named = sorted(k.field for k in BY_FIELD.values() if k.cell_key == cls.cell_key)
            expected = " or ".join(f'"{name.capitalize()}"' for name in named)
            raise where.error(f"expected {expected}, found {str(value)[:20]!r}")
        found: list[Rule] = kind.from_fpuzzles(
            [{"cell": fpuzzles_cells([cell], where.size)[0]}], where
        )
        return found

    def encode(self, b: Builder) -> None:
        """Its clauses, through the builder's literals."""
        raise NotImplementedError

    @classmethod
    def encode_all(cls, rules: Sequence[Rule], b: Builder) -> None:
        """The clauses of all the puzzle's rules of this kind: each one's, and what
        they imply together (a killer's innies and outies)."""
        for one in rules:
            one.encode(b)

    def broken(self, grid: Sequence[int], layout: Layout) -> str | None:
        """Why a solved grid breaks it, on the grid itself; None when it holds."""
        raise NotImplementedError

    def describe(self, size: int) -> str:
        """What it says, as setters write it: ``cage r1c1-r1c3 sum 25``."""
        raise NotImplementedError

    def cells(self) -> tuple[int, ...]:
        """The cells it speaks of (a flag: none)."""
        return ()

    def deduction(self, size: int, candidates: Sequence[int]) -> str:
        """What it alone says of its cells' ``candidates`` (a mask per cell of
        :meth:`cells`, :mod:`sudosat.core.masks`), in setters' words, or "" (a step then
        lists what each cell may still hold)."""
        return ""

    def text(self, size: int) -> str:
        """Its line in the text format (read back as the same rule)."""
        raise NotImplementedError

    def to_fpuzzles(self, size: int) -> tuple[str, Any]:
        """Its f-puzzles field and entry (a flag: the field and True)."""
        raise NotImplementedError

    def grid_entry(self) -> tuple[int, JsonObject] | None:
        """For a rule f-puzzles keeps in its grid: the cell and what its object holds."""
        return None

    def fpuzzles_field(self) -> str:
        """Its f-puzzles field; NoField when f-puzzles has none (a rellik cage)."""
        if not self.field:
            raise NoField(self)
        return self.field

    def encode_among(self, b: Builder, selectors: Sequence[tuple[Rule, int]]) -> None:
        """Its clauses when any of the puzzle's rules may be taken away (explain's
        questions; ``selectors``: each rule, itself too, with the selector that
        switches it on). A rule whose meaning depends on the others (see
        :meth:`settle`) writes what each of them changes so that it holds while
        that one is away (:meth:`Builder.unless`); the rest write :meth:`encode`."""
        self.encode(b)

    def settle(self, others: Sequence[Rule]) -> Rule:
        """Itself, completed from the puzzle's other rules once all are read (a
        negative constraint takes the pairs that carry a mark)."""
        return self

    def houses(self, layout: Layout) -> tuple[tuple[int, ...], ...]:
        """Groups of N cells it makes hold every value once, beyond rows, columns
        and regions (a diagonal): where a person looks for singles."""
        return ()

    def allowed(self, size: int) -> dict[int, int]:
        """The values it leaves each of its cells, whatever the others hold (a
        mask, :mod:`sudosat.core.masks`), for cells it narrows; taken out of the
        candidates before the singles and the encoding."""
        return {}

    def draw(self, pen: Pen) -> None:
        """Its marks on the puzzle's picture (see :mod:`draw`), as setters know them."""

    def clause_estimate(self, size: int) -> int:
        """About how many clauses it writes on an N=``size`` grid, for the memory
        estimate made before any work (:mod:`limits`): a few a value per cell by
        default, N^3 for a rule of the whole grid."""
        cells = len(self.cells())
        return 4 * size * cells if cells else 4 * size**3


class NoField(ValueError):
    """A rule f-puzzles has no field for (a rellik cage): no link can hold the puzzle."""

    def __init__(self, rule: Rule) -> None:
        super().__init__(f"f-puzzles has no field for {rule.words[0]}: write the puzzle as text")


R = TypeVar("R", bound=type[Rule])


class Registry(dict[str, type[Rule]]):
    """Rule classes by a name (an f-puzzles field, a word of the text format).

    A rule's module is imported when one of its names is first looked up
    (:mod:`index` says which module has which names), every module when the
    registry is listed: a killer's link loads the killer cage, not thirty rules.
    """

    def __init__(self, index: dict[str, str]) -> None:
        super().__init__()
        self.index = index

    def __missing__(self, name: str) -> type[Rule]:
        module = self.index.get(name)
        if module is None:
            raise KeyError(name)
        importlib.import_module(f"{__package__}.{module}")  # registers its rules
        return dict.__getitem__(self, name)

    def get(self, name: str, default: Any = None) -> Any:
        try:
            return self[name]
        except KeyError:
            return default

    def __contains__(self, name: object) -> bool:
        return dict.__contains__(self, name) or name in self.index

    def __iter__(self) -> Iterator[str]:
        load_all()
        return super().__iter__()

    def __len__(self) -> int:
        load_all()
        return super().__len__()

    def keys(self) -> Any:
        load_all()
        return super().keys()

    def values(self) -> Any:
        load_all()
        return super().values()

    def items(self) -> Any:
        load_all()
        return super().items()


def load_all() -> None:
    """Every rule module of this package imported (each registers its rules)."""
    for module in pkgutil.iter_modules([str(Path(__file__).parent)]):
        if module.name not in ("base", "index"):
            importlib.import_module(f"{__package__}.{module.name}")


BY_FIELD = Registry(FIELDS)
BY_CELL = Registry(IN_CELLS)
"""A rule class by the key of f-puzzles' grid cells it is kept under (kinds that
share a key, odd and even under ``parity``, read each other's values)."""
BY_WORD = Registry(WORDS)


def rule(cls: R) -> R:
    """Registers a rule class under its f-puzzles field, the key it has in f-puzzles'
    grid cells, and its text words."""
    if cls.field:
        BY_FIELD[cls.field] = cls
    if cls.cell_key:
        BY_CELL[cls.cell_key] = cls
    for word in cls.words:
        BY_WORD[word] = cls
    return cls


# --- reading: places, cells, values -------------------------------------------------

CELL = re.compile(r"[rR]([0-9]{1,9})[cC]([0-9]{1,9})")  # ASCII digits only (not fullwidth)


@dataclass
class Where:
    """Where rules are read from, to read cells and name the place in errors."""

    source: str
    line: int
    size: int
    what: str = ""
    """The field or line being read, for errors (``killercage 3``)."""
    layout: Layout | None = None
    regions: list[int] = field(default_factory=list)
    """The cells' f-puzzles region numbers, when the grid gives them."""

    def error(self, message: str) -> InputError:
        where = f"{self.what}: " if self.what else ""
        return InputError(self.source, self.line, 1, f"{where}{message}")

    def at(self, what: str) -> Where:
        return Where(self.source, self.line, self.size, what, self.layout, self.regions)

    def cell(self, name: Any) -> int:
        """A cell inside the grid, from ``R1C1`` (any case)."""
        row, col = self.place(name)
        n = self.size
        if not (1 <= row <= n and 1 <= col <= n):
            raise self.error(f"cell {name} is outside the {n}x{n} grid")
        return (row - 1) * n + col - 1

    def place(self, name: Any) -> tuple[int, int]:
        """Row and column (1-based, 0 or N+1 outside the grid) of ``R1C1``."""
        match = CELL.fullmatch(str(name).strip())
        if match is None:
            raise self.error(f"expected a cell such as R1C1, found {str(name)[:20]!r}")
        return int(match[1]), int(match[2])

    def cells(self, names: Any, least: int = 1) -> tuple[int, ...]:
        if not isinstance(names, list) or len(names) < least:
            raise self.error(f"expected a list of at least {least} cell(s)")
        found = tuple(self.cell(name) for name in names)
        if len(set(found)) != len(found):
            raise self.error("a cell is listed twice")
        return found

    def number(self, value: Any, default: int | None = None, low: int = 0) -> int | None:
        """An integer (f-puzzles writes them as strings); ``default`` when empty."""
        if value is None or (isinstance(value, str) and not value.strip()):
            return default
        text = str(value).strip()
        if not re.fullmatch(r"-?[0-9]{1,9}", text):
            raise self.error(f"expected a number in ASCII digits 0-9, found {text[:20]!r}")
        number = int(text)
        if number < low:
            raise self.error(f"expected a number of at least {low}, found {number}")
        return number

    def entries(self, value: Any, field: str) -> Iterator[tuple[Where, JsonObject]]:
        """Each entry (an object) of an f-puzzles field's list, with its place
        (``field 2``: the second) for errors."""
        if not isinstance(value, list) or not all(isinstance(e, dict) for e in value):
            raise self.error("expected a list of objects")
        for i, entry in enumerate(value, 1):
            yield self.at(f"{field} {i}"), entry

    def clues(self, value: Any, field: str) -> Iterator[tuple[Where, JsonObject, int]]:
        """Each entry of a field of numbered clues, with its place and its number;
        an entry with no number says nothing and is passed over."""
        for here, entry in self.entries(value, field):
            number = here.number(entry.get("value"))
            if number is not None:
                yield here, entry, number


def cell_list(cells: Sequence[int], size: int) -> str:
    """``r1c1-r1c3`` for a straight run, else the cells by name."""
    names = [cell_name(size, c) for c in cells]
    if len(cells) >= 2:
        rows, cols = {c // size for c in cells}, {c % size for c in cells}
        steps = {b - a for a, b in pairwise(cells)}
        if (len(rows) == 1 or len(cols) == 1) and len(steps) == 1 and steps <= {1, -1, size, -size}:
            return f"{names[0]}-{names[-1]}"
    return " ".join(names)


def text_cells(cells: Iterable[int], size: int) -> str:
    return " ".join(cell_name(size, c) for c in cells)


def read_text_cells(text: str, where: Where, least: int = 1) -> tuple[int, ...]:
    """Cells of a text line: ``r1c1 r1c2``, ``r1c1-r1c4`` (a straight run)."""
    found: list[int] = []
    for token in text.replace(",", " ").split():
        first, dash, last = token.partition("-")
        if not dash:
            found.append(where.cell(first))
            continue
        a, b = where.cell(first), where.cell(last)
        found += _run(a, b, where)
    if len(found) < least:
        raise where.error(f"expected at least {least} cell(s)")
    if len(set(found)) != len(found):
        raise where.error("a cell is listed twice")
    return tuple(found)


def _run(a: int, b: int, where: Where) -> list[int]:
    """The cells from ``a`` to ``b`` along a row, a column or a diagonal."""
    n = where.size
    (ra, ca), (rb, cb) = divmod(a, n), divmod(b, n)
    dr, dc = rb - ra, cb - ca
    if dr and dc and abs(dr) != abs(dc):
        raise where.error(f"{cell_name(n, a)}-{cell_name(n, b)} is no straight line")
    steps = max(abs(dr), abs(dc))
    sr, sc = (dr > 0) - (dr < 0), (dc > 0) - (dc < 0)
    return [(ra + i * sr) * n + ca + i * sc for i in range(steps + 1)]


def orthogonal(a: int, b: int, size: int) -> bool:
    (ra, ca), (rb, cb) = divmod(a, size), divmod(b, size)
    return abs(ra - rb) + abs(ca - cb) == 1


def touching(a: int, b: int, size: int) -> bool:
    """Side by side or corner to corner (a king's move apart)."""
    (ra, ca), (rb, cb) = divmod(a, size), divmod(b, size)
    return a != b and abs(ra - rb) <= 1 and abs(ca - cb) <= 1


def close_pairs(line: Sequence[int]) -> list[tuple[int, int]]:
    """The pairs of a line's cells at most two apart along it: those any three in a
    row along it hold (entropic and modular lines)."""
    return [(line[i], line[j]) for i in range(len(line)) for j in (i + 1, i + 2) if j < len(line)]


def joined(cells: Sequence[int], size: int) -> bool:
    """Whether ``cells`` are one piece, each reached from another by a king's move."""
    reached, todo = {cells[0]}, [cells[0]]
    while todo:
        here = todo.pop()
        for other in cells:
            if other not in reached and touching(here, other, size):
                reached.add(other)
                todo.append(other)
    return len(reached) == len(set(cells))


def stepped(cells: Sequence[int], where: Where) -> None:
    """A line's cells, each beside or corner to corner with the one before it (as
    every line is drawn); else an error naming the step."""
    for a, b in pairwise(cells):
        if not touching(a, b, where.size):
            x, y = cell_name(where.size, a), cell_name(where.size, b)
            raise where.error(f"{x} to {y} is no step of a line: each cell must touch the next")


def neighbours(cell: int, size: int, steps: Iterable[tuple[int, int]]) -> Iterable[int]:
    """The cells ``steps`` (row, column offsets) away from ``cell``, inside the grid."""
    r, c = divmod(cell, size)
    for dr, dc in steps:
        if 0 <= r + dr < size and 0 <= c + dc < size:
            yield (r + dr) * size + c + dc


ORTHOGONAL = ((-1, 0), (1, 0), (0, -1), (0, 1))


def adjacent_pairs(size: int) -> Iterable[tuple[int, int]]:
    """Every pair of orthogonally adjacent cells, once."""
    for cell in range(size * size):
        r, c = divmod(cell, size)
        if c + 1 < size:
            yield cell, cell + 1
        if r + 1 < size:
            yield cell, cell + size


def lines_of(value: Any, where: Where, least: int = 2) -> list[tuple[int, ...]]:
    """An f-puzzles ``lines`` list: each line a list of cells."""
    if not isinstance(value, list) or not value:
        raise where.error("expected lines: a list of lists of cells")
    return [where.cells(line, least) for line in value]


def fpuzzles_cells(cells: Iterable[int], size: int) -> list[str]:
    return [f"R{c // size + 1}C{c % size + 1}" for c in cells]


# --- the shapes most rules have ----------------------------------------------------


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

    @classmethod
    def made(cls, cells: tuple[int, ...], value: int | None, where: Where) -> GroupRule:
        if len(cells) != 2:
            raise where.error(f"expected two cells, found {len(cells)}")
        if not orthogonal(*cells, where.size):
            a, b = (cell_name(where.size, c) for c in cells)
            raise where.error(f"{a} and {b} are not side by side: a mark lies between neighbours")
        return super().made(cells, value, where)

    def describe(self, size: int) -> str:
        a, b = (cell_name(size, c) for c in self.group)
        return f"{self.words[0]}{self.shown_value(size)} {a}-{b}"


@dataclass(frozen=True)
class LineRule(GroupRule):
    """A rule of a line through cells, in order (``thermo: r1c1 r1c2 r1c3``);
    f-puzzles: ``{"lines": [[...], ...]}``, each line a rule of its own."""

    least: ClassVar[int] = 2
    colour: ClassVar[str] = "#a0a0a0"
    """The line's colour in pictures, as f-puzzles draws it."""

    @classmethod
    def from_fpuzzles(cls, value: Any, where: Where) -> list[Rule]:
        found: list[Rule] = []
        for here, entry in where.entries(value, cls.field):
            number = here.number(entry.get("value"), cls.default)
            for line in lines_of(entry.get("lines"), here, cls.least):
                found.append(cls.made(line, number, here))
        return found

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
