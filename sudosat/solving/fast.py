"""The batch engine: many puzzles of one rank, propagation first.

* ``probe`` holds the rules for the whole run, written so that propagation is
  strong and cheap: each cell holds exactly one value (pairwise), and rows,
  columns and boxes go through triads (:func:`encoding.augmented`), which
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

Both run on PySAT's C functions (:class:`native.Native`): a classic puzzle
never loads PySAT's Python layer. No step depends on earlier puzzles
(``probe`` never learns a clause), so the answers are the same in every run,
worker and shard. Every grid is verified against the rules and the givens, as
in :mod:`engine`.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Protocol

from sudosat.core.errors import SolverTimeout
from sudosat.core.puzzle import Grid, Puzzle
from sudosat.sat.cnf import Cnf, literal, lookup
from sudosat.sat.deadline import deadline_after, interruptible, solve_by
from sudosat.sat.encoding import augmented
from sudosat.sat.solvers.native import Native, load_cnf, load_exactly_one
from sudosat.solving import progress
from sudosat.solving.outcome import (
    Outcome,
    Stats,
    Status,
    accept,
    interrupted,
    no_solution,
    status_of,
)
from sudosat.system.lazy import lazy

if TYPE_CHECKING:
    from pysat import solvers
    from pysat.solvers import Minicard
else:  # PySAT's classes for the other searches: a classic puzzle's runs on Native
    solvers = lazy("pysat.solvers")

PROBE_SOLVER = "glucose4"
SEARCH_SOLVER = "minicard"
PROBE_NATIVE = "glucose41"
"""Glucose 4.1, PROBE_SOLVER's name in PySAT's C module."""
NAME = f"batch engine ({PROBE_SOLVER} propagation, {SEARCH_SOLVER} search)"


class GroupList(Protocol):
    """The groups of a small formula: counted, then taken one by one."""

    def __len__(self) -> int: ...
    def __iter__(self) -> Iterator[list[int]]: ...


class FastSolver:
    """Solves many puzzles of one rank; keep one per process."""

    def __init__(self, rank: int) -> None:
        self.rank, self.size = rank, rank * rank
        n = self.size
        rules, self.top = augmented(rank)
        self.probe = Native(PROBE_NATIVE, rules)
        self.cube = frozenset(range(1, n**3 + 1))  # the cell variables
        self.cell_of, self.value_of = lookup(n)
        # Every variable is in four of the rules' groups (numbered as encoding.groups
        # lists them): its cell's, and its value's in its row, its column and its box.
        self.group_count = n * n + 3 * n * n
        self.groups_of = [(0, 0, 0, 0)] + [
            (cell, n * n + row * n + v, n * n + (n + col) * n + v, n * n + (2 * n + box) * n + v)
            for cell in range(n * n)
            for row, col, box in [_units_of(cell, rank)]
            for v in range(n)
        ]

    def solve(self, puzzle: Puzzle, limit: int = 2, timeout: float | None = None) -> Outcome:
        """Up to ``limit`` solutions; past ``timeout`` seconds a TIMEOUT outcome with
        the solutions found by then."""
        n = self.size
        assumptions = [literal(n, cell, v) for cell, v in enumerate(puzzle.cells) if v]
        ok, implied = interruptible(self.probe.propagate, assumptions=assumptions)
        if not ok:
            return no_solution(puzzle, NAME)
        if len(implied) == self.top:  # every variable assigned
            grid = self.grid_from(implied)
            solution = accept(puzzle, grid, [], f"{PROBE_SOLVER} propagation")
            return Outcome(puzzle, Status.UNIQUE, [solution], exhausted=True, solver=NAME)
        return self.searched(puzzle, *self._reduced(implied), limit, timeout)

    def searched(
        self,
        puzzle: Puzzle,
        grid: list[int],
        variables: list[int],
        groups: GroupList,
        limit: int,
        timeout: float | None,
        solver: str = NAME,
        checked: bool = True,
    ) -> Outcome:
        """The search over what propagation left: ``grid`` with its settled cells,
        the open cell variables, and the groups of the rules with two or more of
        them, where formula variable k is ``variables[k - 1]`` (as
        :meth:`_reduced` gives them, or the front end). Numbered densely, the
        formula has no variable outside its clauses, and the solver none to
        decide for nothing. Up to ``limit`` solutions; past ``timeout`` seconds a
        TIMEOUT outcome with the solutions found by then. ``solver`` names the
        engine in the outcome. Not ``checked``: the caller verifies the
        solutions (the front end does a chunk's at once)."""
        deadline = deadline_after(timeout)
        found: list[Grid] = []
        cell_of, value_of = self.cell_of, self.value_of
        count = len(variables)
        stats = Stats(variables=count, clauses=2 * len(groups))
        search = Native(SEARCH_SOLVER)
        load_exactly_one(search.handle, groups)
        try:
            while len(found) < limit:
                stats.solves += 1
                if not _solve(search, deadline):
                    break
                model = search.get_model()
                assert model is not None  # (the solve said satisfiable)
                # every open cell has one true variable: the model's positive literals
                chosen = [lit for lit in model[:count] if lit > 0]
                for lit in chosen:
                    v = variables[lit - 1]
                    grid[cell_of[v]] = value_of[v]
                if checked:
                    accept(puzzle, tuple(grid), found, SEARCH_SOLVER)
                else:
                    found.append(tuple(grid))
                search.add_clause([-lit for lit in chosen])
                if progress.watcher is not None:  # (no call at all on the batch's path)
                    progress.tell("solutions found", len(found))
        except KeyboardInterrupt as stop:
            if not checked:  # the caller verifies them: nothing to show yet
                raise
            raise interrupted(puzzle, found, solver, stats, stop) from None
        except SolverTimeout:
            reason = f"no answer within {timeout:g} s"
            return Outcome(puzzle, Status.TIMEOUT, found, reason=reason, solver=solver, stats=stats)
        finally:
            stats.add_search(search.accum_stats())
            search.delete()
        if not found:
            return no_solution(puzzle, solver)
        exhausted = len(found) < limit
        status = status_of(len(found), exhausted)
        return Outcome(puzzle, status, found, exhausted, solver=solver, stats=stats)

    def grid_from(self, implied: Iterable[int]) -> Grid:
        """The grid of a complete assignment: one true cell variable per cell, in order."""
        return tuple(map(self.value_of.__getitem__, sorted(self.cube.intersection(implied))))

    def _reduced(self, implied: list[int]) -> tuple[list[int], list[int], list[list[int]]]:
        """What propagation left: the grid of the cells it fixed (0 elsewhere), the
        open cell variables in order, and the groups with open candidates, each
        open variable numbered by its place in that order (1, 2, ...). After
        propagation each group has at least two and no true variable (else "at
        most one" would have closed it)."""
        cell_of, value_of = self.cell_of, self.value_of
        grid = [0] * (self.size * self.size)
        for lit in self.cube.intersection(implied):
            grid[cell_of[lit]] = value_of[lit]
        variables = sorted(self.cube.difference(map(abs, implied)))  # the same formula every run
        by_group: list[list[int]] = [[] for _ in range(self.group_count)]
        for number, v in enumerate(variables, 1):
            a, b, c, d = self.groups_of[v]
            by_group[a].append(number)
            by_group[b].append(number)
            by_group[c].append(number)
            by_group[d].append(number)
        return grid, variables, list(filter(None, by_group))


def exactly_one(groups: Iterable[list[int]]) -> Minicard:
    """A fresh Minicard (PySAT's) holding "exactly one" of each group: a clause and
    a native cardinality constraint."""
    search = solvers.Minicard()
    load_exactly_one(search.minicard, groups)
    return search


def holding(cnf: Cnf) -> Minicard:
    """A fresh Minicard (PySAT's) holding ``cnf``, as :func:`load_cnf` loads it."""
    search = solvers.Minicard()
    load_cnf(search.minicard, cnf)
    return search


def _units_of(cell: int, rank: int) -> tuple[int, int, int]:
    """The row, column and box of a cell, by arithmetic."""
    n = rank * rank
    row, col = divmod(cell, n)
    return row, col, (row // rank) * rank + col // rank


def _solve(search: Native, deadline: float | None) -> bool:
    """``search.solve()``, interrupted (SolverTimeout) when ``deadline`` passes,
    also between the solves of a long enumeration; the search is the same with a
    deadline or without (see :mod:`deadline`)."""
    if deadline is None:
        return bool(interruptible(search.solve))
    return solve_by(search, deadline)
