"""True candidates: for every cell, the values that some solution puts there.

One incremental solver does it all: Minicard holding the reduced CNF (what the
singles leave open; every value they rule out is out of every solution). Each
solution found marks all of its values at once; then one clause asks for a
solution holding at least one value not yet marked (switched on by a selector
for that solve, then retired); the phases point the solver at unmarked values,
so a solution marks many. When it answers UNSAT, every value still unmarked
is refuted.

Honesty: every candidate has a witness, a solution checked by the rules' own
checks (:func:`outcome.accept`); every value left out was refuted by the
singles or by the solver. ``count_each`` counts, up to a limit, the solutions
holding each candidate of the cells that have several (every solution found is
blocked, so each is counted once).
"""

from __future__ import annotations

import math
import time
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, TypeVar

from sudosat.core.errors import SolverTimeout
from sudosat.core.puzzle import Constraint, Grid, Puzzle, a_puzzle, verify
from sudosat.sat.cnf import Cnf, Encoding
from sudosat.sat.deadline import deadline_after, solve_budgeted, solve_by
from sudosat.sat.encoding import encode
from sudosat.sat.limits import check_solvable
from sudosat.solving.deduce import deduce
from sudosat.solving.engine import Count
from sudosat.solving.fast import holding
from sudosat.solving.outcome import (
    Outcome,
    Stats,
    Status,
    accept,
    forced_grid_breaks,
    no_solution,
)

SOLVER = "minicard"
"""The solver candidates run on: native "exactly one" groups, interruptible."""
AUTO = "auto"
FALLBACK = "cadical195"
SOLVERS = (SOLVER, FALLBACK, AUTO)
"""What ``candidates`` may run on: CaDiCaL finds a 16x16 killer's later
solutions many times sooner (BENCHMARKS.md, issues 47 and 57), but cannot be
stopped at a deadline; ``auto``, Minicard until one solve takes more than
PATIENCE conflicts, then CaDiCaL."""
PATIENCE = 20_000
"""Conflicts a solve of ``auto`` may take on Minicard (a budget, not a time: the
same puzzle takes the same path on any machine)."""
FIRST_PATIENCE = 2_000
"""Conflicts the first solve of ``auto`` on a big grid may take on Minicard before
CaDiCaL is asked (:meth:`_Marking._first`)."""


PROGRESS = 0.5
"""Seconds between two calls of ``progress``, at least."""
MANY_FROM = 9
"""From this size, candidates on Minicard ask for many values a solve first
(:meth:`_Marking._mark_many`: 1.6 times sooner on a 16x16 killer's edits; on
9x9s, since values put off halve the set, 0.80 of the time over 12 setting
orders, the worst edit 0.31 -> 0.19 s: BENCHMARKS.md, issue 76)."""
ASSUMED = 16
"""Values a solve of :meth:`_Marking._mark_many` asks for at most."""
Progress = Callable[[tuple[tuple[int, ...], ...]], None]
"""What is told the candidates witnessed so far."""


class _Impatient(Exception):
    """A Minicard solve of ``auto`` ran out of patience."""


@dataclass
class Candidates:
    """What each cell can hold. ``outcome``: the status (unique when every cell has
    one candidate, multiple when some cell has more, none, or timeout) with the
    first witnesses as its solutions."""

    outcome: Outcome
    marks: tuple[tuple[int, ...], ...] = ()
    """Per cell (row-major), the values some solution puts there, in order."""
    undecided: tuple[tuple[int, ...], ...] = ()
    """Per cell, values neither witnessed nor refuted when time ran out."""
    counts: dict[tuple[int, int], Count] = field(default_factory=dict)
    """With ``count_each``: (cell, value) -> solutions holding it, for the cells
    with several candidates."""
    witnesses: int = 0
    """Solutions found (each checked): every candidate is in one of them."""
    conflict: list[tuple[int, int] | Constraint] | None = None
    """No solution: a minimal set of clues and rules that cannot all hold."""
    timed_out: list[str] = field(default_factory=list)
    found: tuple[Grid, ...] = ()
    """The witnesses themselves, for a later question (see ``maybe``)."""

    @property
    def unique(self) -> bool:
        return self.outcome.status == Status.UNIQUE

    def open_cells(self) -> list[int]:
        """The cells with more than one candidate."""
        return [cell for cell, values in enumerate(self.marks) if len(values) > 1]


