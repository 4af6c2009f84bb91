"""Making puzzles with a unique solution, as seed 003 does, by SAT (and up to
16x16 by the compiled engine's search first).

1. A full grid: the diagonal boxes filled at random (they share no unit), then
   completed by one solve of a fresh solver that holds only the rules, so the
   grid depends on the seed alone.
2. Clues removed in a random order (an orbit at a time under a symmetry), each
   removal kept only when the solution stays unique: with the other clues as
   assumptions, an incremental solver looks for a solution that differs in the
   removed cells, which a single assumption says for one cell. UNSAT: the
   removal stands. SAT: the model is a second solution, kept as the witness that
   the clue is needed. Up to 16x16 the compiled engine's complete search asks
   first (singles and a branch, within a budget of branches; SAT past it): 1.4
   times as many 9x9s a second. Its answers are the same facts, so a seed
   makes the same puzzle with the engine and without.
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
from itertools import combinations
from operator import mul

from sudosat.core.errors import SolverTimeout
from sudosat.core.puzzle import Grid, Puzzle, differences, rule_violations, units
from sudosat.logic import bitboard
from sudosat.logic.board import board_of
from sudosat.logic.levels import Level, level_named
from sudosat.logic.rating import GENERATED_PATH_LARGEST, Rating, rate, rate_at
from sudosat.reading.cells import NUMBERS, candidate_alphabets, lookup_alphabet
from sudosat.sat.cnf import literal
from sudosat.sat.deadline import deadline_after, remaining, solve_by
from sudosat.sat.encoding import groups
from sudosat.solving.engine import batch_engine
from sudosat.solving.fast import exactly_one
from sudosat.solving.outcome import Status

SYMMETRIES = ("none", "rotate180", "rotate90", "mirror", "diagonal")
VARIANTS = ("classic", "killer", "jigsaw", "x")
"""What ``generate --variant`` makes (all but classic: :mod:`variant_generator`)."""

VARIANT_LEVELS = (Level.EASY, Level.INTERMEDIATE, Level.EXPERT)
"""The levels variants are made at (by their paths, as every puzzle is rated):
cages only land at expert; for easy and intermediate, cages are split (jigsaw
and X: givens kept) until the path of that level's techniques solves the
puzzle. No variant is simple: naked singles alone are a level of classic givens."""

ATTEMPTS = 50
"""Full grids tried for one puzzle (a --clues count, a --level) before giving up."""


SEARCHED_RANKS = (2, 3, 4)
"""Ranks whose "is there a second solution?" the compiled engine's search asks
first (BENCHMARKS.md, "Minimal 9x9 and 16x16 generation by the engine's
search": 1.4 times as many 9x9s a second, a 16x16 in 0.74 of the time; at
25x25 neither it nor SAT is quick)."""
SEARCH_BUDGET = 1_000
"""Branches the engine's search may take for one question before SAT answers it
(a 9x9's questions take far fewer; a 16x16's hard ones go to SAT sooner)."""


class GenerationError(ValueError):
    """What was asked for could not be made within the bounded search."""


@dataclass(frozen=True)
class Generated:
    """A puzzle, its solution, and how it was made."""

    puzzle: Puzzle
    solution: Grid
    seed: int
    rating: Rating | None
    """By its logical path; None where none was asked for (``rated`` false: an
    output that shows no rating, such as a line a puzzle)."""

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
        self.groups = [group for family in groups(rank) for group in family]
        self.value_of = batch_engine(rank).value_of  # the value of each cell variable
        self.shape = board_of(Puzzle.empty(rank)) if rank in SEARCHED_RANKS else None
        """The blank board the engine's search takes its houses from (None: SAT alone)."""
        self.solves = 0
        """Solver calls so far (benchmarks/generate.py reports them)."""

    def generate(
        self,
        seed: int,
        *,
        symmetry: str = "none",
        clues: int | None = None,
        level: Level | None = None,
        alphabet: str = "",
        deadline: float | None = None,
        rated: bool = True,
    ) -> Generated:
        """One checked puzzle from ``seed``: minimal, or with exactly ``clues`` clues;
        rated (by its path) unless not ``rated`` and no ``level`` is asked for.
        SolverTimeout when ``deadline`` (``time.monotonic()``) passes first."""
        rng = random.Random(seed)
        fewest = self.size**2
        for _ in range(ATTEMPTS):
            carving = Carving(self, rng, deadline)
            try:
                order = orbits(self.rank, symmetry)
                rng.shuffle(order)
                grid, witnesses = carving.carve(order, clues)
            finally:
                carving.checker.delete()
                self.solves += carving.solves
            solution = carving.solution
            count = sum(1 for v in grid if v)
            fewest = min(fewest, count)
            if clues is not None and count != clues:
                continue
            puzzle = Puzzle(self.rank, grid, alphabet, source="<generated>")
            rating = rate_checked(puzzle, solution, deadline, level, rated)
            if rating is None and level is not None:  # not of the level asked
                continue
            check_minimal(puzzle, solution, witnesses, clues is None)
            return Generated(puzzle, solution, seed, rating)
        wanted = f"{clues} clues" if clues is not None else f"level {level}"
        raise GenerationError(
            f"no puzzle with {wanted} in {ATTEMPTS} grids from seed {seed}"
            + (f" (the fewest clues reached: {fewest})" if clues is not None else "")
        )


