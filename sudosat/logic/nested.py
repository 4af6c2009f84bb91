"""Nested forcing chains: a candidate whose branch, with contradiction chains run
inside it, ends in a contradiction.

Sudoku Explainer's top tier, as Berthier's trial and error at depth two: assume
x and follow singles; inside that branch, assume each other candidate y in turn
and follow singles; a y that ends in a contradiction goes from x's branch; this
repeats until x's branch itself breaks (x goes) or nothing more goes inside.
The chains kept in a step are the fewest that still break the branch, each
checked again in the order found, so a step names the inner chains it needs.

At depth three (Berthier's T&E(3), the last technique): the chains inside x's
branch are themselves nested, each y refuted with contradiction chains inside
its own branch (x and y assumed, each z followed by singles).

Singles are a solver's unit propagation (PySAT's ``propagate``) over "exactly
one" of every cell and of every value in every house, and a variant's rules:
the same deductions as naked and hidden singles, a few microseconds each, which
makes the thousands of branches a hard puzzle needs take seconds.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sequence
from functools import cached_property, partial
from typing import Any, TypeVar, cast

from pysat.solvers import Minicard

from sudosat.core.masks import bit
from sudosat.core.masks import values as bits
from sudosat.logic import bitboard
from sudosat.logic.board import Board, Step, Technique
from sudosat.logic.forcing import CONTRADICTION, contradiction_chain
from sudosat.logic.levels import Family, Level
from sudosat.sat.cnf import cell_value, literal, ruled_out
from sudosat.sat.solvers.native import Propagate, propagator
from sudosat.solving.fast import exactly_one

NAME = "nested forcing chains"
WEIGHT = 9.7
"""A nested chain with one chain inside, on a variant's path (and a classic depth
three that needed none deeper); ``INSIDE`` more each time the chains inside
double, up to ``HEAVIEST``: one chain 9.7, two 10.6, three 11.1, four 11.5, six
11.9. Sudoku Explainer weighs its nested chains 9.5, 10.0, 10.5 and 11.0 by the
chains it runs inside them (forcing, multiple, dynamic and nested chains), each
plus its length; sudosat's inner chains are all dynamic contradiction chains,
and the fewer a branch needs, the weaker the chains SE needs inside. A variant's
path asks its nested chains by weight among its rules' steps, on this scale; a
classic step is weighed on SE's by the mean of the easiest (:data:`MEAN_OF`)."""
INSIDE = 0.9
HEAVIEST = 11.9
MEAN_OF = 8
"""A classic step is weighed by the mean of the chains inside of the ``MEAN_OF``
branches (of those taken apart) that need fewest, the step's own among them:
Sudoku Explainer takes the easiest of all its nested chains, and a board where
many branches break with few chains has easier ones than a board where one
does. The fewest alone, an integer of one to six on the hardest puzzles, ties
too often: the mean ranks the hardest lists nearer SE's ER on each of three
draws (BENCHMARKS.md)."""
MEAN_WEIGHT = 9.1
"""The classic scale: ``MEAN_WEIGHT`` at a mean of one chain inside, ``MEAN_INSIDE``
more each time it doubles, at least ``LIGHTEST`` (SE's lightest nested chain)
and at most ``HEAVIEST``: the line through SE's ER of a draw of eleven's list,
its spread matched to SE's (two 10.2, three 10.8, four 11.3, six 11.9)."""
MEAN_INSIDE = 1.08
LIGHTEST = 9.5
DEEP_WEIGHT = 11.5
"""A nested chain whose chains inside are nested themselves (depth three), with one
chain inside; ``DEEP_INSIDE`` more each time the chains inside (theirs counted too)
double, up to ``DEEPEST`` (SE rates the puzzles that need them 11.6 to 11.9)."""
DEEP_INSIDE = 0.1
DEEPEST = 11.9
DEEP_BUDGET = 300_000
"""The branches (solver calls) a depth-three search may follow before it gives up:
a path that needs more ends stuck, as one beyond depth three does. The T&E(3)
puzzles measured need 131 to 42,408."""
VARIANT_DEEP_BUDGET = 30_000
"""The same for a variant, whose branches follow its rules too (several times
dearer): the stuck published variants measured gained nothing from 300,000
but ten seconds each."""
SHOWN = 4
"""The inner chains a step names, at most (the rest are counted)."""
TAKEN_APART = 16
"""Of the broken branches (every false candidate's, fewest-candidate cells first),
those with the fewest chains inside as found, taken apart to their fewest (a
solver call per chain, squared): the step is the one that needs fewest. A branch
is followed only while it could be one of them."""
FIRST_FOUND = 8
"""A variant's branches follow its rules too (several times dearer): only the first
broken ones found are looked at, and of them ``FIRST_TAKEN_APART`` taken apart."""
FIRST_TAKEN_APART = 4

