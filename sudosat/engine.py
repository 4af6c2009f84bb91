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
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from .dimacs import SAT, UNSAT, Answer
from .encoding import Cnf, Encoding, decode_model, encode
from .puzzle import Clash, Grid, Puzzle, cell_name, verify
from .solvers import (
    DEFAULT_SOLVER,
    SatSolver,
    SolverError,
    SolverSpec,
    SolverTimeout,
    solver_spec,
)

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
    for cell, values in enumerate(puzzle.candidates):
        if not values:
            return cell
    return None


def why_none(puzzle: Puzzle) -> str:
    """Why the givens alone leave no solution: clashing clues or a cell nothing fits;
    empty when neither shows."""
    clashes = puzzle.clashes()
    if clashes:
        return clashes[0].describe(puzzle)
    dead = _dead_cell(puzzle)
    return f"no value fits {cell_name(puzzle.rank, dead)}" if dead is not None else ""


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


def _search(cnf: Cnf, solver: SatSolver, max_solutions: int) -> Iterator[Grid]:
    """Solutions, verified, until ``max_solutions`` or there are no more."""
    found: list[Grid] = []
    solver.add_clauses(cnf.clauses)
    while len(found) < max_solutions:
        if not solver.solve():
            return
        grid = accept(cnf.puzzle, cnf.decode(solver.get_model()), found, solver.name)
        yield grid
        solver.add_clauses([cnf.blocking_clause(grid)])


def status_of(found: int, exhausted: bool) -> str:
    """The status of a search that found ``found`` solutions, ``exhausted`` or not."""
    if found == 0:
        return NONE
    if found > 1:
        return MULTIPLE
    return UNIQUE if exhausted else SOLVED


Report = Callable[[str, Any], None]
"""Where the search sends ``("size", (variables, clauses))``, ``("solution", grid)``
and finally ``("done", (solver name, Stats))``."""


def _run(
    puzzle: Puzzle,
    encoding: Encoding,
    solver: SolverSpec,
    limit: int,
    report: Report,
    deadline: float | None = None,
) -> None:
    """Encode, search and report: the same steps in process and in a child."""
    cnf = encode(puzzle, encoding)
    report("size", (len(cnf.cell_variables) + cnf.nv - puzzle.size**3, len(cnf.clauses)))
    with solver.open(deadline) as backend:
        count = 0
        for grid in _search(cnf, backend, limit):
            count += 1
            report("solution", grid)
        known = backend.accum_stats()
        stats = Stats(
            conflicts=known.get("conflicts"),
            decisions=known.get("decisions"),
            propagations=known.get("propagations"),
            restarts=known.get("restarts"),
            solves=count + (count < limit),
        )
        report("done", (backend.name, stats))


def _receive(outcome: Outcome, limit: int) -> Report:
    """A Report that fills ``outcome`` in."""

    def report(kind: str, payload: Any) -> None:
        if kind == "size":
            outcome.stats.variables, outcome.stats.clauses = payload
        elif kind == "solution":
            outcome.solutions.append(payload)
        else:
            outcome.solver, stats = payload
            stats.variables, stats.clauses = outcome.stats.variables, outcome.stats.clauses
            outcome.stats = stats
            outcome.exhausted = len(outcome.solutions) < limit
            outcome.status = status_of(len(outcome.solutions), outcome.exhausted)

    return report


def solve(
    puzzle: Puzzle,
    *,
    solver: str | SolverSpec = DEFAULT_SOLVER,
    encoding: Encoding | None = None,
    max_solutions: int = 2,
    timeout: float | None = None,
) -> Outcome:
    """Solve ``puzzle``; look for up to ``max_solutions`` (2 = the uniqueness check).

    ``solver`` is a name (see :func:`solver_spec`) or a :class:`SolverSpec`. With a
    ``timeout``, PySAT solvers run (encoding included) in a child process that is
    killed at the deadline, and solver programs are killed at it; solutions
    found by then are kept.
    """
    spec = solver_spec(solver) if isinstance(solver, str) else solver
    encoding = encoding or Encoding()
    start = time.perf_counter()
    outcome = Outcome(puzzle, NONE, solver=spec.name, encoding=encoding)
    outcome.clashes = puzzle.clashes()
    dead = None if outcome.clashes else _dead_cell(puzzle)
    if dead is not None:
        outcome.reason = f"no value fits {cell_name(puzzle.rank, dead)}"
    if outcome.clashes or dead is not None:
        outcome.exhausted = True
    elif timeout is None or spec.external:
        deadline = None if timeout is None else time.monotonic() + timeout
        report = _receive(outcome, max_solutions)
        try:
            _run(puzzle, encoding, spec, max_solutions, report, deadline)
        except SolverTimeout as stopped:
            outcome.status, outcome.reason = TIMEOUT, str(stopped)
    else:
        _run_in_child(outcome, spec, max_solutions, timeout)
    outcome.stats.time = time.perf_counter() - start
    return outcome


def _child(outcome: Outcome, solver: SolverSpec, limit: int, conn: Any) -> None:
    """In the forked process: run the search, sending every report to the parent."""
    try:
        assert outcome.encoding is not None
        _run(outcome.puzzle, outcome.encoding, solver, limit, lambda *m: conn.send(m))
    except BaseException as err:  # reported to the parent, never lost
        text = str(err) if isinstance(err, SolverError) else f"{type(err).__name__}: {err}"
        conn.send(("error", text))
    finally:
        conn.close()


def _run_in_child(outcome: Outcome, solver: SolverSpec, limit: int, timeout: float) -> None:
    context = multiprocessing.get_context("fork")
    receive, send = context.Pipe(duplex=False)
    process = context.Process(target=_child, args=(outcome, solver, limit, send))
    deadline = time.monotonic() + timeout
    report = _receive(outcome, limit)
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
                kind, payload = receive.recv()
            except EOFError:
                raise SolverError(f"{outcome.solver} died (exit code {process.exitcode})") from None
            if kind == "error":
                raise SolverError(payload)
            report(kind, payload)
            if kind == "done":
                return
    finally:
        if process.is_alive() and process.pid is not None:
            os.kill(process.pid, signal.SIGKILL)
        process.join()
        receive.close()


def check_answer(puzzle: Puzzle, answer: Answer, solver: str = "") -> Outcome:
    """The outcome a solver's answer for one of ``puzzle``'s CNFs gives, verified.

    A model that is no solution raises SolverError; UNKNOWN is a timeout.
    """
    outcome = Outcome(puzzle, NONE, solver=solver, clashes=puzzle.clashes())
    if answer.status == UNSAT:
        outcome.exhausted = True
    elif answer.status != SAT:
        outcome.status, outcome.reason = TIMEOUT, "the solver gave no answer (UNKNOWN)"
    else:
        grid = decode_model(puzzle, answer.model)
        problems = verify(puzzle, grid)
        if problems:
            raise SolverError(f"the model is no solution of the puzzle: {problems[0]}")
        outcome.status, outcome.solutions = SOLVED, [grid]
    return outcome


def solve_safely(puzzle: Puzzle, **options: Any) -> Outcome:
    """Like :func:`solve`, but a solver failure becomes an ``error`` outcome."""
    try:
        return solve(puzzle, **options)
    except SolverError as err:
        solver = options.get("solver", DEFAULT_SOLVER)
        name = solver if isinstance(solver, str) else solver.name
        return Outcome(puzzle, ERROR, reason=str(err), solver=name)
