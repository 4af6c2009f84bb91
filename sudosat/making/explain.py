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
* Unique: ``redundant``, the clues and rules whose removal alone keeps it
  unique; ``minimal``, one minimal set of them that keeps it unique (each a
  question to one solver: is there a solution other than the known one
  without this part? the givens and one selector per rule as assumptions, the
  answer's core dropping every part it did not need); the rating (see
  :mod:`rating`).

Memory stays in proportion to the grid's candidates: the rules are Minicard's
native "exactly one" constraints (one per group, not a clause per pair: a
64x64 has 16 thousand groups against 33 million pairwise clauses), and ``add``
asks the engine, whose formula is the reduced one of what the singles leave open. Each part runs
until a shared deadline; a part that runs out is named in ``timed_out`` and
the others keep what they found.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace

from pysat.examples.rc2 import RC2
from pysat.formula import WCNFPlus

from sudosat.core.errors import SolverTimeout
from sudosat.core.puzzle import Grid, Puzzle, a_puzzle, differences
from sudosat.logic.rating import Rating
from sudosat.sat.cnf import literal, model_grid
from sudosat.sat.deadline import compute_by, deadline_after, remaining
from sudosat.sat.encoding import explaining, layout_groups
from sudosat.sat.limits import TooBig, check_solvable
from sudosat.solving.engine import solve
from sudosat.solving.outcome import Outcome, Status
from sudosat.solving.parts import Clue, Part, minimal_conflict, needed_parts

PARTS = ("solve", "conflict", "fewest_removed", "best_fill", "add", "rating", "redundant")
"""The parts of an explanation, as ``timed_out`` names them."""


@dataclass
class Explanation:
    """What explains a puzzle's answer; fields that do not apply are None."""

    outcome: Outcome
    conflict: list[Part] | None = None
    fewest_removed: int | None = None
    best_fill: Grid | None = None
    differ: list[int] | None = None
    add: list[Clue] | None = None
    redundant: list[Part] | None = None
    """Unique: the clues and rules whose removal alone keeps it unique."""
    minimal: list[Part] | None = None
    """Unique: one minimal set of the clues and rules that keeps it unique."""
    rating: Rating | None = None
    notes: list[str] = field(default_factory=list)
    timed_out: list[str] = field(default_factory=list)
    """The parts that ran out of time (see PARTS), in order."""

    @property
    def filled(self) -> int | None:
        return None if self.best_fill is None else sum(1 for v in self.best_fill if v)


def _maxsat(hard: list[list[int]], atmost: list[list[int]], soft: list[list[int]]) -> RC2:
    """RC2 over Minicard: ``hard`` clauses, "at most one" of each ``atmost`` group
    as a native constraint, and ``soft`` clauses of weight 1."""
    wcnf = WCNFPlus()
    for clause in hard:
        wcnf.append(clause)
    for group in atmost:
        wcnf.append([group, 1], is_atmost=True)
    for clause in soft:
        wcnf.append(clause, weight=1)
    return RC2(wcnf, solver="mc")


def fewest_removed(puzzle: Puzzle, deadline: float | None = None) -> int:
    """The fewest clues and rules to drop for the rest to have a solution (MaxSAT:
    each given, and each rule's selector, a soft clause)."""
    n = puzzle.size
    groups, rule_clauses, selectors, _ = explaining(puzzle)
    soft = [[literal(n, cell, v)] for cell, v in puzzle.givens] + [[s] for s in selectors]
    with _maxsat(groups + rule_clauses, groups, soft) as maxsat:
        compute_by(maxsat, deadline)
        return int(maxsat.cost)


def best_fill(puzzle: Puzzle, deadline: float | None = None) -> Grid:
    """The givens kept, at most one value per cell and per unit, as many cells filled
    as possible (seed 002's partial solve). The givens must not clash."""
    n = puzzle.size
    cells, unit_values = layout_groups(puzzle.layout)
    givens = [[literal(n, cell, v)] for cell, v in puzzle.givens]
    blanks = [group for cell, group in enumerate(cells) if not puzzle.cells[cell]]
    with _maxsat(givens, cells + unit_values, blanks) as maxsat:
        model = set(compute_by(maxsat, deadline) or [])
    return model_grid(n, model)


