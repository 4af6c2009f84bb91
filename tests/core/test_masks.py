"""The mask helpers that several reasoners share: a house's singles in one pass,
and a board's candidates packed into one integer."""

from __future__ import annotations

import random

import pytest

from sudosat.core.masks import bit, full, once_and_seen, packed


@pytest.mark.parametrize("size", [4, 9, 16, 25, 36])
def test_once_and_seen_counts_each_value_s_places(size: int) -> None:
    chosen = random.Random(size)
    for _ in range(200):
        masks = [chosen.randrange(full(size) + 1) for _ in range(size)]
        once, seen = once_and_seen(masks)
        for value in range(1, size + 1):
            places = sum(1 for m in masks if m & bit(value))
            assert bool(once & bit(value)) == (places == 1)
            assert bool(seen & bit(value)) == (places >= 1)


@pytest.mark.parametrize("size", [4, 8, 9, 16, 17, 25, 32, 36, 64, 65, 100])
def test_packed_keeps_each_cell_apart_so_an_or_is_each_cell_s(size: int) -> None:
    chosen = random.Random(size)
    cells = size * size if size <= 16 else 40
    boards = [[chosen.randrange(full(size) + 1) for _ in range(cells)] for _ in range(3)]
    either = [a | b | c for a, b, c in zip(*boards, strict=True)]
    union = packed(boards[0], size) | packed(boards[1], size) | packed(boards[2], size)
    assert union == packed(either, size)
    held = packed(either, size)
    assert not held & ~union  # every candidate some board keeps
    for cell in chosen.sample(range(cells), 5):  # one candidate gone from one cell shows
        if either[cell]:
            less = list(either)
            less[cell] &= less[cell] - 1  # (its lowest value gone)
            assert held & ~packed(less, size)