T = TypeVar("T")

Solver = Callable[[Board], Minicard]
"""A new solver of a board's cells, houses and rules, its candidates ruled out
as unit clauses (so a branch assumes one or two literals: a few microseconds)."""


def classic_solver(board: Board) -> Minicard:
    """ "Exactly one" a cell and a value a house, and the board's candidates."""
    n = board.size
    cells = [[literal(n, c, v) for v in range(1, n + 1)] for c in range(n * n)]
    houses = [[literal(n, c, v) for c in h] for h in board.houses for v in range(1, n + 1)]
    solver = exactly_one(cells + houses)
    for lit in ruled_out(board.size, board.masks):
        solver.add_clause([lit])
    return solver


Removals = tuple[list[tuple[int, T]], bool]
"""A branch's removals so far (each with its proof), and whether it now breaks."""


class Branches:
    """The branches of one board, followed by one solver of its candidates."""

    def __init__(
        self,
        board: Board,
        solver: Minicard | Callable[[], Minicard],
        budget: int = DEEP_BUDGET,
        past: Callable[[], bool] = lambda: False,
    ) -> None:
        """``solver``: the board's solver, or how to make it when first needed
        (the compiled engine follows a classic board's branches itself: its
        solver is made only to count a chain's length, if ever)."""
        self.board, self.n = board, board.size
        self._solver: Minicard | None = solver if isinstance(solver, Minicard) else None
        self._make = solver if not isinstance(solver, Minicard) else None
        self.budget = budget
        """The branches a depth-three search may follow (see :data:`DEEP_BUDGET`)."""
        self.past = past
        """Whether the path's time is up: the search then stops, as past its budget."""
        masks = board.masks
        self.order = sorted(
            (c for c in range(self.n**2) if masks[c] & (masks[c] - 1)),
            key=lambda c: masks[c].bit_count(),
        )
        """The open cells, fewest candidates first (the board does not change)."""
        self.candidates = [literal(self.n, c, v) for c in self.order for v in bits(masks[c])]
        """Their candidates as literals, in that order."""
        self.pairs: dict[tuple[int, int], bool] = {}
        """Whether two candidates break the board together (either way round)."""
        self.calls = 0
        """The branches followed so far (what a depth-three search is allowed)."""
        self._breaks: Callable[[list[int]], bool] = self._solver_breaks
        self.follows: Propagate | None = None
        """How a branch is followed: the compiled engine's where it gives the same
        as the solver's propagation (:meth:`compiled`); None: the solver's."""
        self.first_break: Callable[[list[int], list[int], int], tuple[int, int]] | None = None
        """The compiled engine's round of removals (:meth:`removals`), where it is here."""
        self.shortest: Callable[..., tuple[list[tuple[int, list[int]]] | None, int]] | None = None
        """The compiled engine's :func:`_shortest_broken`, where it is here."""

    @property
    def solver(self) -> Minicard:
        if self._solver is None:
            assert self._make is not None
            self._solver = self._make()
        return self._solver

    @cached_property
    def propagate(self) -> Propagate:
        """The solver's unit propagation (see :func:`native.propagator`)."""
        return propagator(self.solver)

    def delete(self) -> None:
        """The solver gone, where it was made."""
        if self._solver is not None:
            self._solver.delete()

    def _solver_breaks(self, assumed: list[int]) -> bool:
        return not self.propagate(assumed)[0]

    def compiled(self) -> Branches:
        """The branches followed by the compiled engine (:mod:`bitboard`), where the
        solver holds only the board's houses (:func:`classic_solver`): its singles
        are the solver's unit propagation, 4-5 times sooner a branch. A chain's
        length stays the solver's (where a branch breaks, the literals set by then
        depend on the order they are set in)."""
        engine = bitboard.propagator(self.board)
        if engine is not None:
            self.follows, self._breaks, self.first_break, self.shortest = engine
        return self

    def pair_breaks(self, x: int, y: int) -> bool:
        key = (x, y) if x < y else (y, x)
        found = self.pairs.get(key)
        if found is None:
            found = self.pairs[key] = self.breaks(list(key))
        return found

    def chain_length(self, x: int) -> int:
        """The nodes of the chain by which singles break x's branch: x and each value
        they place before the contradiction (an approximation of Sudoku Explainer's
        count, which takes the removals between them too)."""
        _, implied = self.propagate([x])
        return len({lit for lit in implied if lit > 0} | {x})

    def follow(self, assumed: list[int]) -> set[int] | None:
        """The literals singles set once ``assumed`` holds (None: a contradiction)."""
        self.calls += 1
        ok, implied = (self.follows or self.propagate)(assumed)
        return set(implied) if ok else None

    def breaks(self, assumed: list[int]) -> bool:
        """Whether singles break the board once ``assumed`` holds."""
        self.calls += 1
        return self._breaks(assumed)

    def open(self, known: set[int]) -> list[int]:
        """The candidates a branch leaves open, as literals, fewest-candidate cells first."""
        return [x for x in self.candidates if x not in known and -x not in known]

    def refute(self, x: int, base: Sequence[int] = ()) -> list[int] | None:
        """The inner chains (candidates they remove) that break x's branch, in the
        order found (None: it does not break); inside the branch of ``base`` (the
        assumptions of an outer chain) when given."""
        found = _broken_by(self.removals(x, base, self.broken))
        return None if found is None else [lit for lit, _ in found]

    def refute_deep(self, x: int) -> list[tuple[int, list[int]]] | None:
        """Depth three: the nested chains (each candidate it removes, with the chains
        inside it) that break x's branch, in the order found; None: it does not
        break. OverBudget past the budget."""
        return _broken_by(self.removals(x, (), self._refuted))

    def removals(
        self,
        x: int,
        base: Sequence[int],
        refutes: Callable[[list[int], int], T | None],
    ) -> Iterator[Removals[T]]:
        """x's branch (given what ``base`` assumes), one removal at a time: the
        candidates ``refutes`` (:meth:`broken`: a contradiction chain) removes inside
        it, each with its proof, and whether the branch then breaks; first before
        any, then after each, each round over the candidates the branch leaves
        open, until it breaks or nothing more goes."""
        if self.first_break is not None and refutes == self.broken:
            yield from self._compiled_removals(x, base)  # type: ignore[misc]
            return
        removed: list[tuple[int, T]] = []
        assumed = [*base, x]
        known = self.follow(assumed)
        yield removed, known is None
        while known is not None:
            more = False
            ys, i = self.open(known), 0
            while i < len(ys):
                y, i = ys[i], i + 1
                if -y in known or y in known:
                    continue
                if self.first_break is not None and refutes == self.broken:
                    # the compiled engine follows the branch once and each y inside it
                    found, tested = self.first_break(assumed, ys, i - 1)
                    self.calls += tested
                    if found < 0:
                        break
                    y, i = ys[found], found + 1
                    proof: T | None = cast(T, ())  # (broken's proof: none is needed)
                else:
                    proof = refutes(assumed, y)
                if proof is None:
                    continue
                removed.append((-y, proof))
                assumed.append(-y)
                more = True
                known = self.follow(assumed)
                yield removed, known is None
                if known is None:
                    return
            if not more:
                return

    def _compiled_removals(self, x: int, base: Sequence[int]) -> Iterator[Removals[tuple[()]]]:
        """:meth:`removals` by contradiction chains in the compiled engine, the same
        removals in the same order: each round one call from where the last
        stopped, over every candidate (the engine passes over those the branch
        has decided, as :meth:`open` leaves them out); a branch asked only
        whether it breaks, its literals never listed."""
        first_break = self.first_break
        assert first_break is not None
        removed: list[tuple[int, tuple[()]]] = []
        assumed = [*base, x]
        ys = self.candidates
        broke = self.breaks(assumed)
        yield removed, broke
        while not broke:
            more, i = False, 0
            while i < len(ys):
                found, tested = first_break(assumed, ys, i)
                self.calls += tested
                if found < 0:
                    break
                y, i = ys[found], found + 1
                removed.append((-y, ()))
                assumed.append(-y)
                more = True
                broke = self.breaks(assumed)
                yield removed, broke
                if broke:
                    return
            if not more:
                return

    def broken(self, assumed: list[int], y: int) -> tuple[()] | None:
        """Whether singles break the branch of ``assumed`` and y: the first round of a
        branch (one assumption) through the cached pairs."""
        broke = self.pair_breaks(assumed[0], y) if len(assumed) == 1 else self.breaks([*assumed, y])
        return () if broke else None

    def _refuted(self, assumed: list[int], y: int) -> list[int] | None:
        if self.calls > self.budget or self.past():
            raise OverBudget
        return self.refute(y, assumed)

    def fewest(self, x: int, removed: list[int], base: Sequence[int] = ()) -> list[int]:
        """The inner chains left once each that is not needed is dropped: what is
        kept still breaks the branch, each chain checked in order."""
        return _needed(removed, lambda trial, start: self.holds(x, trial, base, start))

    def holds(self, x: int, removed: list[int], base: Sequence[int] = (), start: int = 0) -> bool:
        """Whether each of ``removed`` (past the first ``start``, known to) follows by
        a chain inside x's branch given the ones before it, and the branch then
        breaks."""
        return self._holds(
            [*base, x], removed, lambda assumed, lit: self.breaks([*assumed, -lit]), start
        )

    def fewest_deep(
        self, x: int, removed: list[tuple[int, list[int]]]
    ) -> list[tuple[int, list[int]]]:
        """Depth three's :meth:`fewest`: the nested chains inside x's branch that are
        needed, each with the fewest chains inside it."""

        def nested_holds(trial: list[int], start: int) -> bool:
            return self._holds(
                [x], trial, lambda assumed, lit: self.refute(-lit, assumed) is not None, start
            )

        kept = _needed([lit for lit, _ in removed], nested_holds)
        found = []
        for i, lit in enumerate(kept):
            base = [x, *kept[:i]]
            inner = self.refute(-lit, base)
            assert inner is not None  # (checked by nested_holds)
            found.append((lit, self.fewest(-lit, inner, base)))
        return found

    def _holds(
        self,
        assumed: list[int],
        removed: list[int],
        follows: Callable[[list[int], int], bool],
        start: int = 0,
    ) -> bool:
        """Whether each of ``removed`` past the first ``start`` ``follows`` in the
        branch of ``assumed`` given the ones before it, and the branch then breaks."""
        for i in range(start, len(removed)):
            if not follows([*assumed, *removed[:i]], removed[i]):
                return False
        return self.breaks([*assumed, *removed])


