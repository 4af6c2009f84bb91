"""Killer cages and extra regions."""

from __future__ import annotations

import random

import pytest

from sudosat.puzzle import Layout
from sudosat.rules.killer import ExtraRegion, KillerCage
from sudosat.shapes import cages

from .harness import built, check_rule, solution


@pytest.mark.parametrize(("size", "seed"), [(9, 1), (9, 2), (6, 3), (4, 4)])
def test_killer_cages_with_sums(size: int, seed: int) -> None:
    layout = Layout.boxes(size)
    grid = solution(layout, seed)
    rng = random.Random(seed)
    rules = [KillerCage(tuple(c), sum(grid[x] for x in c)) for c in cages(layout, rng, grid=grid)]
    puzzle = built(layout, grid, rules, seed)
    check_rule(puzzle, grid, (KillerCage,))


def test_cages_without_sums_only_keep_digits_apart() -> None:
    layout = Layout.boxes(9)
    grid = solution(layout, 5)
    rng = random.Random(5)
    rules = [KillerCage(tuple(c)) for c in cages(layout, rng, grid=grid)]
    puzzle = built(layout, grid, rules, 5)
    check_rule(puzzle, grid, (KillerCage,))


def test_extra_regions_windoku() -> None:
    layout = Layout.boxes(9)
    grid = solution(layout, 6)
    windows = [
        tuple(r * 9 + c for r in range(top, top + 3) for c in range(left, left + 3))
        for top in (1, 5)
        for left in (1, 5)
    ]
    # a windoku's windows hold 1-9 once only in a windoku's grid: take each digit's first cell
    regions = [tuple({grid[c]: c for c in reversed(w)}.values()) for w in windows]
    puzzle = built(layout, grid, [ExtraRegion(r) for r in regions if len(r) > 1], 6)
    check_rule(puzzle, grid, (ExtraRegion,))
