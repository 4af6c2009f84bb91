"""Odd, even, minimum, maximum, quadruple, clone and little killer rules."""

from __future__ import annotations

import random

import pytest

from sudosat.core.puzzle import Layout
from sudosat.rules import Rule
from sudosat.rules.clone import Clone
from sudosat.rules.extremes import Maximum, Minimum
from sudosat.rules.little_killer import LittleKiller, walk
from sudosat.rules.parity import Even, Odd
from sudosat.rules.quadruple import Quadruple
from sudosat.rules.where import Where

from .harness import built, check_rule, solution
from .shapes import orthogonal


@pytest.mark.parametrize("size", [9, 6, 4])
def test_odd_and_even(size: int) -> None:
    layout = Layout.boxes(size)
    grid = solution(layout, 11)
    cells = random.Random(11).sample(range(size * size), size * 2)
    rules: list[Rule] = [Odd(c) if grid[c] % 2 else Even(c) for c in cells]
    check_rule(built(layout, grid, rules, 11), grid, (Odd, Even))


def test_minimum_and_maximum() -> None:
    layout = Layout.boxes(9)
    grid = solution(layout, 12)
    rules: list[Rule] = []
    for cell in range(81):
        around = [grid[o] for o in orthogonal(cell, 9)]
        if grid[cell] < min(around):
            rules.append(Minimum(cell))
        elif grid[cell] > max(around):
            rules.append(Maximum(cell))
    check_rule(built(layout, grid, rules, 12), grid, (Minimum, Maximum))


def test_quadruples_with_a_digit_twice() -> None:
    layout = Layout.boxes(9)
    grid = solution(layout, 13)
    rng = random.Random(13)
    rules: list[Rule] = []
    for _ in range(12):
        r, c = rng.randrange(8), rng.randrange(8)
        cells = (r * 9 + c, r * 9 + c + 1, (r + 1) * 9 + c, (r + 1) * 9 + c + 1)
        digits = sorted(grid[x] for x in cells)[: rng.randint(1, 4)]
        rules.append(Quadruple(cells, tuple(digits)))
    check_rule(built(layout, grid, rules, 13), grid, (Quadruple,))


def test_clones() -> None:
    layout = Layout.boxes(9)
    grid = solution(layout, 14)
    rng = random.Random(14)
    rules: list[Rule] = []
    while len(rules) < 6:  # two cells with the same digit, then their neighbours if alike
        a, b = rng.sample(range(81), 2)
        if grid[a] != grid[b]:
            continue
        original, copy = [a], [b]
        if a % 9 < 8 and b % 9 < 8 and grid[a + 1] == grid[b + 1] and a + 1 != b:
            original.append(a + 1)
            copy.append(b + 1)
        rules.append(Clone(tuple(original), tuple(copy)))
    check_rule(built(layout, grid, rules, 14), grid, (Clone,))


@pytest.mark.slow
def test_little_killers_from_every_side() -> None:
    layout = Layout.boxes(9)
    grid = solution(layout, 15)
    where = Where("<test>", 1, 9)
    clues = [((0, 3), "DR"), ((0, 7), "DL"), ((10, 2), "UR"), ((4, 10), "UL"), ((6, 0), "UR")]
    rules: list[Rule] = []
    for clue, direction in clues:
        cells = walk(clue, direction, where)
        rules.append(LittleKiller(cells, sum(grid[c] for c in cells)))
    check_rule(built(layout, grid, rules, 15), grid, (LittleKiller,))
