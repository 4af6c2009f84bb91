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
top. EP and ED come from it where they are 9.0 or more; below that, and where a
single comes first, from the path, which weighs singles and the lower techniques
as SE does.

A search that passes its budget (link expansions; Golden Nugget takes 0.54 G,
15 s) gives None, and the path's ER stands.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

from sudosat.core.puzzle import Puzzle
from sudosat.logic.bitboard import load_compiled

log = logging.getLogger("sudosat")

SEARCHED_FROM = 9.0
"""The path's ER from which SE's own search sets the ER (forcing chains (+))."""
BUDGET = 4_000_000_000
"""Link expansions a search may take (Golden Nugget: 0.54 G)."""


SEARCH, WHY_NOT = load_compiled("_explainer")
"""The compiled search (None: not built, or SUDOSAT_ENGINE=python; the path's ER stands)."""

Explained = tuple[float, float, float]
"""ER, EP and ED."""


def classic(puzzle: Puzzle) -> bool:
    """Whether SE rates ``puzzle``: a classic 9x9."""
    return puzzle.rules is None and puzzle.rank == 3


def searched(
    puzzle: Puzzle, solution: Sequence[int] | None = None, budget: int = BUDGET
) -> tuple[float, float | None, float | None] | None:
    """ER, EP and ED by SE's search (EP and ED None: a single came first, which the
    search does not weigh as SE does). None: not a classic 9x9, the search is not
    built, or it found no solution or passed ``budget``. With ``solution``, every
    step is checked against it (AssertionError: a step removed one of its values,
    a bug, as the path's UnsoundStep)."""
    if not classic(puzzle):
        return None
    if SEARCH is None:
        log.debug("SE's rating search is not here (%s): the path's ER stands", WHY_NOT)
        return None
    truth = bytes(solution) if solution is not None else None
    found, work = SEARCH.rate(bytes(puzzle.cells), budget, 5, *([truth] if truth else []))
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
) -> Explained:
    """ER, EP and ED of ``puzzle``: ``by_path``, the path's, with SE's search setting
    the ER, and EP and ED where it puts them at :data:`SEARCHED_FROM` or more, when
    the path's ER is there."""
    if by_path[0] < SEARCHED_FROM:
        return by_path
    found = searched(puzzle, solution, budget)
    if found is None:
        return by_path
    er, ep, ed = found
    return er, _at_top(ep, by_path[1]), _at_top(ed, by_path[2])


def _at_top(searched: float | None, by_path: float) -> float:
    return searched if searched is not None and searched >= SEARCHED_FROM else by_path
