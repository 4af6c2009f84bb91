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

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from itertools import combinations

from .puzzle import Grid, Puzzle, units

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
    """Clauses over the numbering above, with what is needed to read a model back."""

    puzzle: Puzzle
    encoding: Encoding
    nv: int
    clauses: list[list[int]]
    open_cells: list[tuple[int, Sequence[int]]] = field(default_factory=list)
    """For every cell the solver decides: (cell, candidate values)."""

    @property
    def cell_variables(self) -> list[int]:
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
        size = self.puzzle.size
        grid = list(self.puzzle.cells)
        for cell, values in self.open_cells:
            chosen = [v for v in values if var(size, cell, v) in true]
            grid[cell] = chosen[0] if len(chosen) == 1 else 0
        return tuple(grid)

    def blocking_clause(self, grid: Grid) -> list[int]:
        """A clause that every solution but ``grid`` satisfies (over the cells it decides)."""
        size, cells = self.puzzle.size, self.puzzle.cells
        return [-var(size, cell, grid[cell]) for cell, _ in self.open_cells if not cells[cell]]


def augmented(rank: int) -> tuple[list[list[int]], int]:
    """tdoku's "augmented" rules and their top variable: each cell holds exactly one
    value (pairwise), and rows, columns and boxes go through triads."""
    cells, _ = groups(rank)
    clauses, top = triad_clauses(rank, rank**6)
    clauses.extend(cells)
    clauses.extend(_at_most_one(cells, "pairwise", top)[0])
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
    puzzle: Puzzle, candidates: Sequence[Sequence[int]] | None
) -> tuple[list[list[int]], list[list[int]], list[int]]:
    """Variables per cell, per (unit, value), and the givens' unit clauses.

    With ``candidates`` (the reduced form) only open candidates get variables.
    """
    n = puzzle.size
    values = range(1, n + 1)
    if candidates is not None:
        cell_groups = [
            [var(n, cell, v) for v in candidates[cell]]
            for cell in range(n * n)
            if not puzzle.cells[cell]
        ]
        allowed = [set(c) if not puzzle.cells[cell] else set() for cell, c in enumerate(candidates)]
        unit_groups = []
        for unit in units(puzzle.rank):
            placed = {puzzle.cells[cell] for cell in unit}
            for v in values:
                if v not in placed:
                    unit_groups.append([var(n, cell, v) for cell in unit if v in allowed[cell]])
        return cell_groups, unit_groups, []
    cell_groups, unit_groups = groups(puzzle.rank)
    givens = [var(n, cell, v) for cell, v in puzzle.givens]
    return cell_groups, unit_groups, givens


def groups(rank: int) -> tuple[list[list[int]], list[list[int]]]:
    """The "exactly one" groups of the rules: each cell's values, and each unit's
    cells for one value (rows, columns, boxes in :func:`puzzle.units` order)."""
    n = rank * rank
    values = range(1, n + 1)
    cells = [[var(n, cell, v) for v in values] for cell in range(n * n)]
    return cells, [[var(n, cell, v) for cell in unit] for unit in units(rank) for v in values]


def pairwise(groups: Iterable[Sequence[int]]) -> list[list[int]]:
    """At most one literal of each group, as one binary clause per pair."""
    return [[-a, -b] for group in groups for a, b in combinations(group, 2)]


def rules(rank: int) -> list[list[int]]:
    """The clauses of the rules alone (extended, pairwise): every grid of the rank."""
    return encode(Puzzle.empty(rank), Encoding(reduced=False)).clauses


def _at_most_one(groups: Sequence[list[int]], amo: str, top: int) -> tuple[list[list[int]], int]:
    if amo == "pairwise":
        return pairwise(groups), top
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


def encode(puzzle: Puzzle, encoding: Encoding | None = None) -> Cnf:
    """The CNF of ``puzzle``'s rules and givens."""
    encoding = encoding or Encoding()
    n = puzzle.size
    candidates = puzzle.candidates if encoding.reduced else None
    cell_groups, unit_groups, givens = _groups(puzzle, candidates)
    top = n**3
    clauses: list[list[int]] = [list(group) for group in cell_groups]
    unit_amo, top = _at_most_one(unit_groups, encoding.amo, top)
    clauses.extend(unit_amo)
    if encoding.rules in ("efficient", "extended"):
        cell_amo, top = _at_most_one(cell_groups, encoding.amo, top)
        clauses.extend(cell_amo)
    if encoding.rules == "extended":
        clauses.extend(list(group) for group in unit_groups)
    clauses.extend([lit] for lit in givens)
    open_cells: list[tuple[int, Sequence[int]]]
    if candidates is not None:
        open_cells = [(c, candidates[c]) for c in range(n * n) if not puzzle.cells[c]]
    else:
        every = range(1, n + 1)
        open_cells = [(c, every) for c in range(n * n)]
    return Cnf(puzzle, encoding, top, clauses, open_cells)
