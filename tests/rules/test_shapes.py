"""Random shapes: solution grids, cages and their splits, unique killers."""

from __future__ import annotations

import random

import pytest

from sudosat import solve, verify
from sudosat.core.puzzle import Layout
from sudosat.making.shapes import cages, connected, jigsaw, random_grid, split, stays_connected
from sudosat.making.variant_generator import unique_killer


@pytest.mark.parametrize("size", [4, 6, 9, 16])
def test_random_grids_are_solutions_and_differ_by_seed(size: int) -> None:
    layout = Layout.boxes(size)
    grids = [random_grid(layout, random.Random(seed)) for seed in range(3)]
    for grid in grids:
        assert not layout.violations(grid)
    assert len(set(grids)) == 3


@pytest.mark.parametrize(("size", "seed"), [(9, 1), (9, 2), (16, 3)])
def test_the_quick_connectivity_check_agrees_with_a_search(size: int, seed: int) -> None:
    region = list(jigsaw(size, random.Random(seed), moves=size * size).unit_index[2])
    for cell, k in enumerate(region):  # each cell taken out of its region in turn
        members = {c for c, r in enumerate(region) if r == k and c != cell}
        without = [*region[:cell], -1, *region[cell + 1 :]]
        assert stays_connected(cell, k, members, without, size) == connected(members, size)


def test_cages_cover_the_grid_connected_without_repeated_digits() -> None:
    layout = Layout.boxes(9)
    grid = random_grid(layout, random.Random(1))
    found = cages(layout, random.Random(1), 4, grid)
    cells = sorted(c for cage in found for c in cage)
    assert cells == list(range(81))
    for cage in found:
        assert connected(cage, 9)
        assert len({grid[c] for c in cage}) == len(cage)


@pytest.mark.parametrize("cage", [[0, 1, 2, 3], [0, 1, 10, 9], [0, 9, 18, 19, 20], [0, 1]])
def test_a_split_gives_two_connected_pieces_one_holding_the_cell(cage: list[int]) -> None:
    for cell in cage:
        pieces = split(cage, cell, 9)
        assert sorted(c for piece in pieces for c in piece) == sorted(cage)
        assert len(pieces) == 2 and all(connected(piece, 9) for piece in pieces)
        assert any(cell in piece for piece in pieces)


@pytest.mark.parametrize(("size", "seed"), [(4, 1), (6, 2), (9, 3), (9, 4)])
def test_unique_killers_have_no_givens_and_one_solution(size: int, seed: int) -> None:
    puzzle, grid = unique_killer(Layout.boxes(size), random.Random(seed))
    assert not any(puzzle.cells)
    assert puzzle.rules is not None
    covered = sorted(cell for rule in puzzle.rules.constraints for cell in rule.cells())
    assert covered == list(range(size * size))  # every cell in one cage, no two overlap
    outcome = solve(puzzle)
    assert outcome.status == "unique" and outcome.solutions == [grid]
    assert verify(puzzle, grid) == []
    again, _ = unique_killer(Layout.boxes(size), random.Random(seed))
    assert again == puzzle  # seeded
