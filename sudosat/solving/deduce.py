"""Sound deductions before any CNF: naked and hidden singles, to a fixpoint.

Separate from the logic's singles (:mod:`sudosat.logic`) because it serves the
solver's fast path: no steps, no names, any rank, before the CNF is built.

Norvig's constraint propagation, written for big grids: a cell's candidates are
one integer (:mod:`sudosat.core.masks`), and units are found by
index arithmetic, never as peer sets. Placing a value visits only the cells
that lose it (see :func:`deduce`), so the work is in proportion to the
candidates removed, not N**3, however many steps the chain of singles takes.

Every value placed here holds in every solution, so the CNF of what is left has
exactly the solutions of the puzzle; the solver still decides, and its answer
is still verified against the puzzle's own givens.
"""

from __future__ import annotations

from dataclasses import dataclass

from sudosat.core.masks import bit, full, values
from sudosat.core.puzzle import Grid, Puzzle, cell_name, placed_masks


@dataclass(frozen=True)
class Deduced:
    """What singles settle: the grid with every placed value (givens included),
    and for each open cell its candidates as a mask (:mod:`sudosat.core.masks`)."""

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
    do not clash (see :meth:`Puzzle.clashes`)."""
    return Singles(puzzle).run()


class Singles:
    """The singles of one puzzle, as they are found.

    ``masks`` holds each open cell's candidates; ``where[unit * (N + 1) + value]``
    the open cells of a unit (0..3N-1, in :func:`puzzle.units` order) that can
    still take a value it lacks, so placing a value visits exactly the cells
    that lose it: the work is in proportion to the candidates removed. ``queue``
    holds the (cell, value) placements found and not yet made."""

    def __init__(self, puzzle: Puzzle) -> None:
        self.puzzle = puzzle
        self.n = n = puzzle.size
        self.stride = n + 1
        self.rows, self.cols, self.boxes = puzzle.layout.unit_index
        self.masks = dict(puzzle.masks)
        self.grid = list(puzzle.cells)
        self.start = sum(mask.bit_count() for mask in self.masks.values())
        self.where: dict[int, set[int]] = {}
        for kind, taken_in in enumerate(placed_masks(puzzle)):
            for index, taken in enumerate(taken_in):
                unit = kind * n + index
                for value in values(~taken & full(n)):
                    self.where[unit * self.stride + value] = set()
        where, stride = self.where, self.stride
        for cell, mask in self.masks.items():
            keys = [unit * stride for unit in self.units_of(cell)]
            for value in values(mask):
                for key in keys:
                    where[key + value].add(cell)
        self.queue = [(c, m.bit_length()) for c, m in self.masks.items() if not m & (m - 1)]

    def run(self) -> Deduced:
        """Every single, placed in turn; what they settle, or the contradiction."""
        n = self.n
        for cell, mask in self.masks.items():
            if not mask:
                return self.result(f"no value fits {cell_name(n, cell)}")
        for key in self.where:
            problem = self.narrowed(key)
            if problem:
                return self.result(problem)
        while self.queue:
            problem = self.place(*self.queue.pop())
            if problem:
                return self.result(problem)
        return self.result()

    def result(self, contradiction: str = "") -> Deduced:
        left = sum(mask.bit_count() for mask in self.masks.values())
        done = sum(1 for a, b in zip(self.grid, self.puzzle.cells, strict=True) if a != b)
        return Deduced(tuple(self.grid), self.masks, done, self.start - left - done, contradiction)

    def units_of(self, cell: int) -> tuple[int, int, int]:
        n = self.n
        return self.rows[cell], n + self.cols[cell], 2 * n + self.boxes[cell]

    def narrowed(self, key: int) -> str:
        """The places left for a (unit, value) just shrank: none is a contradiction,
        one a hidden single."""
        found = self.where[key]
        if len(found) > 1:
            return ""
        if not found:
            return _no_place(self.puzzle, key)
        self.queue.append((next(iter(found)), key % self.stride))
        return ""

    def place(self, cell: int, value: int) -> str:
        """``value`` goes in ``cell``: its units lose the value, the cell its other
        candidates; "" or the contradiction that shows."""
        n, stride = self.n, self.stride
        if cell not in self.masks:
            return (
                ""
                if self.grid[cell] == value
                else f"{cell_name(n, cell)} must hold two values at once"
            )
        if not self.masks[cell] & bit(value):
            return f"{cell_name(n, cell)} cannot hold {self.puzzle.symbol(value)}"
        self.grid[cell] = value
        mask = self.masks.pop(cell)
        mine = self.units_of(cell)
        losers: set[int] = set()
        for unit in mine:
            losers |= self.where.pop(unit * stride + value)
        losers.discard(cell)
        for other in values(mask & ~bit(value)):
            for unit in mine:
                self.where[unit * stride + other].discard(cell)
                problem = self.narrowed(unit * stride + other)
                if problem:
                    return problem
        for other in losers:
            problem = self.lose(other, value)
            if problem:
                return problem
        return ""

    def lose(self, cell: int, value: int) -> str:
        """``value`` is no longer a candidate of the open ``cell``."""
        mask = self.masks[cell] & ~bit(value)
        if mask == self.masks[cell]:
            return ""
        if not mask:
            return f"no value fits {cell_name(self.n, cell)} once the singles are placed"
        self.masks[cell] = mask
        if not mask & (mask - 1):
            self.queue.append((cell, mask.bit_length()))
        for unit in self.units_of(cell):
            key = unit * self.stride + value
            if key in self.where:  # else the unit has the value placed already
                self.where[key].discard(cell)
                problem = self.narrowed(key)
                if problem:
                    return problem
        return ""


def _no_place(puzzle: Puzzle, key: int) -> str:
    unit, value = divmod(key, puzzle.size + 1)
    return f"{puzzle.symbol(value)} has no place left in {puzzle.layout.unit_name(unit)}"
