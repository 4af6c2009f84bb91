"""What a rating says, and the solver-effort measure (``rate --by search``).

A puzzle's level and its rating come from one difficulty model, its logical
path (:func:`rate_by_path`, below): the hardest technique the path needs
(:func:`path_rating`). This module holds the record they are given in
(:class:`Rating`), the ratings by path (:func:`rate_by_path`; a generator's
:func:`rate_at` and :func:`open_at`; :func:`rate`, by path or by search by
size), and the other measure, of a solver's effort rather than a person's: the conflicts
of a deterministic search for the solution, ``log2(1 + conflicts)`` (0: unit
propagation alone settles it). A classic puzzle is searched by the batch
engine (its own outcome, when it found the answer), a variant by Minicard over
the reduced CNF; the same puzzle gets the same measure in every run.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from sudosat.core.errors import SolverTimeout
from sudosat.core.masks import bit
from sudosat.core.puzzle import Puzzle, a_puzzle
from sudosat.logic import explainer
from sudosat.logic.explainer import explainer_rating
from sudosat.logic.levels import End, Level
from sudosat.logic.path import PATH_LARGEST, Pathfinder, truth_of
from sudosat.logic.solve_path import Weighed
from sudosat.sat.deadline import deadline_after, remaining, solve_by
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
    (see :meth:`solve_path.SolvePath.explainer`)."""
    engine: str | None = None
    """Rated by a path: which engine rated it, ``compiled`` or ``python``
    (:func:`explainer.engine_name`)."""
    not_computed: str | None = None
    """Why ER, EP and ED are not given where SE's scale applies (SE's own search is
    not built here, or passed its budget); None: given, or SE's scale does not apply."""

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
            "er_not_computed": self.not_computed,
            "engine": self.engine,
        }

    def explained(self) -> str:
        """ER, EP and ED in words, or why they are not computed (empty when not
        rated by a path that solves it)."""
        if self.not_computed is not None:
            return f"ER not computed: {self.not_computed}"
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


SEARCH_RATING = 13.0
"""Where a puzzle the path's techniques cannot finish starts: above every technique
(nested chains at depth three rate 12.5 to 12.9), growing with the search it needs."""


def path_rating(path: Weighed, conflicts: int = 0) -> Rating:
    """The rating a logical path earns. Solved: its level is its hardest technique's
    (``simple``: naked singles alone; ``easy``: hidden singles and rules alone;
    ``intermediate``: locked candidates, rules together and with their units;
    ``expert``: the rest), rated 1, 2, or, for ``intermediate``, the hardest
    technique's weight + a tenth of log2 of how many steps it took (2.6 to
    3.9), for ``expert``, 1 + the hardest technique's weight (Sudoku
    Explainer's scale: a pair 4.0, forcing chains 9.0) + the same, below 13.
    Stuck: ``expert``, 13 + a quarter of log2(1 + ``conflicts``), the search the
    rest needs."""
    hardest = path.hardest()
    engine = explainer.engine_name()
    if path.end != End.SOLVED or hardest is None:
        rating = round(SEARCH_RATING + math.log2(1 + conflicts) / 4, 3)
        return Rating(Level.EXPERT, rating, conflicts, "search", engine=engine)
    level = path.level()
    explained = path.explainer()
    if level in (Level.SIMPLE, Level.EASY):
        return Rating(level, float(level.order + 1), 0, hardest.name, explained, engine)
    count = sum(1 for technique in path.techniques() if technique == hardest)
    if level == Level.INTERMEDIATE:  # below every expert rating (a naked pair's 4.0)
        rating = min(hardest.weight + math.log2(count) / 10, INTERMEDIATE_TOP)
    else:  # below the search's
        rating = min(1 + hardest.weight + math.log2(count) / 10, SEARCH_RATING - 0.01)
    return Rating(level, round(rating, 3), 0, hardest.name, explained, engine)


INTERMEDIATE_TOP = 3.9
"""The most an intermediate path rates: expert starts at 4.0."""


