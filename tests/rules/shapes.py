"""Shapes to read rules off a solution grid: cages, paths, pairs."""

from __future__ import annotations

import random

from sudosat.making.shapes import orthogonal


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
