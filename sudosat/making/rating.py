"""How hard a puzzle is: what plain propagation settles, and how much search the rest needs.

Each level is the weakest reasoning that settles every cell, from the givens,
with the solution already known to be unique:

* ``simple``: naked singles (a cell with one candidate left) settle it: unit
  propagation over "each cell holds exactly one value" and "each value at most
  once per unit";
* ``easy``: hidden singles too (a value with one place left in a unit): the
  same plus "each value at least once per unit";
* ``intermediate``: box-line reasoning too (pointing and claiming): unit
  propagation over the batch engine's triads;
* ``expert``: search. The batch engine's search, which finds the solution
  and proves it unique on what the triad propagation left open; ``conflicts``
  counts its conflicts (dead ends it backed out of).

``rating`` is 1, 2 and 3 for the first three levels, and 4 + log2(1 + conflicts)
for the last, so it grows with the search a puzzle needs. The search is
deterministic (a fresh solver on a formula in a fixed order), so the same
puzzle gets the same rating in every run, and rating costs no more than solving.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Any

from pysat.solvers import Minicard, Solver

from sudosat.core.errors import SolverTimeout
from sudosat.core.puzzle import Puzzle
from sudosat.sat.cnf import literal, pairwise
from sudosat.sat.deadline import deadline_after, interruptible, solve_by
from sudosat.sat.encoding import encode, groups
from sudosat.sat.limits import check_solvable
from sudosat.solving.deduce import Deduced, deduce
from sudosat.solving.engine import batch_engine
from sudosat.solving.fast import PROBE_SOLVER, FastSolver, holding
from sudosat.solving.outcome import Outcome, Status

LEVELS = ("simple", "easy", "intermediate", "expert")
LEVEL_NAMES = {"medium": "intermediate", "hard": "expert"}
"""Everyday names for levels, as puzzle books print them."""


@dataclass(frozen=True)
class Rating:
    """How hard a puzzle with a unique solution is."""

    level: str
    rating: float
    conflicts: int = 0
    """The search's conflicts (``expert`` only)."""
    technique: str | None = None
    """Rated by a logical path: the hardest technique it needs (``search``: beyond them)."""
    explainer: tuple[float, float, float] | None = None
    """Rated by a path that solves it: ER, EP and ED on Sudoku Explainer's scale
    (see :meth:`path.SolvePath.explainer`)."""

    def as_dict(self) -> dict[str, object]:
        er, ep, ed = self.explainer or (None, None, None)
        return {
            "level": self.level,
            "rating": self.rating,
            "conflicts": self.conflicts,
            "technique": self.technique,
            "er": er,
            "ep": ep,
            "ed": ed,
        }

    def explained(self) -> str:
        """ER, EP and ED in words (empty when not rated by a path that solves it)."""
        if self.explainer is None:
            return ""
        return "ER {:g}, EP {:g}, ED {:g}".format(*self.explainer)


class Rater:
    """Rates puzzles of one rank; keep one per process (see :func:`rater`)."""

    def __init__(self, rank: int) -> None:
        n = rank * rank
        cells, unit_values = groups(rank)
        pairs = pairwise(cells + unit_values)
        self.cells = n**3
        self.naked = Solver(name=PROBE_SOLVER, bootstrap_with=cells + pairs)
        self.hidden = Solver(name=PROBE_SOLVER, bootstrap_with=cells + pairs + unit_values)
        self.engine: FastSolver = batch_engine(rank)

    def rate(
        self, puzzle: Puzzle, searched: Outcome | None = None, timeout: float | None = None
    ) -> Rating:
        """The rating of a puzzle whose solution is unique (check that first);
        ``searched``: the batch engine's outcome for it, when it has been solved.
        SolverTimeout when the search takes longer than ``timeout`` seconds."""
        n = puzzle.size
        givens = [literal(n, cell, v) for cell, v in puzzle.givens]
        levels = [("simple", self.naked, self.cells), ("easy", self.hidden, self.cells)]
        if searched is None:  # else its first step was that propagation
            levels.append(("intermediate", self.engine.probe, self.engine.top))
        for level, probe, settled in levels:
            ok, implied = interruptible(probe.propagate, assumptions=givens)
            if ok and len(implied) == settled:
                return Rating(level, float(LEVELS.index(level) + 1))
        if searched is not None and not searched.stats.solves:  # settled by propagation
            return Rating("intermediate", 3.0)
        outcome = searched or self.engine.solve(puzzle, timeout=timeout)
        if outcome.status == Status.TIMEOUT:
            raise SolverTimeout(outcome.reason)
        conflicts = outcome.stats.conflicts or 0
        return Rating("expert", round(4 + math.log2(1 + conflicts), 3), conflicts)