def rate_by_path(
    puzzle: Puzzle,
    solution: Sequence[int] | None = None,
    timeout: float | None = None,
    without: Iterable[str] = (),
) -> Rating:
    """The rating of ``puzzle``'s logical path (:mod:`path`); its solution must be
    unique (``solution``: when known, else found). Where the path's techniques do
    not finish, the rest is rated by the conflicts of a search (Minicard over the
    reduced CNF, deterministic). SolverTimeout when it takes longer than ``timeout``.
    ``without``: techniques left out (see :data:`techniques.FAMILIES`). A classic
    9x9's ER at the top (9.0 and up) is Sudoku Explainer's own search's
    (:mod:`sudosat.logic.explainer`)."""
    puzzle = a_puzzle(puzzle, "rate_by_path")
    deadline = deadline_after(timeout)
    truth = truth_of(puzzle, timeout) if solution is None else [bit(v) for v in solution]
    without = tuple(without)
    with Pathfinder(puzzle, without=without) as finder:
        path = _weighed(finder, truth, deadline, timeout)
    if path.end != End.SOLVED:
        return path_rating(path, search_conflicts(puzzle, deadline))
    rating = path_rating(path)
    if rating.explainer is None or without:  # SE's search knows SE's techniques alone
        return rating
    try:
        found = explainer_rating(puzzle, rating.explainer, solution_of(truth), deadline=deadline)
    except SolverTimeout:
        raise SolverTimeout(f"no rating within {timeout:g} s") from None
    if found is None:
        built = explainer.SEARCH is not None
        why = "past its budget" if built else "SE's rating search is not built here"
        return replace(rating, explainer=None, not_computed=why)
    return replace(rating, explainer=found)


def solution_of(truth: Sequence[int] | None) -> list[int] | None:
    """The solution the true candidates spell (None: not one)."""
    if truth is None or any(mask & (mask - 1) for mask in truth):
        return None
    return [mask.bit_length() for mask in truth]


def _weighed(
    finder: Pathfinder,
    truth: Sequence[int] | None,
    deadline: float | None,
    timeout: float | None,
) -> Weighed:
    """The finder's path as a rating reads it (the engine's, else the path itself);
    SolverTimeout past ``deadline``."""
    path: Weighed | None = finder.rated(truth, deadline)
    if path is None:  # no engine: the path itself
        path = finder.path(truth, deadline=deadline)
    if path.end == End.TIMEOUT:
        raise SolverTimeout(f"no rating within {timeout:g} s")
    return path


def rate_at(
    puzzle: Puzzle, solution: Sequence[int], level: Level, timeout: float | None = None
) -> Rating | None:
    """``puzzle``'s rating (its solution must be unique, ``solution``) when it is
    of ``level``, else None, with as little of its path as the answer needs: a
    path kept to ``level`` (to intermediate, for expert) first, which is the
    whole path when it solves the puzzle; the rest of the path only for an
    expert puzzle. A generator asks this of every puzzle it makes."""
    deadline = deadline_after(timeout)
    truth = [bit(v) for v in solution]
    kept = min(level, Level.INTERMEDIATE, key=lambda x: x.order)
    with Pathfinder(puzzle, upto=kept) as finder:
        path = _weighed(finder, truth, deadline, timeout)
    if path.end == End.SOLVED:
        found = path_rating(path)
        return found if found.level == level else None
    return rate_by_path(puzzle, solution, remaining(deadline)) if level == Level.EXPERT else None


GENERATED_PATH_LARGEST = 16
"""The largest generated grid rated by its path unless a level is asked for:
a minimal 25x25's path takes tens of seconds (seed 1 with 300 clues: 34 s,
its nested chains), against a second to make it."""


def rate(
    puzzle: Puzzle,
    solution: Sequence[int] | None = None,
    timeout: float | None = None,
    without: Iterable[str] = (),
    searched: Outcome | None = None,
    largest: int = PATH_LARGEST,
) -> Rating:
    """How hard ``puzzle`` is (its solution must be unique): by its logical path
    (:func:`rate_by_path`) up to ``largest``; past that, by the search's effort
    alone, with no level (:func:`rating.rate_by_search`, ``searched``: the batch
    engine's outcome for it, when it found it)."""
    if puzzle.size <= largest:
        return rate_by_path(puzzle, solution, timeout, without)
    return rate_by_search(puzzle, searched, timeout)


def open_at(puzzle: Puzzle, level: Level, finder: Pathfinder | None = None) -> list[int]:
    """The cells ``puzzle``'s path leaves open when it ends at its first step past
    ``level`` (every cell: a contradiction); none: ``puzzle`` rates ``level`` or
    easier. ``finder``: one made for these rules with ``upto=level`` (a
    generator asks of one puzzle after another)."""
    if finder is not None:
        return finder.open_cells(puzzle)
    with Pathfinder(puzzle, upto=level) as made:
        return made.open_cells(puzzle)
