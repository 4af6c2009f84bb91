"""What solving one puzzle gives: a status, the verified solutions, and why.

Both engines (:mod:`engine`, the general one, and :mod:`fast`, the batch
engine) answer with an :class:`Outcome`; the rules for reading a search into a
status and for accepting a grid live here, once.
"""

from __future__ import annotations

import signal
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from sudosat.core.errors import SolverError
from sudosat.core.jsonobject import JsonObject
from sudosat.core.puzzle import Clash, Grid, Puzzle, cell_name, verify
from sudosat.sat.cnf import Encoding
from sudosat.system.process import signal_of


class Status(str, Enum):
    """How a puzzle came out. A ``str``, so ``status == "unique"`` and JSON work."""

    UNIQUE = "unique"
    MULTIPLE = "multiple"
    NONE = "none"
    SOLVED = "solved"
    """A solution was found and uniqueness was not asked for (``max_solutions=1``)."""
    TIMEOUT = "timeout"
    ERROR = "error"
    """The solver failed, or (in a batch) the input could not be read."""

    def __str__(self) -> str:
        return self.value


@dataclass
class Stats:
    """What the MiniSat report prints, for one puzzle: sizes, search effort, time."""

    variables: int = 0
    clauses: int = 0
    deduced: int | None = None
    """Cells placed by naked and hidden singles before the CNF was built."""
    ruled_out: int | None = None
    """Candidates those singles removed (beyond what the givens' peers lose)."""
    conflicts: int | None = None
    decisions: int | None = None
    propagations: int | None = None
    restarts: int | None = None
    solves: int = 0
    time: float = 0.0
    families: dict[str, int] | None = None
    """A variant's clause families and how many clauses each has."""

    def as_dict(self) -> JsonObject:
        return dict(vars(self))

    def add_search(self, known: dict[str, int]) -> None:
        """Take a solver's ``accum_stats()``."""
        self.conflicts = known.get("conflicts")
        self.decisions = known.get("decisions")
        self.propagations = known.get("propagations")
        self.restarts = known.get("restarts")


@dataclass
class Outcome:
    """The result of solving one puzzle."""

    puzzle: Puzzle
    status: Status
    solutions: list[Grid] = field(default_factory=list)
    exhausted: bool = False
    """True when the search proved there are no more solutions than those listed."""
    clashes: list[Clash] = field(default_factory=list)
    reason: str = ""
    solver: str = ""
    encoding: Encoding | None = None
    stats: Stats = field(default_factory=Stats)

    @property
    def unique(self) -> bool | None:
        """True or False once the search has decided it; None when it has not."""
        if self.status in (Status.UNIQUE, Status.MULTIPLE, Status.NONE):
            return self.status == Status.UNIQUE
        return None


def status_of(found: int, exhausted: bool) -> Status:
    """The status of a search that found ``found`` solutions, ``exhausted`` or not."""
    if found == 0:
        return Status.NONE
    if found > 1:
        return Status.MULTIPLE
    return Status.UNIQUE if exhausted else Status.SOLVED


INTERRUPTED = "interrupted"
"""The reason of an outcome cut short by Ctrl-C: its solutions are a lower bound."""


class Interrupted(KeyboardInterrupt):
    """Ctrl-C (or SIGTERM, SIGHUP: ``signum``) during a search: a KeyboardInterrupt
    that carries what the search had found by then (``outcome``, not exhausted),
    so a count can say ``N+``."""

    def __init__(self, outcome: Outcome, signum: int = signal.SIGINT) -> None:
        super().__init__()
        self.outcome = outcome
        self.signum = signum
        self.result: Any = None
        """The record a batch made of ``outcome``, where its task keeps one."""


def interrupted(
    puzzle: Puzzle, found: list[Grid], solver: str, stats: Stats, stop: BaseException
) -> Interrupted:
    """The Interrupted of a search that had found ``found`` when ``stop`` came."""
    status = status_of(len(found), False) if found else Status.TIMEOUT
    outcome = Outcome(puzzle, status, found, False, reason=INTERRUPTED, solver=solver, stats=stats)
    return Interrupted(outcome, signal_of(stop))


def dead_cell(puzzle: Puzzle) -> int | None:
    """A blank cell that every value is ruled out of by its peers' givens."""
    for cell, values in enumerate(puzzle.candidates):
        if not values:
            return cell
    return None


def why_none(puzzle: Puzzle, dead_cells: bool = True) -> tuple[list[Clash], str]:
    """What the givens alone show against a solution: the clashing clues, and a reason
    sentence (the first clash, or a cell nothing fits; empty when neither shows)."""
    clashes = puzzle.clashes()
    if clashes:
        return clashes, clashes[0].describe(puzzle)
    dead = dead_cell(puzzle) if dead_cells else None
    return [], f"no value fits {cell_name(puzzle.size, dead)}" if dead is not None else ""


def no_solution(puzzle: Puzzle, solver: str = "", dead_cells: bool = True) -> Outcome:
    """The outcome of a puzzle proved to have no solution, with what the givens show
    (``dead_cells``: look for a cell nothing fits, too)."""
    clashes, reason = why_none(puzzle, dead_cells)
    return Outcome(
        puzzle, Status.NONE, exhausted=True, clashes=clashes, reason=reason, solver=solver
    )


def accept(puzzle: Puzzle, grid: Grid, found: list[Grid], solver: str) -> Grid:
    """``grid`` added to ``found`` once it is checked: a solution of ``puzzle`` (rules
    and givens) not found before. Anything else is the solver's fault."""
    problems = verify(puzzle, grid)
    if problems:
        raise SolverError(f"{solver} returned a model that is no solution: {problems[0]}")
    if grid in found:
        raise SolverError(f"{solver} returned a blocked solution again")
    found.append(grid)
    return grid


def forced_grid_breaks(puzzle: Puzzle, grid: Grid) -> str:
    """Why the one grid the rows, columns and regions leave (the singles filled every
    cell) is no solution: the rule it breaks, so the puzzle has none; "" when it is one.

    The singles know only the rows, columns, regions and the cells' narrowed
    candidates, and every value they place holds in every solution; so when their
    grid breaks a rule, no grid keeps them all."""
    problems = verify(puzzle, grid)
    return f"the givens force a grid that breaks {problems[0]}" if problems else ""
