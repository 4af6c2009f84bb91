"""Sudoku Explainer's own rating search, for the ER at the top of its scale.

The logical path weighs each of its steps on Sudoku Explainer's (SE's) scale,
and up to dynamic forcing chains its heaviest step is SE's ER. Past them SE's ER
is set by its nested search (levels 2 to 5: each candidate's branch followed
dynamically, the level's inner rules asked where it stalls, complexity counted
over every fact behind the chain and every inner chain), which the path does not
follow step by step: its nested steps are its own, shorter to read. So ``rate``
asks SE's search itself (``_explainer.c``, compiled with sudosat) for a classic
9x9 whose path needs forcing chains (+) or more (ER 9.0 and up).

The algorithm is SE's, read from its source; the code is sudosat's. It follows
SE's producers in SE's order from the givens, the easiest hint of the first that
has one at every step; the lower producers it leaves out (uniqueness, aligned
exclusions, Nishio, wings, which chains subsume) only change the boards below the
top. EP comes from it where it is 9.0 or more; below that, and where a single
comes first, from the path, which weighs singles and the lower techniques as SE
does. ED is the weight of the first step, the easiest SE's techniques find:
the search's, or the path's where that is easier and on SE's scale (below 9.0).

A search that passes its budget (link expansions; Golden Nugget takes 0.54 G,
15 s) or its deadline, or that cannot run here (the compiled search is not
built), gives no ER: the record says "not computed" rather than another number,
so a puzzle has one rating whatever the build.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

from sudosat.core.errors import SolverTimeout
from sudosat.core.puzzle import Puzzle
from sudosat.logic.bitboard import ENGINE, load_compiled

log = logging.getLogger("sudosat")

SEARCHED_FROM = 9.0
"""The path's ER from which SE's own search sets the ER (forcing chains (+))."""
BUDGET = 4_000_000_000
"""Link expansions a search may take (Golden Nugget: 0.54 G)."""


SEARCH, WHY_NOT = load_compiled("_explainer")
"""The compiled search (None: not built, or SUDOSAT_ENGINE=python: no ER at the top)."""


def engine_name() -> str:
    """Which engine rates here: ``compiled`` (the path's engine and SE's search in
    C) or ``python`` (the path in Python; SE's search, C only, not here). Every
    record of a rating says it."""
    return "compiled" if ENGINE is not None and SEARCH is not None else "python"


Explained = tuple[float, float, float]
"""ER, EP and ED."""


def classic(puzzle: Puzzle) -> bool:
    """Whether SE rates ``puzzle``: a classic 9x9."""
    return puzzle.rules is None and puzzle.rank == 3


def searched(
    puzzle: Puzzle,
    solution: Sequence[int] | None = None,
    budget: int = BUDGET,
    deadline: float | None = None,
) -> tuple[float, float | None, float | None] | None:
    """ER, EP and ED by SE's search (EP and ED None: a single came first, which the
    search does not weigh as SE does). None: not a classic 9x9, the search is not
    built, or it found no solution or passed ``budget``. SolverTimeout past
    ``deadline`` (time.monotonic()); a signal raises inside the search (Ctrl-C:
    KeyboardInterrupt); MemoryError when memory runs out. With ``solution``,
    every step is checked against it (AssertionError: a step removed one of its
    values, a bug, as the path's UnsoundStep)."""
    if not classic(puzzle):
        return None
    if SEARCH is None:
        log.debug("SE's rating search is not here (%s): no ER at the top", WHY_NOT)
        return None
    truth = bytes(solution) if solution is not None else None
    try:
        found, work = SEARCH.rate(bytes(puzzle.cells), budget, 5, truth, deadline or 0.0)
    except TimeoutError as late:
        raise SolverTimeout(str(late)) from None
    if found is None:
        log.info("SE's rating search gave no ER after %d link expansions", work)
        return None
    er, ep, ed = found
    return er / 10, (ep / 10 if ep else None), (ed / 10 if ed else None)


def explainer_rating(
    puzzle: Puzzle,
    by_path: Explained,
    solution: Sequence[int] | None = None,
    budget: int = BUDGET,
    deadline: float | None = None,
) -> Explained | None:
    """ER, EP and ED of ``puzzle``, from ``by_path`` (the path's) and, where the
    path's ER is :data:`SEARCHED_FROM` or more, SE's search: its ER; its EP where
    that is 9.0 or more; its ED, or the path's where that is easier and on SE's
    scale (:func:`_first`).
    None: a classic puzzle's search did not run to its end (not built, past its
    budget), and then SE's ER is not computed; SolverTimeout past ``deadline``."""
    if by_path[0] < SEARCHED_FROM or not classic(puzzle):
        return by_path
    found = searched(puzzle, solution, budget, deadline)
    if found is None:
        return None
    er, ep, ed = found
    return er, _at_top(ep, by_path[1]), _first(ed, by_path[2])


def _first(searched: float | None, by_path: float) -> float:
    """The ED: the weight of the first step SE would take, the easiest any of its
    techniques finds. The path's is on SE's scale below 9.0 (its nested steps
    weigh their own way), so there the easier of the two; the search's above; the
    path's where a single comes first (the search does not weigh singles as SE)."""
    if searched is None:
        return by_path
    return min(searched, by_path) if by_path < SEARCHED_FROM else searched


def _at_top(searched: float | None, by_path: float) -> float:
    return searched if searched is not None and searched >= SEARCHED_FROM else by_path
