"""Deadlines for PySAT calls in process, without changing the search.

A solve with a deadline runs as ``solve_limited(expect_interrupt=True)``, which
lets other threads run while it works; one alarm thread per process calls the
solver's ``interrupt()`` when the deadline passes. Until then the search is the
very one an unlimited ``solve()`` makes, so a timeout never changes an answer,
a model or a count of conflicts: it only stops the work. (Conflict budgets in
slices would restart the search between slices.)

MiniSat's family (Minicard, Glucose, MiniSat, Maple) and RC2 can be
interrupted; CaDiCaL cannot, and keeps the interpreter until it is done: the
engine runs it in a child process when it has a deadline.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable, Iterable
from typing import Any, Protocol, TypeVar

import pysolvers

from sudosat.core.errors import SolverError, SolverTimeout
from sudosat.system.signals import quiet_thread

T = TypeVar("T")


def interruptible(call: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """``call(...)`` with Ctrl-C as KeyboardInterrupt: PySAT's C code traps SIGINT
    and raises pysolvers.error instead."""
    try:
        return call(*args, **kwargs)
    except pysolvers.error as error:
        if "keyboard interrupt" in str(error).lower():
            raise KeyboardInterrupt from None
        raise SolverError(f"PySAT solver failed: {error}") from None


class Interruptible(Protocol):
    def interrupt(self) -> None: ...


class _Alarm:
    """Interrupts the one watched call of this process when its deadline passes."""

    def __init__(self) -> None:
        self.changed = threading.Condition()
        self.watched: tuple[Interruptible, float] | None = None
        self.rang = False
        self.thread: threading.Thread | None = None

    def watch(self, target: Interruptible, deadline: float) -> None:
        with self.changed:
            self.watched, self.rang = (target, deadline), False
            if self.thread is None:
                self.thread = quiet_thread(self._run, "sudosat-deadline")
            self.changed.notify()

    def release(self) -> bool:
        """Stops watching; whether the deadline was reached."""
        with self.changed:
            self.watched = None
            return self.rang

    def _run(self) -> None:
        with self.changed:
            while True:
                if self.watched is None:
                    self.changed.wait()
                    continue
                target, deadline = self.watched
                left = deadline - time.monotonic()
                if left > 0:
                    self.changed.wait(left)
                    continue
                target.interrupt()
                self.watched, self.rang = None, True


_alarm = _Alarm()


def _new_alarm() -> None:
    global _alarm
    _alarm = _Alarm()  # threads do not survive a fork


os.register_at_fork(after_in_child=_new_alarm)


def remaining(deadline: float | None) -> float | None:
    """Seconds left until ``deadline`` (``time.monotonic()``); None for none.
    SolverTimeout when it has passed."""
    if deadline is None:
        return None
    left = deadline - time.monotonic()
    if left <= 0:
        raise SolverTimeout("deadline passed")
    return left


def deadline_after(seconds: float | None) -> float | None:
    return None if seconds is None else time.monotonic() + seconds


def solve_by(solver: Any, deadline: float | None, assumptions: Iterable[int] = ()) -> bool:
    """``solver.solve(assumptions)`` for a PySAT solver of MiniSat's family;
    SolverTimeout when ``deadline`` passes first (the solver stays usable)."""
    if deadline is None:
        return bool(interruptible(solver.solve, assumptions=list(assumptions)))
    result = _limited(solver, deadline, assumptions)
    if result is None:
        raise SolverTimeout("deadline passed")
    return result


def solve_budgeted(
    solver: Any, deadline: float | None, assumptions: Iterable[int], conflicts: int
) -> bool | None:
    """:func:`solve_by` within ``conflicts`` conflicts: None when they run out (a
    budget, not a time, so that the same question gets the same answer on any
    machine); SolverTimeout when ``deadline`` passes first."""
    solver.conf_budget(conflicts)
    result = _limited(solver, deadline, assumptions)
    if result is None and deadline is not None:
        remaining(deadline)  # raises when it was the deadline, not the budget
    return result


def _limited(solver: Any, deadline: float | None, assumptions: Iterable[int]) -> bool | None:
    """``solve_limited``, stopped at ``deadline`` when there is one; None when it
    stopped (the deadline, or a budget set on the solver)."""
    if deadline is None:
        result = interruptible(solver.solve_limited, assumptions=list(assumptions))
        return None if result is None else bool(result)
    remaining(deadline)
    _alarm.watch(solver, deadline)
    try:
        result = interruptible(
            solver.solve_limited, assumptions=list(assumptions), expect_interrupt=True
        )
    finally:
        _alarm.release()
        solver.clear_interrupt()  # the alarm may ring just as the solve ends
    return None if result is None else bool(result)


def compute_by(maxsat: Any, deadline: float | None) -> list[int] | None:
    """``maxsat.compute()`` for PySAT's RC2; SolverTimeout when ``deadline`` passes first."""
    if deadline is None:
        return interruptible(maxsat.compute)  # type: ignore[no-any-return]
    remaining(deadline)
    _alarm.watch(maxsat, deadline)
    try:
        model = interruptible(maxsat.compute, expect_interrupt=True)
    finally:
        rang = _alarm.release()
    if model is None and rang:
        raise SolverTimeout("deadline passed")
    return model  # type: ignore[no-any-return]
