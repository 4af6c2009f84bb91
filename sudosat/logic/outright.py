"""Questions the compiled engine's complete search answers outright, before any
SAT solve: every solution of a puzzle, when there are few and its branches
find them all within a budget. Then the true candidates (and how many
solutions hold each) are exact without a CNF: a killer's edit near the end of
setting in a millisecond where encoding it alone took several.

The search keeps the houses (rows, columns, regions and the rules' own houses)
and the rules that say which digit sets their cells make
(:meth:`Rule.search_cages`: killer cages); it leaves every other rule to the
check each grid gets. So its grids are every solution and maybe more; those
the rules' own checks pass are all the solutions. Whatever it cannot settle
(no engine, the budget spent, as many grids as the limit) is left to SAT: the
answer is the same either way.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import replace

from sudosat.core.puzzle import Grid, Puzzle, a_puzzle, verify
from sudosat.logic import bitboard
from sudosat.logic.board import Board, board_of
from sudosat.solving import candidates as sat_candidates
from sudosat.solving.candidates import Candidates
from sudosat.solving.engine import Count
from sudosat.solving.outcome import Outcome, Stats, Status

LIMIT = 64
"""Grids the search may find: as many means there may be more (SAT's question)."""
BUDGET = 162_000
"""Branches times cells the search may take before it leaves the question to SAT
(2,000 branches on a 9x9, 125 on a 36x36: a branch costs in proportion to the
cells, so a question it cannot settle costs a few milliseconds at any size)."""
SOLVER = "engine"
"""The name an answer of the search gives as its solver."""

_SHAPES: dict[tuple[tuple[int, ...], ...], Board] = {}


def _shape(puzzle: Puzzle) -> Board:
    """A board of the puzzle's houses: its layout's and its rules'."""
    layout, constraints = puzzle.layout, puzzle.constraints
    key = (*layout.units, *(h for rule in constraints for h in rule.houses(layout)))
    board = _SHAPES.get(key)
    if board is None:  # (the houses named only here: a board is made once a shape)
        if len(_SHAPES) >= bitboard.SHAPES_KEPT:
            _SHAPES.clear()
        named = [(h, r.describe(puzzle.size)) for r in constraints for h in r.houses(layout)]
        blank = replace(puzzle, cells=(0,) * len(puzzle.cells))
        board = _SHAPES[key] = board_of(blank, named)
    return board


def cages(puzzle: Puzzle) -> list[bitboard.Cage] | None:
    """What the search keeps of the puzzle's rules as cages, kind by kind
    (:meth:`Rule.search_cages`); None when it does not keep some rule (neither
    by the rule's houses nor as cages: its grids would be many more than the
    solutions, and the search would only delay SAT)."""
    found: list[bitboard.Cage] = []
    for kind, rules in (puzzle.rules.by_kind() if puzzle.rules else {}).items():
        kept = kind.search_cages(rules, puzzle.layout)
        if kept is None and not all(rule.houses(puzzle.layout) for rule in rules):
            return None
        found += kept or ()
    return found


def solutions(puzzle: Puzzle, masks: Mapping[int, int] | None = None) -> list[Grid] | None:
    """Every solution of ``puzzle`` whose open cells hold what ``masks`` leaves them
    (cell -> mask; none: what the givens' peers and the rules leave), each
    checked by the rules; None when the search cannot say they are all (then ask
    SAT): no engine, a rule it does not keep, its budget spent, or LIMIT grids."""
    if not bitboard.compiled() or puzzle.size > 64:
        return None
    if masks is None:
        masks = puzzle.masks
    full = (1 << puzzle.size) - 1
    board = [
        1 << (value - 1) if value else masks.get(cell, full)
        for cell, value in enumerate(puzzle.cells)
    ]
    kept = cages(puzzle)
    if kept is None:
        return None
    found = bitboard.search(_shape(puzzle), board, [], LIMIT, BUDGET // len(board), kept)
    if found is None or not found.settled or len(found.solutions) >= LIMIT:
        return None
    return [grid for grid in found.solutions if not verify(puzzle, grid)]


def candidates(
    puzzle: Puzzle,
    *,
    count_each: int | None = None,
    timeout: float | None = None,
    known: Mapping[int, int] | None = None,
    maybe: Iterable[Grid] = (),
    solver: str = sat_candidates.SOLVER,
    progress: sat_candidates.Progress | None = None,
) -> Candidates:
    """Every cell's true candidates, as :func:`sudosat.solving.candidates.candidates`
    gives them (the same arguments): from every solution, where the engine's
    search finds them all within its budget (:func:`by_search`); else by SAT."""
    start = time.perf_counter()
    found = by_search(a_puzzle(puzzle, "candidates"), count_each, known)
    if found is None:
        return sat_candidates.candidates(
            puzzle,
            count_each=count_each,
            timeout=timeout,
            known=known,
            maybe=maybe,
            solver=solver,
            progress=progress,
        )
    found.outcome.stats.time = time.perf_counter() - start
    return found


def by_search(
    puzzle: Puzzle, count_each: int | None = None, known: Mapping[int, int] | None = None
) -> Candidates | None:
    """The true candidates of ``puzzle`` (``known``: masks of what each cell may
    still hold), from every solution; None when the search cannot find them
    all (:func:`solutions`), or finds none (SAT names the conflict)."""
    masks = puzzle.masks  # (the search's singles are the engine's)
    if known:
        masks = {cell: mask & known.get(cell, mask) for cell, mask in masks.items()}
    grids = solutions(puzzle, masks)
    if not grids:
        return None
    status = Status.UNIQUE if len(grids) == 1 else Status.MULTIPLE
    outcome = Outcome(puzzle, status, grids[:2], solver=SOLVER)
    outcome.exhausted = status == Status.UNIQUE
    outcome.stats = Stats(solves=1)
    held = [sorted({grid[cell] for grid in grids}) for cell in range(len(puzzle.cells))]
    counts: dict[tuple[int, int], Count] = {}
    if count_each is not None:
        tally = Counter((cell, grid[cell]) for grid in grids for cell, _ in enumerate(grid))
        for cell, values in enumerate(held):
            if len(values) > 1:
                for value in values:
                    got = tally[cell, value]
                    counts[cell, value] = Count(min(got, count_each), got <= count_each)
    found = Candidates(outcome, tuple(map(tuple, held)), counts=counts, witnesses=len(grids))
    found.undecided = tuple(() for _ in puzzle.cells)
    found.found = tuple(grids)
    return found
