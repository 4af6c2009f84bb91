"""Many puzzles at once: candidate masks in one numpy array, propagated together.

Separate from :mod:`deduce` and the logic's singles because it serves the batch
engine's fast path: thousands of puzzles a call, one numpy operation a step.

A chunk of puzzles of one rank is a (cells, puzzles) array of bit masks, bit
``v - 1`` set when value ``v`` is still a candidate. Every step works on the
whole array:

* naked singles: a cell with one candidate removes it from its peers;
* hidden singles: a value with one place left in a unit goes there;
* box-line: a value that, inside a box, is left in one row (or column) only
  leaves the rest of that row; one that, inside a row, is left in one box
  only leaves the rest of that box.

Each deduction holds in every solution, so a puzzle whose cells all end with one
candidate has exactly that solution and no other, and one with an empty cell,
a value with no place in a unit, or a value twice in a unit has none. The rest
are searched, still all at once: each open puzzle splits on its first cell with
the fewest candidates (that cell's lowest value, or not that value), and both
halves are propagated. The search is exhaustive, so a puzzle with one solution
found and every branch closed is unique. A puzzle that shows two solutions or
needs more than its budget of branches is left to the SAT engine, which then
answers it exactly as it would have without this front end.
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cache

import numpy as np
from numpy.typing import NDArray

from sudosat.core.errors import SolverError
from sudosat.core.puzzle import Grid, Puzzle, unit_index, units
from sudosat.reading.cells import NOT_A_CELL
from sudosat.sat.cnf import cell_literals
from sudosat.solving.engine import Options, batch_engine, uses_batch_engine
from sudosat.solving.fast import GroupList
from sudosat.solving.outcome import Outcome, Status, no_solution

Masks = NDArray[np.unsignedinteger]

OPEN, SOLVED, DEAD = 0, 1, -1
CLOSING = 0.2
"""The share of branches a round must close (solved or contradicted) for the
search to go on; propagation alone is the first round. On the 17-clue set 80%
of the puzzles close in the first and about half the branches in every round
after; on magictour 4% and on forum-hardest none close in the first, and a
branch costs a twentieth of a whole SAT search, so searching there costs
more than it settles."""
UNIQUE, NONE, UNDECIDED = 1, 0, -1
BLOCK = 1024
"""Puzzles propagated together at most: past about a thousand, numpy's
temporaries leave the caches and a puzzle costs more."""


@dataclass(frozen=True)
class Indexes:
    """The index arrays of one rank: which cells make each unit and segment."""

    rank: int
    size: int
    full: int
    dtype: type
    unit_cells: NDArray[np.intp]  # (3N, N)
    cell_units: NDArray[np.intp]  # (cells, 3)
    segment_cells: NDArray[np.intp]  # (2*N*rank, rank): row segments, then column ones
    segment_box_others: NDArray[np.intp]  # the other segments of the same box and kind
    segment_line_others: NDArray[np.intp]  # the other segments of the same row or column
    pointing_sources: NDArray[np.intp]  # per cell: segments of its lines outside its box
    claiming_sources: NDArray[np.intp]  # per cell: segments of its box outside its lines


@cache
def indexes(rank: int) -> Indexes:
    n = rank * rank
    cells = n * n
    unit_cells = np.array(units(rank), dtype=np.intp)
    cell_units = np.array(unit_index(rank), dtype=np.intp).T + np.array([0, n, 2 * n])
    # Segment (line, box): the rank cells a row or column shares with a box.
    segments: list[tuple[int, ...]] = []
    key: list[tuple[str, int, int]] = []  # (kind, line, box)
    for kind in ("row", "col"):
        for line in range(n):
            for part in range(rank):
                if kind == "row":
                    seg = tuple(line * n + part * rank + k for k in range(rank))
                    box = (line // rank) * rank + part
                else:
                    seg = tuple((part * rank + k) * n + line for k in range(rank))
                    box = part * rank + line // rank
                segments.append(seg)
                key.append((kind, line, box))
    index_of = {k: i for i, k in enumerate(key)}
    box_others = [
        [index_of[(kind, other, box)] for other in _lines_in_box(kind, box, rank) if other != line]
        for kind, line, box in key
    ]
    line_others = [
        [
            index_of[(kind, line, other)]
            for other in _boxes_on_line(kind, line, rank)
            if other != box
        ]
        for kind, line, box in key
    ]
    pointing = []
    claiming = []
    for cell in range(cells):
        row, col = divmod(cell, n)
        box = (row // rank) * rank + col // rank
        pointing.append(
            [index_of[("row", row, b)] for b in _boxes_on_line("row", row, rank) if b != box]
            + [index_of[("col", col, b)] for b in _boxes_on_line("col", col, rank) if b != box]
        )
        claiming.append(
            [index_of[("row", r, box)] for r in _lines_in_box("row", box, rank) if r != row]
            + [index_of[("col", c, box)] for c in _lines_in_box("col", box, rank) if c != col]
        )
    return Indexes(
        rank,
        n,
        (1 << n) - 1,
        np.uint16 if n <= 16 else np.uint32,
        unit_cells,
        cell_units,
        np.array(segments, dtype=np.intp),
        np.array(box_others, dtype=np.intp),
        np.array(line_others, dtype=np.intp),
        np.array(pointing, dtype=np.intp),
        np.array(claiming, dtype=np.intp),
    )


def _lines_in_box(kind: str, box: int, rank: int) -> range:
    first = (box // rank if kind == "row" else box % rank) * rank
    return range(first, first + rank)


def _boxes_on_line(kind: str, line: int, rank: int) -> list[int]:
    if kind == "row":
        return [(line // rank) * rank + part for part in range(rank)]
    return [part * rank + line // rank for part in range(rank)]


def _or(masks: Masks, axis: int) -> Masks:
    return np.bitwise_or.reduce(masks, axis=axis)  # type: ignore[no-any-return]


def step(m: Masks, lay: Indexes) -> tuple[Masks, NDArray[np.bool_]]:
    """One round of every deduction on every puzzle of ``m`` (cells, puzzles);
    the new masks and the puzzles that hit a contradiction. Puzzles run along
    the last axis, so every operation is one pass over contiguous memory."""
    count = np.bitwise_count(m)
    single = count == 1
    dead = (count == 0).any(axis=0)
    # naked singles: what a unit's settled cells hold leaves its other cells
    # (A value settled twice in a unit is not looked for: the unit then lacks a
    # value, which the hidden singles find once no cell can take it.)
    settled = np.where(single, m, 0).astype(m.dtype, copy=False)
    placed = _or(settled[lay.unit_cells], 1)  # (units, puzzles)
    m = np.where(single, m, m & ~_or(placed[lay.cell_units], 1))
    # hidden singles: a value with one place left in a unit goes there
    grouped = m[lay.unit_cells]  # (units, cells of a unit, puzzles)
    once = np.zeros((grouped.shape[0], grouped.shape[2]), dtype=m.dtype)
    twice = np.zeros_like(once)
    for k in range(lay.size):
        cell = grouped[:, k]
        twice |= once & cell
        once |= cell
    dead |= (once != lay.full).any(axis=0)  # a value with no place in a unit
    hidden = m & _or((once & ~twice)[lay.cell_units], 1)
    dead |= (np.bitwise_count(hidden) > 1).any(axis=0)  # one cell, two values' only place
    m = np.where(hidden != 0, hidden, m)
    # box-line: a segment is the cells a row (or column) shares with a box
    segs = _or(m[lay.segment_cells], 1)
    pointing = segs & ~_or(segs[lay.segment_box_others], 1)  # in the box, only here
    claiming = segs & ~_or(segs[lay.segment_line_others], 1)  # in the line, only here
    gone = _or(pointing[lay.pointing_sources], 1) | _or(claiming[lay.claiming_sources], 1)
    return m & ~gone, dead


def propagate(masks: Masks, lay: Indexes) -> NDArray[np.int8]:
    """Runs every puzzle of ``masks`` (cells, puzzles; changed in place) to its
    fixpoint; the state of each: OPEN, SOLVED (every cell one candidate) or DEAD."""
    state = np.zeros(masks.shape[1], dtype=np.int8)
    active = np.arange(masks.shape[1])
    while active.size:
        before = masks[:, active]
        after, dead = step(before, lay)
        masks[:, active] = after
        state[active[dead]] = DEAD
        changed = (after != before).any(axis=0) & ~dead
        active = active[changed]
    solved = (np.bitwise_count(masks) == 1).all(axis=0) & (state != DEAD)
    state[solved] = SOLVED
    return state


def masks_of(grids: NDArray[np.integer], lay: Indexes) -> Masks:
    """Candidate masks (cells, puzzles) of (puzzles, cells) values, 0 for blank."""
    values = np.ascontiguousarray(grids.T)
    bits = np.left_shift(np.array(1, dtype=lay.dtype), (values - 1).astype(lay.dtype) & 31)
    return np.where(values > 0, bits, np.array(lay.full, dtype=lay.dtype)).astype(lay.dtype)


def values_of(masks: Masks) -> NDArray[np.int64]:
    """The (puzzles, cells) grids of solved masks (cells, puzzles): bit k is value k + 1."""
    return np.bitwise_count(masks.T.astype(np.uint32) - 1).astype(np.int64) + 1


def valid(
    grids: NDArray[np.integer], givens: NDArray[np.integer], lay: Indexes
) -> NDArray[np.bool_]:
    """Whether each of (puzzles, cells) ``grids`` keeps its givens and has every
    value once in every unit: the check every solution passes before it is shown."""
    bits = np.left_shift(np.int64(1), np.maximum(grids, 1) - 1) * (grids > 0)
    complete = (_or(bits[:, lay.unit_cells], 2) == lay.full).all(axis=1)
    return complete & ((givens == 0) | (givens == grids)).all(axis=1)  # type: ignore[no-any-return]


def solves(grids: list[Grid], puzzles: list[Grid], rank: int) -> list[bool]:
    """Whether each grid is a solution of its puzzle, all checked at once."""
    if not grids:
        return []
    checked = valid(np.array(grids), np.array(puzzles), indexes(rank))
    return checked.tolist()  # type: ignore[no-any-return]


def _split(masks: Masks, origin: NDArray[np.intp]) -> tuple[Masks, NDArray[np.intp]]:
    """Each puzzle in two: its first cell with the fewest candidates (two or more)
    set to its lowest value, and that value taken out of it."""
    counts = np.bitwise_count(masks)
    counts[counts <= 1] = 255
    cell = counts.argmin(axis=0)
    puzzles = np.arange(masks.shape[1])
    chosen = masks[cell, puzzles]
    low = chosen & (~chosen + np.array(1, dtype=masks.dtype))
    without = masks.copy()
    without[cell, puzzles] = chosen & ~low
    masks[cell, puzzles] = low
    return np.concatenate([masks, without], axis=1), np.concatenate([origin, origin])


def parse(
    texts: list[str], table: dict[str, int], cells: int, by_characters: bool
) -> tuple[list[int], NDArray[np.int64]]:
    """The lines of ``texts`` that are exactly ``cells`` symbols of ``table`` (a
    line reader's fast table), as values: their indexes and a (lines, cells) array.
    ``by_characters``: the file's alphabet is settled on symbols, so a line is
    read by its characters alone. The others are for the line reader, which
    says what is wrong with them."""
    lookup = np.full(256, -1, dtype=np.int64)
    for symbol, value in table.items():
        if symbol.isascii():
            lookup[ord(symbol)] = value
    # A line of another length is read by its characters alone ("5 3 . | . 7 ."),
    # as the line reader's character reading does: white space and box
    # separators are no cells then.
    if by_characters:
        texts = [text if len(text) == cells else NOT_A_CELL.sub("", text) for text in texts]
    picked = [i for i, text in enumerate(texts) if len(text) == cells and text.isascii()]
    if not picked:
        return [], np.zeros((0, cells), dtype=np.int64)
    raw = np.frombuffer("".join(texts[i] for i in picked).encode("ascii"), dtype=np.uint8)
    values = lookup[raw].reshape(len(picked), cells)
    good = np.asarray((values >= 0).all(axis=1))
    readable: list[bool] = good.tolist()
    return [i for i, ok in zip(picked, readable, strict=True) if ok], values[good]


def parse_numbers(texts: list[str], cells: int, size: int) -> tuple[list[int], NDArray[np.int64]]:
    """Like :func:`parse`, for lines of whitespace-separated numbers: the lines of
    exactly ``cells`` plain numbers 0..``size``. Blank marks, box separators and
    anything else are for the line reader."""
    picked: list[int] = []
    rows: list[list[int]] = []
    for i, text in enumerate(texts):
        words = text.split()
        if len(words) != cells or not all(
            w.isascii() and w.isdigit() and len(w) < 10 for w in words
        ):
            continue
        values = list(map(int, words))
        if max(values) <= size:
            picked.append(i)
            rows.append(values)
    return picked, np.array(rows, dtype=np.int64).reshape(len(rows), cells)


@dataclass
class Settled:
    """What the front end made of a chunk's puzzles, each by its index."""

    verdicts: NDArray[np.int8]
    """UNIQUE, NONE or UNDECIDED."""
    solutions: NDArray[np.int64]
    """(puzzles, cells): the solution of each UNIQUE puzzle."""
    candidates: Masks
    """(cells, puzzles): the candidates propagation left, before any branch."""


def settle(grids: NDArray[np.integer], rank: int, budget: int = 8) -> Settled:
    """For each puzzle of ``grids`` (puzzles, cells): UNIQUE with its solution,
    NONE, or UNDECIDED (several solutions, or more than ``budget`` branches) for
    the SAT engine."""
    lay = indexes(rank)
    count = len(grids)
    found = np.zeros(count, dtype=np.int64)
    solution = np.zeros(grids.shape, dtype=np.int64)
    branches = np.zeros(count, dtype=np.int64)
    masks = masks_of(grids, lay)
    origin: NDArray[np.intp] = np.arange(count, dtype=np.intp)
    candidates: Masks | None = None
    while origin.size:  # one round: every open branch of every puzzle at once
        alive = (found[origin] < 2) & (branches[origin] <= budget)
        masks, origin = masks[:, alive], origin[alive]
        state = np.zeros(origin.size, dtype=np.int8)
        for first in range(0, origin.size, BLOCK):
            block = np.ascontiguousarray(masks[:, first : first + BLOCK])
            state[first : first + BLOCK] = propagate(block, lay)
            masks[:, first : first + BLOCK] = block
        done = state == SOLVED
        if done.any():
            who = origin[done]
            np.add.at(found, who, 1)
            solution[who] = values_of(masks[:, done])
        if candidates is None:  # the first round: every puzzle, in order
            candidates = masks.copy()
        open_ = state == OPEN
        if origin.size and open_.mean() > 1 - CLOSING:
            branches[origin[open_]] = budget + 1  # hard puzzles: the SAT engine's search
            break
        masks, origin = masks[:, open_], origin[open_]
        if origin.size:
            np.add.at(branches, origin, 1)
            masks, origin = _split(masks, origin)
    verdict = np.full(count, NONE, dtype=np.int8)
    verdict[found == 1] = UNIQUE
    verdict[(found >= 2) | (branches > budget)] = UNDECIDED
    checked = valid(solution, grids, lay)
    verdict[(verdict == UNIQUE) & ~checked] = UNDECIDED  # never happens; never trusted either
    if candidates is None:  # no puzzles
        candidates = masks
    return Settled(verdict, solution, candidates)


def fixed_cells(candidates: Masks) -> NDArray[np.int64]:
    """(puzzles, cells): the value of every cell with one candidate left, else 0."""
    single = np.bitwise_count(candidates.T) == 1
    return np.where(single, values_of(candidates), 0)


@cache
def _group_literals(rank: int) -> NDArray[np.int64]:
    """(groups, N): the variables (``cell * N + value``) of every "exactly one"
    group of the rules: each cell's values, then each unit's cells for each value."""
    lay = indexes(rank)
    n = lay.size
    cells = np.array([cell_literals(n, cell, range(1, n + 1)) for cell in range(n * n)])
    units = cells[lay.unit_cells].transpose(0, 2, 1)  # (units, values, cells)
    return np.concatenate([cells, units.reshape(-1, n)])


class Groups:
    """A puzzle's groups, cut from one flat list of literals as they are taken."""

    def __init__(self, literals: list[int], start: int, lengths: list[int]) -> None:
        self.literals, self.start, self.lengths = literals, start, lengths

    def __len__(self) -> int:
        return len(self.lengths)

    def __iter__(self) -> Iterator[list[int]]:
        literals, start = self.literals, self.start
        for length in self.lengths:
            yield literals[start : start + length]
            start += length


def open_groups(candidates: Masks, rank: int) -> Iterator[tuple[list[int], Groups]]:
    """For each puzzle of ``candidates`` (cells, puzzles), the formula the
    engine's search takes: the open cell variables (``cell * N + value`` of
    each candidate of a cell with two or more), and every group of the rules
    with two or more candidates left, each variable numbered by its place among
    the open ones (1, 2, ...). A group with one candidate is settled; one with
    none is a contradiction, which propagation has already found."""
    lay = indexes(rank)
    n, cells = lay.size, lay.size * lay.size
    present = (candidates.T[:, :, None] >> np.arange(n, dtype=candidates.dtype)) & 1 == 1
    by_unit = present[:, lay.unit_cells].transpose(0, 1, 3, 2).reshape(len(present), -1, n)
    groups = np.concatenate([present, by_unit], axis=1)  # (puzzles, groups, N)
    sizes = groups.sum(axis=2)
    kept = sizes >= 2
    opened = (present & kept[:, :cells, None]).reshape(len(present), -1)  # (puzzles, variables)
    numbers = np.cumsum(opened, axis=1)
    puzzle, group, member = np.nonzero(groups & kept[:, :, None])
    literals = numbers[puzzle, _group_literals(rank)[group, member] - 1].tolist()
    lengths = sizes[kept].tolist()
    per_puzzle = kept.sum(axis=1).tolist()
    which, variable = np.nonzero(opened)
    variables = (variable + 1).tolist()
    open_counts = opened.sum(axis=1).tolist()
    del puzzle, which
    start = at = first = 0
    for count, open_count in zip(per_puzzle, open_counts, strict=True):
        mine = lengths[at : at + count]
        yield variables[first : first + open_count], Groups(literals, start, mine)
        start += sum(mine)
        at += count
        first += open_count


# --- a chunk of a batch answered at once -------------------------------------------

FRONT_END = "batch engine (numpy propagation and search)"
SEARCHED = "batch engine (numpy propagation, minicard search)"
SEARCH_BUDGET = 8
"""Branches the front end spends on a puzzle before it leaves it to the engine:
past about 8, a branch in numpy costs more than the engine's whole search."""


def _search_left(
    puzzle: Puzzle,
    fixed: list[int],
    formula: tuple[list[int], GroupList],
    timeout: float | None,
) -> Outcome | None:
    """The engine's search over what the front end left open (the formula the
    engine itself would build from its own propagation, the same candidates in
    the same order, so the same solutions); None when the solver fails. The
    solutions are not verified here: the caller verifies a chunk's at once."""
    start = time.perf_counter()
    engine = batch_engine(puzzle.rank)
    try:
        outcome = engine.searched(puzzle, fixed, *formula, 2, timeout, SEARCHED, checked=False)
    except SolverError:
        return None
    outcome.stats.time = time.perf_counter() - start
    return outcome


def answer_chunk(
    texts: Sequence[str],
    places: Sequence[tuple[int, str]],
    first: Puzzle,
    fast: dict[str, int],
    by_characters: bool,
    source: str,
    options: Options,
) -> dict[int, tuple[Puzzle, Outcome | None]]:
    """The lines of a chunk in the usual form (that of ``first``), parsed and
    settled together, then the engine's search over what propagation left open;
    each picked line's puzzle and outcome by its index, the outcome None where
    the engine must answer it alone (undecided here, or a solver that failed, or
    a grid that is no solution). ``places``: each line's number and name."""
    if fast:
        picked, grids = parse(list(texts), fast, len(first.cells), by_characters)
    else:
        picked, grids = parse_numbers(list(texts), len(first.cells), first.size)
    start = time.perf_counter()
    # With one solution asked for, the engine reports "unique" only when
    # propagation alone settles a puzzle; the front end then does the same.
    budget = SEARCH_BUDGET if options.max_solutions == 2 else 0
    settled = settle(grids, first.rank, budget)
    share = (time.perf_counter() - start) / max(len(picked), 1)
    verdicts = settled.verdicts.tolist()
    left = [k for k, verdict in enumerate(verdicts) if verdict == UNDECIDED]
    searches: Iterator[tuple[int, list[int], tuple[list[int], GroupList]]] = iter(())
    if left and options.max_solutions == 2 and uses_batch_engine(first.rank, options):
        # The engine's search, on the front end's candidates (no second propagation).
        candidates = settled.candidates[:, left]
        fixed = fixed_cells(candidates).tolist()
        searches = zip(left, fixed, open_groups(candidates, first.rank), strict=True)
    waiting = next(searches, None)
    found: dict[int, tuple[Puzzle, Outcome | None]] = {}
    unchecked: list[tuple[int, Puzzle, Grid]] = []  # the searches' grids, by line
    for k, (index, cells) in enumerate(zip(picked, grids.tolist(), strict=True)):
        line, name = places[index]
        puzzle = Puzzle(first.rank, tuple(cells), first.alphabet, source, line, name)
        outcome: Outcome | None = None
        if waiting is not None and waiting[0] == k:
            outcome = _search_left(puzzle, *waiting[1:], options.timeout)
            waiting = next(searches, None)
            unchecked += [(index, puzzle, grid) for grid in (outcome.solutions if outcome else [])]
        elif verdicts[k] == UNIQUE:
            grid = tuple(settled.solutions[k].tolist())
            outcome = Outcome(puzzle, Status.UNIQUE, [grid], exhausted=True, solver=FRONT_END)
        elif verdicts[k] != UNDECIDED:
            outcome = no_solution(puzzle, FRONT_END)
        if outcome is not None:
            outcome.stats.time += share
        found[index] = (puzzle, outcome)
    checks = solves(
        [grid for *_, grid in unchecked], [p.cells for _, p, _ in unchecked], first.rank
    )
    for (index, puzzle, _), good in zip(unchecked, checks, strict=True):
        if not good:  # a wrong grid (a solver's fault) goes back to the engine, which says so
            found[index] = (puzzle, None)
    return found