def _broken_by(steps: Iterator[Removals[T]]) -> list[tuple[int, T]] | None:
    """The removals that break a branch (None: it never breaks)."""
    for removed, broken in steps:
        if broken:
            return removed
    return None


class OverBudget(Exception):
    """A depth-three search ran past its branches (see :data:`DEEP_BUDGET`)."""


def _needed(removed: list[int], holds: Callable[[list[int], int], bool]) -> list[int]:
    """``removed`` less each that is not needed: what is kept still ``holds``, the
    last found dropped first. What is kept holds all along, so a trial without one
    asks only about those after it (``holds``' second argument: how many before
    them are known to)."""
    kept = list(removed)
    for lit in reversed(removed):
        at = kept.index(lit)
        trial = kept[:at] + kept[at + 1 :]
        if holds(trial, at):
            kept = trial
    return kept


def nested(
    solver_of: Solver,
    truth: Callable[[], Sequence[int] | None] = lambda: None,
    words: str = "singles",
    depth: int = 2,
    budget: int = DEEP_BUDGET,
    past: Callable[[], bool] = lambda: False,
    every: bool = True,
) -> Callable[[Board], Step | None]:
    """The finder of nested contradiction chains over ``solver_of``'s singles: of the
    candidates whose branch breaks (``every`` false one's, else the first found),
    the one that needs the fewest chains inside; at ``depth`` 3, the first
    candidate whose branch breaks once nested chains run inside it, taken apart
    to the fewest chains, given up past ``budget`` branches; either stops, finding
    nothing, once ``past()`` (the path's time is up)."""
    step_of = _deep_step if depth == 3 else partial(_fewest_step, every=every)

    def find(board: Board) -> Step | None:
        branches = Branches(board, partial(solver_of, board), budget, past)
        if solver_of is classic_solver:
            branches.compiled()
        try:
            return step_of(board, branches, words, truth())
        finally:
            branches.delete()

    return find


