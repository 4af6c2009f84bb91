"""Sound deductions before any CNF: naked and hidden singles, to a fixpoint.

Norvig's constraint propagation, written for big grids: a cell's candidates are
one integer, bit v set when value v is still possible, and units are found by
index arithmetic, never as peer sets. Placing a value visits only the cells
that lose it (see :func:`deduce`), so the work is in proportion to the
candidates removed, not N**3, however many steps the chain of singles takes.

Every value placed here holds in every solution, so the CNF of what is left has
exactly the solutions of the puzzle; the solver still decides, and its answer
is still verified against the puzzle's own givens.
"""

from __future__ import annotations

from dataclasses import dataclass

from .puzzle import (
    Grid,
    Puzzle,
    cell_name,
    placed_masks,
    values_of,
)


@dataclass(frozen=True)
class Deduced:
    """What singles settle: the grid with every placed value (givens included),
    and for each open cell its candidates as a bit mask (bit v: value v)."""

    grid: Grid
    masks: dict[int, int]
    placed: int
    """Values placed by deduction (not givens)."""
    removed: int
    """Candidates ruled out, beyond those the givens' peers lose."""
    contradiction: str = ""
    """Why the puzzle has no solution, when singles prove it."""


def deduce(puzzle: Puzzle) -> Deduced:
    """Naked singles (a cell with one candidate) and hidden singles (a value with
    one place left in a unit), until neither places anything. Assumes the givens
    do not clash (see :meth:`Puzzle.clashes`).

    ``where[unit * (N + 1) + value]`` holds the open cells of a unit (0..3N-1,
    in :func:`puzzle.units` order) that can still take a value it lacks, so
    placing a value visits exactly the cells that lose it: the work is in
    proportion to the candidates removed.
    """
    n = puzzle.size
    rows, cols, boxes = puzzle.layout.unit_index
    masks, placed = dict(puzzle.masks), placed_masks(puzzle)
    grid = list(puzzle.cells)
    start = sum(mask.bit_count() for mask in masks.values())
    stride = n + 1

    def result(contradiction: str = "") -> Deduced:
        left = sum(mask.bit_count() for mask in masks.values())
        done = sum(1 for a, b in zip(grid, puzzle.cells, strict=True) if a != b)
        return Deduced(tuple(grid), masks, done, start - left - done, contradiction)

    for cell, mask in masks.items():
        if not mask:
            return result(f"no value fits {cell_name(n, cell)}")

    def units_of(cell: int) -> tuple[int, int, int]:
        return rows[cell], n + cols[cell], 2 * n + boxes[cell]

    def narrowed(key: int) -> str:
        """The places left for a (unit, value) just shrank: none is a contradiction,
        one a hidden single."""
        found = where[key]
        if len(found) > 1:
            return ""
        if not found:
            return _no_place(puzzle, key)
        queue.append((next(iter(found)), key % stride))
        return ""

    where: dict[int, set[int]] = {}
    for kind in range(3):
        for index, taken in enumerate(placed[kind]):
            unit = kind * n + index
            for value in values_of(~taken & ((1 << stride) - 2)):
                where[unit * stride + value] = set()
    for cell, mask in masks.items():
        for value in values_of(mask):
            for unit in units_of(cell):
                where[unit * stride + value].add(cell)
    queue = [(cell, mask.bit_length() - 1) for cell, mask in masks.items() if not mask & (mask - 1)]
    for key in where:
        problem = narrowed(key)
        if problem:
            return result(problem)

    def lose(cell: int, value: int) -> str:
        """``value`` is no longer a candidate of the open ``cell``."""
        mask = masks[cell] & ~(1 << value)
        if mask == masks[cell]:
            return ""
        if not mask:
            return f"no value fits {cell_name(n, cell)} once the singles are placed"
        masks[cell] = mask
        if not mask & (mask - 1):
            queue.append((cell, mask.bit_length() - 1))
        for unit in units_of(cell):
            key = unit * stride + value
            if key in where:  # else the unit has the value placed already
                where[key].discard(cell)
                problem = narrowed(key)
                if problem:
                    return problem
        return ""

    while queue:
        cell, value = queue.pop()
        if cell not in masks:
            if grid[cell] != value:
                return result(f"{cell_name(n, cell)} must hold two values at once")
            continue
        if not masks[cell] >> value & 1:
            return result(f"{cell_name(n, cell)} cannot hold {puzzle.symbol(value)}")
        grid[cell] = value
        mask = masks.pop(cell)
        mine = units_of(cell)
        losers: set[int] = set()
        for unit in mine:
            losers |= where.pop(unit * stride + value)
        losers.discard(cell)
        for other in values_of(mask & ~(1 << value)):
            for unit in mine:
                where[unit * stride + other].discard(cell)
                problem = narrowed(unit * stride + other)
                if problem:
                    return result(problem)
        for other in losers:
            problem = lose(other, value)
            if problem:
                return result(problem)
    return result()


def _no_place(puzzle: Puzzle, key: int) -> str:
    unit, value = divmod(key, puzzle.size + 1)
    return f"{puzzle.symbol(value)} has no place left in {puzzle.layout.unit_name(unit)}"
