"""How hard a puzzle is: what plain propagation settles, and how much search the rest needs.

Each level is the weakest reasoning that settles every cell, from the givens,
with the solution already known to be unique:

* ``simple``: naked singles (a cell with one candidate left) settle it: unit
  propagation over "each cell holds exactly one value" and "each value at most
  once per unit";
* ``easy``: hidden singles too (a value with one place left in a unit): the
  same plus "each value at least once per unit";
* ``intermediate``: box-line reasoning too (pointing and claiming): unit
  propagation over the batch engine's triads;
* ``expert``: search. A depth-first search that propagates (the triad rules)
  at every node, branching on the open cell with the fewest candidates in
  order, until it has proved the solution unique; ``nodes`` counts its nodes.

``rating`` is 1, 2 and 3 for the first three levels, and 4 + log2(nodes) for
the last, so it grows with the search a puzzle needs.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache

from pysat.solvers import Solver

from .encoding import groups, pairwise
from .engine import batch_engine
from .fast import PROBE_SOLVER, FastSolver
from .puzzle import Puzzle
from .solvers.pysat_backend import interruptible

LEVELS = ("simple", "easy", "intermediate", "expert")


@dataclass(frozen=True)
class Rating:
    """How hard a puzzle with a unique solution is."""

    level: str
    rating: float
    nodes: int = 0
    """Search nodes (``expert`` only): propagations of the search tree."""

    def as_dict(self) -> dict[str, object]:
        return {"level": self.level, "rating": self.rating, "nodes": self.nodes}


class Rater:
    """Rates puzzles of one rank; keep one per process (see :func:`rater`)."""

    def __init__(self, rank: int) -> None:
        n = rank * rank
        cells, unit_values = groups(rank)
        pairs = pairwise(cells + unit_values)
        self.cells = n**3
        self.naked = Solver(name=PROBE_SOLVER, bootstrap_with=cells + pairs)
        self.hidden = Solver(name=PROBE_SOLVER, bootstrap_with=cells + pairs + unit_values)
        self.engine: FastSolver = batch_engine(rank)

    def rate(self, puzzle: Puzzle) -> Rating:
        """The rating of a puzzle whose solution is unique (check that first)."""
        n = puzzle.size
        givens = [cell * n + v for cell, v in puzzle.givens]
        for level, probe, settled in (
            ("simple", self.naked, self.cells),
            ("easy", self.hidden, self.cells),
            ("intermediate", self.engine.probe, self.engine.top),
        ):
            ok, implied = interruptible(probe.propagate, assumptions=givens)
            if ok and len(implied) == settled:
                return Rating(level, float(LEVELS.index(level) + 1))
        nodes = self.search_nodes(givens)
        return Rating("expert", round(4 + math.log2(nodes), 3), nodes)

    def search_nodes(self, givens: list[int]) -> int:
        """Nodes of the search that proves the solution unique (stops at a second one)."""
        engine, n = self.engine, self.engine.size
        nodes = solutions = 0

        def visit(assumed: list[int]) -> None:
            nonlocal nodes, solutions
            nodes += 1
            ok, implied = interruptible(engine.probe.propagate, assumptions=assumed)
            if not ok:
                return
            if len(implied) == engine.top:
                solutions += 1
                return
            open_vars = sorted(engine.cube.difference(map(abs, implied)))
            by_cell: dict[int, list[int]] = {}
            for v in open_vars:
                by_cell.setdefault((v - 1) // n, []).append(v)
            branch = min(by_cell.values(), key=len)  # fewest candidates, lowest cell first
            for v in branch:
                visit([*assumed, v])
                if solutions > 1:
                    return

        visit(givens)
        return nodes


@cache
def rater(rank: int) -> Rater:
    """One rater per rank and process."""
    return Rater(rank)


def rate(puzzle: Puzzle) -> Rating:
    """How hard ``puzzle`` is; its solution must be unique."""
    return rater(puzzle.rank).rate(puzzle)
