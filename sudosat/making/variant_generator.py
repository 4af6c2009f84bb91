"""Making variant puzzles with a unique solution: killer (cages only), jigsaw and
X (both diagonals), both with minimal givens.

* ``killer``: :func:`unique_killer`. Cages are cut from a random grid, split
  where a second solution differs, and one-cell cages joined back while the
  grid stays the only solution. Every such question goes to one incremental
  solver (:class:`SecondSolution`): the layout, "not this grid", and each
  cage's clauses switched on by a selector of its own, so a split or a join is
  a new set of assumptions, not a new encoding.
* ``jigsaw`` and ``x``: the rules' CNF is built once, without givens, into an
  incremental solver. A random full grid comes from a solve with random
  phases; then the givens are removed in a random order, each removal kept
  when no solution differs in that cell with the other givens as assumptions
  (while the givens left make the grid unique, any other solution of the
  givens without one must differ there), as :mod:`generator` does.

Every puzzle is checked again before it is handed out (see :func:`_check`: each
rule's own check of the grid, and the engine's CNF made from scratch admitting
no other), and rated. The same seed gives the same puzzle.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import replace
from functools import partial
from typing import Any

from sudosat.core.errors import SolverTimeout
from sudosat.core.puzzle import Grid, Layout, Puzzle, verify
from sudosat.logic.levels import Level
from sudosat.logic.path import PATH_LARGEST, Pathfinder
from sudosat.logic.rating import GENERATED_PATH_LARGEST, open_at, rate
from sudosat.making.generator import Asked, Generated, GenerationError
from sudosat.making.shapes import beside, cages, jigsaw, random_grid, split
from sudosat.rules import Rules
from sudosat.rules.diagonals import DiagonalMinus, DiagonalPlus
from sudosat.rules.killer import IMPLIED_FROM, OUTIES, KillerCage, implied_sums
from sudosat.sat.arith import distinct_sum, sum_equals
from sudosat.sat.builder import Builder
from sudosat.sat.cnf import Cnf, Encoding, literal, model_grid
from sudosat.sat.deadline import remaining, solve_budgeted, solve_by
from sudosat.sat.encoding import encode, layout_groups
from sudosat.solving.fast import exactly_one, holding

ATTEMPTS = 20
"""Puzzles tried for one --level before giving up."""
STEERED = (Level.EASY, Level.INTERMEDIATE)
"""The levels a puzzle is made towards: its path at that level must solve it (an
expert puzzle is what is left)."""


def make_variant(seed: int, asked: Asked, deadline: float | None = None) -> Generated:
    """One checked variant puzzle of ``asked.variant`` from ``seed``."""
    rng = random.Random(seed)
    size = asked.rank * asked.rank
    for _ in range(ATTEMPTS if asked.level else 1):
        if asked.variant == "killer":
            steer = asked.level if asked.level in STEERED else None
            puzzle, solution = unique_killer(Layout.boxes(size), rng, asked.largest, level=steer)
        else:
            made = None
            while made is None:  # some random regions admit no grid at all
                made = _carved(_rules_only(asked.variant, size, rng), rng, deadline, asked.level)
            puzzle, solution = made
        puzzle = replace(puzzle, alphabet=asked.symbols, source="<generated>")
        _check(puzzle, solution, deadline)
        if asked.level is None and not asked.rated:
            return Generated(puzzle, solution, seed, None)
        largest = PATH_LARGEST if asked.level else GENERATED_PATH_LARGEST
        rating = rate(puzzle, solution, remaining(deadline), largest=largest)
        if asked.level is None or rating.level == asked.level:
            return Generated(puzzle, solution, seed, rating)
    raise GenerationError(f"no {asked.variant} puzzle of level {asked.level} from seed {seed}")


def _rules_only(variant: str, size: int, rng: random.Random) -> Puzzle:
    """The empty puzzle of a variant's rules: random regions, or the diagonals."""
    if variant == "jigsaw":
        rules = Rules(jigsaw(size, rng))
    else:
        rules = Rules(Layout.boxes(size), (DiagonalPlus(), DiagonalMinus()))
    return Puzzle(rules.layout.rank, (0,) * size**2, "", "<generated>", rules=rules)


