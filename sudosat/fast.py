"""The batch engine: many puzzles of one rank, propagation first.

* ``probe`` holds the rules (extended, pairwise) and the box-line clauses for
  the whole run; PySAT's ``propagate()`` with the givens as assumptions runs unit
  propagation only. When that fixes every cell, the grid is the only solution:
  every model must agree with what propagation derives, so no search and no
  second solve are needed. (This settles about 4 in 5 of the 17-clue puzzles.)
* Otherwise a small fresh Minicard gets only what is still open: for every
  cell and every (unit, value) not yet settled, "at least one" as a clause and
  "at most one" as a native cardinality constraint over the candidates that
  propagation left. Uniqueness: block the first solution, solve again. A fresh
  solver per puzzle is faster on hard puzzles than one reused solver (whose
  learnt clauses from earlier puzzles get in the way) and makes the answer the
  same in every run, worker and shard.

Every grid is verified against the rules and the givens, as in :mod:`engine`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pysolvers
from pysat.solvers import Minicard, Solver

from .encoding import Encoding, box_line_clauses, encode, var
from .engine import MULTIPLE, NONE, SOLVED, UNIQUE, accept, why_none
from .puzzle import Grid, Puzzle, units
from .solvers.pysat_backend import interruptible

PROBE_SOLVER = "minisat22"
SEARCH_SOLVER = "minicard"
NAME = f"batch engine ({PROBE_SOLVER} propagation, {SEARCH_SOLVER} search)"
MAX_RANK = 4
"""Above this the rules are too large to keep loaded per worker; the engine's
reduced encoding on a fresh solver is used instead."""


@dataclass
class Answer:
    status: str
    solutions: list[Grid] = field(default_factory=list)
    exhausted: bool = True
    reason: str = ""


class FastSolver:
    """Solves many puzzles of one rank; keep one per process."""

    def __init__(self, rank: int) -> None:
        self.rank, self.size = rank, rank * rank
        n = self.size
        rules = encode(Puzzle(rank, (0,) * n**2), Encoding("extended", "pairwise", reduced=False))
        lines, _ = box_line_clauses(rank, n**3)
        self.probe = Solver(name=PROBE_SOLVER, bootstrap_with=rules.clauses + lines)
        # "exactly one" groups: each cell's values, each unit's cells for a value
        self.groups = [[var(n, cell, v) for v in range(1, n + 1)] for cell in range(n * n)]
        self.groups += [
            [var(n, c, v) for c in unit] for unit in units(rank) for v in range(1, n + 1)
        ]
        self.groups_of: list[list[int]] = [[] for _ in range(n**3 + 1)]
        for index, group in enumerate(self.groups):
            for v in group:
                self.groups_of[v].append(index)

    def solve(self, puzzle: Puzzle, limit: int = 2) -> Answer:
        n, cube = self.size, self.size**3
        assumptions = [cell * n + v for cell, v in enumerate(puzzle.cells) if v]
        ok, implied = interruptible(self.probe.propagate, assumptions=assumptions)
        if not ok:
            return Answer(NONE, reason=why_none(puzzle))
        fixed = [lit for lit in implied if 0 < lit <= cube]
        grid = [0] * (n * n)
        for lit in fixed:
            grid[(lit - 1) // n] = (lit - 1) % n + 1
        if len(fixed) == n * n:
            return Answer(UNIQUE, [accept(puzzle, tuple(grid), [], f"{PROBE_SOLVER} propagation")])
        return self._search(puzzle, grid, fixed, {-lit for lit in implied if lit < 0}, limit)

    def _search(
        self, puzzle: Puzzle, grid: list[int], fixed: list[int], ruled_out: set[int], limit: int
    ) -> Answer:
        """Up to ``limit`` solutions, from what propagation left open."""
        n = self.size
        settled: set[int] = set()
        for lit in fixed:
            settled.update(self.groups_of[lit])
        search = Minicard()
        # This loop is most of a search's cost on all but the hardest puzzles, so it
        # calls PySAT's C functions itself (python-sat is pinned), not the wrappers.
        handle, cells = search.minicard, n * n
        add_clause, add_atmost = pysolvers.minicard_add_cl, pysolvers.minicard_add_am
        try:
            open_vars: set[int] = set()
            for index, group in enumerate(self.groups):
                if index in settled:
                    continue
                candidates = [v for v in group if v not in ruled_out]
                if not candidates:
                    return Answer(NONE, reason=why_none(puzzle))
                add_clause(handle, candidates)
                if len(candidates) > 1:
                    add_atmost(handle, candidates, 1)
                if index < cells:  # the cell groups hold every open variable
                    open_vars.update(candidates)
            open_cells = sorted({(v - 1) // n for v in open_vars})
            found: list[Grid] = []
            while len(found) < limit and interruptible(search.solve):
                for lit in search.get_model():
                    if lit in open_vars:  # only variables of the clauses count
                        grid[(lit - 1) // n] = (lit - 1) % n + 1
                solution = accept(puzzle, tuple(grid), found, SEARCH_SOLVER)
                search.add_clause([-(c * n + solution[c]) for c in open_cells])
        finally:
            search.delete()
        exhausted = len(found) < limit
        if not found:
            return Answer(NONE, reason=why_none(puzzle))
        if len(found) > 1:
            return Answer(MULTIPLE, found, exhausted)
        return Answer(UNIQUE if exhausted else SOLVED, found, exhausted)
