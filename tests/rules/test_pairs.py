"""Kropki dots (white: difference, black: ratio) and XV."""

from __future__ import annotations

import random

import pytest

from sudosat.core.puzzle import Layout
from sudosat.rules import Rule
from sudosat.rules.kropki import Difference, Ratio
from sudosat.rules.where import adjacent_pairs
from sudosat.rules.xv import XV

from .harness import built, check_rule, solution


@pytest.mark.parametrize("size", [9, 6])
def test_white_dots_with_their_differences(size: int) -> None:
    layout = Layout.boxes(size)
    grid = solution(layout, 21)
    pairs = random.Random(21).sample(list(adjacent_pairs(size)), size * 2)
    rules: list[Rule] = [Difference((a, b), abs(grid[a] - grid[b])) for a, b in pairs]
    check_rule(built(layout, grid, rules, 21), grid, (Difference,))


def test_black_dots_of_ratio_two_and_three() -> None:
    layout = Layout.boxes(9)
    grid = solution(layout, 22)
    rules: list[Rule] = []
    for a, b in adjacent_pairs(9):
        low, high = sorted((grid[a], grid[b]))
        if high == 2 * low:
            rules.append(Ratio((a, b)))
        elif high == 3 * low:
            rules.append(Ratio((a, b), 3))
    check_rule(built(layout, grid, rules, 22), grid, (Ratio,))


def test_x_and_v() -> None:
    layout = Layout.boxes(9)
    grid = solution(layout, 23)
    rules: list[Rule] = [
        XV((a, b), grid[a] + grid[b]) for a, b in adjacent_pairs(9) if grid[a] + grid[b] in (5, 10)
    ]
    check_rule(built(layout, grid, rules, 23), grid, (XV,))
