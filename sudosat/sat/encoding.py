"""Compiling a puzzle to CNF: the grid's clause families (``--encoding``), the
givens, and each variant rule's clauses.

Variable numbering (:mod:`sudosat.sat.cnf`; in the docs and in every CNF written):
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

from collections.abc import Iterable, Sequence
from dataclasses import replace

from sudosat.core.masks import values as values_of
from sudosat.core.puzzle import Grid, Layout, Puzzle, Rules, a_puzzle, layout
from sudosat.sat.builder import Builder
from sudosat.sat.cnf import Cnf, Encoding, Part, at_most_one_part, cell_literals, literal, pairwise


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
                    lits = [literal(n, cell, value) for cell in cells]
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
    by_unit: list[list[int] | None] = [None] * (3 * n * stride)  # unit * stride + value
    top = 0
    for cell, mask in masks.items():
        values = values_of(mask)
        open_cells.append((cell, values))
        if compact:
            variables = list(range(top + 1, top + 1 + len(values)))
            top += len(values)
        else:
            variables = cell_literals(n, cell, values)
        cell_groups.append(variables)
        keys = (rows[cell] * stride, (n + cols[cell]) * stride, (2 * n + boxes[cell]) * stride)
        for variable, v in zip(variables, values, strict=True):
            for key in keys:
                found = by_unit[key + v]
                if found is None:
                    by_unit[key + v] = [variable]
                else:
                    found.append(variable)
    return open_cells, cell_groups, [group for group in by_unit if group is not None]


def groups(rank: int) -> tuple[list[list[int]], list[list[int]]]:
    """The "exactly one" groups of the rules: each cell's values, and each unit's
    cells for one value (rows, columns, boxes in :func:`puzzle.units` order)."""
    return layout_groups(layout(rank))


def layout_groups(grid: Layout) -> tuple[list[list[int]], list[list[int]]]:
    """:func:`groups` for any layout (rows, columns, then its regions)."""
    n = grid.size
    values = range(1, n + 1)
    cells = [[literal(n, cell, v) for v in values] for cell in range(n * n)]
    return cells, [[literal(n, cell, v) for cell in unit] for unit in grid.units for v in values]


def grid_clauses(rank: int) -> list[list[int]]:
    """The clauses of the rules alone (extended, pairwise): every grid of the rank."""
    return encode(Puzzle.empty(rank), Encoding(reduced=False)).clauses


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
    puzzle = a_puzzle(puzzle, "encode")
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
    implied = _leftover_part(puzzle, open_cells, cell_groups) if puzzle.layout.box is None else []
    if implied:
        named.append((LEFTOVERS, implied))
    if not encoding.reduced:
        named.append((givens, [[literal(n, cell, v)] for cell, v in puzzle.givens]))
    parts = [part for _, part in named]
    cnf = Cnf(puzzle, encoding, top, parts, open_cells, compact, cell_groups + unit_groups)
    cnf.extra.extend(implied)  # (a solver of native groups reads the clauses beside them here)
    if puzzle.rules is not None:
        cnf.names = [name for name, _ in named]
        _encode_rules(cnf, cell_groups)
    return cnf


LEFTOVERS = "regions: the law of leftovers (implied)"


def _leftover_part(
    puzzle: Puzzle, open_cells: list[tuple[int, Sequence[int]]], cell_groups: list[list[int]]
) -> list[list[int]]:
    from sudosat.sat.leftovers import leftover_cells, leftover_clauses  # (a jigsaw's alone)

    named = leftover_cells(puzzle.layout)
    if not named:
        return []
    literal_of = {
        (cell, value): variable
        for (cell, values), variables in zip(open_cells, cell_groups, strict=True)
        if cell in named
        for value, variable in zip(values, variables, strict=True)
    }
    return leftover_clauses(puzzle.layout, literal_of, dict(puzzle.givens))


def guarded_rules(
    cnf: Cnf, cell_groups: list[list[int]], among: bool = True
) -> tuple[list[list[int]], list[int], int]:
    """A variant's rules for explaining: each rule's clauses (its groups too, as
    clauses) switched on by a selector of its own, in the order of the puzzle's
    constraints, the order literals' definitions always on; a rule whose
    meaning depends on the others' presence says how (``encode_among``: a
    negative constraint's pair holds while its dot is away). Returns the
    clauses, the selectors and the top variable. ``cnf``: the layout's full
    encoding (no rules in it)."""
    assert cnf.puzzle.rules is not None
    builder = Builder(cnf, cell_groups)
    rules = cnf.puzzle.rules.constraints
    selectors = [builder.new() for _ in rules]
    pairs = list(zip(rules, selectors, strict=True))
    for rule, selector in pairs:
        builder.guard = selector
        if among:
            rule.encode_among(builder, pairs)
        else:
            rule.encode(builder)
    return builder.clauses, selectors, builder.top


def explaining(
    puzzle: Puzzle, among: bool = True
) -> tuple[list[list[int]], list[list[int]], list[int], int]:
    """What explaining a puzzle needs, givens left out (they go in as
    assumptions): the layout's rules as "exactly one" groups over the numbering
    above, a variant's rules as clauses each switched on by its own selector
    (see :func:`guarded_rules`), the selectors, and the top variable.
    ``among``: False for each rule's clauses as the whole puzzle settles it (a
    rule asked about alone, every other rule being there: the logical path)."""
    n = puzzle.size
    layout_rules = Rules(puzzle.layout) if puzzle.rules is not None else None
    empty = replace(puzzle, cells=(0,) * (n * n), rules=layout_rules)
    open_cells, cell_groups, unit_groups = _groups(empty, False, False)
    groups = cell_groups + unit_groups
    if not puzzle.constraints:
        return groups, [], [], n**3
    cnf = Cnf(replace(empty, rules=puzzle.rules), Encoding(reduced=False), n**3, [], open_cells)
    clauses, selectors, top = guarded_rules(cnf, cell_groups, among)
    return groups, clauses, selectors, top


def _encode_rules(cnf: Cnf, cell_groups: list[list[int]]) -> None:
    """A variant's constraints after the rows, columns and regions, each family's
    clauses a part of its own (named for the CNF's comment blocks)."""
    puzzle = cnf.puzzle
    assert puzzle.rules is not None
    builder = Builder(cnf, cell_groups)
    for kind, rules in sorted(puzzle.rules.by_kind().items(), key=lambda item: item[0].family):
        builder.family(kind.family)
        kind.encode_all(rules, builder)
    builder.finish()