def candidates(
    puzzle: Puzzle,
    *,
    count_each: int | None = None,
    timeout: float | None = None,
    known: Mapping[int, int] | None = None,
    maybe: Iterable[Grid] = (),
    solver: str = SOLVER,
    progress: Progress | None = None,
) -> Candidates:
    """Every cell's true candidates (see the module's text). ``count_each``: also count,
    up to that many, the solutions holding each candidate of a cell with several.
    ``timeout``: seconds; what is witnessed by then is kept, the rest undecided.
    ``known``: cells' values already known to be in no solution, as masks of what
    may still be (:mod:`sudosat.core.masks`), from an earlier answer to a puzzle these
    givens and rules only narrow; they are left out before the search.
    ``maybe``: grids that may be solutions (an earlier answer's witnesses):
    each that is one, by the rules' own checks, is a witness before any solve.
    ``solver``: one of SOLVERS (CaDiCaL only without a timeout). ``progress``:
    called with the candidates witnessed so far (per cell, as ``marks``) at
    most every PROGRESS seconds while the search goes on, for a page that
    shows them as they come."""
    puzzle = a_puzzle(puzzle, "candidates")
    if count_each is not None and count_each < 1:
        raise ValueError("count_each must be at least 1")
    if solver not in SOLVERS or (solver != SOLVER and timeout is not None):
        raise ValueError(f"solver: {', '.join(SOLVERS)}, and {SOLVER} with a timeout")
    start = time.perf_counter()
    deadline = deadline_after(timeout)
    found = _candidates(puzzle, count_each, deadline, known or {}, maybe, solver, progress)
    found.outcome.stats.time = time.perf_counter() - start
    return found


def _candidates(
    puzzle: Puzzle,
    count_each: int | None,
    deadline: float | None,
    known: Mapping[int, int],
    maybe: Iterable[Grid],
    solver: str,
    progress: Progress | None = None,
) -> Candidates:
    none = no_solution(puzzle, SOLVER, dead_cells=False)
    if none.reason:  # clashing givens
        return _refuted(none, deadline)
    deduced = deduce(puzzle)
    if deduced.contradiction:
        return _refuted(_none(puzzle, deduced.contradiction), deadline)
    target = replace(puzzle, cells=deduced.grid)
    check_solvable(target, True)  # a one-line TooBig, not a MemoryError later
    masks = deduced.masks
    if known:  # a cell left empty here has no value: the search says there is no solution
        masks = {cell: mask & known.get(cell, mask) for cell, mask in masks.items()}
    cnf = encode(target, Encoding(), compact=True, masks=masks)
    stats = Stats(variables=cnf.variable_count, clauses=cnf.clause_count)
    stats.deduced, stats.ruled_out = deduced.placed, deduced.removed
    if not cnf.open_cells:  # the singles filled every cell
        broken = forced_grid_breaks(puzzle, target.cells)
        if broken:
            return _refuted(_none(puzzle, broken), deadline)
        outcome = Outcome(puzzle, Status.UNIQUE, [target.cells], exhausted=True, solver=SOLVER)
        outcome.stats = stats
        return Candidates(outcome, _single(target.cells), witnesses=1, found=(target.cells,))
    return _Marking(puzzle, cnf, stats, deadline, solver, progress).run(count_each, maybe)


def _none(puzzle: Puzzle, reason: str) -> Outcome:
    return Outcome(puzzle, Status.NONE, exhausted=True, reason=reason, solver=SOLVER)


def _single(grid: Grid) -> tuple[tuple[int, ...], ...]:
    return tuple((value,) for value in grid)


def _refuted(outcome: Outcome, deadline: float | None) -> Candidates:
    """No solution: no candidates, and the conflict as ``explain`` gives it."""
    found = Candidates(outcome, marks=tuple(() for _ in outcome.puzzle.cells))
    _name_conflict(found, deadline)
    return found