def _carved(
    empty: Puzzle, rng: random.Random, deadline: float | None, level: Level | None = None
) -> tuple[Puzzle, Grid] | None:
    """A random grid of ``empty``'s rules, and minimal givens that make it unique
    (None: the rules have no grid); with ``level`` easy or intermediate, minimal
    givens that the path of that level's techniques still solves: a removal is
    kept only while it does."""
    n = empty.size
    cnf = encode(empty, Encoding(reduced=False))
    with holding(cnf) as sat:  # the groups natively: quick to load
        sat.set_phases(
            [literal(n, c, v) * rng.choice((1, -1)) for c in range(n * n) for v in range(1, n + 1)]
        )
        if not solve_by(sat, deadline, []):
            return None
        grid = tuple(cnf.decode(sat.get_model()))
        kept = dict.fromkeys(range(n * n))
        order = list(range(n * n))
        rng.shuffle(order)
        reasoner = Pathfinder(empty, upto=level) if level in STEERED else None
        try:
            for cell in order:
                del kept[cell]
                assumptions = [literal(n, c, grid[c]) for c in kept]
                assumptions.append(-literal(n, cell, grid[cell]))
                if _may_differ(sat, deadline, assumptions, n):
                    kept[cell] = None  # a second solution differs here (or may): it stays
                elif reasoner is not None and level is not None:
                    trial = tuple(grid[c] if c in kept else 0 for c in range(n * n))
                    if open_at(replace(empty, cells=trial), level, reasoner):
                        kept[cell] = None  # unique, but past the level's reasoning
        finally:
            if reasoner is not None:
                reasoner.close()
    cells = tuple(grid[c] if c in kept else 0 for c in range(n * n))
    return replace(empty, cells=cells), grid


def _check(puzzle: Puzzle, solution: Grid, deadline: float | None) -> None:
    """The grid keeps every rule and given (each rule's own check, not the
    encoding), and the engine's CNF of the puzzle, made from scratch, has no
    model but that grid (with "not this grid" added, none at all). Asking for
    no other solution, not for a solution, spares the search for one: on a
    hard 16x16 killer, seconds instead of a minute."""
    problems = verify(puzzle, solution)
    if problems:
        raise GenerationError(f"a made puzzle failed its check: {problems[0]}")
    cnf = encode(puzzle, Encoding(reduced=False))
    with holding(cnf) as sat:
        sat.add_clause(cnf.blocking_clause(solution))
        if solve_by(sat, deadline):
            raise GenerationError("a made puzzle failed its check: it has a second solution")


CARVE_BUDGET = 300
"""Conflicts the question "may this given go?" may take while carving a jigsaw or
an X puzzle from BUDGET_FROM on; past it the given stays (the puzzle stays
unique, perhaps short of minimal). On a 16x16 jigsaw with few givens left one
such question took minutes: seed 1 in 659 s, now 3 s (BENCHMARKS.md)."""
BUDGET_FROM = 12
"""Grid sizes carved within CARVE_BUDGET; below, every question is answered (the
hardest of 60 9x9 jigsaws and X puzzles took 724 conflicts)."""


def _may_differ(sat: Any, deadline: float | None, assumptions: list[int], size: int) -> bool:
    """Whether a solution of the givens left may differ in the cell just taken out:
    yes, no, or (past the budget) maybe, which keeps the given."""
    if size < BUDGET_FROM:
        return solve_by(sat, deadline, assumptions)
    return solve_budgeted(sat, deadline, assumptions, CARVE_BUDGET) is not False


CHECK_BUDGET = 2_000
"""Conflicts one question of :func:`unique_killer` may take (a budget, not a
time, so that a seed gives the same puzzle on any machine). Past it, the
question counts as "maybe": cages are split at random, or a join is not made."""

