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
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

from sudosat.core.jsonobject import JsonObject
from sudosat.core.masks import values as digits_of
from sudosat.core.puzzle import Layout, cell_name
from sudosat.rules.index import FIELDS, IN_CELLS, WORDS
from sudosat.rules.where import Where, fpuzzles_cells

if TYPE_CHECKING:
    from sudosat.core.pen import Pen
    from sudosat.sat.builder import Builder

KEPT_CELLS = 6
"""A rule step says what its rule leaves each cell for rules of this many cells at most."""


def spelled(size: int, mask: int) -> str:
    """A cell's candidates written together (``1468``; past 9: ``1,10,12``)."""
    return ("," if size > 9 else "").join(str(v) for v in digits_of(mask))


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
    """Its name for people (``killer cage``), in the docs' rule table."""
    example: ClassVar[str] = ""
    """One statement of it on a 9x9 (``thermo: r2c2 r2c3 r2c4 r2c5``): the docs draw
    it beside its meaning, and a test reads it back as this rule."""
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
    page: ClassVar[tuple[JsonObject, ...]] = ()
    """How the setter's page offers it (:func:`page_part`; none: the page has no
    tool for it): served to the page as JSON, so each part is described once."""

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
        :meth:`cells`, :mod:`sudosat.core.masks`), in setters' words: its
        :meth:`relation`, and what that leaves each of its cells (a few cells at
        most), or "" (a step then lists what it removes alone)."""
        said = self.relation(size)
        cells = self.cells()
        if not said or not cells or len(cells) > KEPT_CELLS or len(candidates) != len(cells):
            return said
        kept = ", ".join(
            f"{cell_name(size, c)} {{{spelled(size, m)}}}"
            for c, m in zip(cells, candidates, strict=True)
        )
        return f"{said}, leaving {kept}"

    def relation(self, size: int) -> str:
        """What it says of its digits, in a few words, as a setter says it (``one
        digit is twice the other``); "" where it says nothing shorter than its
        meaning."""
        return ""

    def relabels(self) -> bool:
        """Whether it still holds when the digits are renamed (a digit's name says
        nothing of it: anti-knight, a diagonal, an extra region; never a sum or
        an order): then a solution with its digits renamed is one too, as far as
        this rule goes (the true candidates of a grid with few givens are found
        from a few solutions so)."""
        return False

    def note(self, size: int) -> str:
        """What a person should hear of it before its answer, once (a part still being
        drawn: ``arrow at r3c3 has no shaft yet``); "" for most rules."""
        return ""

    def sees(self, layout: Layout, cell: int, value: int) -> Iterable[tuple[int, int]]:
        """The candidates (cell, value) it alone rules out once ``cell`` holds
        ``value``: a pair rule's cells a move apart (nothing for other rules). A
        logical step names the placed digit that removes them."""
        return ()

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

    @classmethod
    def search_cages(
        cls, rules: Sequence[Rule], layout: Layout
    ) -> list[tuple[tuple[int, ...], tuple[int, ...]]] | None:
        """What the compiled engine's search keeps of all the puzzle's rules of this
        kind, as cages: groups of cells whose digits differ, each with the digit
        sets (masks) they may make. None (by default): the search does not keep
        them, and leaves them to the check every grid it finds gets."""
        return None

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


def page_part(word: str, label: str, shape: str, **looks: Any) -> JsonObject:
    """One kind of part the setter's page draws: its word in the text format, its
    label in the page's tool list, the shape that draws it (``line``, ``edge``,
    ``mark``, ``corner``, ``outside``, ``arrow``: the page's ``parts/shapes.js``)
    and how that shape looks for it (``colour``: the one its picture uses)."""
    return {"word": word, "label": label, "shape": shape, **looks}


SHAPES = ("line", "arrow", "edge", "outside", "mark", "corner")
"""The shapes the page draws parts with, in the order its tool list groups them."""


def page_parts() -> list[JsonObject]:
    """Every kind of part the setter's page offers, as its rule describes it
    (:attr:`Rule.page`), by shape and then label."""
    load_all()
    kinds = dict.fromkeys(BY_WORD.values())
    found = [part for kind in kinds for part in kind.page]
    return sorted(found, key=lambda p: (SHAPES.index(p["shape"]), str(p["label"]).lower()))


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
