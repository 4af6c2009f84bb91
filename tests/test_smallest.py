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
from sudosat.making.board import Board
from sudosat.making.path import Pathfinder
from sudosat.making.rulesteps import RuleSteps, Scope
from sudosat.making.shapes import random_grid
from tests.variants.test_brute import makers

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
