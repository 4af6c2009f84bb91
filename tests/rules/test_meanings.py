"""What each rule means, as setters and f-puzzles mean it: every test builds a
puzzle where the other reading gives another answer, and the rules sudosat
added last (lockout, modular, double arrows, rellik cages, anti-taxicab, Dutch
whispers) go through the same checks as the others."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from itertools import combinations, pairwise

import pytest

from sudosat import parse, solve
from sudosat.core.puzzle import Grid, Layout, Puzzle
from sudosat.making.shapes import orthogonal
from sudosat.reading.ruletext import statement
from sudosat.rules import Rule, Rules
from sudosat.rules.arrow import Arrow
from sudosat.rules.double_arrow import DoubleArrow
from sudosat.rules.extremes import Maximum, Minimum
from sudosat.rules.kropki import Difference, Ratio
from sudosat.rules.little_killer import LittleKiller
from sudosat.rules.lockout import Lockout
from sudosat.rules.modular import Modular
from sudosat.rules.negative import NegativeRatio, Nonconsecutive
from sudosat.rules.rellik import Rellik
from sudosat.rules.renban import Renban
from sudosat.rules.sandwich import Sandwich
from sudosat.rules.skyscraper import Skyscraper
from sudosat.rules.taxicab import AntiTaxicab
from sudosat.rules.where import Where, close_pairs
from sudosat.rules.whispers import Whispers
from sudosat.rules.xsum import XSum

from .harness import built, check_rule, solution, solved
from .shapes import king, paths

NINE = Layout.boxes(9)


def statements(text: str, size: int = 9) -> list[Rule]:
    where = Where("<test>", 1, size, layout=Layout.boxes(size))
    return [rule for line in text.splitlines() if line.strip() for rule in statement(line, where)]


# --- maximum and minimum cells: touching ones are not compared ---------------------


def fortress(grid: Grid, n: int, greater: bool) -> tuple[int, int]:
    """Two touching cells, each beyond every other neighbour (greater or smaller)."""
    for a in range(n * n):
        for b in orthogonal(a, n):
            others = [o for c in (a, b) for o in orthogonal(c, n) if o not in (a, b)]
            low, high = min(grid[a], grid[b]), max(grid[a], grid[b])
            beyond = (
                [low > grid[o] for o in others] if greater else [high < grid[o] for o in others]
            )
            if all(beyond):
                return a, b
    raise AssertionError("no such pair in the grid")


@pytest.mark.parametrize("kind", [Maximum, Minimum])
def test_touching_extreme_cells_are_not_compared(kind: type[Rule]) -> None:
    grid = solution(NINE, 61)
    a, b = fortress(grid, 9, kind is Maximum)
    puzzle = built(NINE, grid, [kind(a), kind(b)], 61)  # type: ignore[call-arg]
    check_rule(puzzle, grid, (kind,))
    # read as "every neighbour", the pair could never hold: one is not beyond the other
    assert (grid[a] > grid[b]) != (grid[b] > grid[a])


def test_a_fortress_from_the_text_format_is_unique() -> None:
    grid = solution(NINE, 62)
    a, b = fortress(grid, 9, True)
    rules = statements(f"maximum: r{a // 9 + 1}c{a % 9 + 1} r{b // 9 + 1}c{b % 9 + 1}")
    puzzle = built(NINE, grid, rules, 62)
    assert solve(puzzle).status == "unique"


# --- pills: digits written one after another, past 9 too ---------------------------


def test_a_16x16_pill_reads_its_digits_as_written() -> None:
    layout = Layout.boxes(16)
    for seed in range(60):
        grid = solution(layout, seed)
        pill = next((c, c + 1) for c in range(256) if c % 16 < 15 and grid[c] < 10 <= grid[c + 1])
        value = int(f"{grid[pill[0]]}{grid[pill[1]]}")  # 1 and 12: 112, not 22
        line = line_adding_up_to(grid, pill, value, 16)
        if line:
            break
    else:
        raise AssertionError("no pill whose line the grid can make")
    arrow = Arrow(pill, line)
    assert arrow.broken(grid, layout) is None
    assert sum(grid[c] for c in line) != 10 * grid[pill[0]] + grid[pill[1]]
    cells = tuple(0 if c in pill or c in line else v for c, v in enumerate(grid))
    puzzle = Puzzle(4, cells, "", "<pill>", 1, "", Rules.of(layout, [arrow]))
    outcome = solve(puzzle, max_solutions=1)
    assert outcome.status == "solved"
    assert [outcome.solutions[0][c] for c in pill] == [grid[c] for c in pill]


def line_adding_up_to(grid: Grid, pill: Sequence[int], value: int, n: int) -> tuple[int, ...]:
    """A path from beside the pill whose digits add up to ``value``, or ()."""
    rng = random.Random(value)
    for _ in range(3000):
        start = rng.choice([o for o in king(pill[1], n) if o not in pill])
        path, total = [start], grid[start]
        while total < value:
            nexts = [o for o in king(path[-1], n) if o not in path and o not in pill]
            if not nexts:
                break
            path.append(rng.choice(nexts))
            total += grid[path[-1]]
        if total == value:
            return tuple(path)
    return ()


# --- sums: sandwich 0, little killers' directions and repeats, X-sums, skyscrapers --


def test_a_sandwich_of_zero_means_the_one_and_the_nine_touch() -> None:
    grid = solution(NINE, 63)
    clues = []
    for col in range(1, 10):
        digits = [grid[r * 9 + col - 1] for r in range(9)]
        i, j = digits.index(1), digits.index(9)
        clues.append(Sandwich((0, col), sum(digits[min(i, j) + 1 : max(i, j)])))
    assert any(clue.value == 0 for clue in clues), "pick a seed with a 0 clue"
    check_rule(built(NINE, grid, clues, 63), grid, (Sandwich,))


@pytest.mark.parametrize(
    ("text", "cells"),
    [
        ("little-killer 10: r0c3 dl", "r1c2 r2c1"),
        ("little-killer 10: r0c7 dr", "r1c8 r2c9"),
        ("little-killer 10: r10c3 ul", "r9c2 r8c1"),
        ("little-killer 10: r10c7 ur", "r9c8 r8c9"),
        ("little-killer 5: r8c0 dr", "r9c1"),
        ("little-killer 5: r2c10 ul", "r1c9"),
    ],
)
def test_a_little_killer_runs_from_its_clue_the_way_its_arrow_points(text: str, cells: str) -> None:
    (rule,) = statements(text)
    (expected,) = statements(f"{text.split(':')[0]}: {cells}")
    assert rule == expected


@pytest.mark.slow
def test_little_killer_digits_may_repeat() -> None:
    grid = solution(NINE, 64)
    rules: list[Rule] = []
    for start in range(9):  # the diagonals down and right from the top row
        cells = tuple(r * 9 + start + r for r in range(9 - start))
        if len({grid[c] for c in cells}) < len(cells):
            rules.append(LittleKiller(cells, sum(grid[c] for c in cells)))
    assert rules, "the grid has a diagonal with a repeat"
    check_rule(built(NINE, grid, rules, 64), grid, (LittleKiller,))


@pytest.mark.slow
def test_x_sums_and_skyscrapers_count_from_the_clue() -> None:
    grid = solution(NINE, 65)
    rules: list[Rule] = []
    for row in range(1, 10):
        digits = [grid[(row - 1) * 9 + c] for c in range(9)]
        rules.append(XSum((row, 0), sum(digits[: digits[0]])))  # the first counts itself
        seen, tallest = 0, 0
        for d in reversed(digits):  # from the right
            seen, tallest = (seen + 1, d) if d > tallest else (seen, tallest)
        rules.append(Skyscraper((row, 10), seen))
    check_rule(built(NINE, grid, rules, 65), grid, (XSum, Skyscraper))


# --- defaults, touching marks, negative constraints --------------------------------


def test_defaults_whispers_by_size_ratio_2_difference_1() -> None:
    assert statements("whispers: r1c1 r1c2") == [Whispers((0, 1))]
    assert Whispers((0, 1)).gap(9) == 5 and Whispers((0, 1)).gap(6) == 3
    assert statements("german-whispers 5: r1c1 r1c2") == [Whispers((0, 1))]
    assert statements("dutch-whispers: r1c1 r1c2") == [Whispers((0, 1), 4)]
    assert statements("dutch-whispers: r1c1 r1c2", 6) == [Whispers((0, 1))]  # 6/2 = 3
    assert statements("ratio: r1c1 r1c2") == statements("ratio 2: r1c1 r1c2")
    assert statements("difference: r1c1 r1c2") == statements("difference 1: r1c1 r1c2")
    assert statements("negative: difference") == [Nonconsecutive()]


def test_a_chain_of_touching_dots_is_a_chain_of_pairs() -> None:
    grid = solution(NINE, 66)
    rules: list[Rule] = []
    for a in range(81):
        for b in orthogonal(a, 9):
            if a < b and abs(grid[a] - grid[b]) == 1:
                rules.append(Difference((a, b)))
            elif a < b and (grid[a] == 2 * grid[b] or grid[b] == 2 * grid[a]):
                rules.append(Ratio((a, b)))
    shared = {c for r in rules for c in r.cells()}
    chained = [c for c in shared if sum(c in r.cells() for r in rules) > 1]
    assert chained, "some cell carries two dots"
    rules.append(Nonconsecutive())
    rules.append(NegativeRatio())
    check_rule(built(NINE, grid, rules, 66), grid, (Difference, Ratio, Nonconsecutive))


def test_a_dotted_1_and_2_are_exempt_from_both_kropki_negatives() -> None:
    # the white dot makes r1c2 a 2 beside the 1: were the pair not exempt from
    # "negative: ratio", there would be no solution
    puzzle = parse("negative: ratio\ndifference: r1c1 r1c2\n1" + "." * 80)
    outcome = solve(puzzle, max_solutions=1)
    assert outcome.status == "solved" and outcome.solutions[0][1] == 2


def test_renban_digits_never_repeat_even_across_units() -> None:
    grid = solution(NINE, 67)
    lines: list[Rule] = []
    rng = random.Random(67)
    while len(lines) < 4:
        path = paths(9, rng, 1, 4, king)[0]
        digits = sorted(grid[c] for c in path)
        units = {(c // 27, c % 9 // 3) for c in path}
        if len(units) > 1 and digits == list(range(digits[0], digits[0] + 4)):
            lines.append(Renban(tuple(path)))
    check_rule(built(NINE, grid, lines, 67), grid, (Renban,))
    assert Renban((0, 1, 9)).broken((1, 1, *grid[2:9], 2, *grid[10:]), NINE) is not None


# --- the rules added last ------------------------------------------------------------


def lockout_ok(path: Sequence[int], grid: Grid) -> bool:
    low, high = sorted((grid[path[0]], grid[path[-1]]))
    return high - low >= 4 and all(not low <= grid[c] <= high for c in path[1:-1])


def modular_ok(path: Sequence[int], grid: Grid) -> bool:
    return all(grid[a] % 3 != grid[b] % 3 for a, b in close_pairs(path))


def arrows_ok(path: Sequence[int], grid: Grid) -> bool:
    return grid[path[0]] + grid[path[-1]] == sum(grid[c] for c in path[1:-1])


def dutch_ok(path: Sequence[int], grid: Grid) -> bool:
    return all(abs(grid[a] - grid[b]) >= 4 for a, b in pairwise(path))


Keep = Callable[[Sequence[int], Grid], bool]


def along(grid: Grid, seed: int, length: int, keep: Keep, count: int) -> list[tuple[int, ...]]:
    """``count`` paths of ``length`` cells (king moves) that ``keep`` accepts."""
    rng = random.Random(seed)
    chosen: list[tuple[int, ...]] = []
    for _ in range(40000):
        path = tuple(paths(9, rng, 1, length, king)[0])
        if keep(path, grid) and path not in chosen:
            chosen.append(path)
        if len(chosen) == count:
            return chosen
    raise AssertionError("no such paths in the grid")


@pytest.mark.slow
@pytest.mark.parametrize(
    ("kind", "keep", "length", "value"),
    [
        (Lockout, lockout_ok, 4, None),
        (Modular, modular_ok, 5, None),
        (DoubleArrow, arrows_ok, 4, None),
        (Whispers, dutch_ok, 4, 4),
    ],
    ids=["lockout", "modular", "double-arrow", "dutch-whispers"],
)
def test_the_new_lines(kind: type[Rule], keep: Keep, length: int, value: int | None) -> None:
    grid = solution(NINE, 68)
    rules = [kind(path, value) for path in along(grid, 68, length, keep, 4)]  # type: ignore[call-arg]
    check_rule(built(NINE, grid, rules, 68), grid, (kind,))


@pytest.mark.parametrize(
    ("first", "middle", "last", "holds"),
    [(1, 5, 9, False), (1, 9, 4, False), (2, 1, 7, True), (2, 8, 7, True), (7, 7, 2, False)],
)
def test_a_lockout_line_keeps_its_middle_outside_its_ends(
    first: int, middle: int, last: int, holds: bool
) -> None:
    grid = (first, middle, last, *[1] * 78)
    assert (Lockout((0, 1, 2)).broken(grid, NINE) is None) == holds


def test_rellik_cages() -> None:
    grid = solution(NINE, 69)
    rng = random.Random(69)
    rules: list[Rule] = []
    while len(rules) < 10:
        cage = paths(9, rng, 1, rng.randint(2, 3), orthogonal)[0]
        held = [grid[c] for c in cage]
        if len(set(held)) < len(held):  # a cage's digits do not repeat
            continue
        made = {sum(s) for k in range(1, len(held) + 1) for s in combinations(held, k)}
        unmade = [v for v in range(1, 25) if v not in made]
        rules.append(Rellik(tuple(cage), rng.choice(unmade)))
    check_rule(built(NINE, grid, rules, 69), grid, (Rellik,))
    assert Rellik((0, 1, 2), 7).broken((3, 4, 9, *range(78)), NINE) == "3 + 4 = 7"


@pytest.mark.slow
def test_anti_taxicab() -> None:
    grid = solved(NINE, [AntiTaxicab()], 70, relabel=False)  # it cares which digit is which
    check_rule(built(NINE, grid, [AntiTaxicab()], 70), grid, (AntiTaxicab,))
    # two 3s three steps apart (r1c3 and r2c5: one down, two across) break it; 2s do not
    threes, twos = [1] * 81, [1] * 81
    threes[2] = threes[13] = 3
    twos[2] = twos[13] = 2
    assert AntiTaxicab().broken(threes, NINE) == "r1c3 and r2c5 both hold 3"
    assert AntiTaxicab().broken(twos, NINE) is None
