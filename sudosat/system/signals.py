"""Signals held back while something must not be cut in half, and Linux's
process controls for who gets which signal when a process ends."""

from __future__ import annotations

import contextlib
import os
import signal
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

from sudosat.system.lazy import lazy

if TYPE_CHECKING:
    import ctypes
else:  # for prctl, where a process asks for it
    ctypes = lazy("ctypes")

STOPPING = frozenset({signal.SIGINT, signal.SIGTERM, signal.SIGHUP})
"""The signals that stop sudosat (Ctrl-C, kill, a closed terminal)."""

_depth = 0
"""How many :func:`held` blocks the main thread is inside."""
_deferred: list[Callable[[], None]] = []


@contextmanager
def held(signals: frozenset[signal.Signals] = STOPPING) -> Iterator[None]:
    """Delivers ``signals`` only after the block: a record is written whole, a
    cleanup runs to its end.

    The mask alone is not enough once other threads run: the kernel then hands
    the signal to one of them, and Python runs its handler in the main thread
    at once. So the handlers also ask :func:`deferred` and, inside a block,
    leave their action for its end.
    """
    global _depth
    main = threading.current_thread() is threading.main_thread()
    old = signal.pthread_sigmask(signal.SIG_BLOCK, signals)
    _depth += main
    try:
        yield
    finally:
        _depth -= main
        signal.pthread_sigmask(signal.SIG_SETMASK, old)
        if main and not _depth and _deferred:
            act = _deferred[0]
            _deferred.clear()
            act()


def _forked() -> None:
    global _depth
    _depth = 0  # a fork inside a block starts outside any
    _deferred.clear()


os.register_at_fork(after_in_child=_forked)


def deferred(act: Callable[[], None]) -> bool:
    """For a signal handler: inside a :func:`held` block, keep ``act`` for its end
    (True); outside one, False (act now)."""
    if not _depth:
        return False
    _deferred.append(act)
    return True


def quiet_thread(target: Callable[[], None], name: str) -> threading.Thread:
    """A daemon thread started with the stopping signals blocked, so that the
    kernel hands them to the main thread, which acts on them (see :func:`held`)."""
    thread = threading.Thread(target=target, name=name, daemon=True)
    old = signal.pthread_sigmask(signal.SIG_BLOCK, STOPPING)
    try:
        thread.start()
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)
    return thread


PR_SET_PDEATHSIG = 1
PR_SET_CHILD_SUBREAPER = 36


def prctl(option: int, value: int) -> None:
    """Linux ``prctl(option, value)``; elsewhere nothing (the callers' fallbacks hold)."""
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None).prctl(option, value)


def die_with_parent(parent: int | None = None) -> None:
    """Linux: this process gets SIGKILL when the process that started it ends,
    however it ends (SIGKILL, the out-of-memory killer). ``parent``: that
    process, when known; if it is already gone, this process ends now."""
    before = os.getppid()
    prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != before or (parent is not None and before != parent):
        os._exit(1)  # the parent died before the death signal was armed
