"""The batch engine: many puzzles of one rank, propagation first.

* ``probe`` holds the rules for the whole run, written so that propagation is
  strong and cheap: each cell holds exactly one value (pairwise), and rows,
  columns and boxes go through triads (:func:`encoding.triad_clauses`), which
  also let propagation see box-line interactions. PySAT's ``propagate()`` with
  the givens as assumptions runs unit propagation only. When that assigns every
  variable, the grid is the only solution: every model must agree with what
  propagation derives, so no search and no second solve are needed. (This
  settles about 4 in 5 of the 17-clue puzzles.)
* Otherwise a small fresh Minicard gets only what is still open: for every group
  (a cell's values, a unit's cells for one value) with open candidates, "at
  least one" as a clause and "at most one" as a native cardinality constraint.
  Uniqueness: block the first solution, solve again. A fresh solver per puzzle
  is faster on hard puzzles than one reused solver (whose learnt clauses from
  earlier puzzles get in the way).

No step depends on earlier puzzles (``probe`` never learns a clause), so the
answers are the same in every run, worker and shard. Every grid is verified
against the rules and the givens, as in :mod:`engine`.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from itertools import combinations

import pysolvers
from pysat.solvers import Minicard, Solver

from .encoding import triad_clauses, var
from .engine import MULTIPLE, NONE, SOLVED, TIMEOUT, UNIQUE, accept, why_none
from .puzzle import Grid, Puzzle, units
from .solvers import SolverTimeout
from .solvers.pysat_backend import interruptible

PROBE_SOLVER = "glucose4"
SEARCH_SOLVER = "minicard"
NAME = f"batch engine ({PROBE_SOLVER} propagation, {SEARCH_SOLVER} search)"
SLICE = 1000
"""Conflicts between looks at the clock under a timeout (milliseconds on 9x9)."""
MAX_RANK = 4
"""Above this the rules are too large to keep loaded per worker; the engine's
reduced encoding on a fresh solver is used instead."""


def groups(rank: int) -> list[list[int]]:
    """The "exactly one" groups: each cell's values, then each unit's cells for a value."""
    n = rank * rank
    cells = [[var(n, cell, v) for v in range(1, n + 1)] for cell in range(n * n)]
    return cells + [[var(n, c, v) for c in unit] for unit in units(rank) for v in range(1, n + 1)]


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
        rules, self.top = triad_clauses(rank, n**3)
        for cell in range(n * n):
            values = [var(n, cell, v) for v in range(1, n + 1)]
            rules.append(values)
            rules.extend([-a, -b] for a, b in combinations(values, 2))
        self.probe = Solver(name=PROBE_SOLVER, bootstrap_with=rules)
        self.cube = frozenset(range(1, n**3 + 1))  # the cell variables
        self.cell_of = [0] + [(v - 1) // n for v in range(1, n**3 + 1)]
        self.value_of = [0] + [(v - 1) % n + 1 for v in range(1, n**3 + 1)]
        every_group = groups(rank)
        self.group_count = len(every_group)
        member: list[list[int]] = [[] for _ in range(n**3 + 1)]
        for index, group in enumerate(every_group):
            for v in group:
                member[v].append(index)
        # every variable is in four groups: its cell's, its row's, its column's, its box's
        self.groups_of = [(0, 0, 0, 0)] + [(a, b, c, d) for a, b, c, d in member[1:]]

    def solve(self, puzzle: Puzzle, limit: int = 2, timeout: float | None = None) -> Answer:
        """Up to ``limit`` solutions; past ``timeout`` seconds a TIMEOUT answer with
        the solutions found by then."""
        n = self.size
        assumptions = [cell * n + v for cell, v in enumerate(puzzle.cells) if v]
        ok, implied = interruptible(self.probe.propagate, assumptions=assumptions)
        if not ok:
            return Answer(NONE, reason=why_none(puzzle))
        if len(implied) == self.top:  # every variable assigned
            grid = self._grid(implied)
            return Answer(UNIQUE, [accept(puzzle, grid, [], f"{PROBE_SOLVER} propagation")])
        deadline = None if timeout is None else time.monotonic() + timeout
        found: list[Grid] = []
        try:
            self._search(puzzle, implied, limit, found, deadline)
        except SolverTimeout:
            reason = f"no answer within {timeout:g} s"
            return Answer(TIMEOUT, found, exhausted=False, reason=reason)
        return self._answer(puzzle, found, limit)

    def _grid(self, implied: list[int]) -> Grid:
        """The grid of a complete assignment: one true cell variable per cell, in order."""
        return tuple(map(self.value_of.__getitem__, sorted(self.cube.intersection(implied))))

    def _search(
        self,
        puzzle: Puzzle,
        implied: list[int],
        limit: int,
        found: list[Grid],
        deadline: float | None,
    ) -> None:
        """Adds to ``found`` up to ``limit`` solutions, from what propagation left open."""
        n, cell_of, value_of = self.size, self.cell_of, self.value_of
        grid = [0] * (n * n)
        for lit in self.cube.intersection(implied):  # the cells propagation fixed
            grid[cell_of[lit]] = value_of[lit]
        open_set = self.cube.difference(map(abs, implied))
        open_vars = sorted(open_set)  # sorted: the same formula, so the same answer, every run
        # Groups with open candidates; after propagation each has at least two and
        # no true variable (else "at most one" would have closed it).
        by_group: list[list[int]] = [[] for _ in range(self.group_count)]
        for v in open_vars:
            a, b, c, d = self.groups_of[v]
            by_group[a].append(v)
            by_group[b].append(v)
            by_group[c].append(v)
            by_group[d].append(v)
        open_cells = sorted({cell_of[v] for v in open_vars})
        search = Minicard()
        # This loop is most of a search's cost on all but the hardest puzzles, so it
        # calls PySAT's C functions itself (python-sat is pinned), not the wrappers.
        handle = search.minicard
        add_clause, add_atmost = pysolvers.minicard_add_cl, pysolvers.minicard_add_am
        try:
            for group in filter(None, by_group):
                add_clause(handle, group)
                add_atmost(handle, group, 1)
            while len(found) < limit and _solve(search, deadline):
                # only variables of the clauses count, whatever else the model holds
                for lit in open_set.intersection(search.get_model()):
                    grid[cell_of[lit]] = value_of[lit]
                solution = accept(puzzle, tuple(grid), found, SEARCH_SOLVER)
                search.add_clause([-(c * n + solution[c]) for c in open_cells])
        finally:
            search.delete()

    @staticmethod
    def _answer(puzzle: Puzzle, found: list[Grid], limit: int) -> Answer:
        exhausted = len(found) < limit
        if not found:
            return Answer(NONE, reason=why_none(puzzle))
        if len(found) > 1:
            return Answer(MULTIPLE, found, exhausted)
        return Answer(UNIQUE if exhausted else SOLVED, found, exhausted)


def _solve(search: Minicard, deadline: float | None) -> bool:
    """``search.solve()``; with a deadline, in slices of SLICE conflicts, giving up
    (SolverTimeout) once it has passed."""
    if deadline is None:
        return bool(interruptible(search.solve))
    while True:
        if time.monotonic() >= deadline:  # also between the solves of a long enumeration
            raise SolverTimeout("deadline passed")
        search.conf_budget(SLICE)
        status = interruptible(search.solve_limited)
        if status is not None:
            return bool(status)
