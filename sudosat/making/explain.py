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

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

from pysat.examples.rc2 import RC2
from pysat.formula import WCNFPlus

from sudosat.core.errors import SolverTimeout
from sudosat.core.puzzle import Constraint, Grid, Puzzle, differences
from sudosat.making.rating import Rating, rate
from sudosat.sat.cnf import cell_value, literal, model_grid
from sudosat.sat.deadline import compute_by, deadline_after, remaining, solve_by
from sudosat.sat.encoding import explaining, layout_groups
from sudosat.sat.limits import TooBig, check_solvable
from sudosat.solving.engine import solve
from sudosat.solving.fast import exactly_one
from sudosat.solving.outcome import Outcome, Status

Clue = tuple[int, int]
"""(cell, value)."""
Part = Clue | Constraint
"""What a conflict is made of: clues, and a variant's rules."""
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


class _Parts:
    """One Minicard holding the layout's groups and a variant's rules each behind
    its selector (see :func:`encoding.explaining`), and the parts a question
    keeps: the givens' literals and the rules' selectors. A part left out is
    away: its selector assumed false, so that a rule whose absence constrains
    (a dot under a negative constraint) constrains."""

    def __init__(self, puzzle: Puzzle) -> None:
        n = puzzle.size
        groups, rule_clauses, selectors, _ = explaining(puzzle)
        constraints = puzzle.rules.constraints if puzzle.rules else ()
        self.puzzle = puzzle
        self.rule_of = dict(zip(selectors, constraints, strict=True))
        self.sat = exactly_one(groups)
        for clause in rule_clauses:
            self.sat.add_clause(clause)
        self.all = [literal(n, cell, v) for cell, v in puzzle.givens] + selectors
        self.relative = puzzle.rules is not None and puzzle.rules.relative
        """Whether leaving a rule out can constrain more: then a part once needed
        may be needed no more, and deletion goes round until nothing changes."""

    def unsat(self, kept: Sequence[int], deadline: float | None) -> bool:
        """Whether no solution keeps the parts ``kept`` (with the rest away)."""
        return not solve_by(self.sat, deadline, self.assumptions(kept))

    def assumptions(self, kept: Sequence[int]) -> list[int]:
        held = set(kept)
        return [*kept, *(-s for s in self.rule_of if s not in held)]

    def core(self, kept: Sequence[int]) -> list[int]:
        """After :meth:`unsat`: the parts of ``kept`` the answer needed."""
        found = set(self.sat.get_core() or kept)
        return [x for x in kept if x in found]

    def grid_holds(self, kept: Sequence[int], grid: Grid) -> bool:
        """Whether ``grid`` keeps the rules of ``kept`` alone (its givens it keeps):
        taking a rule away can break it only when the rules are relative."""
        rules = self.puzzle.rules
        if rules is None or not self.relative:
            return True
        held = set(kept)
        away = [rule for s, rule in self.rule_of.items() if s not in held]
        return not rules.without(away).violations(grid)

    def part(self, lit: int) -> Part:
        n = self.puzzle.size
        return self.rule_of[lit] if lit in self.rule_of else cell_value(n, lit)

    def delete(self) -> None:
        self.sat.delete()


def minimal_conflict(puzzle: Puzzle, deadline: float | None = None) -> list[Part]:
    """A minimal set of clues, and of a variant's rules, that cannot all hold with
    the rows, columns and regions (a MUS over the givens and one selector per rule:
    the puzzle of these parts alone has no solution, and it has one without any
    of them)."""
    parts = _Parts(puzzle)
    try:
        if not parts.unsat(parts.all, deadline):
            return []
        kept = parts.core(parts.all)
        changed = True
        while changed:  # once, unless leaving a rule out can constrain more
            changed = False
            for lit in list(kept):  # deletion: drop every part the rest conflict without
                trial = _without(kept, lit)
                if lit in kept and parts.unsat(trial, deadline):
                    kept, changed = parts.core(trial), parts.relative
    finally:
        parts.delete()
    return [parts.part(lit) for lit in kept]


def needed_parts(
    puzzle: Puzzle, solution: Grid, deadline: float | None = None
) -> tuple[list[Part], list[Part]]:
    """For a unique ``puzzle``: the clues and rules whose removal alone keeps it
    unique (redundant), and one minimal set of them that keeps it unique (givens
    dropped before rules). Each question: does ``solution`` keep the parts left
    (by the rules' own checks; it may not once a dot under a negative
    constraint is gone), and is there a solution other than it (UNSAT: still
    unique; its core says which parts were needed, so the rest go at once)."""
    parts = _Parts(puzzle)
    try:
        n = puzzle.size
        parts.sat.add_clause([-literal(n, cell, value) for cell, value in enumerate(solution)])

        def unique(kept: list[int]) -> bool:
            return parts.grid_holds(kept, solution) and parts.unsat(kept, deadline)

        if not unique(parts.all):
            raise ValueError("needed_parts: the puzzle is not unique")
        redundant = [lit for lit in parts.all if unique(_without(parts.all, lit))]
        kept = parts.all
        changed = True
        while changed:  # once, unless leaving a rule out can constrain more
            changed = False
            for lit in list(kept):
                if lit in kept and unique(trial := _without(kept, lit)):
                    kept, changed = trial, parts.relative
                    shrunk = parts.core(trial)
                    if shrunk != trial and parts.grid_holds(shrunk, solution):
                        kept = shrunk  # every part the answer did not need, at once
    finally:
        parts.delete()
    return [parts.part(x) for x in redundant], [parts.part(x) for x in kept]


def _without(parts: list[int], lit: int) -> list[int]:
    return [x for x in parts if x != lit]


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
        elif puzzle.rules is not None and puzzle.rules.constraints:
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
            found.rating = rate(puzzle, timeout=remaining(deadline))

        steps += [("rating", rating), ("redundant", redundant)]
    for name, step in steps:
        try:
            step()
        except SolverTimeout:
            found.timed_out.append(name)
    return found