def _name_conflict(found: Candidates, deadline: float | None, asked: float | None = None) -> None:
    """The clues and rules that cannot all hold, as ``explain`` names them, by
    ``deadline``; past it, ``conflict`` is left None, and said to have run out of
    time when the caller's deadline (``asked``, by default ``deadline``) has passed
    too: a conflict that takes longer than a moment is explain's, not a timeout."""
    from sudosat.solving.parts import minimal_conflict  # deferred: for none alone

    try:
        found.conflict = minimal_conflict(found.outcome.puzzle, deadline)
    except SolverTimeout:
        asked = deadline if asked is None else asked
        if asked is not None and time.monotonic() >= asked:
            found.timed_out.append("conflict")


CONFLICT_TIME = 1.0
"""Seconds a puzzle with no solution has for naming the clues and rules that
cannot all hold, once its search has said so: named where that is quick
(``explain`` names it whatever it takes)."""


def _relabels(puzzle: Puzzle) -> bool:
    """Whether every rule holds with the digits renamed (a classic grid, anti-knight,
    a jigsaw, an X-sudoku: never a sum or an order): then a solution with its
    values renamed, the givens kept, is another."""
    rules = puzzle.rules
    return rules is None or all(rule.relabels() for rule in rules.constraints)


def _free_values(puzzle: Puzzle) -> tuple[int, ...]:
    """The values no given names: where the rules relabel (:func:`_relabels`),
    renaming them in a solution gives another (a 36x36 with no givens has its
    true candidates from one solve, not 93)."""
    return tuple(sorted(set(range(1, puzzle.size + 1)) - set(puzzle.cells)))


def _fitted(grid: Grid, givens: Iterable[tuple[int, int]], size: int) -> Grid | None:
    """``grid`` (a solution of an earlier puzzle with these rules) with its values
    renamed to agree with ``givens``, the rest kept where they can be; None when
    no renaming does (a cell's value would take two names, or two values one).
    A setter's new given rarely sits where an earlier witness has its value, but
    some renaming of every witness fits it: a 36x36's next edit starts from them."""
    name: dict[int, int] = {}
    for cell, value in givens:
        if name.setdefault(grid[cell], value) != value:
            return None
    if len(set(name.values())) != len(name):
        return None
    left = [value for value in range(1, size + 1) if value not in name]
    unnamed = sorted(set(range(1, size + 1)) - set(name.values()) - set(left))
    for value in left:  # a value not named keeps its name when it is free
        name[value] = value if value not in name.values() else unnamed.pop()
    return tuple(name[value] for value in grid)


def _renamed(
    grid: Grid,
    free: tuple[int, ...],
    cells: Iterable[int],
    unmarked: Iterable[tuple[int, int]],
    size: int,
) -> Iterable[Grid]:
    """``grid`` with its free values renamed in turn (each free value names each
    other one once: a cell holding one holds every one in some copy), the copies
    that would mark none of ``unmarked`` (cell, value) left out before they are
    built (most of them, once a few are in: building them all cost a 36x36's
    edit 1.4 s)."""
    if len(free) < 2:
        return
    held: list[list[int]] = [[] for _ in range(size + 1)]
    for cell in cells:
        held[grid[cell]].append(cell)
    wanted: list[set[int]] = [set() for _ in range(size + 1)]
    for cell, value in unmarked:
        wanted[value].add(cell)
    for shift in range(1, len(free)):
        name = {value: free[(i + shift) % len(free)] for i, value in enumerate(free)}
        if any(not wanted[new].isdisjoint(held[old]) for old, new in name.items()):
            yield tuple(name.get(value, value) for value in grid)


def _soon(deadline: float | None) -> float:
    """The deadline for naming a conflict: CONFLICT_TIME from now, never past
    ``deadline``."""
    soon = time.monotonic() + CONFLICT_TIME
    return soon if deadline is None else min(deadline, soon)


T = TypeVar("T")


