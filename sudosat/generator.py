"""Making puzzles with a unique solution, as seed 003 does, by SAT.

1. A full grid: a search that propagates (the batch engine's probe, which never
   learns, so the grid depends on the seed alone) from the diagonal boxes filled
   at random, trying values in a random order.
2. Clues removed in a random order (an orbit at a time under a symmetry), each
   removal kept only when the solution stays unique: with the other clues as
   assumptions, an incremental solver looks for a solution that differs in the
   removed cells, which a single assumption says for one cell. UNSAT: the
   removal stands. SAT: the model is a second solution, kept as the witness that
   the clue is needed.
3. Checks before a puzzle is handed out: the engine solves it again (unique),
   and every witness is verified against the final puzzle without its clue, so
   ``minimal`` is proved clue by clue.

A puzzle depends only on its seed and options: ``seed + index`` for the index-th
puzzle of a run, whatever worker makes it. Every answer the solver gives is a
fact about the puzzle (SAT or UNSAT), never a model that would depend on what
the solver learnt before.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import cache

from pysat.solvers import Solver

from .encoding import rules
from .engine import batch_engine, solve
from .formats import NUMBERS, candidate_alphabets, lookup_alphabet
from .outcome import Status
from .puzzle import Grid, Puzzle, verify
from .rating import LEVELS, Rating, rate
from .solvers.pysat_backend import interruptible

SYMMETRIES = ("none", "rotate180", "rotate90", "mirror", "diagonal")
CHECKER = "cadical195"
"""The solver of the removal checks (benchmarks/generate.py compares them)."""
ATTEMPTS = 50
"""Full grids tried for one puzzle (a --clues count, a --level) before giving up."""


class GenerationError(ValueError):
    """What was asked for could not be made within the bounded search."""


@dataclass(frozen=True)
class Generated:
    """A puzzle, its solution, and how it was made."""

    puzzle: Puzzle
    solution: Grid
    seed: int
    rating: Rating

    @property
    def clues(self) -> int:
        return len(self.puzzle.givens)


def orbits(rank: int, symmetry: str) -> list[tuple[int, ...]]:
    """The cells, grouped into the sets a symmetry maps onto each other."""
    n = rank * rank

    def images(cell: int) -> set[int]:
        r, c = divmod(cell, n)
        found = {cell}
        if symmetry == "rotate180":
            found.add((n - 1 - r) * n + (n - 1 - c))
        elif symmetry == "rotate90":
            for _ in range(3):
                r, c = c, n - 1 - r
                found.add(r * n + c)
        elif symmetry == "mirror":
            found.add(r * n + (n - 1 - c))
        elif symmetry == "diagonal":
            found.add(c * n + r)
        return found

    seen: set[int] = set()
    found: list[tuple[int, ...]] = []
    for cell in range(n * n):
        if cell not in seen:
            orbit = tuple(sorted(images(cell)))
            seen.update(orbit)
            found.append(orbit)
    return found


class Generator:
    """Makes puzzles of one rank; keep one per process (see :func:`generator`)."""

    def __init__(self, rank: int) -> None:
        self.rank, self.size = rank, rank * rank
        self.engine = batch_engine(rank)
        # the plain rules: fewer variables per call than the triads (measured 30% faster)
        self.checker = Solver(name=CHECKER, bootstrap_with=rules(rank))

    def full_grid(self, rng: random.Random) -> Grid:
        """A random complete grid."""
        m, n, engine = self.rank, self.size, self.engine
        start = []
        for box in range(m):  # the diagonal boxes share no unit: any fill is consistent
            values = rng.sample(range(1, n + 1), n)
            cells = [(box * m + i // m) * n + box * m + i % m for i in range(n)]
            start += [cell * n + v for cell, v in zip(cells, values, strict=True)]

        def fill(assumed: list[int]) -> list[int] | None:
            ok, implied = interruptible(engine.probe.propagate, assumptions=assumed)
            if not ok:
                return None
            if len(implied) == engine.top:
                return list(implied)
            open_vars = engine.cube.difference(map(abs, implied))
            cell = (min(open_vars) - 1) // n  # the first open cell
            branch = [v for v in range(cell * n + 1, cell * n + n + 1) if v in open_vars]
            for v in rng.sample(branch, len(branch)):
                found = fill([*assumed, v])
                if found is not None:
                    return found
            return None

        implied = fill(start)
        assert implied is not None, "diagonal boxes always complete"
        return engine.grid_from(implied)

    def carve(
        self,
        solution: Grid,
        rng: random.Random,
        symmetry: str,
        clues: int | None,
    ) -> tuple[Grid, dict[tuple[int, ...], Grid]]:
        """Clues taken out of ``solution`` while it stays the only solution: until none
        can go (minimal) or ``clues`` remain. Returns the grid of clues and, for
        every orbit that stayed, a second solution without it (its witness)."""
        n = self.size
        kept = list(solution)
        witnesses: dict[tuple[int, ...], Grid] = {}
        count = n * n
        shuffled = orbits(self.rank, symmetry)
        rng.shuffle(shuffled)
        for orbit in shuffled:
            if clues is not None and count - len(orbit) < clues:
                continue
            for cell in orbit:
                kept[cell] = 0
            second = self._second_solution(kept, orbit, solution)
            if second is None:
                count -= len(orbit)
                if clues is not None and count == clues:
                    break
                continue
            for cell in orbit:
                kept[cell] = solution[cell]
            witnesses[orbit] = second
        return tuple(kept), witnesses

    def _second_solution(
        self, clues: list[int], orbit: tuple[int, ...], solution: Grid
    ) -> Grid | None:
        """A solution of ``clues`` other than ``solution`` (they can differ only in
        ``orbit``, whose clues were just removed), or None."""
        n = self.size
        assumptions = [cell * n + v for cell, v in enumerate(clues) if v]
        selector = None
        if len(orbit) == 1:
            assumptions.append(-(orbit[0] * n + solution[orbit[0]]))
        else:  # "differs somewhere in the orbit", switched on by a selector, then retired
            selector = self.checker.nof_vars() + 1
            differs = [-(cell * n + solution[cell]) for cell in orbit]
            self.checker.add_clause([-selector, *differs])
            assumptions.append(selector)
        found = interruptible(self.checker.solve, assumptions=assumptions)
        # the model first: CaDiCaL forgets it once a clause is added
        model = (self.checker.get_model() or []) if found else None
        if selector is not None:
            self.checker.add_clause([-selector])
        if model is None:
            return None
        return self.engine.grid_from(self.engine.cube.intersection(model))

    def generate(
        self,
        seed: int,
        *,
        symmetry: str = "none",
        clues: int | None = None,
        level: str | None = None,
        alphabet: str = "",
    ) -> Generated:
        """One checked puzzle from ``seed``: minimal, or with exactly ``clues`` clues."""
        rng = random.Random(seed)
        fewest = self.size**2
        for _ in range(ATTEMPTS):
            solution = self.full_grid(rng)
            grid, witnesses = self.carve(solution, rng, symmetry, clues)
            count = sum(1 for v in grid if v)
            fewest = min(fewest, count)
            if clues is not None and count != clues:
                continue
            puzzle = Puzzle(self.rank, grid, alphabet, source="<generated>")
            rating = rate_checked(puzzle, solution)
            if level is not None and rating.level != level:
                continue
            check_minimal(puzzle, solution, witnesses, clues is None)
            return Generated(puzzle, solution, seed, rating)
        wanted = f"{clues} clues" if clues is not None else f"level {level}"
        raise GenerationError(
            f"no puzzle with {wanted} in {ATTEMPTS} grids from seed {seed}"
            + (f" (the fewest clues reached: {fewest})" if clues is not None else "")
        )


def rate_checked(puzzle: Puzzle, solution: Grid) -> Rating:
    """The rating, once the engine has found ``solution`` again and proved it unique."""
    outcome = solve(puzzle)
    if outcome.status != Status.UNIQUE or outcome.solutions != [solution]:
        raise AssertionError(f"a generated puzzle is not unique: {outcome.status}")
    return rate(puzzle)


def check_minimal(
    puzzle: Puzzle, solution: Grid, witnesses: dict[tuple[int, ...], Grid], minimal: bool
) -> None:
    """Every clue orbit that stayed has a verified second solution without it."""
    if not minimal:
        return
    for orbit, second in witnesses.items():
        without = list(puzzle.cells)
        for cell in orbit:
            without[cell] = 0
        loose = Puzzle(puzzle.rank, tuple(without), puzzle.alphabet)
        if verify(loose, second) or second == solution:
            raise AssertionError(f"the witness for cells {orbit} is no second solution")


@cache
def generator(rank: int) -> Generator:
    """One generator per rank and process."""
    return Generator(rank)


def generate(
    seed: int,
    *,
    rank: int = 3,
    symmetry: str = "none",
    clues: int | None = None,
    level: str | None = None,
    alphabet: str = "",
) -> Generated:
    """A puzzle with a unique solution, the same for the same seed and options.

    Minimal (no clue, or with a ``symmetry`` no symmetric set of clues, can go)
    unless ``clues`` asks for exactly that many; ``level`` keeps only puzzles of
    that rating level (see :mod:`rating`). Raises GenerationError when bounded
    search finds none.
    """
    if symmetry not in SYMMETRIES:
        raise ValueError(f"unknown symmetry {symmetry!r}; choose from {', '.join(SYMMETRIES)}")
    if level is not None and level not in LEVELS:
        raise ValueError(f"unknown level {level!r}; choose from {', '.join(LEVELS)}")
    n = rank * rank
    if clues is not None and not 0 <= clues <= n * n:
        raise ValueError(f"clues must be 0..{n * n}")
    return generator(rank).generate(
        seed, symmetry=symmetry, clues=clues, level=level, alphabet=alphabet
    )


GENERATE_CHUNK = 16
"""Puzzles per task for worker processes."""


@dataclass(frozen=True)
class Asked:
    """What every puzzle of a run is asked to be."""

    rank: int = 3
    symmetry: str = "none"
    clues: int | None = None
    level: str | None = None
    symbols: str = ""


def make_many(task: tuple[list[int], Asked]) -> list[Generated]:
    """The puzzles of some seeds (in a worker, or in process)."""
    seeds, asked = task
    return [
        generate(
            seed,
            rank=asked.rank,
            symmetry=asked.symmetry,
            clues=asked.clues,
            level=asked.level,
            alphabet=asked.symbols,
        )
        for seed in seeds
    ]


def output_alphabet(spec: str | None, size: int) -> str:
    """The symbols to write puzzles of ``size`` values in ('' for numbers)."""
    if spec == NUMBERS:
        return ""
    if spec is None:
        return candidate_alphabets(size)[0].symbols
    return lookup_alphabet(spec, size).symbols
