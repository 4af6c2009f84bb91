"""Compiling a puzzle to CNF: variable numbering, clause families, encoding variants.

Variable numbering (documented in the README and in every CNF written):
row r, column c, value v, all 0-based, N = rank*rank::

    var = (r*N + c)*N + v + 1        ==  cell*N + value   (cell = r*N + c, value = v + 1)

so 9x9 uses 1..729 and 16x16 1..4096, exactly the hex MiniSat report's numbering.
Auxiliary variables of at-most-one encodings other than pairwise come after N**3.

Families (Lynce and Ouaknine, "Sudoku as a SAT problem"):

* minimal:   every cell holds a value; every value at most once per row, column, box;
* efficient: minimal, and every cell holds at most one value;
* extended:  efficient, and every value at least once per row, column, box.

``reduced`` (Kwon and Jain, "Optimized CNF encoding for Sudoku puzzles") leaves
out what the givens decide: clauses a given satisfies are dropped and literals a
given falsifies are removed. The numbering stays the same, so a model still
decodes through it; the givens themselves then come from the puzzle.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

from .puzzle import Grid, Layout, Puzzle, layout, values_of

RULES = ("minimal", "efficient", "extended")
AMO_ENCODINGS = (
    "pairwise",
    "seqcounter",
    "ladder",
    "bitwise",
    "totalizer",
    "mtotalizer",
    "kmtotalizer",
    "sortnetwrk",
    "cardnetwrk",
)


@dataclass(frozen=True)
class Encoding:
    """Which clauses to write. The defaults are the fastest in benchmarks/encodings.py."""

    rules: str = "extended"
    amo: str = "pairwise"
    reduced: bool = True

    def __post_init__(self) -> None:
        if self.rules not in RULES:
            raise ValueError(f"unknown rules {self.rules!r}; choose from {', '.join(RULES)}")
        if self.amo not in AMO_ENCODINGS:
            raise ValueError(
                f"unknown at-most-one encoding {self.amo!r}; choose from {', '.join(AMO_ENCODINGS)}"
            )

    def describe(self) -> str:
        return f"{self.rules}, at-most-one {self.amo}" + (", reduced" if self.reduced else "")


def var(size: int, cell: int, value: int) -> int:
    """The variable for ``value`` (1..N) in ``cell`` (row-major)."""
    return cell * size + value


@dataclass
class Cnf:
    """Clauses over the numbering above, with what is needed to read a model back.

    The clauses are kept as parts: lists of clauses, and groups whose pairwise
    "at most one" clauses are made only when read, so a big CNF is counted
    exactly and streamed without being held (see :meth:`iter_clauses`).

    ``compact``: the open candidates are numbered 1, 2, ... in cell order
    instead (what solvers get, so that a 400x400 grid does not make a solver
    allocate for 64 million variables); :meth:`decode` reads either.
    """

    puzzle: Puzzle
    encoding: Encoding
    nv: int
    parts: list[Part]
    open_cells: list[tuple[int, Sequence[int]]] = field(default_factory=list)
    """For every cell the solver decides: (cell, candidate values)."""
    compact: bool = False
    groups: list[list[int]] = field(default_factory=list)
    """Every "exactly one" group of the rules (cells' values, units' cells for a
    value), for solvers with native cardinality constraints."""
    atmost: list[list[int]] = field(default_factory=list)
    """A variant's "at most one" groups (a cage's cells for a value), likewise."""
    extra: list[list[int]] = field(default_factory=list)
    """A variant's other clauses, which a solver with native cardinality
    constraints needs beside the groups."""
    names: list[str] = field(default_factory=list)
    """A name per part: its clause family (a variant's CNF writes a comment
    block before each; a classic one's names are empty)."""

    def families(self) -> dict[str, int]:
        """Clauses per named family, in order."""
        found: dict[str, int] = {}
        for name, part in zip(self.names, self.parts, strict=False):
            if name:
                found[name] = found.get(name, 0) + len(part)
        return found

    @property
    def clauses(self) -> list[list[int]]:
        """Every clause, as one list (small CNFs; big ones: :meth:`iter_clauses`)."""
        return list(self.iter_clauses())

    def iter_clauses(self) -> Iterator[list[int]]:
        for part in self.parts:
            if isinstance(part, Pairwise):
                for group in part.groups:
                    yield from ([-a, -b] for a, b in combinations(group, 2))
            else:
                yield from part

    @property
    def clause_count(self) -> int:
        return sum(len(part) for part in self.parts)

    def first_variables(self) -> list[int]:
        """The variable of each open cell's first candidate."""
        if not self.compact:
            size = self.puzzle.size
            return [var(size, cell, values[0]) for cell, values in self.open_cells]
        found, top = [], 1
        for _, values in self.open_cells:
            found.append(top)
            top += len(values)
        return found

    def variable(self, first: int, values: Sequence[int], value: int) -> int:
        """The variable saying an open cell (whose first variable is ``first``) holds ``value``."""
        if self.compact:
            return first + values.index(value)
        return first - values[0] + value

    @property
    def variable_count(self) -> int:
        """Variables the clauses use: the open candidates' and the auxiliary ones."""
        if self.compact:
            return self.nv
        cells = sum(len(values) for _, values in self.open_cells)
        return cells + self.nv - self.puzzle.size**3

    @property
    def cell_variables(self) -> list[int]:
        if self.compact:
            return list(range(1, sum(len(values) for _, values in self.open_cells) + 1))
        size = self.puzzle.size
        return [var(size, cell, v) for cell, values in self.open_cells for v in values]

    def comments(self) -> list[str]:
        p, n = self.puzzle, self.puzzle.size
        lines = [
            "sudosat CNF",
            f"rank {p.rank} ({n}x{n}), encoding {self.encoding.describe()}",
            f"variable (r*{n} + c)*{n} + v + 1 means row r, column c holds value v (0-based)",
            f"variables 1..{n**3} are cells; any above are auxiliary",
        ]
        if p.givens:
            from .formats import format_line

            lines.append(f"puzzle {format_line(p)}")
            if self.encoding.reduced:
                lines.append("givens are left out (reduced): read them from the puzzle")
        else:
            lines.append("rules only: add one unit clause per given")
        return lines

    def decode(self, model: Iterable[int]) -> Grid:
        """The grid a model describes; 0 where a cell has no single value.

        Only the cell variables this CNF constrains are read: solvers may set
        variables that occur in no clause to anything (CaDiCaL sets them true).
        """
        true = {lit for lit in model if lit > 0}
        grid = list(self.puzzle.cells)
        for first, (cell, values) in zip(self.first_variables(), self.open_cells, strict=True):
            chosen = [v for v in values if self.variable(first, values, v) in true]
            grid[cell] = chosen[0] if len(chosen) == 1 else 0
        return tuple(grid)

    def blocking_clause(self, grid: Grid) -> list[int]:
        """A clause that every solution but ``grid`` satisfies (over the cells it decides)."""
        cells = self.puzzle.cells
        return [
            -self.variable(first, values, grid[cell])
            for first, (cell, values) in zip(self.first_variables(), self.open_cells, strict=True)
            if not cells[cell]
        ]


class Pairwise:
    """Groups whose "at most one" is a binary clause per pair, made when read."""

    def __init__(self, groups: Sequence[Sequence[int]]) -> None:
        self.groups = groups

    def __len__(self) -> int:
        return sum(len(group) * (len(group) - 1) // 2 for group in self.groups)


Part = list[list[int]] | Pairwise


def augmented(rank: int) -> tuple[list[list[int]], int]:
    """tdoku's "augmented" rules and their top variable: each cell holds exactly one
    value (pairwise), and rows, columns and boxes go through triads."""
    cells, _ = groups(rank)
    clauses, top = triad_clauses(rank, rank**6)
    clauses.extend(cells)
    clauses.extend(pairwise(cells))
    return clauses, top


def triad_clauses(rank: int, top: int) -> tuple[list[list[int]], int]:
    """The row, column and box rules through triads, for variables above ``top``;
    returns the clauses and the new top. With every cell holding exactly one value
    they are a complete encoding (tdoku's "augmented"), one whose unit
    propagation also sees box-line interactions ("pointing" and "claiming").

    A triad is the M cells where a row (or column) crosses a box. Variable
    t(triad, value) holds when the value is in one of its cells, and at most one
    of those cells holds it. Each line and each box holds each value in exactly
    one of its M triads of a direction, so when the value is ruled out of all but
    one triad of a box, the rest of the line loses it (and the other way round).
    """
    n = rank * rank
    clauses: list[list[int]] = []

    def exactly_one(lits: list[int]) -> None:
        clauses.append(lits)
        clauses.extend(pairwise([lits]))

    for value in range(1, n + 1):
        for across in (True, False):
            triad: list[list[int]] = []  # triad[line][box index along the line] -> variable
            for line in range(n):
                along: list[int] = []
                for k in range(rank):
                    top += 1
                    cells = [
                        line * n + k * rank + j if across else (k * rank + j) * n + line
                        for j in range(rank)
                    ]
                    lits = [var(n, cell, value) for cell in cells]
                    clauses.append([-top, *lits])
                    clauses.extend([-lit, top] for lit in lits)
                    clauses.extend(pairwise([lits]))
                    along.append(top)
                triad.append(along)
                exactly_one(along[:])
            for band in range(rank):
                for k in range(rank):
                    exactly_one([triad[band * rank + i][k] for i in range(rank)])
    return clauses, top


def decode_model(puzzle: Puzzle, model: Iterable[int]) -> Grid:
    """The grid a model of any of ``puzzle``'s CNFs (reduced or full) describes.

    Only blank cells' candidate variables are read: every encoding constrains
    those, and the reduced form leaves the others out of every clause.
    """
    candidates = puzzle.candidates
    open_cells: list[tuple[int, Sequence[int]]] = [
        (cell, candidates[cell]) for cell, v in enumerate(puzzle.cells) if not v
    ]
    return Cnf(puzzle, Encoding(), 0, [], open_cells).decode(model)


def _groups(
    puzzle: Puzzle, reduced: bool, compact: bool, masks: dict[int, int] | None = None
) -> tuple[list[tuple[int, Sequence[int]]], list[list[int]], list[list[int]]]:
    """The open cells with their candidates, the variables of each open cell, and
    of each (unit, value) group, in :func:`puzzle.units` order then by value.

    Reduced: only open candidates get variables, found in time proportional to
    their number (the unit groups are filled cell by cell, never by scanning a
    unit for each value).
    """
    n = puzzle.size
    if not reduced:
        every = range(1, n + 1)
        return [(c, every) for c in range(n * n)], *layout_groups(puzzle.layout)
    rows, cols, boxes = puzzle.layout.unit_index
    masks = puzzle.masks if masks is None else masks
    stride = n + 1
    open_cells: list[tuple[int, Sequence[int]]] = []
    cell_groups: list[list[int]] = []
    by_unit: dict[int, list[int]] = {}
    top = 0
    for cell, mask in masks.items():
        values = values_of(mask)
        open_cells.append((cell, values))
        if compact:
            variables = list(range(top + 1, top + 1 + len(values)))
            top += len(values)
        else:
            variables = [cell * n + v for v in values]
        cell_groups.append(variables)
        keys = (rows[cell] * stride, (n + cols[cell]) * stride, (2 * n + boxes[cell]) * stride)
        for variable, v in zip(variables, values, strict=True):
            for key in keys:
                found = by_unit.get(key + v)
                if found is None:
                    by_unit[key + v] = [variable]
                else:
                    found.append(variable)
    return open_cells, cell_groups, [by_unit[key] for key in sorted(by_unit)]


def groups(rank: int) -> tuple[list[list[int]], list[list[int]]]:
    """The "exactly one" groups of the rules: each cell's values, and each unit's
    cells for one value (rows, columns, boxes in :func:`puzzle.units` order)."""
    return layout_groups(layout(rank))


def layout_groups(grid: Layout) -> tuple[list[list[int]], list[list[int]]]:
    """:func:`groups` for any layout (rows, columns, then its regions)."""
    n = grid.size
    values = range(1, n + 1)
    cells = [[var(n, cell, v) for v in values] for cell in range(n * n)]
    return cells, [[var(n, cell, v) for cell in unit] for unit in grid.units for v in values]


def pairwise(groups: Iterable[Sequence[int]]) -> list[list[int]]:
    """At most one literal of each group, as one binary clause per pair."""
    return [[-a, -b] for group in groups for a, b in combinations(group, 2)]


def rules(rank: int) -> list[list[int]]:
    """The clauses of the rules alone (extended, pairwise): every grid of the rank."""
    return encode(Puzzle.empty(rank), Encoding(reduced=False)).clauses


def at_most_one_part(groups: Sequence[list[int]], amo: str, top: int) -> tuple[Part, int]:
    if amo == "pairwise":
        return Pairwise(groups), top
    from pysat.card import CardEnc, EncType

    kind = getattr(EncType, amo)
    clauses: list[list[int]] = []
    for group in groups:
        if len(group) < 2:
            continue
        if len(group) <= 4:  # pairwise is smaller here, and needs no new variables
            clauses.extend(pairwise([group]))
            continue
        cnf = CardEnc.atmost(group, 1, top_id=top, encoding=kind)
        clauses.extend(cnf.clauses)
        top = max(top, cnf.nv)
    return clauses, top


CLASSIC_NAMES = (
    "cells: each holds a value",
    "rows, columns, regions: each value at most once",
    "cells: each holds at most one value",
    "rows, columns, regions: each value at least once",
    "givens",
)
"""The families of a variant's CNF that classic Sudoku has too."""


def encode(
    puzzle: Puzzle,
    encoding: Encoding | None = None,
    *,
    compact: bool = False,
    masks: dict[int, int] | None = None,
) -> Cnf:
    """The CNF of ``puzzle``'s rules and givens (``compact``: see :class:`Cnf`).
    ``masks``: the blank cells' candidates, when already known (they must be
    :attr:`Puzzle.masks` of ``puzzle``, as :func:`deduce.deduce` leaves them)."""
    encoding = encoding or Encoding()
    n = puzzle.size
    compact = compact and encoding.reduced
    open_cells, cell_groups, unit_groups = _groups(puzzle, encoding.reduced, compact, masks)
    top = sum(len(group) for group in cell_groups) if compact else n**3
    cells_one, units_most, cells_most, units_least, givens = CLASSIC_NAMES
    named: list[tuple[str, Part]] = [(cells_one, cell_groups)]
    unit_amo, top = at_most_one_part(unit_groups, encoding.amo, top)
    named.append((units_most, unit_amo))
    if encoding.rules in ("efficient", "extended"):
        cell_amo, top = at_most_one_part(cell_groups, encoding.amo, top)
        named.append((cells_most, cell_amo))
    if encoding.rules == "extended":
        named.append((units_least, unit_groups))
    if not encoding.reduced:
        named.append((givens, [[var(n, cell, v)] for cell, v in puzzle.givens]))
    parts = [part for _, part in named]
    cnf = Cnf(puzzle, encoding, top, parts, open_cells, compact, cell_groups + unit_groups)
    if puzzle.rules is not None:
        cnf.names = [name for name, _ in named]
        _encode_rules(cnf, cell_groups)
    return cnf


def guarded_rules(cnf: Cnf, cell_groups: list[list[int]]) -> tuple[list[list[int]], list[int], int]:
    """A variant's rules for explaining: each rule's clauses (its groups too, as
    clauses) switched on by a selector of its own, in the order of the puzzle's
    constraints, the order literals' definitions always on. Returns the
    clauses, the selectors and the top variable. ``cnf``: the layout's full
    encoding (no rules in it)."""
    assert cnf.puzzle.rules is not None
    from .builder import Builder  # here: a classic puzzle never needs it

    builder = Builder(cnf, cell_groups)
    selectors = []
    for rule in cnf.puzzle.rules.constraints:
        builder.guard = builder.new()
        selectors.append(builder.guard)
        rule.encode(builder)
    return builder.clauses, selectors, builder.top


def explaining(puzzle: Puzzle) -> tuple[list[list[int]], list[list[int]], list[int], int]:
    """What explaining a puzzle needs, givens left out (they go in as
    assumptions): the layout's rules as "exactly one" groups over the numbering
    above, a variant's rules as clauses each switched on by its own selector
    (see :func:`guarded_rules`), the selectors, and the top variable."""
    from dataclasses import replace

    from .rules import Rules

    n = puzzle.size
    layout_rules = Rules(puzzle.layout) if puzzle.rules is not None else None
    empty = replace(puzzle, cells=(0,) * (n * n), rules=layout_rules)
    open_cells, cell_groups, unit_groups = _groups(empty, False, False)
    groups = cell_groups + unit_groups
    if puzzle.rules is None or not puzzle.rules.constraints:
        return groups, [], [], n**3
    cnf = Cnf(replace(empty, rules=puzzle.rules), Encoding(reduced=False), n**3, [], open_cells)
    clauses, selectors, top = guarded_rules(cnf, cell_groups)
    return groups, clauses, selectors, top


def _encode_rules(cnf: Cnf, cell_groups: list[list[int]]) -> None:
    """A variant's constraints after the rows, columns and regions, each family's
    clauses a part of its own (named for the CNF's comment blocks)."""
    puzzle = cnf.puzzle
    assert puzzle.rules is not None
    from .builder import Builder  # here: a classic puzzle never needs it

    builder = Builder(cnf, cell_groups)
    kinds: dict[type[Any], list[Any]] = {}
    for rule in puzzle.rules.constraints:
        kinds.setdefault(type(rule), []).append(rule)
    for kind, rules in sorted(kinds.items(), key=lambda item: item[0].family):
        builder.family(kind.family)
        kind.encode_all(rules, builder)
    builder.finish()