def _deep_step(
    board: Board, branches: Branches, words: str, truth: Sequence[int] | None
) -> Step | None:
    """The step of the first candidate whose branch breaks at depth three (true
    candidates untried, as in :func:`_fewest_step`). Only for a puzzle known to
    have one solution: a setter's unfinished puzzle is not searched this deep."""
    if truth is None or any(t & (t - 1) for t in truth):
        return None
    start = branches.follow([])
    if start is None:
        return None
    for x in branches.open(start):
        if _true(truth, board.size, x):
            continue
        try:
            removed = branches.refute_deep(x)
        except OverBudget:
            return None
        if removed is not None:
            break
    else:
        return None
    inside = branches.fewest_deep(x, removed)
    deeper = [inner for _, inner in inside]
    lits = [lit for lit, _ in inside]
    if not any(deeper):  # (no chain inside needs chains of its own: depth two)
        return _nested_step(board, branches, words, x, lits)
    weighed = technique(len(inside) + sum(len(inner) for inner in deeper), depth=3)
    said = [
        _name(board, -lit) + (f" ({len(inner)} inside)" if inner else "") for lit, inner in inside
    ]
    n = board.size
    return _refuted(
        board,
        x,
        weighed.name,
        weighed,
        _inside_reason(board, x, words, "nested", said),
        inside=tuple(cell_value(n, -lit) for lit in lits),
        deeper=tuple(tuple(cell_value(n, -lit) for lit in inner) for inner in deeper),
    )


