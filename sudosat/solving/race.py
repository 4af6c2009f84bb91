"""A portfolio's race, or one PySAT solve that a deadline or a signal must be able
to stop: each solver in a forked child of its own, reporting to the parent
through a pipe; the first to finish answers, the others are stopped (a solver
program by its child, which kills it and cleans up; a PySAT solver, which holds
the interpreter, by SIGKILL). :mod:`engine` says what each child runs."""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import shutil
import signal
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sudosat.core.errors import SolverError, SolverTimeout
from sudosat.core.puzzle import Puzzle
from sudosat.sat.cnf import Encoding
from sudosat.sat.deadline import deadline_after
from sudosat.sat.solvers import SolverSpec
from sudosat.solving import progress
from sudosat.solving.outcome import Outcome, Status
from sudosat.system import janitor
from sudosat.system.signals import PR_SET_PDEATHSIG, held, prctl

Report = Callable[[str, Any], None]
"""Where the search sends ``("deduced", (cells, candidates))``, ``("size",
(variables, clauses))``, ``("solution", grid)`` and finally ``("done", (solver
name, Stats))``, or ``("none", reason)`` when the singles find a contradiction."""
Run = Callable[[Puzzle, Encoding, SolverSpec, int, Report, "float | None", bool], None]
"""A search, run in the child: the puzzle, its encoding, the solver, the most
solutions wanted, where its reports go, its deadline, and whether Minicard goes
first (:func:`engine._run`)."""
Receive = Callable[[Outcome, int], Report]
"""What fills an outcome in from a search's reports (:func:`engine._receive`)."""


class _Stopped(BaseException):
    """SIGTERM in a child: unwinds it so that a solver program is killed first."""


def _stop_child(signum: int, frame: object) -> None:
    raise _Stopped


def _child(
    run: Run,
    outcome: Outcome,
    solver: SolverSpec,
    limit: int,
    quick: bool,
    deadline: float | None,
    conn: Any,
    scratch: str | None,
) -> None:
    """In the forked process: run the search, sending every report to the parent.
    A solver program's files go in ``scratch``, which the parent removes."""
    _die_with_parent()
    signal.signal(signal.SIGTERM, _stop_child)
    tempfile.tempdir = scratch
    try:
        assert outcome.encoding is not None
        send = lambda *m: conn.send(m)  # noqa: E731
        run(outcome.puzzle, outcome.encoding, solver, limit, send, deadline, quick)
    except BaseException as err:  # reported to the parent, never lost
        text = str(err) if isinstance(err, SolverError) else f"{type(err).__name__}: {err}"
        kind = "timeout" if isinstance(err, SolverTimeout) else "error"
        with contextlib.suppress(OSError):  # the parent has stopped listening
            conn.send((kind, text))
    finally:
        conn.close()


def _die_with_parent() -> None:
    """Linux: this process gets SIGKILL when its parent ends, however it ends (a
    worker process is ended by SIGTERM without running any cleanup)."""
    prctl(PR_SET_PDEATHSIG, signal.SIGKILL)  # not Linux: the parent cleans up


@dataclass
class _Runner:
    """One solver of a race: its process and what it has reported so far."""

    solver: SolverSpec
    process: Any  # a forked multiprocessing.Process
    reports: list[tuple[str, Any]]
    scratch: str | None = None
    """The directory of a solver program's files, removed once the child has ended."""

    def found(self) -> int:
        return sum(kind == "solution" for kind, _ in self.reports)

    def stop(self) -> None:
        """A solver program is killed by the child itself (SIGTERM unwinds it); a
        PySAT solver ignores signals until its solve returns, so SIGKILL."""
        process = self.process
        if process.is_alive() and process.pid is not None:
            if self.solver.external:
                os.kill(process.pid, signal.SIGTERM)
                process.join(STOP_GRACE)
            with contextlib.suppress(ProcessLookupError):
                if process.is_alive():
                    os.kill(process.pid, signal.SIGKILL)
        if process.pid is not None:  # started
            process.join()
        if self.scratch is not None:  # however the child ended
            with held():
                shutil.rmtree(self.scratch, ignore_errors=True)
                janitor.forget_directory(self.scratch)


STOP_GRACE = 2.0
"""Seconds a child running a solver program has to kill it and clean up."""


def race(
    outcome: Outcome,
    solvers: tuple[SolverSpec, ...],
    limit: int,
    timeout: float | None,
    quick: bool,
    run: Run,
    fill: Receive,
) -> None:
    """Each solver in a child process of its own, all at once, running ``run``: the
    first to finish gives ``outcome`` (its reports replayed through ``fill``)
    and the others are stopped. Solver failures count only when every solver
    fails; at the deadline the one with the most solutions speaks."""
    from multiprocessing import connection  # deferred: a portfolio's race alone

    context = multiprocessing.get_context("fork")
    deadline = deadline_after(timeout)
    runners: dict[connection.Connection, _Runner] = {}
    errors: list[str] = []
    timeouts: list[str] = []
    try:
        for solver in solvers:
            receive, send = context.Pipe(duplex=False)
            scratch = tempfile.mkdtemp(prefix="sudosat-") if solver.external else None
            if scratch is not None:
                janitor.watch_directory(scratch)
            args = (
                run,
                outcome,
                solver,
                limit,
                quick and len(solvers) == 1,
                deadline,
                send,
                scratch,
            )
            process = context.Process(target=_child, args=args)
            runners[receive] = _Runner(solver, process, [], scratch)
            process.start()
            send.close()
        waiting = dict(runners)
        while waiting:
            # a signal handler runs during the wait (PEP 475), so SIGTERM acts at once
            remaining = None if deadline is None else deadline - time.monotonic()
            ready = (
                []
                if remaining is not None and remaining <= 0
                else connection.wait(waiting, remaining)
            )
            if not ready:
                break
            for conn in ready:
                assert isinstance(conn, connection.Connection)
                runner = waiting[conn]
                try:
                    kind, payload = conn.recv()
                except EOFError:
                    runner.process.join()
                    code = runner.process.exitcode
                    kind, payload = "error", f"{runner.solver.name} died (exit code {code})"
                if kind in ("error", "timeout"):
                    (errors if kind == "error" else timeouts).append(payload)
                    del waiting[conn]
                    continue
                runner.reports.append((kind, payload))
                if kind == "solution":
                    progress.tell("solutions found", runner.found())
                if kind in ("done", "none"):
                    _replay(runner, fill(outcome, limit))
                    return
        if not waiting and not timeouts:  # every solver failed
            raise SolverError("; ".join(errors))
        _replay(max(runners.values(), key=_Runner.found), fill(outcome, limit))
        outcome.status = Status.TIMEOUT
        late = f"no answer within {timeout:g} s"
        outcome.reason = timeouts[0] if timeouts and not waiting else late
    except KeyboardInterrupt:
        if runners:  # the most any solver had found: the caller's lower bound
            _replay(max(runners.values(), key=_Runner.found), fill(outcome, limit))
        raise
    finally:
        for conn, runner in runners.items():
            runner.stop()
            conn.close()


def _replay(runner: _Runner, report: Report) -> None:
    for kind, payload in runner.reports:
        report(kind, payload)
