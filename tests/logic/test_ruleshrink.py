"""A rule step's reason is the smallest part that implies it, checked by brute force
(issue 48): on random 4x4 and 6x6 candidate states, for every removal a rule
question finds, the part it is named by (rules, houses and the cells whose
candidates it assumes) rules the value out, and leaving any one named part out
loses the removal. The truth is plain backtracking over the part's cells, each
rule judged by its own check, never by its clauses."""

from __future__ import annotations

import random

import pytest

from sudosat import parse
from sudosat.core.masks import bit
from sudosat.core.masks import values as bits
from sudosat.core.puzzle import Layout, Puzzle
from sudosat.logic.board import Board
from sudosat.logic.path import Pathfinder
from sudosat.logic.rulesteps import RuleSteps, Scope
from sudosat.making.shapes import random_grid
from tests.rules.test_brute import makers

LOCAL = (
    "cage",
    "thermo",
    "slow-thermo",
    "difference",
    "ratio",
    "x",
    "arrow",
    "palindrome",
    "renban",
    "whispers",
    "odd",
    "even",
    "clone",
    "little-killer",
)
"""Rules that speak of their own cells alone (no whole-grid or negative rule: their
clauses hang on every cell, which a brute force of a part cannot bound; nor a
maximum or minimum cell, whose check reads its neighbours)."""


def random_state(seed: int, n: int) -> tuple[Puzzle, Board]:
    """Two to five random local rules that a random grid keeps, and candidates
    that still hold that grid (each other value kept one time in two)."""
    rng = random.Random(seed)
    grid = random_grid(Layout.boxes(n), rng)
    kinds = makers(n)
    lines: list[str] = []
    while len(lines) < rng.randint(2, 5):
        line = kinds[rng.choice(LOCAL)](rng)
        try:
            puzzle = parse("\n".join([f"size {n}", *lines, line, ("." * n + "\n") * n]))
        except Exception:
            continue
        if puzzle.rules is not None and not puzzle.rules.violations(grid):
            lines.append(line)
    puzzle = parse("\n".join([f"size {n}", *lines, ("." * n + "\n") * n]))
    board = Pathfinder(puzzle).board()
    for cell in range(n * n):
        kept = bit(grid[cell]) | sum(bit(v) for v in range(1, n + 1) if rng.random() < 0.5)
        board.masks[cell] &= kept
    board.changed()
    return puzzle, board


def implies(
    puzzle: Puzzle, board: Board, part: Scope, cells: set[int], target: tuple[int, int]
) -> bool:
    """Whether no filling of the part's cells keeps its rules and houses, holds
    ``cells`` to their candidates (every other cell free) and puts the value in
    the target cell."""
    n, layout = puzzle.size, puzzle.layout
    rules = [puzzle.rules.constraints[i] for i in part.rules] if puzzle.rules else []
    units = [layout.units[u] for u in part.units]
    spoken = {c for r in rules for c in r.cells()} | {c for u in units for c in u}
    order = sorted(spoken | cells | {target[0]})
    full = (1 << n) - 1
    domain = {c: board.masks[c] if c in cells else full for c in order}
    domain[target[0]] = bit(target[1])
    grid = [0] * (n * n)
    checks = {c: [r for r in rules if c == max(r.cells())] for c in order}

    def fill(i: int) -> bool:
        if i == len(order):
            return True
        cell = order[i]
        for value in bits(domain[cell]):
            if any(grid[c] == value for u in units if cell in u for c in u):
                continue
            grid[cell] = value
            if all(r.broken(tuple(grid), layout) is None for r in checks[cell]) and fill(i + 1):
                return True
            grid[cell] = 0
        return False

    return not fill(0)


def without(part: Scope, kind: str, item: int) -> Scope:
    kept = {k: getattr(part, k) for k in ("rules", "units", "cells")}
    kept[kind] = tuple(x for x in kept[kind] if x != item)
    return Scope(**kept)


@pytest.mark.slow
@pytest.mark.parametrize(
    "n, seeds", [(4, range(40)), pytest.param(6, range(8), marks=pytest.mark.slow)]
)
def test_each_rule_step_is_implied_by_its_part_and_by_nothing_less(n: int, seeds: range) -> None:
    checked = 0
    for seed in seeds:
        puzzle, board = random_state(seed, n)
        steps = RuleSteps(puzzle)
        try:
            for tier in ("rule", "rule pair", "rule and units", "house and rules"):
                for scope, _ in steps.scopes(tier):
                    removed = steps.removes(board, scope) or ()
                    for candidate in removed[:3]:
                        found = steps.smallest(board, scope, candidate)
                        if found is None:  # the houses alone do it: no rule named
                            assert implies(
                                puzzle,
                                board,
                                Scope((), scope.units, ()),
                                set(steps.assumed(scope)),
                                candidate,
                            )
                            continue
                        part, kept = found
                        cells = set(kept)
                        assert implies(puzzle, board, part, cells, candidate), (
                            seed,
                            part,
                            candidate,
                        )
                        for kind in ("rules", "units"):
                            for item in getattr(part, kind):
                                smaller = without(part, kind, item)
                                assert not implies(puzzle, board, smaller, cells, candidate), (
                                    seed,
                                    kind,
                                    item,
                                )
                        for cell in cells:
                            assert not implies(puzzle, board, part, cells - {cell}, candidate), (
                                seed,
                                cell,
                            )
                        checked += 1
        finally:
            steps.close()
    assert checked >= 10


