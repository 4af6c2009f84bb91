"""The grid model: size, layout, cells, units, peers, givens and the rules a solution obeys.

A puzzle has N rows, N columns and N regions of N cells, and values 1..N; each
row, column and region holds every value once. Classic Sudoku's regions are
boxes of M x M cells, M the rank (N = M*M); f-puzzles' 6x6 has boxes of 2 x 3,
a jigsaw irregular regions (see :class:`Layout`). A variant puzzle's further
rules (cages, thermometers, ...) come with it as :class:`Rules`: a layout and its
constraints, each a :class:`Constraint` (what :mod:`sudosat.rules` defines). Cells are
numbered row-major, ``cell = r*N + c``. A cell holds 0 (blank) or a value 1..N;
how values are written (``1-9``, hex ``0-f``, ...) is the business of the
alphabet, not of the grid.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache, cached_property
from itertools import compress
from operator import itemgetter, mul, ne
from typing import Any, ClassVar, Protocol

from sudosat.core.jsonobject import JsonObject
from sudosat.core.masks import bit, full, values

Grid = tuple[int, ...]
"""N*N values, row-major; 0 marks a blank cell."""

MAX_RANK = 20
MAX_SIZE = MAX_RANK * MAX_RANK


@cache
def units(rank: int) -> tuple[tuple[int, ...], ...]:
    """Rows, then columns, then boxes: 3N units of N cells each."""
    return layout(rank).units


@cache
def peers(rank: int) -> tuple[frozenset[int], ...]:
    """For each cell, the other cells that share a row, column or box with it."""
    n = rank * rank
    found: list[set[int]] = [set() for _ in range(n * n)]
    for unit in units(rank):
        for cell in unit:
            found[cell].update(unit)
    return tuple(frozenset(p - {cell}) for cell, p in enumerate(found))


def unit_name(size: int, index: int, kind: str = "box") -> str:
    """``row 1``, ``column 1``, ``box 1``: a unit by its index in :attr:`Layout.units`
    (``kind`` names the regions: ``box``, or ``region`` for a jigsaw)."""
    return f"{('row', 'column', kind)[index // size]} {index % size + 1}"


def cell_name(size: int, cell: int) -> str:
    """``r1c1`` style, 1-based, as puzzle setters write it."""
    return f"r{cell // size + 1}c{cell % size + 1}"


DEFAULT_BOXES = {4: (2, 2), 6: (2, 3), 8: (2, 4), 9: (3, 3), 10: (2, 5), 12: (3, 4)}
DEFAULT_BOXES |= {14: (2, 7), 15: (3, 5), 16: (4, 4)}
"""Box rows x columns by grid size, as f-puzzles draws them; other sizes: the
most nearly square factors, or none (a prime size has no boxes)."""


def box_shape(size: int) -> tuple[int, int]:
    """Rows and columns of a box of an N x N grid (1 x N: no boxes)."""
    if size in DEFAULT_BOXES:
        return DEFAULT_BOXES[size]
    rows = max(r for r in range(1, math.isqrt(size) + 1) if size % r == 0)
    return rows, size // rows


@dataclass(frozen=True)
class Layout:
    """The grid a puzzle is on: N rows and N columns of cells, and N regions of N
    cells each: boxes (``box`` gives their rows and columns) or the irregular
    regions of a jigsaw (``box`` None). Every row, column and region holds each
    value 1..N once."""

    size: int
    regions: tuple[tuple[int, ...], ...]
    box: tuple[int, int] | None = None

    @classmethod
    def boxes(cls, size: int, shape: tuple[int, int] | None = None) -> Layout:
        """N x N with boxes of ``shape`` (rows, columns); default :func:`box_shape`."""
        rows, cols = shape or box_shape(size)
        regions = tuple(
            tuple((br * rows + r) * size + bc * cols + c for r in range(rows) for c in range(cols))
            for br in range(size // rows)
            for bc in range(size // cols)
        )
        return cls(size, regions, (rows, cols))

    @classmethod
    def jigsaw(cls, region_of: Sequence[int]) -> Layout:
        """The layout whose cell c lies in region ``region_of[c]`` (any numbering:
        regions are ordered by their first cell, so one partition is one layout);
        N regions of N cells each are the caller's to check."""
        size = math.isqrt(len(region_of))
        found: dict[int, list[int]] = {}
        for cell, region in enumerate(region_of):
            found.setdefault(region, []).append(cell)
        regions = tuple(sorted(tuple(cells) for cells in found.values()))  # by first cell
        boxes = cls.boxes(size)
        if sorted(regions) == sorted(boxes.regions):
            return boxes  # the default boxes, written out
        return cls(size, regions, None)

    @property
    def rank(self) -> int:
        """M for M x M boxes on an M*M grid (classic Sudoku's rank); 0 otherwise."""
        root = math.isqrt(self.size)
        return root if self.box == (root, root) and root * root == self.size else 0

    @property
    def irregular(self) -> bool:
        """Regions other than this size's default boxes (a jigsaw's, or boxes of
        another shape): what a file must spell out."""
        return self.box is None or self.box != box_shape(self.size)

    @property
    def region_kind(self) -> str:
        return "box" if self.box is not None else "region"

    @cached_property
    def units(self) -> tuple[tuple[int, ...], ...]:
        """Rows, then columns, then regions: 3N units of N cells each."""
        n = self.size
        rows = [tuple(r * n + c for c in range(n)) for r in range(n)]
        cols = [tuple(r * n + c for r in range(n)) for c in range(n)]
        return tuple(rows + cols + list(self.regions))

    @cached_property
    def unit_index(self) -> tuple[list[int], list[int], list[int]]:
        """For every cell, its row, its column and its region."""
        n = self.size
        rows = [cell // n for cell in range(n * n)]
        cols = [cell % n for cell in range(n * n)]
        region = [0] * (n * n)
        for index, cells in enumerate(self.regions):
            for cell in cells:
                region[cell] = index
        return rows, cols, region

    def unit_name(self, index: int) -> str:
        return unit_name(self.size, index, self.region_kind)

    @cached_property
    def checks(self) -> tuple[frozenset[int], list[itemgetter[tuple[int, ...]]]]:
        """The values 1..N, and a getter of each unit's cells."""
        return frozenset(range(1, self.size + 1)), [itemgetter(*unit) for unit in self.units]

    def violations(self, grid: Sequence[int]) -> list[str]:
        """Why a grid breaks the rows, columns and regions; empty when it keeps them."""
        n = self.size
        if len(grid) != n * n:
            return [f"grid has {len(grid)} cells, expected {n * n}"]
        every, getters = self.checks
        if all(set(get(grid)) == every for get in getters):
            return []  # the common case, checked at C speed; below says what is wrong
        problems = []
        blank = [cell for cell, v in enumerate(grid) if not 1 <= v <= n]
        if blank:
            problems.append(f"{cell_name(n, blank[0])} holds no value 1..{n}")
        full = set(range(1, n + 1))
        for index, unit in enumerate(self.units):
            if {grid[cell] for cell in unit} != full:
                problems.append(f"{self.unit_name(index)} does not hold every value once")
        return problems


@cache
def layout(rank: int) -> Layout:
    """Classic Sudoku's layout of rank M: M x M boxes on an M*M grid."""
    return Layout.boxes(rank * rank, (rank, rank))


@dataclass(frozen=True)
class Clash:
    """Two givens with the same value in one unit."""

    first: int
    second: int
    value: int
    unit: str

    def describe(self, puzzle: Puzzle) -> str:
        a, b = cell_name(puzzle.size, self.first), cell_name(puzzle.size, self.second)
        return f"{a} and {b} both hold {puzzle.symbol(self.value)} in {self.unit}"


class Constraint(Protocol):
    """What the model asks of a variant's rule: every rule of :mod:`sudosat.rules`
    is one (its builder, pen and place in a file are that package's business)."""

    family: ClassVar[str]
    field: ClassVar[str]
    words: ClassVar[tuple[str, ...]]
    flag: ClassVar[bool]
    technique: ClassVar[str]
    relative: ClassVar[bool]
    outside: ClassVar[bool]
    drawn: ClassVar[bool]
    title: ClassVar[str]
    meaning: ClassVar[str]

    def settle(self, others: Sequence[Any]) -> Any: ...
    def broken(self, grid: Sequence[int], layout: Layout) -> str | None: ...
    def describe(self, size: int) -> str: ...
    def allowed(self, size: int) -> dict[int, int]: ...
    def houses(self, layout: Layout) -> tuple[tuple[int, ...], ...]: ...
    def cells(self) -> tuple[int, ...]: ...
    def text(self, size: int) -> str: ...
    def to_fpuzzles(self, size: int) -> tuple[str, Any]: ...
    def grid_entry(self) -> tuple[int, JsonObject] | None: ...
    def deduction(self, size: int, candidates: Sequence[int]) -> str: ...
    def note(self, size: int) -> str: ...
    def relabels(self) -> bool: ...
    def sees(self, layout: Layout, cell: int, value: int) -> Iterable[tuple[int, int]]: ...
    def draw(self, pen: Any) -> None: ...
    def encode(self, b: Any) -> None: ...
    def encode_among(self, b: Any, selectors: Sequence[tuple[Any, int]]) -> None: ...
    @classmethod
    def search_cages(
        cls, rules: Sequence[Any], layout: Layout
    ) -> list[tuple[tuple[int, ...], tuple[int, ...]]] | None: ...
    def clause_estimate(self, size: int) -> int: ...


@dataclass(frozen=True)
class Rules:
    """A variant puzzle's rules: its layout (regions) and its constraints."""

    layout: Layout
    constraints: tuple[Constraint, ...] = ()
    drawings: tuple[str, ...] = field(default=(), compare=False)
    """What the puzzle draws that carries no rule sudosat reads (f-puzzles' plain
    ``line`` and ``cage``...): a setter may have meant a rule by one."""
    lost: tuple[str, ...] = field(default=(), compare=False)
    """Kinds of rule its link held as shapes only: an editor that does not know
    them dropped them when it saved the link (its rules text still names them)."""

    def by_kind(self) -> dict[type[Any], list[Any]]:
        """The constraints grouped by their kind (a kind writes its clauses, and what
        the search keeps of it, for all of its rules at once), each kind in the
        order it first comes."""
        kinds: dict[type[Any], list[Any]] = {}
        for rule in self.constraints:
            kinds.setdefault(type(rule), []).append(rule)
        return kinds

    @classmethod
    def of(
        cls,
        layout: Layout,
        constraints: Iterable[Constraint],
        drawings: tuple[str, ...] = (),
        lost: tuple[str, ...] = (),
    ) -> Rules:
        """The rules, each settled among the others, without repeats."""
        found = tuple(dict.fromkeys(constraints))
        return cls(layout, tuple(rule.settle(found) for rule in found), drawings, lost)

    def without(self, removed: Iterable[Constraint]) -> Rules:
        """These rules with ``removed`` taken away, the rest settled again among
        what is left (a negative constraint takes the pairs of the dots left)."""
        gone = set(map(id, removed))
        kept = [c for c in self.constraints if id(c) not in gone]
        return Rules.of(self.layout, kept, self.drawings, self.lost)

    @property
    def relative(self) -> bool:
        """Whether taking a rule away can constrain more (see ``Rule.relative``)."""
        return any(c.relative for c in self.constraints)

    def violations(self, grid: Sequence[int]) -> list[str]:
        """Why a grid that keeps the rows, columns and regions breaks a constraint."""
        size = self.layout.size
        found = []
        for constraint in self.constraints:
            why = constraint.broken(grid, self.layout)
            if why is not None:
                found.append(f"{constraint.describe(size)}: {why}")
        return found

    def allowed(self) -> dict[int, int]:
        """Each narrowed cell's values, every constraint's limits together."""
        found: dict[int, int] = {}
        size = self.layout.size
        for constraint in self.constraints:
            for cell, mask in constraint.allowed(size).items():
                found[cell] = found.get(cell, mask) & mask
        return found

    def describe(self) -> list[str]:
        size = self.layout.size
        lines = [] if self.layout.box is not None else [f"irregular regions ({size} of {size})"]
        return lines + [c.describe(size) for c in self.constraints]

    def families(self) -> list[str]:
        return sorted({c.family for c in self.constraints})


@dataclass(frozen=True)
class Puzzle:
    """A Sudoku: N*N cells holding 0 (blank) or 1..N, and its rules. A classic
    puzzle (``rules`` None) has rank M, N = M*M; a variant's rules give its
    layout and its constraints, and its rank is that of the layout (0 unless
    it has M x M boxes on an M*M grid)."""

    rank: int
    cells: Grid
    alphabet: str = ""
    """Symbols for values 1..N, in order; empty means whitespace-separated numbers."""
    source: str = "<puzzle>"
    line: int = 1
    name: str = ""
    """The puzzle's name, from a header line above it (``Grid 01``), if any."""
    rules: Rules | None = None
    """A variant's layout and constraints; None for classic Sudoku."""
    author: str = ""
    """Who set it (f-puzzles' ``author``, a text file's ``author:``), if known."""
    ruleset: str = ""
    """The rules as its setter wrote them for solvers (f-puzzles' ``ruleset``)."""

    def __post_init__(self) -> None:
        n = self.size
        if self.rules is None and not 2 <= self.rank <= MAX_RANK:
            raise ValueError(f"rank {self.rank} is outside 2..{MAX_RANK}")
        if self.rules is not None and self.rank != self.rules.layout.rank:
            raise ValueError(f"rank {self.rank} does not match the layout's")
        if len(self.cells) != n * n:
            raise ValueError(f"rank {self.rank} needs {n * n} cells, got {len(self.cells)}")
        if min(self.cells) < 0 or max(self.cells) > n:
            raise ValueError(f"cell values must be 0..{n}")
        if self.alphabet and len(self.alphabet) != n:
            raise ValueError(f"alphabet must have {n} symbols")

    @classmethod
    def empty(cls, rank: int) -> Puzzle:
        """The grid with no givens: the rules alone."""
        return cls(rank, (0,) * rank**4)

    @property
    def size(self) -> int:
        """N: the number of rows, columns, regions and values."""
        return self.rules.layout.size if self.rules is not None else self.rank * self.rank

    @property
    def layout(self) -> Layout:
        return self.rules.layout if self.rules is not None else layout(self.rank)

    @property
    def constraints(self) -> tuple[Constraint, ...]:
        """The variant rules it holds besides its regions (none: classic, or a jigsaw)."""
        return self.rules.constraints if self.rules is not None else ()

    @property
    def classic(self) -> bool:
        """Classic Sudoku: square boxes and no other rule."""
        return self.rules is None

    @cached_property
    def givens(self) -> tuple[tuple[int, int], ...]:
        """(cell, value) for every filled cell."""
        return tuple((cell, v) for cell, v in enumerate(self.cells) if v)

    def symbol(self, value: int) -> str:
        """How a value is written in this puzzle's own notation."""
        if value == 0:
            return "." if self.alphabet else "0"
        return self.alphabet[value - 1] if self.alphabet else str(value)

    def spell(self, values: Iterable[int]) -> str:
        """Values in this puzzle's symbols, written together: joined by commas where
        a symbol has several characters (numbers past 9)."""
        joiner = "," if self.size > 9 and not self.alphabet else ""
        return joiner.join(self.symbol(v) for v in values)

    def clashes(self) -> list[Clash]:
        """Pairs of givens that break the rules before anything is solved."""
        found = []
        grid = self.layout
        for index, unit in enumerate(grid.units):
            seen: dict[int, int] = {}
            for cell in unit:
                value = self.cells[cell]
                if not value:
                    continue
                if value in seen:
                    found.append(Clash(seen[value], cell, value, grid.unit_name(index)))
                else:
                    seen[value] = cell
        return found

    @cached_property
    def masks(self) -> dict[int, int]:
        """Each blank cell's candidates as a mask (:mod:`sudosat.core.masks`), computed
        once per puzzle (see :func:`candidate_masks`)."""
        return candidate_masks(self)

    @cached_property
    def candidates(self) -> tuple[tuple[int, ...], ...]:
        """For each cell, the values not ruled out by a given in the cell or a peer.

        A given cell has exactly its own value as candidate. Computed once per
        puzzle, in time proportional to the cells and the candidates.
        """
        masks = self.masks
        return tuple((v,) if v else values(masks[cell]) for cell, v in enumerate(self.cells))


def a_puzzle(value: object, caller: str) -> Puzzle:
    """``value``, a Puzzle; else a TypeError that says how to make one (the
    public API's functions are given puzzles, and text is parsed first)."""
    if isinstance(value, Puzzle):
        return value
    hint = ": parse(text) makes one" if isinstance(value, str) else ""
    raise TypeError(f"{caller}() takes a Puzzle, not {type(value).__name__}{hint}")


@cache
def unit_index(rank: int) -> tuple[list[int], list[int], list[int]]:
    """For every cell, its row, its column and its box."""
    return layout(rank).unit_index


def placed_masks(puzzle: Puzzle) -> list[list[int]]:
    """The givens of every row, column and box as masks: ``placed[kind][index]``."""
    n = puzzle.size
    rows, cols, boxes = puzzle.layout.unit_index
    placed = [[0] * n for _ in range(3)]
    row_p, col_p, box_p = placed
    for cell, value in enumerate(puzzle.cells):
        if value:
            mask = bit(value)
            row_p[rows[cell]] |= mask
            col_p[cols[cell]] |= mask
            box_p[boxes[cell]] |= mask
    return placed


def candidate_masks(puzzle: Puzzle) -> dict[int, int]:
    """Each blank cell's candidates as a mask: the values no given peer holds (and,
    in a variant, that its rules allow the cell on their own)."""
    rows, cols, boxes = puzzle.layout.unit_index
    row_p, col_p, box_p = placed_masks(puzzle)
    every = full(puzzle.size)
    masks = {
        cell: every & ~(row_p[rows[cell]] | col_p[cols[cell]] | box_p[boxes[cell]])
        for cell, value in enumerate(puzzle.cells)
        if not value
    }
    if puzzle.rules is not None:  # a variant's rules narrow their cells on their own
        for cell, allowed in puzzle.rules.allowed().items():
            if cell in masks:
                masks[cell] &= allowed
    return masks


def rank_for_cells(count: int) -> int | None:
    """The rank whose grid has ``count`` cells, if any (81 -> 3, 256 -> 4, ...)."""
    for rank in range(2, MAX_RANK + 1):
        if rank**4 == count:
            return rank
    return None


def rule_violations(rank: int, grid: Sequence[int]) -> list[str]:
    """Why a grid is not a completed classic Sudoku of ``rank``; empty when it is one."""
    return layout(rank).violations(grid)


def verify(puzzle: Puzzle, grid: Sequence[int]) -> list[str]:
    """Why ``grid`` is not a solution of ``puzzle``: its rows, columns and regions,
    its givens, and each of a variant's rules (checked on the grid itself, never
    through the encoding); empty when it is one."""
    problems = puzzle.layout.violations(grid)
    cells = puzzle.cells
    # grid * (cell is given) == cells exactly when every given is kept; at C speed
    if len(grid) == len(cells) and tuple(map(mul, grid, map(bool, cells))) != tuple(cells):
        changed = next(c for c, v in enumerate(cells) if v and grid[c] != v)
        problems.append(f"{cell_name(puzzle.size, changed)} changes a given")
    if puzzle.rules is not None and not problems:
        problems += puzzle.rules.violations(grid)
    return problems


def differences(a: Sequence[int], b: Sequence[int]) -> list[int]:
    """Cells where two grids disagree (at C speed: a generator asks it of every
    second solution it finds)."""
    if len(a) != len(b):
        raise ValueError(f"grids of {len(a)} and {len(b)} cells")
    return list(compress(range(len(a)), map(ne, a, b)))
