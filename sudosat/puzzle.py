"""The grid model: rank, cells, units, peers, givens and the rules a solution obeys.

A puzzle of rank M has N = M*M rows, columns, boxes and values. Cells are numbered
row-major, ``cell = r*N + c``. A cell holds 0 (blank) or a value 1..N; how values
are written (``1-9``, hex ``0-f``, ...) is the business of the alphabet, not of
the grid.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, cached_property
from operator import itemgetter, mul

Grid = tuple[int, ...]
"""N*N values, row-major; 0 marks a blank cell."""

MAX_RANK = 20


@cache
def units(rank: int) -> tuple[tuple[int, ...], ...]:
    """Rows, then columns, then boxes: 3N units of N cells each."""
    n = rank * rank
    rows = [tuple(r * n + c for c in range(n)) for r in range(n)]
    cols = [tuple(r * n + c for r in range(n)) for c in range(n)]
    boxes = [
        tuple((br * rank + r) * n + bc * rank + c for r in range(rank) for c in range(rank))
        for br in range(rank)
        for bc in range(rank)
    ]
    return tuple(rows + cols + boxes)


@cache
def peers(rank: int) -> tuple[frozenset[int], ...]:
    """For each cell, the other cells that share a row, column or box with it."""
    n = rank * rank
    found: list[set[int]] = [set() for _ in range(n * n)]
    for unit in units(rank):
        for cell in unit:
            found[cell].update(unit)
    return tuple(frozenset(p - {cell}) for cell, p in enumerate(found))


def unit_name(rank: int, index: int) -> str:
    n = rank * rank
    kind = ("row", "column", "box")[index // n]
    return f"{kind} {index % n + 1}"


def cell_name(rank: int, cell: int) -> str:
    """``r1c1`` style, 1-based, as puzzle setters write it."""
    n = rank * rank
    return f"r{cell // n + 1}c{cell % n + 1}"


@dataclass(frozen=True)
class Clash:
    """Two givens with the same value in one unit."""

    first: int
    second: int
    value: int
    unit: str

    def describe(self, puzzle: Puzzle) -> str:
        a, b = cell_name(puzzle.rank, self.first), cell_name(puzzle.rank, self.second)
        return f"{a} and {b} both hold {puzzle.symbol(self.value)} in {self.unit}"


@dataclass(frozen=True)
class Puzzle:
    """A Sudoku of rank M: N*N cells holding 0 (blank) or 1..N."""

    rank: int
    cells: Grid
    alphabet: str = ""
    """Symbols for values 1..N, in order; empty means whitespace-separated numbers."""
    source: str = "<puzzle>"
    line: int = 1
    name: str = ""
    """The puzzle's name, from a header line above it (``Grid 01``), if any."""

    def __post_init__(self) -> None:
        n = self.size
        if not 2 <= self.rank <= MAX_RANK:
            raise ValueError(f"rank {self.rank} is outside 2..{MAX_RANK}")
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
        """N: the number of rows, columns, boxes and values."""
        return self.rank * self.rank

    @cached_property
    def givens(self) -> tuple[tuple[int, int], ...]:
        """(cell, value) for every filled cell."""
        return tuple((cell, v) for cell, v in enumerate(self.cells) if v)

    def symbol(self, value: int) -> str:
        """How a value is written in this puzzle's own notation."""
        if value == 0:
            return "." if self.alphabet else "0"
        return self.alphabet[value - 1] if self.alphabet else str(value)

    def clashes(self) -> list[Clash]:
        """Pairs of givens that break the rules before anything is solved."""
        found = []
        for index, unit in enumerate(units(self.rank)):
            seen: dict[int, int] = {}
            for cell in unit:
                value = self.cells[cell]
                if not value:
                    continue
                if value in seen:
                    found.append(Clash(seen[value], cell, value, unit_name(self.rank, index)))
                else:
                    seen[value] = cell
        return found

    @cached_property
    def masks(self) -> dict[int, int]:
        """Each blank cell's candidates as a bit mask (see :func:`candidate_masks`),
        computed once per puzzle."""
        return candidate_masks(self)

    @cached_property
    def candidates(self) -> tuple[tuple[int, ...], ...]:
        """For each cell, the values not ruled out by a given in the cell or a peer.

        A given cell has exactly its own value as candidate. Computed once per
        puzzle, in time proportional to the cells and the candidates.
        """
        masks = self.masks
        return tuple(
            (v,) if v else tuple(values_of(masks[cell])) for cell, v in enumerate(self.cells)
        )


