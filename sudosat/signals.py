"""Signals held back while something must not be cut in half, and Linux's
process controls for who gets which signal when a process ends."""

from __future__ import annotations

import contextlib
import ctypes
import signal
from collections.abc import Iterator
from contextlib import contextmanager

STOPPING = frozenset({signal.SIGINT, signal.SIGTERM, signal.SIGHUP})
"""The signals that stop sudosat (Ctrl-C, kill, a closed terminal)."""


@contextmanager
def held(signals: frozenset[signal.Signals] = STOPPING) -> Iterator[None]:
    """Delivers ``signals`` only after the block: a record is written whole, a
    cleanup runs to its end."""
    old = signal.pthread_sigmask(signal.SIG_BLOCK, signals)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


PR_SET_PDEATHSIG = 1
PR_SET_CHILD_SUBREAPER = 36


def prctl(option: int, value: int) -> None:
    """Linux ``prctl(option, value)``; elsewhere nothing (the callers' fallbacks hold)."""
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None).prctl(option, value)
