"""Lines: thermometers, arrows, palindromes, renban, whispers, between, region
sum, entropic and zipper lines, each found along paths of a solution grid."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from itertools import pairwise

import pytest

from sudosat.core.puzzle import Grid, Layout
from sudosat.rules import Rule
from sudosat.rules.arrow import Arrow
from sudosat.rules.between import Between
from sudosat.rules.entropic import Entropic
from sudosat.rules.palindrome import Palindrome
from sudosat.rules.region_sum import RegionSum, stretches
from sudosat.rules.renban import Renban
from sudosat.rules.thermometer import SlowThermometer, Thermometer
from sudosat.rules.whispers import Whispers
from sudosat.rules.zipper import Zipper

from .harness import built, check_rule, solution
from .shapes import king, paths

Keep = Callable[[Sequence[int], Grid], bool]


def found(
    grid: Grid, n: int, seed: int, length: int, keep: Keep, count: int = 5
) -> list[list[int]]:
    """``count`` paths of ``length`` cells (king moves) that ``keep`` accepts."""
    rng = random.Random(seed)
    chosen: list[list[int]] = []
    for _ in range(20000):
        if len(chosen) == count:
            break
        path = paths(n, rng, 1, length, king)[0]
        if keep(path, grid) and path not in chosen:
            chosen.append(path)
    assert len(chosen) == count, "no such paths in the grid"
    return chosen


def rising(path: Sequence[int], grid: Grid) -> bool:
    return all(grid[a] < grid[b] for a, b in pairwise(path))


def test_thermometers_and_slow_ones() -> None:
    layout, n = Layout.boxes(9), 9
    grid = solution(layout, 31)
    rules: list[Rule] = [Thermometer(tuple(p)) for p in found(grid, n, 31, 4, rising)]
    rules += [SlowThermometer(tuple(p)) for p in found(grid, n, 32, 3, rising, 3)]
    check_rule(built(layout, grid, rules, 31), grid, (Thermometer, SlowThermometer))


@pytest.mark.slow
def test_arrows_with_one_cell_circles_and_pills() -> None:
    layout, n = Layout.boxes(9), 9
    grid = solution(layout, 33)
    rng = random.Random(33)
    rules: list[Rule] = []
    while len(rules) < 6:
        path = paths(n, rng, 1, rng.randint(2, 4), king)[0]
        circle, line = path[:1], path[1:]
        if grid[circle[0]] == sum(grid[c] for c in line):
            rules.append(Arrow(tuple(circle), tuple(line)))
    while len(rules) < 8:  # a pill: two cells read as a number
        path = paths(n, rng, 1, rng.randint(4, 6), king)[0]
        pill, line = tuple(sorted(path[:2])), path[2:]
        if 10 * grid[pill[0]] + grid[pill[1]] == sum(grid[c] for c in line):
            rules.append(Arrow(pill, tuple(line)))
    check_rule(built(layout, grid, rules, 33), grid, (Arrow,))


def mirrored(path: Sequence[int], grid: Grid) -> bool:
    return all(grid[path[i]] == grid[path[-1 - i]] for i in range(len(path) // 2))


def consecutive(path: Sequence[int], grid: Grid) -> bool:
    digits = sorted(grid[c] for c in path)
    return len(set(digits)) == len(digits) and digits[-1] - digits[0] == len(digits) - 1


def whispering(path: Sequence[int], grid: Grid) -> bool:
    return all(abs(grid[a] - grid[b]) >= 5 for a, b in pairwise(path))


def between(path: Sequence[int], grid: Grid) -> bool:
    low, high = sorted((grid[path[0]], grid[path[-1]]))
    return all(low < grid[c] < high for c in path[1:-1])


def entropic(path: Sequence[int], grid: Grid) -> bool:
    band = [(grid[c] - 1) // 3 for c in path]
    return all(len({band[i], band[i + 1], band[i + 2]}) == 3 for i in range(len(band) - 2))


def zipped(path: Sequence[int], grid: Grid) -> bool:
    sums = {grid[path[i]] + grid[path[-1 - i]] for i in range(len(path) // 2)}
    if len(path) % 2:
        sums.add(grid[path[len(path) // 2]])
    return len(sums) == 1


LINES: list[tuple[type[Rule], Keep, int]] = [
    (Palindrome, mirrored, 3),
    (Renban, consecutive, 4),
    (Whispers, whispering, 4),
    (Between, between, 4),
    (Entropic, entropic, 5),
    (Zipper, zipped, 3),
    (Zipper, zipped, 4),
]


@pytest.mark.slow
@pytest.mark.parametrize(
    ("kind", "keep", "length"), LINES, ids=lambda x: getattr(x, "__name__", str(x))
)
def test_lines_found_along_the_grid(kind: type[Rule], keep: Keep, length: int) -> None:
    layout = Layout.boxes(9)
    grid = solution(layout, 34)
    rules: list[Rule] = [kind(tuple(p)) for p in found(grid, 9, 34 + length, length, keep)]  # type: ignore[call-arg]
    check_rule(built(layout, grid, rules, 34), grid, (kind,))


def test_region_sum_lines() -> None:
    layout = Layout.boxes(9)
    grid = solution(layout, 35)

    def equal_stretches(path: Sequence[int], grid: Grid) -> bool:
        parts = stretches(path, layout)
        return len(parts) > 1 and len({sum(grid[c] for c in part) for part in parts}) == 1

    lines = found(grid, 9, 35, 3, equal_stretches, 4)
    rules: list[Rule] = [RegionSum(tuple(p)) for p in lines]
    check_rule(built(layout, grid, rules, 35), grid, (RegionSum,))
