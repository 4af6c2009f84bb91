"""Nested forcing chains: a candidate whose branch, with contradiction chains run
inside it, ends in a contradiction.

Sudoku Explainer's top tier, as Berthier's trial and error at depth two: assume
x and follow singles; inside that branch, assume each other candidate y in turn
and follow singles; a y that ends in a contradiction goes from x's branch; this
repeats until x's branch itself breaks (x goes) or nothing more goes inside.
The chains kept in a step are the fewest that still break the branch, each
checked again in the order found, so a step names the inner chains it needs.

Singles are a solver's unit propagation (PySAT's ``propagate``) over "exactly
one" of every cell and of every value in every house, and a variant's rules:
the same deductions as naked and hidden singles, a few microseconds each, which
makes the thousands of branches a hard puzzle needs take seconds.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from pysat.solvers import Minicard

from sudosat.core.masks import bit
from sudosat.core.masks import values as bits
from sudosat.making.board import Board, Step, Technique
from sudosat.making.forcing import CONTRADICTION, contradiction_chain
from sudosat.sat.cnf import cell_value, literal, ruled_out
from sudosat.solving.fast import exactly_one

NAME = "nested forcing chains"
WEIGHT = 9.0
"""A nested chain with one chain inside; ``INSIDE`` more each time the chains inside
double, up to ``HEAVIEST`` (a rating below search's 12)."""
INSIDE = 0.4
HEAVIEST = 10.5
SHOWN = 4
"""The inner chains a step names, at most (the rest are counted)."""
LOOKED_FOR = 20
"""The broken branches looked for, the first found, fewest-candidate cells first."""
TAKEN_APART = 6
"""Of them, those with the fewest chains inside as found, taken apart to their
fewest (a solver call per chain, squared): the step is the one that needs fewest."""

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


class Branches:
    """The branches of one board, followed by one solver of its candidates."""

    def __init__(self, board: Board, solver: Minicard) -> None:
        self.board, self.solver, self.n = board, solver, board.size
        masks = board.masks
        self.order = sorted(
            (c for c in range(self.n**2) if masks[c] & (masks[c] - 1)),
            key=lambda c: masks[c].bit_count(),
        )
        """The open cells, fewest candidates first (the board does not change)."""
        self.pairs: dict[tuple[int, int], bool] = {}
        """Whether two candidates break the board together (either way round)."""

    def pair_breaks(self, x: int, y: int) -> bool:
        key = (x, y) if x < y else (y, x)
        found = self.pairs.get(key)
        if found is None:
            found = self.pairs[key] = self.breaks(key)
        return found

    def chain_length(self, x: int) -> int:
        """The nodes of the chain by which singles break x's branch: x and each value
        they place before the contradiction (an approximation of Sudoku Explainer's
        count, which takes the removals between them too)."""
        _, implied = self.solver.propagate(assumptions=[x])
        return len({lit for lit in implied if lit > 0} | {x})

    def follow(self, assumed: Sequence[int]) -> set[int] | None:
        """The literals singles set once ``assumed`` holds (None: a contradiction)."""
        ok, implied = self.solver.propagate(assumptions=assumed)
        return set(implied) if ok else None

    def breaks(self, assumed: Sequence[int]) -> bool:
        """Whether singles break the board once ``assumed`` holds."""
        return not self.solver.propagate(assumptions=assumed)[0]

    def open(self, known: set[int]) -> list[int]:
        """The candidates a branch leaves open, as literals, fewest-candidate cells first."""
        n, masks = self.n, self.board.masks
        return [
            x
            for c in self.order
            for v in bits(masks[c])
            if (x := literal(n, c, v)) not in known and -x not in known
        ]

    def refute(self, x: int) -> list[int] | None:
        """The inner chains (candidates they remove) that break x's branch, in the
        order found (None: it does not break)."""
        removed: list[int] = []
        known = self.follow([x])
        while known is not None:
            more = False
            for y in self.open(known):
                if -y in known or y in known:
                    continue
                if self.pair_breaks(x, y) if not removed else self.breaks([x, *removed, y]):
                    removed.append(-y)
                    more = True
                    known = self.follow([x, *removed])
                    if known is None:
                        return removed
            if not more:
                return None
        return removed

    def fewest(self, x: int, removed: list[int]) -> list[int]:
        """The inner chains left once each that is not needed is dropped: what is
        kept still breaks the branch, each chain checked in order."""
        kept = list(removed)
        for lit in reversed(removed):
            trial = [k for k in kept if k != lit]
            if self.holds(x, trial):
                kept = trial
        return kept

    def holds(self, x: int, removed: list[int]) -> bool:
        """Whether each of ``removed`` follows by a chain inside x's branch given the
        ones before it, and the branch then breaks."""
        for i, lit in enumerate(removed):
            if not self.breaks([x, *removed[:i], -lit]):
                return False
        return self.breaks([x, *removed])


def nested(
    solver_of: Solver,
    truth: Callable[[], Sequence[int] | None] = lambda: None,
    words: str = "singles",
) -> Callable[[Board], Step | None]:
    """The finder of nested contradiction chains over ``solver_of``'s singles: of the
    first candidates whose branch breaks, the one that needs the fewest chains inside."""

    def find(board: Board) -> Step | None:
        solver = solver_of(board)
        try:
            return _fewest_step(board, Branches(board, solver), words, truth())
        finally:
            solver.delete()

    return find


def _fewest_step(
    board: Board, branches: Branches, words: str, truth: Sequence[int] | None
) -> Step | None:
    """The step of the candidate whose branch breaks with the fewest chains inside.
    A candidate the true candidates hold (when known) never breaks: it is not
    tried, which spares the search and decides nothing."""
    start = branches.follow([])
    if start is None:
        return None  # (the path names a broken board itself)
    n = board.size
    broken: list[tuple[int, list[int]]] = []
    for x in branches.open(start):
        cell, value = cell_value(n, x)
        if truth is not None and truth[cell] & bit(value):
            continue
        removed = branches.refute(x)
        if removed is not None:
            broken.append((x, removed))
            if len(removed) <= 1 or len(broken) == LOOKED_FOR:
                break
    if not broken:
        return None
    broken.sort(key=lambda found: len(found[1]))  # (stable: the first found of a length)
    tried = [(x, branches.fewest(x, removed)) for x, removed in broken[:TAKEN_APART]]
    x, inside = min(tried, key=lambda found: len(found[1]))
    cell, value = cell_value(board.size, x)
    if not inside:  # no chain inside: a plain contradiction chain, weighed as one
        length = branches.chain_length(x)
        return Step(
            CONTRADICTION,
            eliminations=((cell, value),),
            cells=(cell,),
            values=(value,),
            reason=f"{board.name(cell)}={board.symbol(value)} leads through {words} "
            "to a contradiction",
            length=length,
            technique=contradiction_chain(length),
            branches=((cell, value),),
        )
    shown = ", ".join(_name(board, -lit) for lit in inside[:SHOWN])
    more = f" and {len(inside) - SHOWN} more" if len(inside) > SHOWN else ""
    chains = "chain" if len(inside) == 1 else "chains"
    weighed = technique(len(inside))
    return Step(
        weighed.name,
        eliminations=((cell, value),),
        cells=(cell,),
        values=(value,),
        reason=f"{board.name(cell)}={board.symbol(value)} leads through {words}, with "
        f"{len(inside)} contradiction {chains} inside ({shown}{more} go), to a contradiction",
        technique=weighed,
        branches=((cell, value),),
        inside=tuple(cell_value(board.size, -lit) for lit in inside),
    )


def _name(board: Board, lit: int) -> str:
    c, v = cell_value(board.size, lit)
    return f"{board.name(c)}={board.symbol(v)}"


def technique(inside: int) -> Technique:
    """A nested chain's technique, weighed by how many chains it needs inside."""
    weight = round(min(WEIGHT + INSIDE * math.log2(max(inside, 1)), HEAVIEST), 1)
    return Technique(f"{NAME}, {inside} inside", "forcing", weight, "expert")
