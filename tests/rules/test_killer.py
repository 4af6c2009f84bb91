"""Killer cages and extra regions."""

from __future__ import annotations

import random
from itertools import product

import pytest
from pysat.solvers import Solver

from sudosat import count, solve
from sudosat.core.puzzle import Layout, Puzzle
from sudosat.making.shapes import cages, random_grid
from sudosat.rules import Rules, killer
from sudosat.rules.extra_region import ExtraRegion
from sudosat.rules.killer import KillerCage
from sudosat.sat import arith
from sudosat.sat.builder import Builder
from sudosat.sat.cnf import Encoding
from sudosat.sat.encoding import encode

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


@pytest.mark.parametrize(("size", "seed"), [(9, 21), (16, 22), (16, 23)])
def test_signed_sums_hold_on_the_grid(size: int, seed: int) -> None:
    """Each band's signed sum (cages counted in or out, whichever leaves fewer
    cells) holds on the grid the cages were cut from, a cage without a sum
    counting as plain cells."""
    layout = Layout.boxes(size)
    grid = random_grid(layout, random.Random(seed))
    shapes = cages(layout, random.Random(seed), 4, grid)
    rules = [KillerCage(tuple(c), sum(grid[x] for x in c)) for c in shapes[1:]]
    rules.append(KillerCage(tuple(shapes[0])))
    found = killer.signed_sums(rules, layout, most=5)
    assert any(taken for _, taken in found)  # some cage counted out
    for (added, taken), value in found.items():
        assert 0 < len(added) + len(taken) <= 5 and not set(added) & set(taken)
        assert sum(grid[c] for c in added) - sum(grid[c] for c in taken) == value


@pytest.mark.slow
@pytest.mark.parametrize("seed", [24, 25])
def test_signed_sums_keep_the_answer(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Written from 16x16 on; turned on for 9x9 killers, they add clauses and the
    answers stay those built in."""
    layout = Layout.boxes(9)
    grid = solution(layout, seed)
    rng = random.Random(seed)
    rules = [KillerCage(tuple(c), sum(grid[x] for x in c)) for c in cages(layout, rng, grid=grid)]
    puzzle = built(layout, grid, rules, seed)
    without = len(list(encode(puzzle).iter_clauses()))
    monkeypatch.setattr(killer, "SIGNED_FROM", 4)
    monkeypatch.setattr(killer, "SIGNED_CELLS", 5)
    assert len(list(encode(puzzle).iter_clauses())) > without
    check_rule(puzzle, grid, (KillerCage,))


def test_sum_to_allows_exactly_the_sums() -> None:
    """``sum_to`` over cells and a complement: with the grid's rules, a choice of
    the three cells' digits is kept exactly when it makes the sum."""
    cnf = encode(Puzzle.empty(2), Encoding(reduced=False))
    cells = (0, 6, 11)  # r1c1, r2c3, r3c4: no two share a unit

    def lit(cell: int, digit: int) -> int:
        return cell * 4 + digit

    for value in range(3, 13):
        b = Builder(cnf, cnf.groups[:16])
        terms = [arith.cell_int(b, 0), arith.complement(b, 6), arith.cell_int(b, 11)]
        arith.sum_to(b, terms, value)
        with (
            Solver(bootstrap_with=list(cnf.iter_clauses())) as alone,
            Solver(bootstrap_with=[*cnf.iter_clauses(), *b.clauses]) as summed,
        ):
            for digits in product(range(1, 5), repeat=3):
                chosen = [lit(c, d) for c, d in zip(cells, digits, strict=True)]
                makes = digits[0] + 5 - digits[1] + digits[2] == value
                expected = makes and alone.solve(assumptions=chosen)
                assert summed.solve(assumptions=chosen) == expected, (value, digits)