class _Marking:
    """The marking loop of one puzzle, on one Minicard."""

    def __init__(
        self,
        puzzle: Puzzle,
        cnf: Cnf,
        stats: Stats,
        deadline: float | None,
        solver: str = SOLVER,
        progress: Progress | None = None,
    ) -> None:
        self.puzzle, self.cnf, self.stats, self.deadline = puzzle, cnf, stats, deadline
        self.solver = solver
        self.literal = cnf.literals()
        self.marked: set[tuple[int, int]] = set()
        self.unmarked = dict(self.literal)
        """(cell, value) -> its variable, for the values no witness holds yet."""
        self.top = cnf.nv
        self.witnesses: list[Grid] = []
        self.searched: list[Grid] = []  # the witnesses not renamed from another
        self.counting = False
        self.seen: set[Grid] = set()  # the witnesses, to look up
        self.tally: Counter[tuple[int, int]] = Counter()
        """Solutions found holding each (cell, value) of the open cells."""
        self.progress = progress
        self.said = time.monotonic()
        self.relabels = _relabels(puzzle)
        self.free = _free_values(puzzle) if self.relabels else ()

    def run(self, count_each: int | None, maybe: Iterable[Grid] = ()) -> Candidates:
        self.search = holding(self.cnf) if self.solver in (SOLVER, AUTO) else self._other()
        timed_out: list[str] = []
        counts: dict[tuple[int, int], Count] = {}
        try:
            givens, size = self.puzzle.givens, self.puzzle.size
            for earlier in maybe:  # witnesses with no solve: those that are solutions
                if len(earlier) != size * size:
                    continue
                grid = _fitted(earlier, givens, size) if self.relabels else earlier
                if grid is None or not self._worth(grid, count_each is None):
                    continue
                if not verify(self.puzzle, grid):
                    self._witness(grid)
            try:
                self._patiently(self._mark)
            except SolverTimeout:
                timed_out.append("candidates")
            if count_each is not None and not timed_out:
                try:
                    counts = self._patiently(lambda: self._count(count_each))
                except SolverTimeout:
                    timed_out.append("count_each")
        finally:
            self.stats.add_search(dict(self.search.accum_stats()))
            self.search.delete()
        return self._result(counts, timed_out)

    def _patiently(self, step: Callable[[], T]) -> T:
        """``step`` on Minicard, and again on CaDiCaL from what is known when a solve
        of ``auto`` runs past PATIENCE (Minicard is many times faster on most
        puzzles, and has a heavy tail on a big killer's later edits)."""
        while True:
            try:
                return step()
            except _Impatient:
                self.stats.add_search(dict(self.search.accum_stats()))
                self.search.delete()
                self.solver = FALLBACK
                self.search = self._other()
                if self.counting:
                    self._block(self.witnesses)

    def _worth(self, grid: Grid, marking: bool) -> bool:
        """Whether a grid that may be a solution is worth checking: its values are
        candidates here (the singles and earlier answers rule out the rest), it is
        not a witness already and, when only marking, it marks a value."""
        held = [(cell, grid[cell]) for cell, _ in self.cnf.open_cells]
        if grid in self.seen or not all(key in self.literal for key in held):
            return False
        return not marking or any(key in self.unmarked for key in held)

    def _other(self) -> Any:
        """Another PySAT solver holding the CNF as clauses (its groups pairwise)."""
        from pysat.solvers import Solver

        return Solver(name=self.solver, bootstrap_with=self.cnf.iter_clauses())

    def _mark(self) -> None:
        """Solutions until one holding an unmarked value no longer exists (a grid of
        MANY_FROM or more on Minicard: once a second solution is found, many
        values asked for at once; a puzzle with one solution ends in two solves)."""
        search = self.search
        many = self.puzzle.size >= MANY_FROM and self.solver != FALLBACK
        if many and not self.witnesses:  # is there a solution at all? (asking for many
            first = self._first()  # values at a time first took four times a solve to
            if first is None:  # find none on a 25x25 jigsaw; the loop below asks
                return  # for any value first, so a smaller grid knows at once)
            self._witness(first)
        while True:
            unmarked = list(self.unmarked.values())
            if not unmarked:
                return
            search.set_phases(unmarked)  # marked values keep the phase of the last solve
            self.top += 1  # a selector, retired after the solve: counting needs them gone
            search.add_clause([-self.top, *unmarked])
            holds = self._solve([self.top])
            if holds:  # the model first: CaDiCaL forgets it once a clause is added
                self._witness()
            search.add_clause([-self.top])
            if not holds:
                return
            if many:  # a second solution: many values a solve from here on (a puzzle
                many = False  # with one solution has ended at once, in two solves)
                self._mark_many()

    def _first(self) -> Grid | None:
        """Any solution of a big grid (None: there is none). Of ``auto``, Minicard
        has FIRST_PATIENCE conflicts for it, then CaDiCaL in a solver of its own,
        as ``solve`` has (Minicard's whole patience first cost a 25x25 jigsaw with
        no solution half as much again; CaDiCaL at once, a 25x25 killer's edits a
        tenth more); the marking goes on on Minicard."""
        if self.solver != AUTO:
            return self.cnf.decode(self.search.get_model()) if self._solve([]) else None
        # as the marking would ask first (many values at once): a solution of it is
        # the marking's first; no solution of it says nothing yet
        self.stats.solves += 2
        picked = self._picked(ASSUMED, set())
        if solve_budgeted(self.search, self.deadline, picked, FIRST_PATIENCE):
            return self.cnf.decode(self.search.get_model())
        holds = solve_budgeted(self.search, self.deadline, [], FIRST_PATIENCE)
        if holds is not None:
            return self.cnf.decode(self.search.get_model()) if holds else None
        from pysat.solvers import Solver  # deferred: as _other's

        with Solver(name=FALLBACK, bootstrap_with=self.cnf.iter_clauses()) as first:
            holds = first.solve()
            return self.cnf.decode(first.get_model()) if holds else None

    def _mark_many(self) -> None:
        """Solutions each holding up to ASSUMED unmarked values at once, of different
        cells and none of them the same value in a unit; when they cannot all
        hold, the core's last is put off until the next solution (and the set
        halves), and a value that cannot hold alone is refuted for good. Ends
        when every value left is put off, or a solve runs out of ``auto``'s
        patience: the loop of :meth:`_mark` finds the rest and proves the last
        impossible in one solve."""
        size = ASSUMED
        put_off: set[int] = set()
        while True:
            picked = self._picked(size, put_off)
            if not picked:
                return
            self.search.set_phases(list(self.unmarked.values()))
            try:
                holds = self._solve(picked)
            except _Impatient:  # many values at once can be hard: the loop asks for one
                return
            if holds:
                self._witness()
                put_off.clear()
                size = min(ASSUMED, 2 * size)
                continue
            core = self.search.get_core() or picked
            if len(core) == 1:  # no solution holds it
                self.search.add_clause([-core[0]])
                self.unmarked = {k: v for k, v in self.unmarked.items() if v != core[0]}
            else:
                put_off.add(core[-1])
                size = max(1, size // 2)

    def _picked(self, size: int, put_off: set[int]) -> list[int]:
        """Up to ``size`` unmarked values to ask for at once: of different cells, none
        the same value in a unit, none of ``put_off``."""
        rows, cols, boxes = self.puzzle.layout.unit_index
        picked: list[int] = []
        taken: set[tuple[int, int, int]] = set()
        for (cell, value), lit in self.unmarked.items():
            row, col, box = rows[cell], cols[cell], boxes[cell]
            units = ((0, cell, 0), (1, row, value), (2, col, value), (3, box, value))
            if lit in put_off or not taken.isdisjoint(units):
                continue
            taken.update(units)
            picked.append(lit)
            if len(picked) >= size:
                break
        return picked

    def _solve(self, assumptions: list[int]) -> bool:
        self.stats.solves += 1
        if self.solver != AUTO:
            return solve_by(self.search, self.deadline, assumptions)
        holds = solve_budgeted(self.search, self.deadline, assumptions, PATIENCE)
        if holds is None:
            raise _Impatient
        return holds

    def _witness(self, known: Grid | None = None) -> Grid:
        """The solution the solver holds (or ``known``, one found before), checked,
        and its values marked (blocked too when counting); then its copies with the
        free values renamed (:func:`_free_values`), each checked as well."""
        found = self.cnf.decode(self.search.get_model()) if known is None else known
        grid = self._witnessed(accept(self.puzzle, found, self.witnesses, SOLVER))
        self.searched.append(grid)
        self.seen.add(grid)
        cells = [cell for cell, _ in self.cnf.open_cells]
        for copy in _renamed(grid, self.free, cells, self.unmarked, self.puzzle.size):
            # a solution renamed: its values are candidates; checked all the same
            if copy not in self.seen and not verify(self.puzzle, copy):
                self.witnesses.append(copy)
                self.seen.add(copy)
                self._witnessed(copy)
        return grid

    def _witnessed(self, grid: Grid) -> Grid:
        held = [(cell, grid[cell]) for cell, _ in self.cnf.open_cells]
        self.marked.update(held)
        for key in held:
            self.unmarked.pop(key, None)
        if self.counting:  # marking needs none: a solution holding an unmarked value is new
            self.tally.update(held)
            self._block([grid])
        if self.progress is not None and time.monotonic() - self.said >= PROGRESS:
            self.progress(self._marks())
            self.said = time.monotonic()
        return grid

    def _marks(self) -> tuple[tuple[int, ...], ...]:
        """Per cell, the values witnessed so far (the givens and singles' as they are)."""
        marks: list[tuple[int, ...]] = [
            (value,) if value else () for value in self.cnf.puzzle.cells
        ]
        for cell, values in self.cnf.open_cells:
            marks[cell] = tuple(v for v in values if (cell, v) in self.marked)
        return tuple(marks)

    def _count(self, limit: int) -> dict[tuple[int, int], Count]:
        """Solutions holding each candidate of the cells with several, up to ``limit``:
        more solutions under that candidate until one past the limit (a lower
        bound, ``N+``) or UNSAT (then exact)."""
        self.counting = True  # from here each solution is counted once: the found blocked
        self._block(self.witnesses)
        cells = [cell for cell, _ in self.cnf.open_cells]
        self.tally.update((cell, grid[cell]) for grid in self.witnesses for cell in cells)
        tally, search = self.tally, self.search
        per_cell = Counter(cell for cell, _ in self.marked)
        wanted = [key for key in self.literal if key in self.marked and per_cell[key[0]] > 1]
        if not self._solve([]):  # every solution is found already: all exact
            return {key: Count(min(tally[key], limit), tally[key] <= limit) for key in wanted}
        self._witness()
        complete: set[tuple[int, int]] = set()
        # towards the candidates still short of the limit: a solution counts for many
        phases = {key: self._towards(key, limit) for key in wanted}
        changed = True
        for key in wanted:
            while tally[key] <= limit:  # "N+" says more than N were found: look for one more
                if changed:
                    search.set_phases(list(phases.values()))
                if not self._solve([self.literal[key]]):
                    complete.add(key)
                    break
                grid = self._witness()
                held = [(cell, grid[cell]) for cell, _ in self.cnf.open_cells]
                full = [other for other in held if tally[other] == limit + 1 and other in phases]
                phases.update((other, self._towards(other, limit)) for other in full)
                changed = bool(full)
        return {key: Count(min(tally[key], limit), key in complete) for key in wanted}

    def _block(self, grids: Iterable[Grid]) -> None:
        """Every solution but ``grids`` left to the search (for counting: a marking
        blocked none, 240 clauses of 1,296 literals slowed a 36x36's solves)."""
        self.search.append_formula([self.cnf.blocking_clause(grid) for grid in grids])

    def _towards(self, key: tuple[int, int], limit: int) -> int:
        literal = self.literal[key]
        return literal if self.tally[key] <= limit else -literal

    def _result(self, counts: dict[tuple[int, int], Count], timed_out: list[str]) -> Candidates:
        grid = self.cnf.puzzle.cells  # the givens and what the singles placed
        marks = self._marks()
        undecided: list[tuple[int, ...]] = [() for _ in grid]
        if "candidates" in timed_out:
            for cell, values in self.cnf.open_cells:
                undecided[cell] = tuple(v for v in values if (cell, v) not in self.marked)
        witnesses = self.witnesses
        if "candidates" in timed_out:
            status = Status.TIMEOUT
        elif not witnesses:
            status = Status.NONE
        else:
            status = Status.MULTIPLE if len(witnesses) > 1 else Status.UNIQUE
        outcome = Outcome(self.puzzle, status, witnesses[:2], solver=self.solver)
        outcome.exhausted = status in (Status.UNIQUE, Status.NONE)
        outcome.stats = self.stats
        if status == Status.TIMEOUT:
            outcome.reason = "ran out of time: the candidates shown are witnessed, not all found"
        found = Candidates(outcome, marks, tuple(undecided), counts, len(witnesses))
        searched = set(self.searched)  # first: a later question renames them again
        found.found = (*self.searched, *(w for w in witnesses if w not in searched))
        found.timed_out = timed_out
        if status == Status.NONE:  # the conflict named if it is quick: as long as the solve took
            found.marks = tuple(() for _ in grid)
            _name_conflict(found, _soon(self.deadline), self.deadline or math.inf)
        return found