def fillings(
    puzzle: Puzzle, masks: list[int], rng: random.Random | None = None, most: int = 10**6
) -> list[tuple[int, ...]]:
    """The solution grids of a puzzle of pair rules (anti-king, anti-knight,
    nonconsecutive) that fit the candidates ``masks``, by backtracking, each
    value checked against the units and what the placed cells rule out
    (:meth:`Rule.sees`): in random order, up to ``most``."""
    layout, n = puzzle.layout, puzzle.size
    rules = puzzle.rules.constraints if puzzle.rules else ()
    grid = [0] * (n * n)
    found: list[tuple[int, ...]] = []

    def fill(cell: int) -> None:
        if cell == n * n:
            found.append(tuple(grid))
            return
        seen = {grid[c] for u in layout.units if cell in u for c in u}
        order = list(bits(masks[cell]))
        if rng is not None:
            rng.shuffle(order)
        for value in order:
            if value in seen:
                continue
            ruled = {x for r in rules for x in r.sees(layout, cell, value)}
            if any(grid[c] == v for c, v in ruled):
                continue
            grid[cell] = value
            fill(cell + 1)
            grid[cell] = 0
            if len(found) >= most:
                return

    fill(0)
    return found


@pytest.mark.slow
@pytest.mark.parametrize("flag", ["anti-knight", "anti-king", "nonconsecutive"])
def test_a_whole_grid_rule_is_asked_band_by_band_and_every_removal_holds(flag: str) -> None:
    """A whole-grid rule is asked with one band or stack at a time, over the cells it
    ties to them (not the whole grid: that is the whole puzzle, a search); each
    removal is still true of the whole puzzle: no solution grid of the rule that
    fits the candidates puts the value there (every such grid of a 6x6 found)."""
    n = 6
    puzzle = parse(f"size {n}\n{flag}\n" + ("." * n + "\n") * n)
    assert puzzle.rules is not None
    removals = 0
    for seed in range(12):
        rng = random.Random(seed)
        (grid,) = fillings(puzzle, [(1 << n) - 1] * (n * n), rng, most=1)
        board = Pathfinder(puzzle).board()
        for cell in range(n * n):
            board.masks[cell] &= bit(grid[cell]) | sum(
                bit(v) for v in range(1, n + 1) if rng.random() < 0.5
            )
        board.changed()
        fits = fillings(puzzle, board.masks)
        assert not puzzle.rules.violations(grid) and grid in fits
        steps = RuleSteps(puzzle)
        try:
            scopes = steps.scopes("rule and units")
            assert len(scopes) == n // 2 + n // 3  # the bands of rows, the stacks of columns
            for scope, name in scopes:
                assert " in rows " in name or " in columns " in name
                assert len(steps.assumed(scope)) < n * n or flag == "anti-knight"
                for cell, value in steps.removes(board, scope) or ():
                    assert all(g[cell] != value for g in fits), (seed, name, cell, value)
                    removals += 1
        finally:
            steps.close()
    assert removals >= 10


def test_a_whole_grid_rule_s_band_question_keeps_near_the_band() -> None:
    """On a 9x9, nonconsecutive asked in rows 1-3 assumes rows 1-4 (the cells it ties
    to the band), anti-knight rows 1-5; a clue outside the grid (a skyscraper) is
    asked over the column it faces and the units its cells lie in."""
    puzzle = parse("anti-knight\nnonconsecutive\nskyscraper 3: r0c2\n" + ("." * 9 + "\n") * 9)
    steps = RuleSteps(puzzle)
    try:
        names = [steps.rules[i].describe(9) for i in range(len(steps.rules))]
        band = {
            names[scope.rules[0]]: steps.assumed(scope)
            for scope, name in steps.scopes("rule and units")
            if name.endswith(" in rows 1-3")
        }
        assert band["nonconsecutive"] == tuple(range(36))
        assert band["anti-knight"] == tuple(range(45))
        sky = names.index("skyscraper 3 on column 2 from the top")
        assert steps.rule_cells[sky] == tuple(r * 9 + 1 for r in range(9))
        (scope,) = [s for s, _ in steps.scopes("rule and units") if s.rules == (sky,)]
        assert len(scope.units) == 9 + 1 + 3  # its column, the nine rows, three boxes
    finally:
        steps.close()
