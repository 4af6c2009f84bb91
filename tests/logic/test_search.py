"""The compiled engine's complete search (sudosat.logic.bitboard.search) held to
SAT and to brute force on random puzzles: the same solutions, the same counts
up to a limit, and "a solution other than this one" answered alike; and the
generator that asks it makes the same puzzles as without it."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys

import pytest

from sudosat import count, parse
from sudosat.core.puzzle import Puzzle, verify
from sudosat.logic import bitboard
from sudosat.logic.board import board_of
from sudosat.making.generator import Carving, Generator
from sudosat.sat.cnf import literal
from tests.conftest import PATIENCE
from tests.sat.test_leftovers import random_layout, solutions, text_of

pytestmark = pytest.mark.skipif(bitboard.ENGINE is None, reason="the compiled engine is not built")

LIMIT = 3


def masks_of(puzzle: Puzzle) -> list[int]:
    full = (1 << puzzle.size) - 1
    return [1 << (v - 1) if v else full for v in puzzle.cells]


@pytest.mark.parametrize("rank", [2, 3])
def test_counts_and_solutions_agree_with_sat(rank: int) -> None:
    rng = random.Random(rank)
    generator = Generator(rank)
    shape = board_of(Puzzle.empty(rank))
    n = rank * rank
    for _ in range(60 if rank == 2 else 30):
        grid = Carving(generator, rng).solution
        cells = list(grid)
        for cell in rng.sample(range(n * n), n * n - rng.randrange(rank**3, n * n // 2 + 2)):
            cells[cell] = 0
        if rng.random() < 0.2:  # a given changed: often no solution
            given = rng.choice([c for c, v in enumerate(cells) if v])
            cells[given] = rng.randrange(1, n + 1)
        puzzle = Puzzle(rank, tuple(cells))
        found = bitboard.search(shape, masks_of(puzzle), [], LIMIT, 10**9)
        assert found is not None and found.settled
        assert len(found.solutions) == min(count(puzzle, max_solutions=LIMIT), LIMIT)
        assert len(set(found.solutions)) == len(found.solutions)
        assert all(not verify(puzzle, solution) for solution in found.solutions)


def test_a_solution_other_than_one_agrees_with_brute_force_on_jigsaws() -> None:
    rng = random.Random(4)
    for _ in range(40):
        layout = random_layout(4, rng)
        every = solutions(layout, {})
        if not every:
            continue
        chosen = rng.choice(every)
        givens = {c: chosen[c] for c in rng.sample(range(16), rng.randrange(0, 7))}
        puzzle = parse(text_of(layout, givens))
        avoid_cells = rng.sample(range(16), rng.randrange(1, 4))
        avoid = [literal(4, c, chosen[c]) for c in avoid_cells]
        expected = [
            grid
            for grid in solutions(layout, givens)
            if not all(grid[c] == chosen[c] for c in avoid_cells)
        ]
        found = bitboard.search(board_of(puzzle), masks_of(puzzle), avoid, 10**6, 10**9)
        assert found is not None and found.settled
        assert sorted(found.solutions) == sorted(expected)


def test_a_budget_that_runs_out_says_so() -> None:
    shape = board_of(Puzzle.empty(4))
    found = bitboard.search(shape, [(1 << 16) - 1] * 256, [], 10**6, 50)
    assert found is not None and not found.settled and len(found.solutions) < 10**6


GENERATED = """
import json, sys
from sudosat.making.generator import generator
made = []
for rank, seeds in ((2, 12), (3, 12), (4, 3)):
    for seed in range(seeds):
        for symmetry in ("none", "rotate180"):
            made.append(list(generator(rank).generate(seed, symmetry=symmetry, rated=False)
                             .puzzle.cells))
print(json.dumps(made))
"""


def test_the_generator_makes_the_same_puzzles_with_the_engine_and_without() -> None:
    """Each "second solution?" is a fact whoever answers it: the engine's search
    or SAT (SUDOSAT_ENGINE=python), so a seed makes one puzzle."""
    made = []
    for engine in ("compiled", "python"):
        env = {**os.environ, "SUDOSAT_ENGINE": engine}
        done = subprocess.run(
            [sys.executable, "-c", GENERATED],
            env=env,
            capture_output=True,
            text=True,
            timeout=PATIENCE,
        )
        assert done.returncode == 0, done.stderr
        made.append(json.loads(done.stdout))
    assert made[0] == made[1] and len(made[0]) == 54