RATER_COPIES = 3
"""Solvers a Rater holds the full rules in (naked, hidden, the batch engine's)."""
_raters: dict[int, Rater] = {}


def rater(puzzle: Puzzle) -> Rater:
    """One rater per rank and process, made when a puzzle of that rank first needs
    it; TooBig when its rules would not fit in memory (the size check, like the
    rules, depends on the rank alone)."""
    found = _raters.get(puzzle.rank)
    if found is None:
        check_solvable(puzzle, False, RATER_COPIES, " (the rater's three copies of the rules)")
        found = _raters[puzzle.rank] = Rater(puzzle.rank)
    return found


def rate(puzzle: Puzzle, searched: Outcome | None = None, timeout: float | None = None) -> Rating:
    """How hard ``puzzle`` is; its solution must be unique. ``searched``: the
    batch engine's outcome for it, to rate without solving again. Raises TooBig
    when the rater's rules would not fit in memory, SolverTimeout when the
    search takes longer than ``timeout`` seconds."""
    if not puzzle.classic:
        return rate_variant(puzzle, timeout)
    return rater(puzzle).rate(puzzle, searched, timeout)


def rate_variant(puzzle: Puzzle, timeout: float | None = None) -> Rating:
    """A variant's rating by search (what generate records, ``rate --by search``;
    ``rate`` itself rates by the path, :func:`rate_by_path`), on the classic scale
    by the reasoning each level allows (:mod:`logic`): ``easy`` when singles over
    every house (rows, columns, regions and the rules' own, such as diagonals)
    settle every cell,
    ``intermediate`` when locked candidates and each rule's own propagation are
    needed too, else ``expert``: 4 + log2(1 + the conflicts of a Minicard search
    over the reduced CNF), deterministic."""
    from sudosat.making.logic import level_settles  # deferred: variants only

    deduced = deduce(puzzle)
    if not deduced.masks:
        return Rating("easy", 2.0)
    if level_settles(puzzle, "intermediate"):  # the stronger first: most made are expert
        level = "easy" if level_settles(puzzle, "easy") else "intermediate"
        return Rating(level, float(LEVELS.index(level) + 1))
    conflicts = search_conflicts(puzzle, deadline_after(timeout), deduced)
    return Rating("expert", round(4 + math.log2(1 + conflicts), 3), conflicts)


def search_conflicts(puzzle: Puzzle, deadline: float | None, deduced: Deduced | None = None) -> int:
    """The conflicts of a deterministic search for ``puzzle``'s solution (Minicard
    over the reduced CNF of what the singles, ``deduced``, leave)."""
    search, _ = _propagated(puzzle, deduced or deduce(puzzle))
    try:
        solve_by(search, deadline)
        return int(search.accum_stats().get("conflicts", 0))
    finally:
        search.delete()


def unsettled(puzzle: Puzzle, level: str = "intermediate") -> list[int]:
    """The cells of a variant that the reasoning of ``level`` (:mod:`logic`)
    leaves open. None open: the puzzle is of that level or easier."""
    deduced = deduce(puzzle)
    if not deduced.masks:
        return []
    if level == "easy" and not any(rule.houses(puzzle.layout) for rule in _rules(puzzle)):
        return sorted(deduced.masks)  # no house beyond the layout's: the singles said it
    from sudosat.making.logic import Reasoner  # deferred: variants only

    with Reasoner(puzzle, level) as reasoner:
        return reasoner.open_cells(puzzle)


def _rules(puzzle: Puzzle) -> tuple[Any, ...]:
    return puzzle.rules.constraints if puzzle.rules else ()


def _propagated(puzzle: Puzzle, deduced: Deduced) -> tuple[Minicard, list[int]]:
    """A fresh Minicard holding the reduced CNF of what the singles left
    (``deduced``), and the cells unit propagation over it leaves open."""
    cnf = encode(replace(puzzle, cells=deduced.grid), compact=True, masks=deduced.masks)
    search = holding(cnf)
    ok, implied = interruptible(search.propagate, assumptions=[])
    if not ok:  # no solution: the search says so
        return search, [cell for cell, _ in cnf.open_cells]
    assigned = {abs(lit) for lit in implied}
    open_cells = [
        cell
        for first, (cell, values) in zip(cnf.first_variables(), cnf.open_cells, strict=True)
        if any(cnf.variable(first, values, v) not in assigned for v in values)
    ]
    return search, open_cells
