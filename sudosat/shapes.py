"""Random shapes for variant grids: jigsaw regions.

:func:`jigsaw` starts from the boxes and swaps cells across region borders, each
swap kept only when both regions stay connected, so every region keeps N cells
and one piece. Seeded: the same seed gives the same regions.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from .puzzle import Layout


def orthogonal(cell: int, size: int) -> list[int]:
    r, c = divmod(cell, size)
    found = []
    for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
        if 0 <= r + dr < size and 0 <= c + dc < size:
            found.append((r + dr) * size + c + dc)
    return found


def connected(cells: Sequence[int], size: int) -> bool:
    """Whether ``cells`` form one orthogonally connected piece."""
    members = set(cells)
    seen = {cells[0]}
    todo = [cells[0]]
    while todo:
        for other in orthogonal(todo.pop(), size):
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
    wanted = size * size * 2 if moves is None else moves
    done = 0
    for _ in range(wanted * 20):
        if done == wanted:
            break
        a = rng.randrange(size * size)
        across = [b for b in orthogonal(a, size) if region[b] != region[a]]
        if not across:
            continue
        mine, theirs = region[a], region[rng.choice(across)]
        region[a] = theirs
        back = [
            b
            for b in range(size * size)
            if region[b] == theirs
            and b != a
            and any(region[o] == mine for o in orthogonal(b, size))
        ]
        rng.shuffle(back)
        for b in back:
            region[b] = mine
            if all(
                connected([c for c, r in enumerate(region) if r == k], size) for k in (mine, theirs)
            ):
                done += 1
                break
            region[b] = theirs
        else:
            region[a] = mine
    return Layout.jigsaw(region)