def _fewest_step(
    board: Board,
    branches: Branches,
    words: str,
    truth: Sequence[int] | None,
    every: bool = True,
) -> Step | None:
    """The step of the candidate whose branch breaks with the fewest chains inside
    (of ``every`` false candidate, else of the first found). A candidate the true
    candidates hold (when known) never breaks: it is not tried, which spares the
    search and decides nothing."""
    start = branches.follow([])
    if start is None:
        return None  # (the path names a broken board itself)
    false = [x for x in branches.open(start) if truth is None or not _true(truth, board.size, x)]
    broken = _shortest_broken(branches, false) if every else _first_broken(branches, false)
    if not broken:
        return None
    tried = [(x, branches.fewest(x, removed)) for x, removed in broken]
    x, inside = min(tried, key=lambda found: len(found[1]))
    mean = _mean_of_easiest(tried) if every else None
    return _nested_step(board, branches, words, x, inside, mean)


def _mean_of_easiest(tried: list[tuple[int, list[int]]]) -> float:
    """The mean count of chains inside of the :data:`MEAN_OF` branches that need fewest."""
    counts = sorted(len(inside) for _, inside in tried)[:MEAN_OF]
    return sum(counts) / len(counts)


def _true(truth: Sequence[int], n: int, x: int) -> bool:
    """Whether the true candidates hold literal x (its branch cannot break)."""
    cell, value = cell_value(n, x)
    return bool(truth[cell] & bit(value))


def _shortest_broken(branches: Branches, xs: list[int]) -> list[tuple[int, list[int]]] | None:
    """The TAKEN_APART branches of ``xs`` that break with the fewest removals, each
    with them (the first in xs's order of a length); None: the time is up. All
    are followed in step, one removal at a time, so each goes only as far as the
    last one kept needs. In the compiled engine, where it is here, in one call
    (each branch's state kept between its steps)."""
    if branches.shortest is not None:
        shortest, calls = branches.shortest(xs, branches.candidates, TAKEN_APART, branches.past)
        branches.calls += calls
        return shortest
    live = [(x, branches.removals(x, (), branches.broken)) for x in xs]
    broken: list[tuple[int, list[int]]] = []
    while live:
        if branches.past():
            return None
        going = []
        for x, steps in live:
            found = next(steps, None)
            if found is None:
                continue  # (nothing more goes inside x's branch: it never breaks)
            removed, breaks = found
            if not breaks:
                going.append((x, steps))
                continue
            broken.append((x, [lit for lit, _ in removed]))
            if len(removed) <= 1 or len(broken) == TAKEN_APART:
                return broken  # (at one chain inside, none needs fewer)
        live = going
    return broken


