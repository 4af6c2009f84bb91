"""Why a puzzle has no solution, or several, in SAT's terms.

* No solution: ``conflict``, a minimal set of clues that cannot all hold (an
  unsatisfiable core over the clues as assumptions, shrunk by deletion until
  every clue in it is needed: a MUS); ``fewest_removed``, the fewest clues to
  drop for a solution to exist (MaxSAT, PySAT's RC2, one soft unit clause per
  clue); ``best_fill``, seed 002's partial solve (MaxSAT: the givens and "at
  most one" rules hard, "this cell holds a value" soft), as many cells filled
  as possible.
* Several solutions: ``differ``, the cells where two solutions differ, and
  ``add``, a small set of clues from the first solution that makes it unique
  (greedy, then shrunk by deletion).
* Unique: the rating (see :mod:`rating`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pysat.examples.rc2 import RC2
from pysat.formula import WCNF
from pysat.solvers import Solver

from .encoding import groups, pairwise, rules
from .engine import solve
from .limits import check_solvable
from .outcome import Outcome, Status
from .puzzle import Grid, Puzzle, differences
from .rating import RATER_COPIES, Rating, rate
from .solvers.pysat_backend import interruptible

Clue = tuple[int, int]
"""(cell, value)."""


@dataclass
class Explanation:
    """What explains a puzzle's answer; fields that do not apply are None."""

    outcome: Outcome
    conflict: list[Clue] | None = None
    fewest_removed: int | None = None
    best_fill: Grid | None = None
    differ: list[int] | None = None
    add: list[Clue] | None = None
    rating: Rating | None = None
    notes: list[str] = field(default_factory=list)

    @property
    def filled(self) -> int | None:
        return None if self.best_fill is None else sum(1 for v in self.best_fill if v)


def minimal_conflict(puzzle: Puzzle) -> list[Clue]:
    """A minimal set of clues that cannot all hold with the rules (a MUS)."""
    n = puzzle.size
    with Solver(name="glucose4", bootstrap_with=rules(puzzle.rank)) as sat:
        core = [cell * n + v for cell, v in puzzle.givens]
        if interruptible(sat.solve, assumptions=core):
            return []
        core = sorted(sat.get_core() or core)
        for lit in list(core):  # deletion: drop every clue the rest still conflicts without
            trial = [x for x in core if x != lit]
            if not interruptible(sat.solve, assumptions=trial):
                kept = set(sat.get_core() or trial)
                core = [x for x in trial if x in kept]
    return [((lit - 1) // n, (lit - 1) % n + 1) for lit in core]


def fewest_removed(puzzle: Puzzle) -> int:
    """The fewest clues to drop for the rest to have a solution (MaxSAT)."""
    n = puzzle.size
    wcnf = WCNF()
    wcnf.extend(rules(puzzle.rank))
    for cell, v in puzzle.givens:
        wcnf.append([cell * n + v], weight=1)
    with RC2(wcnf) as maxsat:
        maxsat.compute()
        return int(maxsat.cost)


def best_fill(puzzle: Puzzle) -> Grid:
    """The givens kept, at most one value per cell and per unit, as many cells filled
    as possible (seed 002's partial solve). The givens must not clash."""
    n = puzzle.size
    cells, unit_values = groups(puzzle.rank)
    wcnf = WCNF()
    wcnf.extend(pairwise(cells + unit_values))
    for cell, v in puzzle.givens:
        wcnf.append([cell * n + v])
    for cell, group in enumerate(cells):
        if not puzzle.cells[cell]:
            wcnf.append(group, weight=1)
    with RC2(wcnf) as maxsat:
        model = set(maxsat.compute() or [])
    return tuple(
        next((v for v in range(1, n + 1) if cell * n + v in model), 0) for cell in range(n * n)
    )


def clues_to_add(puzzle: Puzzle, solution: Grid) -> list[Clue]:
    """Clues of ``solution`` that make it the only one: greedy, then shrunk."""
    n = puzzle.size
    givens = [cell * n + v for cell, v in puzzle.givens]
    open_cells = [cell for cell, v in enumerate(puzzle.cells) if not v]
    with Solver(name="glucose4", bootstrap_with=rules(puzzle.rank)) as sat:
        selector = sat.nof_vars() + 1
        sat.add_clause([-selector] + [-(cell * n + solution[cell]) for cell in open_cells])

        def other(added: list[int]) -> Grid | None:
            if not interruptible(sat.solve, assumptions=[*givens, *added, selector]):
                return None
            model = set(sat.get_model() or [])
            return tuple(
                next(v for v in range(1, n + 1) if cell * n + v in model) for cell in range(n * n)
            )

        added: list[int] = []
        while (second := other(added)) is not None:
            cell = differences(solution, second)[0]
            added.append(cell * n + solution[cell])
        for lit in list(added):
            trial = [x for x in added if x != lit]
            if other(trial) is None:
                added = trial
    return [((lit - 1) // n, (lit - 1) % n + 1) for lit in added]


def explain(puzzle: Puzzle) -> Explanation:
    """Why ``puzzle`` has no solution, several, or one, and how hard it is then.
    Raises TooBig when the rules, held by a few solvers, would not fit in memory."""
    check_solvable(puzzle, False, RATER_COPIES, " (the rules in three solvers, to explain)")
    outcome = solve(puzzle)
    found = Explanation(outcome)
    if outcome.status == Status.NONE:
        found.conflict = minimal_conflict(puzzle)
        found.fewest_removed = fewest_removed(puzzle)
        if outcome.clashes:
            found.notes.append("the givens clash, so no fill keeps them all")
        else:
            found.best_fill = best_fill(puzzle)
    elif outcome.status == Status.MULTIPLE:
        found.differ = differences(*outcome.solutions[:2])
        found.add = clues_to_add(puzzle, outcome.solutions[0])
    elif outcome.status == Status.UNIQUE:
        found.rating = rate(puzzle)
    return found
