"""What a rating says, and the solver-effort measure (``rate --by search``).

A puzzle's level and its rating come from one difficulty model, its logical
path (:func:`sudosat.logic.path.rate_by_path`): the hardest technique the path
needs. This module holds the record they are given in (:class:`Rating`), and
the other measure, of a solver's effort rather than a person's: the conflicts
of a deterministic search for the solution, ``log2(1 + conflicts)`` (0: unit
propagation alone settles it). A classic puzzle is searched by the batch
engine (its own outcome, when it found the answer), a variant by Minicard over
the reduced CNF; the same puzzle gets the same measure in every run.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

from sudosat.core.errors import SolverTimeout
from sudosat.core.puzzle import Puzzle
from sudosat.logic.levels import Level
from sudosat.sat.deadline import deadline_after, solve_by
from sudosat.sat.encoding import encode
from sudosat.sat.limits import check_solvable
from sudosat.solving.deduce import deduce
from sudosat.solving.engine import batch_engine
from sudosat.solving.fast import FastSolver, holding
from sudosat.solving.outcome import Outcome, Status


@dataclass(frozen=True)
class Rating:
    """How hard a puzzle with a unique solution is."""

    level: Level | None
    """Its path's level (None: measured by search alone)."""
    rating: float
    conflicts: int = 0
    """The search's conflicts (rated by search, or past the path's techniques)."""
    technique: str | None = None
    """Rated by a logical path: the hardest technique it needs (``search``: beyond them)."""
    explainer: tuple[float, float, float] | None = None
    """Rated by a path that solves it: ER, EP and ED on Sudoku Explainer's scale
    (see :meth:`path.SolvePath.explainer`)."""

    @property
    def named(self) -> str:
        """Its level, or ``search`` for the solver-effort measure."""
        return self.level or "search"

    def said(self) -> str:
        """Its level and rating in words (``search effort`` where it has no level)."""
        if self.level is None:
            return f"search effort {self.rating:g}"
        return f"level {self.level}, rating {self.rating:g}"

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


_engines: dict[int, FastSolver] = {}


def searcher(puzzle: Puzzle) -> FastSolver:
    """One batch engine per rank and process, made when a puzzle of that rank
    first needs it; TooBig when its rules would not fit in memory."""
    found = _engines.get(puzzle.rank)
    if found is None:
        check_solvable(puzzle, False, 1, " (the search's rules)")
        found = _engines[puzzle.rank] = batch_engine(puzzle.rank)
    return found


def rate_by_search(
    puzzle: Puzzle, searched: Outcome | None = None, timeout: float | None = None
) -> Rating:
    """The solver-effort measure of ``puzzle`` (its solution must be unique):
    ``log2(1 + conflicts)`` of a deterministic search; ``searched``: the batch
    engine's outcome for it, to measure without solving again. Raises TooBig
    when the engine's rules would not fit in memory, SolverTimeout when the
    search takes longer than ``timeout`` seconds."""
    if not puzzle.classic:
        conflicts = search_conflicts(puzzle, deadline_after(timeout))
    else:
        outcome = searched or searcher(puzzle).solve(puzzle, timeout=timeout)
        if outcome.status == Status.TIMEOUT:
            raise SolverTimeout(outcome.reason)
        conflicts = outcome.stats.conflicts or 0
    return Rating(None, round(math.log2(1 + conflicts), 3), conflicts)


def search_conflicts(puzzle: Puzzle, deadline: float | None) -> int:
    """The conflicts of a deterministic search for ``puzzle``'s solution (Minicard
    over the reduced CNF of what the singles leave)."""
    deduced = deduce(puzzle)
    cnf = encode(replace(puzzle, cells=deduced.grid), compact=True, masks=deduced.masks)
    search = holding(cnf)
    try:
        solve_by(search, deadline)
        return int(search.accum_stats().get("conflicts", 0))
    finally:
        search.delete()