def _first_broken(branches: Branches, xs: list[int]) -> list[tuple[int, list[int]]] | None:
    """Of the first FIRST_FOUND branches of ``xs`` that break (one with one chain
    inside ends the search), the FIRST_TAKEN_APART with the fewest removals, each
    with them; None: the time is up."""
    broken: list[tuple[int, list[int]]] = []
    for x in xs:
        if branches.past():
            return None
        removed = branches.refute(x)
        if removed is not None:
            broken.append((x, removed))
            if len(removed) <= 1 or len(broken) == FIRST_FOUND:
                break
    broken.sort(key=lambda found: len(found[1]))  # (stable: the first found of a length)
    return broken[:FIRST_TAKEN_APART]


def _nested_step(
    board: Board,
    branches: Branches,
    words: str,
    x: int,
    inside: list[int],
    mean: float | None = None,
) -> Step:
    """x's branch, broken by singles with the chains ``inside`` (removals), as a step
    (weighed by the ``mean`` chains inside of the board's easiest, when given)."""
    if not inside:  # no chain inside: a plain contradiction chain, weighed as one
        length = branches.chain_length(x)
        reason = f"{_name(board, x)} leads through {words} to a contradiction"
        return _refuted(board, x, CONTRADICTION, contradiction_chain(length), reason, length=length)
    weighed = technique(len(inside), mean=mean)
    said = [_name(board, -lit) for lit in inside]
    reason = _inside_reason(board, x, words, "contradiction", said)
    inner = tuple(cell_value(board.size, -lit) for lit in inside)
    return _refuted(board, x, weighed.name, weighed, reason, inside=inner)


def _inside_reason(board: Board, x: int, words: str, kind: str, said: list[str]) -> str:
    """``r2c6=5 leads through singles, with 2 contradiction chains inside (r2c3=4,
    r5c3=3 go), to a contradiction``: the first :data:`SHOWN` chains inside named."""
    more = f" and {len(said) - SHOWN} more" if len(said) > SHOWN else ""
    chains = "chain" if len(said) == 1 else "chains"
    shown = ", ".join(said[:SHOWN])
    return (
        f"{_name(board, x)} leads through {words}, with {len(said)} {kind} {chains} inside "
        f"({shown}{more} go), to a contradiction"
    )


def _refuted(
    board: Board, x: int, name: str, weighed: Technique, reason: str, **found: Any
) -> Step:
    """The step that removes x, its branch broken: ``found``, the chains inside."""
    cell, value = cell_value(board.size, x)
    removed = ((cell, value),)
    return Step(
        name,
        eliminations=removed,
        cells=(cell,),
        values=(value,),
        reason=reason,
        technique=weighed,
        branches=removed,
        **found,
    )


def _name(board: Board, lit: int) -> str:
    c, v = cell_value(board.size, lit)
    return f"{board.name(c)}={board.symbol(v)}"


DEEP_NAME = "nested forcing chains, depth 3"

SCALES = {2: (NAME, WEIGHT, INSIDE, HEAVIEST), 3: (DEEP_NAME, DEEP_WEIGHT, DEEP_INSIDE, DEEPEST)}
"""Each depth's name, weight with one chain inside, more each time they double, most."""


def technique(inside: int, depth: int = 2, mean: float | None = None) -> Technique:
    """A nested chain's technique, weighed by how many chains it needs inside (at
    depth three, the nested ones and theirs), or on a classic board by the
    ``mean`` of the easiest branches' (see :data:`MEAN_OF`)."""
    name, weight, more, most = SCALES[depth]
    if mean is None:
        weighed = round(min(weight + more * math.log2(max(inside, 1)), most), 1)
    else:
        measured = MEAN_WEIGHT + MEAN_INSIDE * math.log2(max(mean, 1))
        weighed = round(min(max(measured, LIGHTEST), HEAVIEST), 1)
    return Technique(f"{name}, {inside} inside", Family.FORCING, weighed, Level.EXPERT)
