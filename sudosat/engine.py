"""Solving: one solution, the uniqueness check, enumeration, timeouts.

Uniqueness is decided by re-solving with the found solution blocked; the
blocking clause only names the cells the CNF decides, so variables that are
in no clause (which some solvers set freely) cannot fake a second solution.
Every solution is checked against the rules and the givens before it counts.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from .encoding import Cnf, Encoding, encode
from .puzzle import Clash, Grid, Puzzle, cell_name, verify
from .solvers import DEFAULT_SOLVER, SatSolver, SolverError, open_solver

UNIQUE, MULTIPLE, NONE, SOLVED, TIMEOUT, ERROR = (
    "unique",
    "multiple",
    "none",
    "solved",
    "timeout",
    "error",
)
"""``solved``: a solution was found and uniqueness was not asked for."""


@dataclass
class Stats:
    """What the MiniSat report prints, for one puzzle: sizes, search effort, time."""

    variables: int = 0
    clauses: int = 0
    conflicts: int | None = None
    decisions: int | None = None
    propagations: int | None = None
    restarts: int | None = None
    solves: int = 0
    time: float = 0.0

    def as_dict(self) -> dict[str, Any]:
        return dict(vars(self))


@dataclass
class Outcome:
    """The result of solving one puzzle."""

    puzzle: Puzzle
    status: str
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
        if self.status in (UNIQUE, MULTIPLE, NONE):
            return self.status == UNIQUE
        return None


def _dead_cell(puzzle: Puzzle) -> int | None:
    """A blank cell that every value is ruled out of by its peers' givens."""
    for cell, values in enumerate(puzzle.candidates()):
        if not values:
            return cell
    return None


def _search(cnf: Cnf, solver: SatSolver, max_solutions: int) -> Iterator[Grid]:
    """Solutions, verified, until ``max_solutions`` or there are no more."""
    puzzle = cnf.puzzle
    found: list[Grid] = []
    solver.add_clauses(cnf.clauses)
    while len(found) < max_solutions:
        if not solver.solve():
            return
        grid = cnf.decode(solver.get_model())
        problems = verify(puzzle, grid)
        if problems:
            raise SolverError(f"{solver.name} returned a model that is no solution: {problems[0]}")
        if grid in found:
            raise SolverError(f"{solver.name} returned a blocked solution again")
        found.append(grid)
        yield grid
        solver.add_clauses([cnf.blocking_clause(grid)])


def _fill_stats(stats: Stats, solver: SatSolver, solves: int) -> None:
    known = solver.accum_stats()
    stats.conflicts = known.get("conflicts")
    stats.decisions = known.get("decisions")
    stats.propagations = known.get("propagations")
    stats.restarts = known.get("restarts")
    stats.solves = solves


def _status(found: int, exhausted: bool) -> str:
    if found == 0:
        return NONE
    if found > 1:
        return MULTIPLE
    return UNIQUE if exhausted else SOLVED


def solve(
    puzzle: Puzzle,
    *,
    solver: str = DEFAULT_SOLVER,
    encoding: Encoding | None = None,
    max_solutions: int = 2,
    timeout: float | None = None,
) -> Outcome:
    """Solve ``puzzle``; look for up to ``max_solutions`` (2 = the uniqueness check).

    With a ``timeout`` the search runs in a child process that is killed at
    the deadline; solutions found by then are kept.
    """
    encoding = encoding or Encoding()
    start = time.perf_counter()
    outcome = Outcome(puzzle, NONE, solver=solver, encoding=encoding)
    outcome.clashes = puzzle.clashes()
    dead = None if outcome.clashes else _dead_cell(puzzle)
    if outcome.clashes or dead is not None:
        outcome.exhausted = True
        if dead is not None:
            outcome.reason = f"no value fits {cell_name(puzzle.rank, dead)}"
        outcome.stats.time = time.perf_counter() - start
        return outcome
    cnf = encode(puzzle, encoding)
    outcome.stats.variables = len(cnf.cell_variables) + cnf.nv - puzzle.size**3
    outcome.stats.clauses = len(cnf.clauses)
    if timeout is None:
        _solve_here(cnf, outcome, max_solutions)
    else:
        _solve_in_child(cnf, outcome, max_solutions, timeout)
    outcome.stats.time = time.perf_counter() - start
    return outcome


def _solve_here(cnf: Cnf, outcome: Outcome, max_solutions: int) -> None:
    with open_solver(outcome.solver) as backend:
        outcome.solver = backend.name
        outcome.solutions = list(_search(cnf, backend, max_solutions))
        outcome.exhausted = len(outcome.solutions) < max_solutions
        _fill_stats(outcome.stats, backend, len(outcome.solutions) + outcome.exhausted)
    outcome.status = _status(len(outcome.solutions), outcome.exhausted)


def _child(cnf: Cnf, solver_name: str, max_solutions: int, conn: Any) -> None:
    """Run in a forked process: send each solution, then the end of the search."""
    try:
        with open_solver(solver_name) as backend:
            count = 0
            for grid in _search(cnf, backend, max_solutions):
                count += 1
                conn.send(("solution", grid))
            stats = Stats()
            _fill_stats(stats, backend, count + (count < max_solutions))
            conn.send(("done", backend.name, stats))
    except SolverError as err:
        conn.send(("error", str(err)))
    except BaseException as err:
        conn.send(("error", f"{type(err).__name__}: {err}"))
    finally:
        conn.close()


def _solve_in_child(cnf: Cnf, outcome: Outcome, max_solutions: int, timeout: float) -> None:
    context = multiprocessing.get_context("fork")
    receive, send = context.Pipe(duplex=False)
    process = context.Process(target=_child, args=(cnf, outcome.solver, max_solutions, send))
    deadline = time.monotonic() + timeout
    process.start()
    send.close()
    try:
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0 or not receive.poll(remaining):
                outcome.status = TIMEOUT
                outcome.reason = f"no answer within {timeout:g} s"
                return
            try:
                message = receive.recv()
            except EOFError:
                raise SolverError(f"{outcome.solver} died (exit code {process.exitcode})") from None
            if message[0] == "solution":
                outcome.solutions.append(message[1])
            elif message[0] == "error":
                raise SolverError(message[1])
            else:
                _, outcome.solver, stats = message
                for key in ("conflicts", "decisions", "propagations", "restarts", "solves"):
                    setattr(outcome.stats, key, getattr(stats, key))
                outcome.exhausted = len(outcome.solutions) < max_solutions
                outcome.status = _status(len(outcome.solutions), outcome.exhausted)
                return
    finally:
        if process.is_alive() and process.pid is not None:
            os.kill(process.pid, signal.SIGKILL)
        process.join()
        receive.close()


def solve_safely(puzzle: Puzzle, **options: Any) -> Outcome:
    """Like :func:`solve`, but a solver failure becomes an ``error`` outcome."""
    try:
        return solve(puzzle, **options)
    except SolverError as err:
        return Outcome(puzzle, ERROR, reason=str(err), solver=options.get("solver", ""))
