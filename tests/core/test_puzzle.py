"""The grid model: units, peers, names, clashes, candidates and verification."""

from __future__ import annotations

import pytest

from sudosat.core.puzzle import (
    Puzzle,
    cell_name,
    differences,
    peers,
    rank_for_cells,
    rule_violations,
    unit_name,
    units,
    verify,
)
from sudosat.reading.formats import parse
from tests.conftest import ESCARGOT


@pytest.mark.parametrize("rank", [2, 3, 4, 5])
def test_every_cell_is_in_three_units_and_has_its_peers(rank: int) -> None:
    n = rank * rank
    found = units(rank)
    assert len(found) == 3 * n and all(len(set(unit)) == n for unit in found)
    for cell in range(n * n):
        assert sum(cell in unit for unit in found) == 3
    # a row's and a column's other cells, and the box's cells in neither
    assert {len(p) for p in peers(rank)} == {2 * (n - 1) + (n - 1) - 2 * (rank - 1)}
    assert all(cell not in p for cell, p in enumerate(peers(rank)))


def test_names_are_one_based_as_setters_write_them() -> None:
    assert cell_name(9, 0) == "r1c1" and cell_name(9, 80) == "r9c9" and cell_name(16, 17) == "r2c2"
    assert [unit_name(9, i) for i in (0, 9, 26)] == ["row 1", "column 1", "box 9"]


def test_rank_for_cells() -> None:
    assert [rank_for_cells(n) for n in (16, 81, 256, 160000)] == [2, 3, 4, 20]
    assert rank_for_cells(80) is None and rank_for_cells(1) is None


@pytest.mark.parametrize(
    ("rank", "cells", "alphabet", "message"),
    [
        (1, (0,), "", "rank 1 is outside"),
        (3, (0,) * 80, "", "needs 81 cells"),
        (3, (0,) * 80 + (10,), "", "cell values must be 0..9"),
        (2, (0,) * 16, "123", "alphabet must have 4 symbols"),
    ],
)
def test_a_puzzle_that_cannot_be(
    rank: int, cells: tuple[int, ...], alphabet: str, message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        Puzzle(rank, cells, alphabet)


def test_clashes_name_both_cells_and_the_unit() -> None:
    cells = [0] * 81
    cells[0] = cells[8] = 5  # row 1
    cells[10] = 7
    cells[19] = 7  # box 1 and column 2
    puzzle = Puzzle(3, tuple(cells), "123456789")
    described = sorted(c.describe(puzzle) for c in puzzle.clashes())
    assert described == [
        "r1c1 and r1c9 both hold 5 in row 1",
        "r2c2 and r3c2 both hold 7 in box 1",
        "r2c2 and r3c2 both hold 7 in column 2",
    ]


def test_candidates_leave_out_the_peers_givens() -> None:
    puzzle = parse(ESCARGOT)
    candidates = puzzle.candidates
    assert candidates[0] == (1,)  # a given is its own candidate
    for cell, values in enumerate(candidates):
        if not puzzle.cells[cell]:
            taken = {puzzle.cells[p] for p in peers(3)[cell]}
            assert set(values) == set(range(1, 10)) - taken


def test_verify_says_what_is_wrong() -> None:
    solution = "162857493534129678789643521475312986913586742628794135356478219241935867897261354"
    puzzle = parse(ESCARGOT)
    grid = tuple(map(int, solution))
    assert verify(puzzle, grid) == [] and rule_violations(3, grid) == []
    swapped = list(grid)
    swapped[0], swapped[1] = swapped[1], swapped[0]
    problems = verify(puzzle, swapped)
    assert "r1c1 changes a given" in problems
    assert "column 1 does not hold every value once" in problems
    blank = list(grid)
    blank[40] = 0
    assert rule_violations(3, blank)[0] == "r5c5 holds no value 1..9"
    assert rule_violations(3, grid[:80]) == ["grid has 80 cells, expected 81"]
    assert differences(grid, swapped) == [0, 1]