@cache
def unit_index(rank: int) -> tuple[list[int], list[int], list[int]]:
    """For every cell, its row, its column and its box, by arithmetic."""
    n = rank * rank
    rows = [cell // n for cell in range(n * n)]
    cols = [cell % n for cell in range(n * n)]
    boxes = [(r // rank) * rank + c // rank for r, c in zip(rows, cols, strict=True)]
    return rows, cols, boxes


def values_of(mask: int) -> list[int]:
    """The values whose bits are set in a candidate mask (bit v: value v), in
    order; the cost is in proportion to how many there are."""
    found = []
    while mask:
        low = mask & -mask
        found.append(low.bit_length() - 1)
        mask ^= low
    return found


def placed_masks(puzzle: Puzzle) -> list[list[int]]:
    """The givens of every row, column and box as masks: ``placed[kind][index]``."""
    n = puzzle.size
    rows, cols, boxes = unit_index(puzzle.rank)
    placed = [[0] * n for _ in range(3)]
    row_p, col_p, box_p = placed
    for cell, value in enumerate(puzzle.cells):
        if value:
            bit = 1 << value
            row_p[rows[cell]] |= bit
            col_p[cols[cell]] |= bit
            box_p[boxes[cell]] |= bit
    return placed


def candidate_masks(puzzle: Puzzle) -> dict[int, int]:
    """Each blank cell's candidates as a mask: the values no given peer holds."""
    rows, cols, boxes = unit_index(puzzle.rank)
    row_p, col_p, box_p = placed_masks(puzzle)
    full = (1 << (puzzle.size + 1)) - 2
    return {
        cell: full & ~(row_p[rows[cell]] | col_p[cols[cell]] | box_p[boxes[cell]])
        for cell, value in enumerate(puzzle.cells)
        if not value
    }


def rank_for_cells(count: int) -> int | None:
    """The rank whose grid has ``count`` cells, if any (81 -> 3, 256 -> 4, ...)."""
    for rank in range(2, MAX_RANK + 1):
        if rank**4 == count:
            return rank
    return None


@cache
def _unit_checks(rank: int) -> tuple[frozenset[int], list[itemgetter[tuple[int, ...]]]]:
    """The values 1..N, and a getter of each unit's cells."""
    every = frozenset(range(1, rank * rank + 1))
    return every, [itemgetter(*unit) for unit in units(rank)]


def rule_violations(rank: int, grid: Sequence[int]) -> list[str]:
    """Why a grid is not a completed Sudoku; empty when it is one."""
    n = rank * rank
    problems = []
    if len(grid) != n * n:
        return [f"grid has {len(grid)} cells, expected {n * n}"]
    every, getters = _unit_checks(rank)
    if all(set(get(grid)) == every for get in getters):
        return []  # the common case, checked at C speed; below says what is wrong
    blank = [cell for cell, v in enumerate(grid) if not 1 <= v <= n]
    if blank:
        problems.append(f"{cell_name(rank, blank[0])} holds no value 1..{n}")
    full = set(range(1, n + 1))
    for index, unit in enumerate(units(rank)):
        if {grid[cell] for cell in unit} != full:
            problems.append(f"{unit_name(rank, index)} does not hold every value once")
    return problems


def verify(puzzle: Puzzle, grid: Sequence[int]) -> list[str]:
    """Why ``grid`` is not a solution of ``puzzle``; empty when it is one."""
    problems = rule_violations(puzzle.rank, grid)
    cells = puzzle.cells
    # grid * (cell is given) == cells exactly when every given is kept; at C speed
    if len(grid) == len(cells) and tuple(map(mul, grid, map(bool, cells))) != tuple(cells):
        changed = next(c for c, v in enumerate(cells) if v and grid[c] != v)
        problems.append(f"{cell_name(puzzle.rank, changed)} changes a given")
    return problems


def differences(a: Sequence[int], b: Sequence[int]) -> list[int]:
    """Cells where two grids disagree."""
    return [cell for cell, (x, y) in enumerate(zip(a, b, strict=True)) if x != y]
