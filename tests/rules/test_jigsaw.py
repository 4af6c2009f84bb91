"""Jigsaw (irregular regions): read from f-puzzles and from text, solved with
the regions in place of boxes, the singles included."""

from __future__ import annotations

import random

import pytest

from sudosat import solve
from sudosat.core.errors import InputError
from sudosat.core.puzzle import Layout
from sudosat.making.shapes import connected, jigsaw
from sudosat.reading.formats import read_text
from sudosat.reading.fpuzzles import link, read, write

from .harness import built, check_rule, solved


@pytest.mark.parametrize(("size", "seed"), [(9, 1), (9, 2), (6, 3), (8, 4)])
def test_jigsaw_puzzles_solve_by_their_regions(size: int, seed: int) -> None:
    layout = jigsaw(size, random.Random(seed))
    assert layout.box is None and len(layout.regions) == size
    assert all(len(r) == size and connected(r, size) for r in layout.regions)
    grid = solved(layout, [], seed)
    assert not layout.violations(grid)
    puzzle = built(layout, grid, [], seed)
    check_rule(puzzle, grid, ())
    if size == 9:  # boxes would have ruled this grid out: the singles did not use them
        assert Layout.boxes(9).violations(grid)


def test_jigsaw_in_text_regions_statement() -> None:
    layout = jigsaw(9, random.Random(5))
    grid = solved(layout, [], 5)
    puzzle = built(layout, grid, [], 5)
    labels = "".join("ABCDEFGHI"[layout.unit_index[2][c]] for c in range(81))
    rows = "\n".join(labels[r * 9 : r * 9 + 9] for r in range(9))
    givens = "\n".join(
        "".join(str(v or ".") for v in puzzle.cells[r * 9 : r * 9 + 9]) for r in range(9)
    )
    for text in (f"regions: {labels}\n{givens}\n", f"{givens}\nregions:\n{rows}\n"):
        (again,) = read_text(text, "j.txt")
        assert not isinstance(again, InputError)
        assert again.layout.regions == layout.regions and again.cells == puzzle.cells
        assert solve(again).solutions == [grid]


def test_regions_of_the_wrong_size_are_refused() -> None:
    layout = jigsaw(9, random.Random(6))
    data = write(built(layout, solved(layout, [], 6), [], 6))
    data["grid"][0][0]["region"] = data["grid"][8][8]["region"]
    with pytest.raises(InputError) as refused:
        read(str(data).replace("'", '"').replace("True", "true"), "j.json")
    assert "regions: region" in str(refused.value) and "cells, expected 9" in str(refused.value)
    assert read(link(built(layout, solved(layout, [], 6), [], 6)), "l").layout == layout
