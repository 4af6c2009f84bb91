"""Building variant puzzles whose answer is known, and checking a rule on them.

A puzzle is built from a solution grid: the rule's instances are read off the
grid (a test says how), then givens of the grid are added, in an order fixed by
the seed, until the engine finds that grid and no other. So the answer is known
by construction, and the checks ask:

* the engine's unique solution is the grid it was built from, and a second
  solver (Glucose on the full CNF, another encoding path) agrees;
* each rule's own check (``broken``) passes on the grid and fails on a grid that
  breaks it;
* the rule reads back the same from its f-puzzles entry and from its text line.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import replace
from xml.etree import ElementTree

from sudosat import solve
from sudosat.core.puzzle import Grid, Layout, Puzzle
from sudosat.making.shapes import random_grid
from sudosat.reading.fpuzzles import link, read, write
from sudosat.reading.ruletext import statement
from sudosat.rules import Rule, Rules
from sudosat.rules.base import NoField
from sudosat.rules.where import Where
from sudosat.sat.cnf import Encoding
from sudosat.showing.pictures import Pen, picture

Examples = Callable[[Grid, Layout, random.Random], list[Rule]]


def solution(layout: Layout, seed: int) -> Grid:
    return random_grid(layout, random.Random(seed))


def solved(layout: Layout, rules: Sequence[Rule], seed: int, relabel: bool = True) -> Grid:
    """A grid that keeps ``rules``: the engine's first solution of the empty puzzle
    with a few seeded givens, its digits relabelled (``relabel``: for rules that
    do not care which digit is which)."""
    n = layout.size
    rng = random.Random(seed)
    alphabet = "123456789"[:n] if n <= 9 else ""
    cells = (0,) * (n * n)
    empty = Puzzle(layout.rank, cells, alphabet, "<empty>", 1, "", Rules.of(layout, rules))
    outcome = solve(empty, max_solutions=1)
    assert outcome.solutions, "the rules leave no grid"
    grid = outcome.solutions[0]
    if not relabel:
        return grid
    digits = list(range(1, n + 1))
    rng.shuffle(digits)
    return tuple(digits[v - 1] for v in grid)


def built(
    layout: Layout,
    grid: Grid,
    rules: Sequence[Rule],
    seed: int,
    alphabet: str = "",
) -> Puzzle:
    """A puzzle with ``rules`` whose unique solution is ``grid``: givens of the grid
    added, in a seeded order, until the engine finds no other solution."""
    n = layout.size
    alphabet = alphabet or ("123456789"[:n] if n <= 9 else "")
    rules_of = Rules.of(layout, rules)
    order = list(range(n * n))
    random.Random(seed).shuffle(order)
    cells = [0] * (n * n)
    puzzle = Puzzle(layout.rank, tuple(cells), alphabet, "<built>", 1, "", rules_of)
    for cell in [None, *order]:
        if cell is not None:
            cells[cell] = grid[cell]
            puzzle = replace(puzzle, cells=tuple(cells))
        outcome = solve(puzzle)
        assert outcome.solutions, f"no solution with {len([c for c in cells if c])} givens"
        assert grid in outcome.solutions or outcome.status == "multiple"
        if outcome.status == "unique":
            assert outcome.solutions[0] == grid
            return puzzle
    raise AssertionError("the full grid is not unique")


def check_rule(puzzle: Puzzle, grid: Grid, kinds: tuple[type[Rule], ...]) -> None:
    """The checks of the module's docstring for the rules of ``kinds``."""
    assert puzzle.rules is not None
    n = puzzle.size
    mine = [r for r in puzzle.rules.constraints if isinstance(r, kinds)]
    assert mine or not kinds, "the test built no rule of its kind"
    # the engine's answer, and a second solver's on the full CNF
    first = solve(puzzle)
    assert first.status == "unique" and first.solutions == [grid]
    second = solve(puzzle, solver="glucose4", encoding=Encoding(reduced=False))
    assert second.status == "unique" and second.solutions == [grid]
    # each rule's own check
    for rule in mine:
        assert rule.broken(grid, puzzle.layout) is None, rule.describe(n)
    if mine:
        assert any(rule.broken(b, puzzle.layout) for b in breakers(grid, n) for rule in mine)
    # f-puzzles (where it has a field for every rule) and text: the same rules back
    try:
        linked = link(puzzle)
    except NoField:  # f-puzzles has no field for a rule of the kind (a rellik cage)
        assert any(not rule.field for rule in mine)
    else:
        again = read(linked, "<link>")
        assert again.rules is not None
        assert set(again.rules.constraints) == set(puzzle.rules.constraints)
        assert again.cells == puzzle.cells and again.layout.regions == puzzle.layout.regions
        assert write(again) == write(puzzle)
    where = Where("<text>", 1, n, layout=puzzle.layout)
    for rule in mine:
        back = statement(rule.text(n), where)
        settled = [r.settle(puzzle.rules.constraints) for r in back]
        assert rule in settled, (rule.text(n), back)
    # its picture: each rule of its kind draws itself (a flag: named under the grid)
    for rule in mine:
        pen = Pen(n, (0.0, 0.0))
        rule.draw(pen)
        assert bool(pen.elements) == rule.drawn, rule.describe(n)
    svg = ElementTree.fromstring(picture(puzzle, grid))
    assert svg.find(".//*[@class='cells']").get("data-cells") == str(n * n)  # type: ignore[union-attr]


def breakers(grid: Grid, n: int) -> list[Grid]:
    """Grids near ``grid`` that break some rule: two cells' digits swapped (rows,
    columns and regions may break too; the rule is asked on its own)."""
    found = []
    for a in range(0, n * n, max(1, n // 2)):
        for b in range(a + 1, n * n, max(1, n // 3)):
            if grid[a] != grid[b]:
                swapped = list(grid)
                swapped[a], swapped[b] = swapped[b], swapped[a]
                found.append(tuple(swapped))
    return found
