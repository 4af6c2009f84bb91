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
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

from pysat.solvers import Minicard

from sudosat.core.masks import bit
from sudosat.logic.board import Board, Step, Technique
from sudosat.logic.branches import DEEP_BUDGET, Branches, OverBudget
from sudosat.logic.forcing import CONTRADICTION, contradiction_chain
from sudosat.logic.levels import Family, Level
from sudosat.sat.cnf import cell_value, literal, ruled_out
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
