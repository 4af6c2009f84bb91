"""The batch engine: many puzzles of one rank through two long-lived solvers.

* ``probe`` holds the rules (extended, pairwise) and the box-line clauses; PySAT's
  ``propagate()`` with the givens as assumptions runs unit propagation only. When
  that fixes every cell, the grid is the only solution: every model must agree
  with what propagation derives, so no search and no second solve are needed.
  (This settles about 4 in 5 of the 17-clue puzzles.)
* ``search`` is Minicard with native at-most-one constraints, the givens (and
  the cells propagation fixed) as assumptions. Uniqueness: a blocking clause
  guarded by a fresh activation literal, assumed for the next solve and retired
  after. Learnt clauses from earlier puzzles slow later ones down, so the search
  solver is rebuilt every REBUILD puzzles (cheap: a few hundred constraints).

Every grid is verified against the rules and the givens, as in :mod:`engine`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pysat.solvers import Minicard, Solver

from .encoding import Encoding, box_line_clauses, encode, var
from .engine import MULTIPLE, NONE, SOLVED, UNIQUE, _dead_cell
from .puzzle import Grid, Puzzle, cell_name, units, verify
from .solvers import SolverError
from .solvers.pysat_backend import interruptible

PROBE_SOLVER = "minisat22"
SEARCH_SOLVER = "minicard"
NAME = "minicard (batch: propagation first)"
REBUILD = 50
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
        self.groups = [[var(n, cell, v) for v in range(1, n + 1)] for cell in range(n * n)]
        self.groups += [
            [var(n, c, v) for c in unit] for unit in units(rank) for v in range(1, n + 1)
        ]
        self.search: Minicard | None = None
        self.searches = 0
        self.top = n**3

    def _search_solver(self) -> Minicard:
        if self.search is None or self.searches % REBUILD == 0:
            if self.search is not None:
                self.search.delete()
            self.search = self._fresh_solver()
            self.top = self.size**3
        self.searches += 1
        return self.search

    def _fresh_solver(self) -> Minicard:
        solver = Minicard()
        for group in self.groups:
            solver.add_clause(group)
            solver.add_atmost(group, 1)
        return solver

    def solve(self, puzzle: Puzzle, limit: int = 2) -> Answer:
        n, cells = self.size, puzzle.cells
        assumptions = [cell * n + v for cell, v in enumerate(cells) if v]
        ok, implied = interruptible(self.probe.propagate, assumptions=assumptions)
        if not ok:
            return Answer(NONE, reason=_why_none(puzzle))
        cube = n**3
        fixed = [lit for lit in implied if 0 < lit <= cube]
        if len(fixed) == n * n:
            grid = [0] * (n * n)
            for lit in fixed:
                grid[(lit - 1) // n] = (lit - 1) % n + 1
            return Answer(UNIQUE, [_checked(puzzle, tuple(grid), "propagation")])
        return self._enumerate(puzzle, fixed, limit)

    def _enumerate(self, puzzle: Puzzle, fixed: list[int], limit: int) -> Answer:
        search = self._search_solver()
        answer, self.top = self._search(search, puzzle, fixed, limit, self.top)
        if len(answer.solutions) > 1 or not answer.exhausted:
            # Which solutions come first depends on what the reused solver learnt
            # before; a fresh one finds the same ones in every run, shard and worker.
            fresh = self._fresh_solver()
            try:
                answer, _ = self._search(fresh, puzzle, fixed, limit, self.size**3)
            finally:
                fresh.delete()
        return answer

    def _search(
        self, search: Minicard, puzzle: Puzzle, fixed: list[int], limit: int, top: int
    ) -> tuple[Answer, int]:
        """Up to ``limit`` solutions; activation variables are numbered from ``top`` + 1."""
        n, cells = self.size, puzzle.cells
        blanks = [cell for cell, v in enumerate(cells) if not v]
        active: list[int] = []
        found: list[Grid] = []
        try:
            while len(found) < limit:
                if not interruptible(search.solve, assumptions=fixed + active):
                    break
                positives = [lit for lit in search.get_model() if 0 < lit <= n**3]
                grid = [0] * (n * n)
                for lit in positives:
                    grid[(lit - 1) // n] = (lit - 1) % n + 1
                solution = _checked(puzzle, tuple(grid), SEARCH_SOLVER)
                if solution in found:
                    raise SolverError(f"{SEARCH_SOLVER} returned a blocked solution again")
                found.append(solution)
                top += 1
                active.append(top)
                search.add_clause([-top] + [-(c * n + solution[c]) for c in blanks])
        finally:
            for act in active:
                search.add_clause([-act])  # retire the blocking clauses
        exhausted = len(found) < limit
        if not found:
            return Answer(NONE, reason=_why_none(puzzle)), top
        if len(found) > 1:
            return Answer(MULTIPLE, found, exhausted), top
        return Answer(UNIQUE if exhausted else SOLVED, found, exhausted), top


def _checked(puzzle: Puzzle, grid: Grid, by: str) -> Grid:
    problems = verify(puzzle, grid)
    if problems:
        raise SolverError(f"{by} gave a grid that is no solution: {problems[0]}")
    return grid


def _why_none(puzzle: Puzzle) -> str:
    """A short reason for "no solution": clashing clues, a cell nothing fits, or neither."""
    clashes = puzzle.clashes()
    if clashes:
        first = clashes[0]
        return first.describe(puzzle.rank, puzzle.symbol(first.value))
    dead = _dead_cell(puzzle)
    if dead is not None:
        return f"no value fits {cell_name(puzzle.rank, dead)}"
    return ""
