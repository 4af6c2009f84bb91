"""A nested chain's branches: every candidate followed from the board by a
solver's unit propagation (or the compiled engine's, in one call), with what
each removes and which break the grid taken apart to the fewest removals they
need. :mod:`nested` makes steps of them."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from functools import cached_property
from typing import TypeVar, cast

from pysat.solvers import Minicard

from sudosat.core.masks import values as bits
from sudosat.logic import bitboard
from sudosat.logic.board import Board
from sudosat.sat.cnf import literal
from sudosat.sat.solvers.native import Propagate, propagator

DEEP_BUDGET = 300_000
"""The branches (solver calls) a depth-three search may follow before it gives up:
a path that needs more ends stuck, as one beyond depth three does. The T&E(3)
puzzles measured need 131 to 42,408."""

T = TypeVar("T")
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
