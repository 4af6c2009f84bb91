"""The law of leftovers (sudosat.sat.leftovers): clauses every solution of a
jigsaw keeps, checked against every grid of random 4x4 and 5x5 layouts found by
brute force, and the answers they bring within reach."""

from __future__ import annotations

import random

import pytest

from sudosat import Status, count, encode, explain, parse, solve
from sudosat.core.puzzle import Grid, Layout
from sudosat.sat.leftovers import leftover_clauses, leftovers
from tests.conftest import PATIENCE, traded_jigsaw

LABELS = "ABCDEFGHIJ"


def random_layout(n: int, rng: random.Random) -> Layout:
    """Regions grown from n seeds at random, each to n cells (not always joined:
    the rules do not ask it); a new try where the growth gets stuck."""
    while True:
        region_of = [-1] * (n * n)
        for region, cell in enumerate(rng.sample(range(n * n), n)):
            region_of[cell] = region
        sizes = [1] * n
        stuck = False
        while -1 in region_of and not stuck:
            growing = [r for r in range(n) if sizes[r] < n]
            rng.shuffle(growing)
            stuck = True
            for region in growing:
                mine = [c for c in range(n * n) if region_of[c] == region]
                near = [
                    c
                    for m in mine
                    for c in (m - n, m + n, m - 1 if m % n else -1, m + 1 if (m + 1) % n else -1)
                    if 0 <= c < n * n and region_of[c] == -1
                ]
                if near:
                    region_of[rng.choice(near)] = region
                    sizes[region] += 1
                    stuck = False
                    break
        if -1 not in region_of:
            return Layout.jigsaw(region_of)


def text_of(grid: Layout, givens: dict[int, int]) -> str:
    n = grid.size
    rows = ["".join(str(givens.get(r * n + c, ".")) for c in range(n)) for r in range(n)]
    _, _, region = grid.unit_index
    shape = ["".join(LABELS[region[r * n + c]] for c in range(n)) for r in range(n)]
    return f"size {n}\n" + "\n".join(rows) + "\nregions:\n" + "\n".join(shape) + "\n"


def solutions(grid: Layout, givens: dict[int, int]) -> list[Grid]:
    """By brute force, apart from any encoding: every grid whose rows, columns
    and regions hold each value once, with the givens (cell by cell, each value
    not yet in the cell's row, column or region)."""
    n = grid.size
    units = list(zip(*grid.unit_index, strict=True))
    used: list[set[int]] = [set() for _ in range(3 * n)]
    found: list[Grid] = []
    grid_now = [0] * (n * n)

    def fill(cell: int) -> None:
        if cell == n * n:
            found.append(tuple(grid_now))
            return
        row, col, region = units[cell]
        houses = (used[row], used[n + col], used[2 * n + region])
        for value in [givens[cell]] if cell in givens else range(1, n + 1):
            if any(value in house for house in houses):
                continue
            for house in houses:
                house.add(value)
            grid_now[cell] = value
            fill(cell + 1)
            for house in houses:
                house.discard(value)

    fill(0)
    return found


@pytest.mark.parametrize("n", [4, pytest.param(5, marks=pytest.mark.slow)])
def test_every_solution_keeps_every_leftover_clause(n: int) -> None:
    rng = random.Random(n)
    tried = 0
    for _ in range(40 if n == 4 else 5):
        grid = random_layout(n, rng)
        if not leftovers(grid):
            continue
        tried += 1
        literal_of = {(c, v): c * n + v for c in range(n * n) for v in range(1, n + 1)}
        clauses = leftover_clauses(grid, literal_of, {})
        for square in solutions(grid, {}):
            true = {c * n + v for c, v in enumerate(square)}
            for clause in clauses:
                assert any(lit in true if lit > 0 else -lit not in true for lit in clause)
    assert tried >= 2  # the layouts had leftovers to check


def test_counts_with_leftovers_agree_with_brute_force() -> None:
    rng = random.Random(7)
    checked = 0
    for _ in range(60):
        grid = random_layout(4, rng)
        if not leftovers(grid):
            continue
        found = solutions(grid, {})
        pick = rng.choice(found) if found and rng.random() < 0.7 else None
        cells = rng.sample(range(16), rng.randrange(0, 5))
        givens = {c: pick[c] if pick else rng.randrange(1, 5) for c in cells}
        puzzle = parse(text_of(grid, givens))
        expected = solutions(grid, givens)
        assert count(puzzle, max_solutions=1000) == len(expected), text_of(grid, givens)
        checked += 1
    assert checked >= 20


def test_boxes_have_no_leftovers() -> None:
    assert leftovers(Layout.boxes(9)) == () and leftovers(Layout.boxes(36)) == ()


@pytest.mark.parametrize(("n", "rank"), [(25, 5), (36, 6)])
def test_a_jigsaw_whose_boxes_trade_two_cells_of_a_row_has_no_solution(n: int, rank: int) -> None:
    """No clash names it and singles do not see it: the leftovers of the band of
    columns the trade crosses do (without them a 36x36 ran past 15 minutes)."""
    puzzle = parse(traded_jigsaw(n, rank))
    outcome = solve(puzzle)
    assert outcome.status == Status.NONE
    assert "regions: the law of leftovers (implied)" in encode(puzzle).families()


def test_explain_names_the_leftovers_when_the_regions_alone_leave_no_solution() -> None:
    """The conflict has no clue and no rule in it, and the note says which band's
    leftovers cannot be kept: the setter's own counting argument."""
    found = explain(parse(traded_jigsaw(36, 6)), timeout=PATIENCE)
    assert found.conflict == [] and not found.timed_out
    why = [note for note in found.notes if note.startswith("the law of leftovers")]
    assert why and "columns 1-6" in why[0] and "(r1c6)" in why[0] and "(r1c7)" in why[0]
