"""Random shapes for variant grids: solution grids, jigsaw regions, killer cages.

:func:`jigsaw` starts from the boxes and swaps cells across region borders, each
swap kept only when both regions stay connected, so every region keeps N cells
and one piece. :func:`cages` cuts a solution grid into small connected cages
whose digits do not repeat, and :func:`unique_killer` splits the cages where a
second solution differs until the grid is the only one. Seeded: the same seed
gives the same shapes.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from functools import cache

from .puzzle import Grid, Layout, Puzzle


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
            if connected(members[mine], size) and connected(members[theirs], size):
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
        beside = _beside(single[0], found, grid, size)
        if len(single) == 1 and beside:  # (another one-cell cage may have joined it)
            beside[0].append(single[0])
            found[:] = [c for c in found if c is not single]
    return found


def _beside(
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


def unique_killer(
    layout: Layout,
    rng: random.Random,
    largest: int = 4,
    timeout: float | None = None,
    merge: bool = True,
) -> tuple[Puzzle, Grid]:
    """A killer puzzle, cages only (no givens), whose one solution is a random
    grid, and that grid: cages cut from the grid, then a cage split wherever a
    second solution differs (a few at random when a check runs out of
    ``timeout`` seconds), until the engine finds that grid alone; then, with
    ``merge``, each one-cell cage joined to a neighbour wherever the grid stays
    the only solution (so few cages are givens by another name)."""
    from .engine import solve

    n = layout.size
    grid = random_grid(layout, rng)
    shapes = cages(layout, rng, largest, grid)

    def cage_of(cell: int) -> list[int]:
        return next(c for c in shapes if cell in c)

    while True:
        outcome = solve(_killer(layout, grid, shapes), timeout=timeout)
        if outcome.status == "unique":
            break
        if outcome.status == "multiple":
            other = next(s for s in outcome.solutions if s != grid)
            cells = [c for c in range(n * n) if other[c] != grid[c]]
            largest_cage = max(len(cage_of(c)) for c in cells)  # split without leaving singles
            chosen = [rng.choice([c for c in cells if len(cage_of(c)) == largest_cage])]
        else:
            chosen = rng.sample(range(n * n), max(1, len(shapes) // 20))
        for cell in chosen:
            cage = cage_of(cell)
            if len(cage) > 1:
                shapes.remove(cage)
                shapes += split(cage, cell, n)
    if merge:
        _merge_while_unique(layout, grid, shapes, rng, timeout)
    return _killer(layout, grid, shapes), grid


def _killer(layout: Layout, grid: Grid, shapes: Sequence[Sequence[int]]) -> Puzzle:
    from .rules import Rules
    from .rules.killer import KillerCage

    rules = [KillerCage(tuple(sorted(c)), sum(grid[x] for x in c)) for c in shapes]
    empty = (0,) * (layout.size**2)
    return Puzzle(layout.rank, empty, "", "<killer>", rules=Rules.of(layout, rules))


def _merge_while_unique(
    layout: Layout,
    grid: Grid,
    shapes: list[list[int]],
    rng: random.Random,
    timeout: float | None,
) -> None:
    """Each one-cell cage joined to a neighbouring cage without its digit, when
    the grid stays the only solution (a check that runs out keeps them apart)."""
    from .engine import solve

    n = layout.size
    singles = [cage for cage in shapes if len(cage) == 1]
    rng.shuffle(singles)
    for single in singles:
        if not any(cage is single for cage in shapes):
            continue  # joined to another one-cell cage already
        cell = single[0]
        beside = _beside(cell, shapes, grid, n)
        rng.shuffle(beside)
        for other in beside:
            trial = [c for c in shapes if c is not single and c is not other] + [[*other, cell]]
            if solve(_killer(layout, grid, trial), timeout=timeout).status == "unique":
                shapes[:] = trial
                break
