"""A cell's candidates as one integer: bit ``v - 1`` set while value ``v`` may be.

The one convention of every mask in sudosat (as ISS and Rangsk's SudokuSolver
use): value 1 is bit 0, so a 9x9's full mask is ``0b111111111`` and a mask of
N values fits N bits. What a mask holds is read with :func:`values` and made
with :func:`bit` and :func:`from_values`; nothing else shifts by a value.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable, Sequence
from functools import cache, lru_cache


def bit(value: int) -> int:
    """The mask of ``value`` alone."""
    return 1 << (value - 1)


def full(size: int) -> int:
    """The mask of every value 1..``size``."""
    return (1 << size) - 1


def from_values(found: Iterable[int]) -> int:
    """The mask of these values."""
    mask = 0
    for value in found:
        mask |= 1 << (value - 1)
    return mask


def values(mask: int) -> tuple[int, ...]:
    """The values of a mask, smallest first; the cost is in proportion to how many
    there are. Up to 36x36 once per mask: a batch of puzzles meets the same masks
    again and again."""
    return _values_cached(mask) if mask < CACHED else _values(mask)


def lowest(mask: int, count: int) -> int:
    """The mask of its ``count`` smallest values (all, if it has fewer)."""
    found = 0
    for _ in range(count):
        low = mask & -mask
        found, mask = found | low, mask ^ low
    return found


def once_and_seen(masks: Iterable[int]) -> tuple[int, int]:
    """The values in exactly one of ``masks``, and those in any: a house's hidden
    singles and the values it still has a place for, in one pass."""
    seen = once = 0
    for m in masks:
        once = (once & ~m) | (m & ~seen)
        seen |= m
    return once, seen


def packed(masks: Sequence[int], size: int) -> int:
    """Every cell's mask of values 1..``size`` in one integer, side by side at a
    fixed width: what some boards hold between them is then one OR."""
    code = _code(size)
    if code:
        return int.from_bytes(array(code, masks).tobytes(), "little")
    return sum(m << (i * size) for i, m in enumerate(masks))


@cache
def _code(size: int) -> str:
    """The array type that holds a mask of ``size`` values ("": none does)."""
    return next((code for code in "BHIQ" if array(code).itemsize * 8 >= size), "")


def has(mask: int, value: int) -> bool:
    """Whether ``value`` is in the mask."""
    return bool(mask >> (value - 1) & 1)


CACHED = 1 << 36
"""Masks below this (grids up to 36x36) have their values kept (see :func:`values`)."""


def _values(mask: int) -> tuple[int, ...]:
    found = []
    while mask:
        low = mask & -mask
        found.append(low.bit_length())
        mask ^= low
    return tuple(found)


_values_cached = lru_cache(maxsize=4096)(_values)
