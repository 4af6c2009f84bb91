"""Diagonals, disjoint groups, anti-knight, anti-king, and the negative constraints."""

from __future__ import annotations

import pytest

from sudosat.core.puzzle import Layout
from sudosat.rules import Rule
from sudosat.rules.chess import AntiKing, AntiKnight
from sudosat.rules.diagonals import DiagonalMinus, DiagonalPlus
from sudosat.rules.disjoint import DisjointGroups
from sudosat.rules.kropki import Difference, Ratio
from sudosat.rules.negative import NegativeRatio, NegativeXV, Nonconsecutive
from sudosat.rules.where import adjacent_pairs
from sudosat.rules.xv import XV

from .harness import built, check_rule, solution, solved

FLAGS: list[tuple[type[Rule], ...]] = [
    (DiagonalPlus, DiagonalMinus),
    (DisjointGroups,),
    (AntiKnight,),
    (AntiKing,),
    (AntiKnight, AntiKing),
]


@pytest.mark.parametrize("kinds", FLAGS, ids=lambda k: "+".join(c.__name__ for c in k))
@pytest.mark.parametrize("size", [9, 6])
def test_rules_of_the_whole_grid(kinds: tuple[type[Rule], ...], size: int) -> None:
    if size == 6 and len(kinds) == 2 and AntiKing in kinds:
        pytest.skip("no 6x6 grid is both anti-knight and anti-king (two solvers agree)")
    layout = Layout.boxes(size)
    rules = [kind() for kind in kinds]
    grid = solved(layout, rules, 7)
    check_rule(built(layout, grid, rules, 7), grid, kinds)


def test_nonconsecutive_with_every_white_dot_given() -> None:
    layout = Layout.boxes(9)
    grid = solution(layout, 8)
    dots: list[Rule] = [
        Difference((a, b)) for a, b in adjacent_pairs(9) if abs(grid[a] - grid[b]) == 1
    ]
    rules = [*dots, Nonconsecutive()]
    check_rule(built(layout, grid, rules, 8), grid, (Nonconsecutive,))


def test_nonconsecutive_alone() -> None:
    layout = Layout.boxes(6)
    grid = solved(layout, [Nonconsecutive()], 9, relabel=False)
    check_rule(built(layout, grid, [Nonconsecutive()], 9), grid, (Nonconsecutive,))


def test_negative_ratio_and_xv_with_every_mark_given() -> None:
    layout = Layout.boxes(9)
    grid = solution(layout, 10)
    rules: list[Rule] = []
    for a, b in adjacent_pairs(9):
        x, y = grid[a], grid[b]
        if x == 2 * y or y == 2 * x:
            rules.append(Ratio((a, b)))
        if x + y in (5, 10):
            rules.append(XV((a, b), x + y))
    rules += [NegativeRatio(), NegativeXV()]
    check_rule(built(layout, grid, rules, 10), grid, (NegativeRatio, NegativeXV))
