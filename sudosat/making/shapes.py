"""Random shapes for variant grids: solution grids, jigsaw regions, killer cages.

:func:`jigsaw` starts from the boxes and swaps cells across region borders, each
swap kept only when both regions stay connected, so every region keeps N cells
and one piece. :func:`cages` cuts a solution grid into small connected cages
whose digits do not repeat (:mod:`variant_generator` splits and joins them
until the grid is the only solution). Seeded: the same seed gives the same
shapes.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from functools import cache

from sudosat.core.puzzle import Grid, Layout


def orthogonal(cell: int, size: int) -> tuple[int, ...]:
    """The cells beside ``cell`` (above, below, left, right)."""
    return _neighbours(size)[cell]


@cache
def _neighbours(size: int) -> tuple[tuple[int, ...], ...]:
    found = []
    for cell in range(size * size):
        r, c = divmod(cell, size)
        steps = ((-1, 0), (1, 0), (0, -1), (0, 1))
        found.append(
            tuple(
                (r + dr) * size + c + dc
                for dr, dc in steps
                if 0 <= r + dr < size and 0 <= c + dc < size
            )
        )
    return tuple(found)


def connected(cells: Iterable[int], size: int) -> bool:
    """Whether ``cells`` form one orthogonally connected piece."""
    members = cells if isinstance(cells, (set, frozenset)) else set(cells)
    near = _neighbours(size)
    start = next(iter(members))
    seen = {start}
    todo = [start]
    while todo:
        for other in near[todo.pop()]:
            if other in members and other not in seen:
                seen.add(other)
                todo.append(other)
    return len(seen) == len(members)


def stays_connected(gone: int, k: int, members: set[int], region: Sequence[int], size: int) -> bool:
    """Whether region ``k`` (``members``) is one piece after ``gone`` left it,
    given that it was before (or would be with ``gone`` back): at once when the
    region's cells around ``gone`` that touch it lie on one run of the ring, so
    a path through ``gone`` can go round it; else by a search."""
    mask = 0
    for bit, cell in enumerate(_ring(size)[gone]):
        if cell >= 0 and region[cell] == k:
            mask |= 1 << bit
    return _ONE_RUN[mask] or connected(members, size)


@cache
def _ring(size: int) -> tuple[tuple[int, ...], ...]:
    """The eight cells around each cell, in turn round it, starting above
    (-1 off the grid): even places beside the cell, odd ones at its corners."""
    steps = ((-1, 0), (-1, 1), (0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1))
    return tuple(
        tuple(
            (r + dr) * size + c + dc if 0 <= r + dr < size and 0 <= c + dc < size else -1
            for dr, dc in steps
        )
        for r, c in (divmod(cell, size) for cell in range(size * size))
    )


def _touching_runs(mask: int) -> int:
    """The runs of set bits around the ring of eight that hold a place beside
    the middle cell (an even bit)."""
    inside = [bool(mask >> bit & 1) for bit in range(8)]
    runs = 0
    for start in range(8):
        if inside[start] and not inside[start - 1]:
            end = start
            while inside[end % 8] and end < start + 8:
                end += 1
            runs += any(place % 2 == 0 for place in range(start, end))
    return runs


_ONE_RUN = tuple(_touching_runs(mask) <= 1 for mask in range(256))
"""For each ring of eight (a bit a place): whether a path may go round its middle."""


def jigsaw(size: int, rng: random.Random, moves: int | None = None) -> Layout:
    """Irregular regions of ``size`` cells each, connected, made from the boxes by
    ``moves`` accepted moves (default: two per cell). A move hands a border cell
    of one region to its neighbour and takes back one of the neighbour's cells
    that touches it, so sizes stay; it is kept when both stay in one piece."""
    region = list(Layout.boxes(size).unit_index[2])
    near = _neighbours(size)
    members: list[set[int]] = [set() for _ in range(size)]
    for cell, k in enumerate(region):
        members[k].add(cell)

    def move(cell: int, to: int) -> None:
        members[region[cell]].discard(cell)
        members[to].add(cell)
        region[cell] = to

    wanted = size * size * 2 if moves is None else moves
    done = 0
    for _ in range(wanted * 20):
        if done == wanted:
            break
        a = rng.randrange(size * size)
        across = [b for b in near[a] if region[b] != region[a]]
        if not across:
            continue
        mine, theirs = region[a], region[rng.choice(across)]
        move(a, theirs)
        back = [
            b for b in sorted(members[theirs]) if b != a and any(region[o] == mine for o in near[b])
        ]
        rng.shuffle(back)
        for b in back:
            move(b, mine)
            # mine lost a and gained b beside it; theirs gained a beside it and lost b
            if stays_connected(a, mine, members[mine], region, size) and stays_connected(
                b, theirs, members[theirs], region, size
            ):
                done += 1
                break
            move(b, theirs)
        else:
            move(a, mine)
    return Layout.jigsaw(region)


def pattern(layout: Layout) -> list[int]:
    """A valid grid of a box layout: each row the last shifted by a box's width,
    and by one more at each band."""
    assert layout.box is not None
    rows, cols = layout.box
    n = layout.size
    return [(cols * (r % rows) + r // rows + c) % n + 1 for r in range(n) for c in range(n)]


def random_grid(layout: Layout, rng: random.Random) -> Grid:
    """A random solution grid of a box layout: :func:`pattern` with its digits
    relabelled, rows moved within their bands and bands moved, and the same for
    columns."""
    assert layout.box is not None
    rows, cols = layout.box
    n = layout.size
    digits = list(range(1, n + 1))
    rng.shuffle(digits)
    grid = pattern(layout)
    row_order, col_order = _lines(n, rows, rng), _lines(n, cols, rng)
    return tuple(digits[grid[r * n + c] - 1] for r in row_order for c in col_order)


def _lines(size: int, width: int, rng: random.Random) -> list[int]:
    """Rows (or columns) in a random order that keeps each band of ``width`` together."""
    bands = list(range(size // width))
    rng.shuffle(bands)
    order = []
    for band in bands:
        inside = list(range(width))
        rng.shuffle(inside)
        order += [band * width + r for r in inside]
    return order


def cages(
    layout: Layout, rng: random.Random, largest: int = 4, grid: Sequence[int] | None = None
) -> list[list[int]]:
    """The grid cut into connected cages of 1 to ``largest`` cells, each meant to
    have 2 or more (with ``grid``: cages whose digits do not repeat, as killer
    cages must be)."""
    n = layout.size
    free = set(range(n * n))
    order = list(range(n * n))
    rng.shuffle(order)
    found = []
    for start in order:
        if start not in free:
            continue
        cage = [start]
        free.discard(start)
        want = rng.randint(2, largest)
        while len(cage) < want:
            seen = {grid[c] for c in cage} if grid is not None else set()
            edge = [
                o
                for c in cage
                for o in orthogonal(c, n)
                if o in free and (grid is None or grid[o] not in seen)
            ]
            if not edge:
                break
            chosen = rng.choice(edge)
            cage.append(chosen)
            free.discard(chosen)
        found.append(cage)
    return _merge_singles(found, n, grid)


def _merge_singles(
    found: list[list[int]], size: int, grid: Sequence[int] | None
) -> list[list[int]]:
    """Each one-cell cage joined to a neighbouring cage that lacks its digit."""
    for single in [c for c in found if len(c) == 1]:
        near = beside(single[0], found, grid, size)
        if len(single) == 1 and near:  # (another one-cell cage may have joined it)
            near[0].append(single[0])
            found[:] = [c for c in found if c is not single]
    return found


def beside(
    cell: int, shapes: Sequence[list[int]], grid: Sequence[int] | None, size: int
) -> list[list[int]]:
    """The cages next to ``cell`` (not its own) that lack its digit."""
    found: list[list[int]] = []
    for other in orthogonal(cell, size):
        cage = next(c for c in shapes if other in c)
        fits = grid is None or grid[cell] not in {grid[c] for c in cage}
        if fits and cell not in cage and all(c is not cage for c in found):
            found.append(cage)
    return found


def split(cage: Sequence[int], cell: int, size: int) -> list[list[int]]:
    """``cage`` in two connected pieces, one grown from ``cell`` to about half
    the cage; every cell alone when no such cut exists."""
    members, grown = set(cage), [cell]
    for other in grown:  # breadth first: every prefix of grown is connected
        grown += [o for o in orthogonal(other, size) if o in members and o not in grown]
    cuts = [
        k for k in range(1, len(cage)) if connected([c for c in cage if c not in grown[:k]], size)
    ]
    if not cuts:
        return [[c] for c in cage]
    k = min(cuts, key=lambda k: abs(2 * k - len(cage)))
    return [grown[:k], [c for c in cage if c not in grown[:k]]]
