"""Killer cages and extra regions."""

from __future__ import annotations

import random

import pytest

from sudosat import count, solve
from sudosat.core.puzzle import Layout, Puzzle
from sudosat.making.shapes import cages, random_grid
from sudosat.rules import Rules, killer
from sudosat.rules.extra_region import ExtraRegion
from sudosat.rules.killer import KillerCage
from sudosat.sat import arith

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


def test_overlapping_cages_imply_no_sums() -> None:
    """The 45 rule's sums take each cell once: with cages that overlap (f-puzzles
    draws them) they would be wrong, so none is written and the answer stands."""
    layout = Layout.boxes(16)
    grid = random_grid(layout, random.Random(7))
    dominoes = [(r * 16 + c, r * 16 + c + 1) for r in range(16) for c in range(0, 14, 2)]
    shapes = [*dominoes, (1, 2)]  # (1, 2) overlaps two of row 1's dominoes
    rules = Rules.of(layout, [KillerCage(c, sum(grid[x] for x in c)) for c in shapes])
    cells = tuple(v if i % 2 else 0 for i, v in enumerate(grid))
    puzzle = Puzzle(layout.rank, cells, "", "<overlap>", rules=rules)
    outcome = solve(puzzle)
    assert outcome.status == "unique" and outcome.solutions == [grid]


@pytest.mark.parametrize("cells", [(0, 1, 4), (0, 5, 10, 15), (1, 2, 6)])
def test_a_cage_as_a_layered_graph_allows_what_digit_sets_allow(
    cells: tuple[int, ...], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Past COMBINATION_LIMIT digit sets a cage's sum is a layered graph over the
    digits it holds: on every sum of a 4x4 cage, it leaves exactly the grids
    the digit sets leave (all 288 4x4 grids counted)."""
    layout = Layout.boxes(4)
    for value in range(1, 17):
        rules = Rules.of(layout, [KillerCage(cells, value)]) if value >= 3 else None
        if rules is None:
            continue
        puzzle = Puzzle(2, (0,) * 16, "1234", "<cage>", rules=rules)
        monkeypatch.setattr(arith, "COMBINATION_LIMIT", 10**6)
        by_sets = count(puzzle, max_solutions=300)
        monkeypatch.setattr(arith, "COMBINATION_LIMIT", 0)
        by_graph = count(puzzle, max_solutions=300)
        assert by_graph == by_sets, value
        assert by_sets.complete


@pytest.mark.slow
def test_9x9_killers_through_the_layered_graph(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(arith, "COMBINATION_LIMIT", 0)
    layout = Layout.boxes(9)
    grid = solution(layout, 9)
    rng = random.Random(9)
    rules = [KillerCage(tuple(c), sum(grid[x] for x in c)) for c in cages(layout, rng, grid=grid)]
    puzzle = built(layout, grid, rules, 9)
    check_rule(puzzle, grid, (KillerCage,))


@pytest.mark.parametrize("seed", [11, 12])
def test_implied_sums_and_pointing_keep_the_answer(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What the cages imply (innies, outies, cages apart in a unit, pointing) is
    written from 9x9, 12x12 and 20x20 on; turned on for 9x9 killers, the
    answers stay those built in."""
    monkeypatch.setattr(killer, "IMPLIED_FROM", 4)
    monkeypatch.setattr(killer, "POINTING_FROM", 4)
    monkeypatch.setattr(killer, "APART_FROM", 4)
    layout = Layout.boxes(9)
    grid = solution(layout, seed)
    rng = random.Random(seed)
    rules = [KillerCage(tuple(c), sum(grid[x] for x in c)) for c in cages(layout, rng, grid=grid)]
    assert killer.implied_sums(rules, layout)
    puzzle = built(layout, grid, rules, seed)
    check_rule(puzzle, grid, (KillerCage,))
