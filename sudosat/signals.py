"""Signals held back while something must not be cut in half."""

from __future__ import annotations

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
