"""Shapes to read rules off a solution grid: cages, paths, pairs."""

from __future__ import annotations

import random
from collections.abc import Sequence

from sudosat.puzzle import Layout


def orthogonal(cell: int, n: int) -> list[int]:
    r, c = divmod(cell, n)
    found = []
    for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
        if 0 <= r + dr < n and 0 <= c + dc < n:
            found.append((r + dr) * n + c + dc)
    return found


def cages(
    layout: Layout, rng: random.Random, largest: int = 4, grid: Sequence[int] | None = None
) -> list[list[int]]:
    """The grid cut into connected cages of 1 to ``largest`` cells (with ``grid``,
    cages whose digits do not repeat, as killer cages must be)."""
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
    return found


def paths(n: int, rng: random.Random, count: int, length: int, step=None) -> list[list[int]]:
    """Random orthogonal (or diagonal too) paths of ``length`` cells, no cell twice."""
    found = []
    while len(found) < count:
        cell = rng.randrange(n * n)
        path = [cell]
        while len(path) < length:
            nexts = [o for o in (step or orthogonal)(path[-1], n) if o not in path]
            if not nexts:
                break
            path.append(rng.choice(nexts))
        if len(path) == length:
            found.append(path)
    return found


def king(cell: int, n: int) -> list[int]:
    r, c = divmod(cell, n)
    return [
        (r + dr) * n + c + dc
        for dr in (-1, 0, 1)
        for dc in (-1, 0, 1)
        if (dr or dc) and 0 <= r + dr < n and 0 <= c + dc < n
    ]
