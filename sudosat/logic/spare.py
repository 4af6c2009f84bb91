"""What a deduction needs: a list less each item it does without.

A chain's link names the fewest facts it follows from, and a rule step the
fewest needs: each item, in order, is dropped while what is left still
``holds``. Where ``holds`` is monotone (what holds of a set holds of every
larger one: unit propagation, a rule's removals), a run of items is tried
without at once first, and split in two when it cannot go: the same items are
dropped as one at a time would drop, in far fewer questions when most are
spare (a chain of forty facts whose link needs three).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

Item = TypeVar("Item")


def without_spare(items: Sequence[Item], holds: Callable[[list[Item]], bool]) -> list[Item]:
    """``items`` less each that ``holds`` does without, tried in order (``holds``
    monotone, and true of ``items``)."""
    kept = [True] * len(items)

    def drop(start: int, stop: int) -> None:
        trial = [x for i, x in enumerate(items) if kept[i] and not start <= i < stop]
        if holds(trial):
            kept[start:stop] = [False] * (stop - start)
        elif stop - start > 1:
            half = (start + stop) // 2
            drop(start, half)
            drop(half, stop)

    if items:
        drop(0, len(items))
    return [x for i, x in enumerate(items) if kept[i]]
