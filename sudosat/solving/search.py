"""One puzzle's solutions, one after another: what counting and sampling share.

The singles first (every value they place holds in every solution), then the
reduced CNF of what they leave open on one Minicard (the rules as native
"exactly one" constraints). Each solution is checked by the rules' own checks
before it is handed out, and blocked so that the next one differs.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass, replace

from pysat.solvers import Minicard

from sudosat.core.errors import SolverError
from sudosat.core.puzzle import Grid, Puzzle, verify
from sudosat.sat.cnf import Cnf, Encoding, literal
from sudosat.sat.deadline import solve_by
from sudosat.sat.encoding import encode
from sudosat.sat.limits import check_solvable
from sudosat.solving.deduce import deduce
from sudosat.solving.fast import holding
from sudosat.solving.outcome import forced_grid_breaks, why_none


@dataclass
class Opened:
    """A puzzle made ready to search: the reduced CNF of what the singles leave
    open; or, when they decide it, the one grid they fill, or why there is none."""

    puzzle: Puzzle
    cnf: Cnf | None = None
    grid: Grid | None = None
    none: str = ""
    """Why there is no solution, when the givens or the singles show it."""


def opened(puzzle: Puzzle) -> Opened:
    """``puzzle`` ready to search (see :class:`Opened`); TooBig for a grid past
    this machine's memory."""
    _, reason = why_none(puzzle, True)
    if reason:
        return Opened(puzzle, none=reason)
    deduced = deduce(puzzle)
    if deduced.contradiction:
        return Opened(puzzle, none=deduced.contradiction)
    target = replace(puzzle, cells=deduced.grid)
    check_solvable(target, True)  # a one-line TooBig, not a MemoryError later
    cnf = encode(target, Encoding(), compact=True, masks=deduced.masks)
    if not cnf.open_cells:
        broken = forced_grid_breaks(puzzle, target.cells)
        return Opened(puzzle, none=broken) if broken else Opened(puzzle, grid=target.cells)
    return Opened(puzzle, cnf)


def solutions(
    puzzle: Puzzle, deadline: float | None = None, seed: int | None = None
) -> Iterator[Grid]:
    """Every solution of ``puzzle``, each once and checked, until there are no more
    (SolverTimeout once ``deadline`` passes). ``seed``: the solver starts from
    random phases, so that the first solution is a random one."""
    found = opened(puzzle)
    if found.grid is not None:
        yield found.grid
    if found.cnf is None:
        return
    cnf = found.cnf
    search = holding(cnf)
    try:
        if seed is not None:
            _random_phases(search, cnf, random.Random(seed))
        while solve_by(search, deadline):
            grid = cnf.decode(search.get_model())
            problems = verify(puzzle, grid)  # (no list of those found: a count may be huge)
            if problems:
                raise SolverError(f"minicard returned a model that is no solution: {problems[0]}")
            search.add_clause(cnf.blocking_clause(grid))
            yield grid
    finally:
        search.delete()


def _random_phases(search: Minicard, cnf: Cnf, rng: random.Random) -> None:
    top = sum(len(values) for _, values in cnf.open_cells) if cnf.compact else 0
    if cnf.compact:
        search.set_phases([v * rng.choice((1, -1)) for v in range(1, top + 1)])
        return
    n = cnf.puzzle.size
    search.set_phases(
        [literal(n, c, v) * rng.choice((1, -1)) for c, values in cnf.open_cells for v in values]
    )
