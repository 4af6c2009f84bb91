"""Clues outside the grid: sandwich sums, X-sums and skyscrapers."""

from __future__ import annotations

import pytest

from sudosat.core.puzzle import Layout
from sudosat.rules import Rule
from sudosat.rules.sandwich import Sandwich
from sudosat.rules.skyscraper import Skyscraper
from sudosat.rules.xsum import XSum

from .harness import built, check_rule, solution


def clues(n: int) -> list[tuple[int, int]]:
    """One clue beside every row and column, from alternating sides."""
    found = []
    for i in range(1, n + 1):
        found.append((0, i) if i % 2 else (n + 1, i))
        found.append((i, 0) if i % 2 else (i, n + 1))
    return found


def line(clue: tuple[int, int], n: int) -> list[int]:
    return list(Sandwich(clue, 0).line(n))


@pytest.mark.parametrize("size", [pytest.param(9, marks=pytest.mark.slow), 6])
def test_sandwich_sums(size: int) -> None:
    layout = Layout.boxes(size)
    grid = solution(layout, 41)
    rules: list[Rule] = []
    for clue in clues(size):
        digits = [grid[c] for c in line(clue, size)]
        i, j = sorted((digits.index(1), digits.index(size)))
        rules.append(Sandwich(clue, sum(digits[i + 1 : j])))
    check_rule(built(layout, grid, rules, 41), grid, (Sandwich,))


def test_x_sums() -> None:
    layout = Layout.boxes(9)
    grid = solution(layout, 42)
    rules: list[Rule] = []
    for clue in clues(9):
        digits = [grid[c] for c in line(clue, 9)]
        rules.append(XSum(clue, sum(digits[: digits[0]])))
    check_rule(built(layout, grid, rules, 42), grid, (XSum,))


@pytest.mark.parametrize("size", [pytest.param(9, marks=pytest.mark.slow), 4])
def test_skyscrapers(size: int) -> None:
    layout = Layout.boxes(size)
    grid = solution(layout, 43)
    rules: list[Rule] = []
    for clue in clues(size):
        seen, tallest = 0, 0
        for c in line(clue, size):
            if grid[c] > tallest:
                seen, tallest = seen + 1, grid[c]
        rules.append(Skyscraper(clue, seen))
    check_rule(built(layout, grid, rules, 43), grid, (Skyscraper,))
