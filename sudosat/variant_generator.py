"""Making variant puzzles with a unique solution: killer (cages only), jigsaw and
X (both diagonals), both with minimal givens.

* ``killer``: :func:`shapes.unique_killer` (cages cut from a random grid,
  split where a second solution differs, one-cell cages joined back while the
  grid stays the only solution).
* ``jigsaw`` and ``x``: the rules' CNF is built once, without givens, into an
  incremental solver. A random full grid comes from a solve with random
  phases; then the givens are removed in a random order, each removal kept
  when no solution differs in that cell with the other givens as assumptions
  (while the givens left make the grid unique, any other solution of the
  givens without one must differ there), as :mod:`generator` does.

Every puzzle is solved again by the engine before it is handed out (unique,
that grid), and rated. The same seed gives the same puzzle.
"""

from __future__ import annotations

import random
from dataclasses import replace

from .deadline import remaining, solve_by
from .encoding import Encoding, encode, var
from .generator import Asked, Generated, GenerationError
from .outcome import Status
from .puzzle import Grid, Layout, Puzzle
from .rating import rate
from .shapes import jigsaw, unique_killer
from .solvers import SolverTimeout

ATTEMPTS = 20
"""Puzzles tried for one --level before giving up."""


def make_variant(seed: int, asked: Asked, deadline: float | None = None) -> Generated:
    """One checked variant puzzle of ``asked.variant`` from ``seed``."""
    rng = random.Random(seed)
    size = asked.rank * asked.rank
    for _ in range(ATTEMPTS if asked.level else 1):
        if asked.variant == "killer":
            puzzle, solution = unique_killer(Layout.boxes(size), rng, asked.largest)
        else:
            made = None
            while made is None:  # some random regions admit no grid at all
                made = _carved(_rules_only(asked.variant, size, rng), rng, deadline)
            puzzle, solution = made
        puzzle = replace(puzzle, alphabet=asked.symbols, source="<generated>")
        if asked.variant != "killer":  # a killer's last step was the engine's check
            _check(puzzle, solution, deadline)
        rating = rate(puzzle, timeout=remaining(deadline))
        if asked.level is None or rating.level == asked.level:
            return Generated(puzzle, solution, seed, rating)
    raise GenerationError(f"no {asked.variant} puzzle of level {asked.level} from seed {seed}")


def _rules_only(variant: str, size: int, rng: random.Random) -> Puzzle:
    """The empty puzzle of a variant's rules: random regions, or the diagonals."""
    from .rules import Rules
    from .rules.diagonals import DiagonalMinus, DiagonalPlus

    if variant == "jigsaw":
        rules = Rules(jigsaw(size, rng))
    else:
        rules = Rules(Layout.boxes(size), (DiagonalPlus(), DiagonalMinus()))
    return Puzzle(rules.layout.rank, (0,) * size**2, "", "<generated>", rules=rules)


def _carved(
    empty: Puzzle, rng: random.Random, deadline: float | None
) -> tuple[Puzzle, Grid] | None:
    """A random grid of ``empty``'s rules, and minimal givens that make it unique
    (None: the rules have no grid)."""
    from .fast import holding

    n = empty.size
    cnf = encode(empty, Encoding(reduced=False))
    with holding(cnf) as sat:  # the groups natively: quick to load
        sat.set_phases(
            [var(n, c, v) * rng.choice((1, -1)) for c in range(n * n) for v in range(1, n + 1)]
        )
        if not solve_by(sat, deadline, []):
            return None
        grid = tuple(cnf.decode(sat.get_model()))
        kept = dict.fromkeys(range(n * n))
        order = list(range(n * n))
        rng.shuffle(order)
        for cell in order:
            del kept[cell]
            assumptions = [var(n, c, grid[c]) for c in kept] + [-var(n, cell, grid[cell])]
            if solve_by(sat, deadline, assumptions):
                kept[cell] = None  # a second solution differs here: the given stays
    cells = tuple(grid[c] if c in kept else 0 for c in range(n * n))
    return replace(empty, cells=cells), grid


def _check(puzzle: Puzzle, solution: Grid, deadline: float | None) -> None:
    """The engine, from scratch: unique, and that grid."""
    from .engine import solve

    outcome = solve(puzzle, timeout=remaining(deadline))
    if outcome.status == Status.TIMEOUT:
        raise SolverTimeout(outcome.reason)
    if outcome.status != Status.UNIQUE or tuple(outcome.solutions[0]) != tuple(solution):
        raise GenerationError(f"a made puzzle failed its check: {outcome.status}")