class Carving:
    """One puzzle made: a random full grid, then its clues taken out while the
    solution stays unique, in a random order of orbits.

    The solver is a fresh Minicard holding the rules as "exactly one" of each
    group (native cardinality constraints); what it learns is about this puzzle
    alone. Clues not yet decided are assumptions; a clue proved needed becomes a
    unit clause, so later solves start from it.

    Removing several orbits at once keeps the solution unique exactly when
    removing each in turn would (fewer clues never leave fewer solutions), so a
    group is tried whole first; the result is that of trying the orbits one at a
    time. When a group fails, the second solution points to the one orbit that
    must stay, or the group is split in two.

    Every second solution is kept (with the digit swaps, the small unavoidable
    sets known from the start): one that differs from the solution only in
    removed cells and an orbit proves the orbit needed without a solve.
    """

    def __init__(
        self, generator: Generator, rng: random.Random, deadline: float | None = None
    ) -> None:
        self.rank, self.n = generator.rank, generator.size
        self.shape = generator.shape
        self.deadline = deadline
        self.checker = exactly_one(generator.groups)
        self.top = self.n**3  # the cell variables; selectors come after
        self.value_of = generator.value_of
        self.solves = 0
        try:
            self.solution = self._full_grid(rng)
        except BaseException:
            self.checker.delete()
            raise
        self.kept = list(self.solution)
        self.kept_mask = (1 << len(self.solution)) - 1  # the same, a bit per cell
        self.needed: set[int] = set()  # cells whose clue stays, as unit clauses
        self.witnesses: dict[tuple[int, ...], Grid] = {}
        self.seen = digit_swaps(self.rank, self.solution)  # second solutions, where they differ

    @property
    def count(self) -> int:
        """Clues kept so far."""
        return self.kept_mask.bit_count()

    def _full_grid(self, rng: random.Random) -> Grid:
        """A random complete grid: the diagonal boxes filled at random (they share no
        unit), the rest as the fresh solver completes it. From rank 3 on any such
        fill completes; a 4x4's often does not, and then the first box alone does."""
        m, n = self.rank, self.n
        start = []
        for box in range(m):
            values = rng.sample(range(1, n + 1), n)
            cells = [(box * m + i // m) * n + box * m + i % m for i in range(n)]
            start += [literal(n, cell, v) for cell, v in zip(cells, values, strict=True)]
        grid = self._model(start)
        if grid is None:
            grid = self._model(start[:n])
        if grid is None or rule_violations(self.rank, grid):
            raise AssertionError("the diagonal boxes did not complete to a grid")
        return grid

    def carve(
        self, order: list[tuple[int, ...]], clues: int | None
    ) -> tuple[Grid, dict[tuple[int, ...], Grid]]:
        """Clues taken out of the solution, orbit by orbit in ``order``, while it
        stays the only solution: until none can go (minimal) or ``clues`` remain.
        Returns the grid of clues and, for every orbit that stayed when none could
        go, a second solution without it (its witness)."""
        size, start = len(order) // 2 or 1, 0
        while start < len(order):
            budget = self.count if clues is None else self.count - clues
            if budget == 0:
                break
            chunk: list[tuple[int, ...]] = []
            room = budget
            for orbit in order[start : start + size]:
                if len(orbit) > room:
                    break
                chunk.append(orbit)
                room -= len(orbit)
            if not chunk:  # this orbit alone would leave fewer than ``clues``: it stays
                start += 1
                continue
            before = self.count
            self.decide(chunk)
            start += len(chunk)
            # groups grow while whole groups go, and shrink when one does not
            whole = before - self.count == budget - room
            size = size * 2 if whole else max(1, size // 2)
        return tuple(self.kept), self.witnesses

    def decide(self, chunk: list[tuple[int, ...]]) -> None:
        """Removes the orbits of ``chunk`` that would go when tried one at a time."""
        solution, kept = self.solution, self.kept
        cells = [cell for orbit in chunk for cell in orbit]
        mask = sum(1 << cell for cell in cells)
        for cell in cells:
            kept[cell] = 0
        self.kept_mask ^= mask
        other = self.second_solution(cells)
        if other is None:
            return
        for cell in cells:
            kept[cell] = solution[cell]
        self.kept_mask |= mask
        needed = [orbit for orbit in chunk if any(other[c] != solution[c] for c in orbit)]
        if len(needed) == 1:
            orbit = needed[0]
            self.witnesses[orbit] = other
            for cell in orbit:
                self.needed.add(cell)
                self.checker.add_clause([literal(self.n, cell, solution[cell])])
            rest = [o for o in chunk if o != orbit]
            if rest:
                self.decide(rest)
        else:
            half = len(chunk) // 2
            self.decide(chunk[:half])
            self.decide(chunk[half:])

    def second_solution(self, cells: list[int]) -> Grid | None:
        """With the clues of ``cells`` just removed, a solution other than
        ``solution`` (it differs somewhere in ``cells``), or None."""
        removed = ~self.kept_mask
        for known, differ in self.seen:
            if differ & removed == differ:
                return known
        searched = self._searched(cells)
        other = self._solved(cells) if searched is None else next(iter(searched), None)
        if other is not None:
            mask = sum(map((1).__lshift__, differences(other, self.solution)))
            self.seen.append((other, mask))
        return other

    def _solved(self, cells: list[int]) -> Grid | None:
        """:meth:`second_solution` by SAT: the clues kept as assumptions (those
        proved needed are unit clauses), and a solution that differs in ``cells``."""
        n, solution, needed = self.n, self.solution, self.needed
        assumptions = [literal(n, c, v) for c, v in enumerate(self.kept) if v and c not in needed]
        if len(cells) == 1:
            return self._model([*assumptions, -literal(n, cells[0], solution[cells[0]])])
        # "differs somewhere in cells", switched on by a selector, then retired
        self.top += 1
        selector = self.top
        self.checker.add_clause([-selector, *(-literal(n, c, solution[c]) for c in cells)])
        other = self._model([*assumptions, selector])
        self.checker.add_clause([-selector])
        return other

    def _searched(self, cells: list[int]) -> list[Grid] | None:
        """:meth:`second_solution` by the compiled engine's search, where it is
        faster than a solve (SEARCHED_RANKS): the solution, if any, in a list;
        None where the engine is not here or its budget ran out (then SAT
        answers). Either way the answer is a fact about the puzzle, so the
        puzzle made is the same with the engine and without."""
        shape = self.shape
        if shape is None:
            return None
        n, solution = self.n, self.solution
        full = (1 << n) - 1
        masks = [1 << (v - 1) if v else full for v in self.kept]
        avoid = [literal(n, c, solution[c]) for c in cells]
        found = bitboard.search(shape, masks, avoid, 1, SEARCH_BUDGET)
        if found is None or not found.settled:
            return None
        kept = tuple(self.kept)
        for grid in found.solutions:  # a fact the carving builds on: checked as SAT's are
            # (grid * (cell kept) == kept exactly when every clue kept is: at C speed)
            if rule_violations(self.rank, grid) or tuple(map(mul, grid, map(bool, kept))) != kept:
                raise AssertionError("the engine's search gave a grid that is no solution")
        return found.solutions

    def _model(self, assumptions: list[int]) -> Grid | None:
        """The grid of a solution under ``assumptions``, or None."""
        self.solves += 1
        if not solve_by(self.checker, self.deadline, assumptions):
            return None
        # the cell variables come first, in order: each cell's true one gives its value
        true = filter((0).__lt__, self.checker.get_model()[: self.n**3])
        return tuple(map(self.value_of.__getitem__, true))


def digit_swaps(rank: int, solution: Grid) -> list[tuple[Grid, int]]:
    """Second grids of ``solution`` made by swapping two values a and b on a
    closed set of cells, with those cells as a bit mask. Each unit holds a and b
    once, so a swap takes a unit's a-cell exactly when it takes its b-cell:
    rows and columns link the cells into cycles (row r's b-cell shares a column
    with another row's a-cell), and boxes join cycles. These are the small
    unavoidable sets: any puzzle with this solution keeps a clue in each."""
    m, n = rank, rank * rank
    col_of = [[0] * n for _ in range(n + 1)]  # col_of[value][row]
    row_of = [[0] * n for _ in range(n + 1)]  # row_of[value][col]
    for cell, v in enumerate(solution):
        row, col = divmod(cell, n)
        col_of[v][row], row_of[v][col] = col, row
    found = []
    for a, b in combinations(range(1, n + 1), 2):
        col_a, col_b, row_a = col_of[a], col_of[b], row_of[a]
        cycle = [-1] * n
        cycles = 0
        for start in range(n):
            row = start
            while cycle[row] < 0:
                cycle[row] = cycles
                row = row_a[col_b[row]]
            cycles += cycles == cycle[start]
        parent = list(range(cycles))
        box_a: dict[int, int] = {}
        box_b: dict[int, int] = {}
        for row in range(n):
            box_a[row // m * m + col_a[row] // m] = cycle[row]
            box_b[row // m * m + col_b[row] // m] = cycle[row]
        for box, x in box_a.items():
            parent[_root(parent, x)] = _root(parent, box_b[box])
        components: dict[int, list[int]] = {}
        for row in range(n):
            components.setdefault(_root(parent, cycle[row]), []).append(row)
        for rows in components.values():
            other, mask = list(solution), 0
            for row in rows:
                for cell in (row * n + col_a[row], row * n + col_b[row]):
                    other[cell] = a + b - other[cell]
                    mask |= 1 << cell
            found.append((tuple(other), mask))
    return found


def _root(parent: list[int], x: int) -> int:
    while parent[x] != x:
        x = parent[x]
    return x


def rate_checked(
    puzzle: Puzzle,
    solution: Grid,
    deadline: float | None = None,
    level: Level | None = None,
    rated: bool = True,
) -> Rating | None:
    """The rating (by the puzzle's logical path, :func:`rating.rate`), once the
    batch engine has found ``solution`` again and proved it unique; with
    ``level``, None when the puzzle is of another (:func:`rating.rate_at`);
    without, None unless ``rated``."""
    outcome = batch_engine(puzzle.rank).solve(puzzle, timeout=remaining(deadline))
    if outcome.status == Status.TIMEOUT:
        raise SolverTimeout(outcome.reason)
    if outcome.status != Status.UNIQUE or outcome.solutions != [solution]:
        raise AssertionError(f"a generated puzzle is not unique: {outcome.status}")
    if level is not None:
        return rate_at(puzzle, solution, level, remaining(deadline))
    if not rated:
        return None
    return rate(
        puzzle, solution, remaining(deadline), searched=outcome, largest=GENERATED_PATH_LARGEST
    )


def check_minimal(
    puzzle: Puzzle, solution: Grid, witnesses: dict[tuple[int, ...], Grid], minimal: bool
) -> None:
    """Every clue belongs to an orbit with a second solution that keeps every
    other clue: a valid grid (``solution`` is, so only the units it changes
    need a look) that differs from ``solution`` in that orbit."""
    if not minimal:
        return
    given = {cell for cell, _ in puzzle.givens}
    if given != {cell for orbit in witnesses for cell in orbit}:
        raise AssertionError("a clue has no witness that it is needed")
    every = set(range(1, puzzle.size + 1))
    all_units, units_of = units(puzzle.rank), _units_of_cells(puzzle.rank)
    for orbit, second in witnesses.items():
        changed = set(differences(second, solution))
        touched = {index for cell in changed for index in units_of[cell]}
        if (
            not changed & set(orbit)
            or not changed & given <= set(orbit)
            or any({second[cell] for cell in all_units[index]} != every for index in touched)
        ):
            raise AssertionError(f"the witness for cells {orbit} is no second solution")


@cache
def _units_of_cells(rank: int) -> list[list[int]]:
    """For each cell, the indexes of its row, column and box in :func:`units`."""
    found: list[list[int]] = [[] for _ in range(rank**4)]
    for index, unit in enumerate(units(rank)):
        for cell in unit:
            found[cell].append(index)
    return found


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
    timeout: float | None = None,
    rated: bool = True,
) -> Generated:
    """A puzzle with a unique solution, the same for the same seed and options.

    Minimal (no clue, or with a ``symmetry`` no symmetric set of clues, can go)
    unless ``clues`` asks for exactly that many; ``level`` keeps only puzzles of
    that rating level (its path's, see :func:`rating.rate_by_path`; a level's
    name or an everyday one, ``medium`` or ``hard``); not ``rated``: no rating
    unless a level is asked for (the path is most of a puzzle's time). Raises
    GenerationError when bounded search finds none, SolverTimeout after
    ``timeout`` seconds.
    """
    if symmetry not in SYMMETRIES:
        raise ValueError(f"unknown symmetry {symmetry!r}; choose from {', '.join(SYMMETRIES)}")
    wanted = None if level is None else level_named(level)
    n = rank * rank
    if clues is not None and not 0 <= clues <= n * n:
        raise ValueError(f"clues must be 0..{n * n}")
    return generator(rank).generate(
        seed,
        symmetry=symmetry,
        clues=clues,
        level=wanted,
        alphabet=alphabet,
        deadline=deadline_after(timeout),
        rated=rated,
    )


GENERATE_CHUNK = 16
"""Puzzles per task for worker processes."""


@dataclass(frozen=True)
class Asked:
    """What every puzzle of a run is asked to be."""

    rank: int = 3
    symmetry: str = "none"
    clues: int | None = None
    level: Level | None = None
    symbols: str = ""
    variant: str = "classic"
    """classic, or killer, jigsaw or x (see :mod:`variant_generator`)."""
    largest: int = 4
    """A killer's largest cages, in cells."""
    rated: bool = True
    """Whether each puzzle is rated (an output that shows no rating asks for none)."""

    def __post_init__(self) -> None:
        if self.level is not None:  # (a level's name, from a caller of the library)
            object.__setattr__(self, "level", level_named(self.level))


def output_alphabet(spec: str | None, size: int) -> str:
    """The symbols to write puzzles of ``size`` values in ('' for numbers)."""
    if spec == NUMBERS:
        return ""
    if spec is None:
        return candidate_alphabets(size)[0].symbols
    return lookup_alphabet(spec, size).symbols