def clues_to_add(puzzle: Puzzle, solution: Grid, deadline: float | None = None) -> list[Clue]:
    """Clues of ``solution`` that make it the only one: greedy, then shrunk.

    Each step is the engine's own uniqueness check of the puzzle with the
    clues added so far (the batch engine, or for big grids the reduced CNF on
    CaDiCaL in a child process, which the deadline can stop): a second
    solution names the next clue, the first cell where it differs."""

    def unique_with(clues: list[Clue]) -> Grid | None:
        """None when the clues make ``solution`` unique, else a second solution."""
        cells = list(puzzle.cells)
        for cell, value in clues:
            cells[cell] = value
        outcome = solve(replace(puzzle, cells=tuple(cells)), timeout=remaining(deadline))
        if outcome.status == Status.TIMEOUT:
            raise SolverTimeout(outcome.reason)
        if outcome.status == Status.UNIQUE:
            return None
        return next(grid for grid in outcome.solutions if grid != solution)

    added: list[Clue] = []
    while (second := unique_with(added)) is not None:
        cell = differences(solution, second)[0]
        added.append((cell, solution[cell]))
    for clue in added[:-1]:  # the last one was needed: without it there was a second
        trial = [c for c in added if c != clue]
        if unique_with(trial) is None:
            added = trial
    return added


BUDGET = 60.0
"""Seconds the parts of an explanation (conflict, fewest_removed, best_fill,
add, rating) have together after the answer when no timeout is asked for: a
16x16 killer's minimal conflict can take many minutes (BENCHMARKS.md)."""


def explain(
    puzzle: Puzzle, timeout: float | None = None, budget: float | None = BUDGET
) -> Explanation:
    """Why ``puzzle`` has no solution, several, or one, and how hard it is then.

    ``timeout``: seconds for the whole explanation; without one, the answer is
    found however long it takes and the parts then have ``budget`` seconds
    (None: no limit). A part that does not finish in time is named in
    ``timed_out`` and left None (when the solve itself runs out, nothing else
    is tried). Raises TooBig when a unique puzzle's rating would need more
    memory than this machine has."""
    puzzle = a_puzzle(puzzle, "explain")
    deadline = deadline_after(timeout)
    outcome = solve(puzzle, timeout=timeout)
    if timeout is None:
        deadline = deadline_after(budget)
    found = Explanation(outcome)
    if outcome.status == Status.TIMEOUT:
        found.timed_out.append("solve")
        return found
    steps: list[tuple[str, Callable[[], None]]] = []
    if outcome.status == Status.NONE:

        def conflict() -> None:
            found.conflict = minimal_conflict(puzzle, deadline)

        def fewest() -> None:
            found.fewest_removed = fewest_removed(puzzle, deadline)

        def fill() -> None:
            found.best_fill = best_fill(puzzle, deadline)

        steps += [("conflict", conflict), ("fewest_removed", fewest)]
        if outcome.clashes:
            found.notes.append("the givens clash, so no fill keeps them all")
        elif puzzle.constraints:
            found.notes.append("best_fill keeps to classic rules: a variant's cannot be half kept")
        else:
            steps.append(("best_fill", fill))
    elif outcome.status == Status.MULTIPLE:
        found.differ = differences(*outcome.solutions[:2])

        def add() -> None:
            found.add = clues_to_add(puzzle, outcome.solutions[0], deadline)

        steps.append(("add", add))
    elif outcome.status == Status.UNIQUE:

        def redundant() -> None:
            try:  # every clue an assumption: the full grid's groups, held once
                check_solvable(puzzle, False, why=" to find its redundant clues")
            except TooBig as err:
                found.notes.append(f"redundant clues not looked for: {err}")
                return
            found.redundant, found.minimal = needed_parts(puzzle, outcome.solutions[0], deadline)

        def rating() -> None:
            from sudosat.logic.rating import rate  # deferred: a unique puzzle's alone

            found.rating = rate(puzzle, outcome.solutions[0], remaining(deadline))

        steps += [("rating", rating), ("redundant", redundant)]
    for name, step in steps:
        if found.conflict == [] and name in ("fewest_removed", "best_fill"):
            break  # nothing to take away or to fill: no clue or rule is in the conflict
        try:
            step()
        except SolverTimeout:
            found.timed_out.append(name)
    if found.conflict == []:
        from sudosat.sat.leftovers import ALONE, no_solution  # (a jigsaw's regions alone)

        found.notes.append(f"{ALONE}: no clue or rule is to blame")
        why = no_solution(puzzle.layout)
        if why:
            found.notes.append(why)
    return found