JOIN_BUDGET = 1_000
"""The budget of a question whether a one-cell cage may join a neighbour: lower,
as a join refused costs its whole budget and only leaves a one-cell cage (on a
16x16: 3.5 of them left on average instead of 2.4, in 2 s instead of 2.6;
BENCHMARKS.md)."""

WINDOWS_FROM = 12
"""Grid sizes from which a second solution is looked for band by band and stack
by stack first (the other cells as they are in the grid): on a 16x16 that finds
one in milliseconds where the whole grid may take a minute."""


class SecondSolution:
    """Whether cages admit a solution other than ``grid``: one incremental
    solver holding the layout (native "exactly one" groups), a clause "not this
    grid", and each cage's clauses behind a selector made the first time the
    cage is asked about, so a question is a set of assumptions. The sums the
    45 rule implies (innies, see :func:`rules.killer.implied_sums`) go in the
    same way and are assumed when the cages asked about imply them."""

    def __init__(self, layout: Layout, grid: Grid) -> None:
        n = layout.size
        self.layout, self.grid, self.size = layout, grid, n
        cell_groups, unit_groups = layout_groups(layout)
        self.sat = exactly_one(cell_groups + unit_groups)
        self.sat.add_clause([-literal(n, c, grid[c]) for c in range(n * n)])
        empty = Puzzle(layout.rank, (0,) * (n * n), "", "<killer>", rules=Rules(layout))
        every = range(1, n + 1)
        cnf = Cnf(empty, Encoding(reduced=False), n**3, [], [(c, every) for c in range(n * n)])
        self.builder: Builder = Builder(cnf, cell_groups)
        self.selectors: dict[object, int] = {}
        self.wide = n >= IMPLIED_FROM
        self.around = self._around_windows() if n >= WINDOWS_FROM else []

    def other(self, shapes: Sequence[Sequence[int]], budget: int | None = None) -> Grid | None:
        """A solution of ``shapes`` other than the grid, or None when there is
        none; SolverTimeout when ``budget`` conflicts did not settle it."""
        assumptions = self._assumptions(shapes)
        for fixed in self.around:
            if self._ask([*assumptions, *fixed], budget):
                return self._model()
        return self._model() if self._ask(assumptions, budget) else None

    def _assumptions(self, shapes: Sequence[Sequence[int]]) -> list[int]:
        """The selectors of ``shapes`` and of the sums they imply."""
        cages = [self.cage(c) for c in shapes]
        assumptions = [self._selected(cage, cage.encode) for cage in cages]
        for cells, value, apart in implied_sums(cages, self.layout, self.wide):
            if apart or len(cells) <= OUTIES:
                add = distinct_sum if apart else sum_equals
                key = (cells, value, apart)
                assumptions.append(self._selected(key, partial(add, cells=cells, value=value)))
        return assumptions

    def puzzle(self, shapes: Sequence[Sequence[int]]) -> Puzzle:
        """The killer puzzle of ``shapes``: cages only."""
        cages = [self.cage(c) for c in shapes]
        empty = (0,) * (self.size**2)
        return Puzzle(self.layout.rank, empty, "", "<killer>", rules=Rules.of(self.layout, cages))

    def cage(self, cells: Sequence[int]) -> KillerCage:
        group = tuple(sorted(cells))
        return KillerCage(group, sum(self.grid[c] for c in group))

    def _selected(self, key: object, write: Callable[[Builder], object]) -> int:
        """The selector of ``key`` (a cage, or an implied sum), the clauses
        ``write`` gives added behind it the first time."""
        found = self.selectors.get(key)
        if found is None:
            b = self.builder
            found = self.selectors[key] = b.guard = b.new()
            write(b)
            for clause in b.clauses:
                self.sat.add_clause(clause)
            b.clauses = []
        return found

    def _around_windows(self) -> list[list[int]]:
        """For each band of boxes, then each stack: the grid's values outside it,
        as assumptions."""
        n, rank, grid = self.size, self.layout.rank, self.grid
        windows = [(c // n // rank, rank + c % n // rank) for c in range(n * n)]  # band, stack
        return [
            [literal(n, c, grid[c]) for c in range(n * n) if k not in windows[c]]
            for k in range(2 * rank)
        ]

    def _ask(self, assumptions: list[int], budget: int | None) -> bool:
        if budget is None:
            return solve_by(self.sat, None, assumptions)
        self.sat.conf_budget(budget)
        answer = self.sat.solve_limited(assumptions=assumptions)
        if answer is None:
            raise SolverTimeout(f"over {budget} conflicts")
        return bool(answer)

    def _model(self) -> Grid:
        return model_grid(self.size, self.sat.get_model() or [])


def unique_killer(
    layout: Layout, rng: random.Random, largest: int = 4, level: Level | None = None
) -> tuple[Puzzle, Grid]:
    """A killer puzzle, cages only (no givens), whose one solution is a random
    grid, and that grid: cages cut from the grid, then a cage split wherever a
    second solution differs (a few at random when a question runs over its
    budget), until there is none; with ``level`` (easy), then split where the
    path of that level's techniques leaves cells open (see :func:`rating.open_at`),
    until it leaves none; then each one-cell cage joined to a neighbour wherever all
    that still holds (so few cages are givens by another name)."""
    n = layout.size
    grid = random_grid(layout, rng)
    shapes = cages(layout, rng, largest, grid)
    search = SecondSolution(layout, grid)
    while True:
        try:
            other = search.other(shapes, CHECK_BUDGET)
        except SolverTimeout:
            _split(shapes, rng.sample(range(n * n), max(1, len(shapes) // 20)), n)
            continue
        if other is None:
            break
        _split_one(shapes, [c for c in range(n * n) if other[c] != grid[c]], rng, n)
    while level and (cells := open_at(search.puzzle(shapes), level)):
        _split_one(shapes, cells, rng, n)
    _join_singles(search, shapes, rng, level)
    return search.puzzle(shapes), grid


def _split_one(
    shapes: list[list[int]], cells: Sequence[int], rng: random.Random, size: int
) -> None:
    """A cage split at one of ``cells``, chosen at random among those in the
    largest cages (so that splits leave few one-cell cages)."""
    size_of = {cell: len(cage) for cage in shapes for cell in cage}
    largest = max(size_of[c] for c in cells)
    _split(shapes, [rng.choice([c for c in cells if size_of[c] == largest])], size)


def _split(shapes: list[list[int]], cells: Sequence[int], size: int) -> None:
    """The cage of each of ``cells`` split in two there (see :func:`shapes.split`)."""
    for cell in cells:
        cage = next(c for c in shapes if cell in c)
        if len(cage) > 1:
            shapes.remove(cage)
            shapes += split(cage, cell, size)


def _join_singles(
    search: SecondSolution, shapes: list[list[int]], rng: random.Random, level: Level | None
) -> None:
    """Each one-cell cage joined to a neighbouring cage without its digit, when
    the grid stays the only solution (a question over budget keeps them apart),
    and with ``level`` when the path of that level's techniques still solves it."""
    singles = [cage for cage in shapes if len(cage) == 1]
    rng.shuffle(singles)
    for single in singles:
        if not any(cage is single for cage in shapes):
            continue  # joined to another one-cell cage already
        cell = single[0]
        near = beside(cell, shapes, search.grid, search.size)
        rng.shuffle(near)
        for other in near:
            trial = [c for c in shapes if c is not single and c is not other] + [[*other, cell]]
            try:
                if level:
                    kept = not open_at(search.puzzle(trial), level)
                else:
                    kept = search.other(trial, JOIN_BUDGET) is None
            except SolverTimeout:
                continue
            if kept:
                shapes[:] = trial
                break
