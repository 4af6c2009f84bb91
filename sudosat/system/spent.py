"""CPU time spent by processes, read from Linux's /proc.

A stopped run gives its processes a grace to hand back what they had found.
Measured on the wall clock, that grace is eaten by a loaded machine: a worker
that is not scheduled for half a second loses its answer, though it would
have handed it back in a millisecond of CPU. Measured as CPU time, it ends
only for a process that keeps running without ending (a PySAT solve that
holds the interpreter), however loaded the machine is.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterable
from pathlib import Path

_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def _fields(pid: int | str) -> list[bytes] | None:
    """A process's /proc stat fields after its name (state, ppid, ...); None
    where it cannot be read (no /proc, or it ended as it was looked at)."""
    try:
        return Path(f"/proc/{pid}/stat").read_bytes().rsplit(b")", 1)[1].split()
    except OSError:
        return None


def _stats() -> dict[int, list[bytes]] | None:
    """Every process's stat fields; None where there is no /proc."""
    try:
        entries = os.listdir("/proc")
    except OSError:
        return None
    read = ((int(entry), _fields(entry)) for entry in entries if entry.isdigit())
    return {pid: fields for pid, fields in read if fields is not None}


def _seconds(fields: list[bytes]) -> float:
    # utime, stime, and the same of its children that have ended and been reaped
    return sum(int(value) for value in fields[11:15]) / _TICKS


def tree_seconds(pid: int) -> float | None:
    """CPU seconds ``pid`` and every process below it have used (those that ended
    included, once reaped); None where that cannot be read."""
    stats = _stats()
    if stats is None or pid not in stats:
        return None
    below: dict[int, list[int]] = {}
    for member, fields in stats.items():
        below.setdefault(int(fields[1]), []).append(member)
    total, todo = 0.0, [pid]
    while todo:
        member = todo.pop()
        total += _seconds(stats[member])
        todo += below.get(member, [])
    return total


def seconds(pids: Iterable[int]) -> float | None:
    """CPU seconds the processes ``pids`` have used themselves; None where that
    cannot be read (a process that has ended counts nothing more)."""
    if not os.path.isdir("/proc/self"):
        return None
    read = (_fields(pid) for pid in pids)
    return sum(int(f[11]) + int(f[12]) for f in read if f is not None) / _TICKS


class Grace:
    """A grace counted in the CPU seconds some processes spend from now
    (``spent``: their total so far), and bounded on the wall clock too: for a
    process that hangs without running. Where CPU time cannot be read, the
    grace is counted on the wall clock alone, ``cpu`` seconds of it."""

    def __init__(self, cpu: float, wall: float, spent: Callable[[], float | None]) -> None:
        now = time.monotonic()
        self._cpu, self._spent, self._start = cpu, spent, spent()
        self._wall_end = now + (wall if self._start is not None else cpu)

    def over(self) -> bool:
        """Whether the processes have spent the grace."""
        if time.monotonic() >= self._wall_end:
            return True
        if self._start is None:
            return False
        spent = self._spent()
        return spent is not None and spent - self._start >= self._cpu
