"""What a solver program leaves must not outlive the run, however the run ends.

A process that starts solver programs keeps a janitor: a small process of its
own session, started when the first temporary directory or program is made,
that ignores the stopping signals and reads what to watch from a pipe (a
directory, a program's process group with its start time). The pipe closes
when its writers end, cleanly or by SIGKILL (of sudosat itself, of its work
process, by the out-of-memory killer): the janitor then kills the programs
still running and removes the directories still there, and ends. A normal run
has removed both already, so the janitor finds nothing to do.

The lines are written with one ``write`` each (shorter than PIPE_BUF, so
whole), which forked children of the process may do too.
"""

from __future__ import annotations

import contextlib
import os
import sys
from typing import Any

JANITOR = r"""
import os, shutil, signal, sys
for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGPIPE):
    signal.signal(s, signal.SIG_IGN)
dirs, groups = set(), {}
def started(pid):
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            return f.read().rsplit(b")", 1)[1].split()[19]
    except OSError:
        return None
for line in sys.stdin.buffer:
    kind, _, what = line.rstrip(b"\n").decode("utf-8", "surrogateescape").partition(" ")
    if kind == "d":
        dirs.add(what)
    elif kind == "-d":
        dirs.discard(what)
    elif kind == "g":
        groups[int(what)] = started(int(what))
    elif kind == "-g":
        groups.pop(int(what), None)
for pid, when in groups.items():
    if when is not None and started(pid) == when:  # the same process, not a reused pid
        try:
            os.killpg(pid, signal.SIGKILL)
        except OSError:
            pass
for path in dirs:
    shutil.rmtree(path, ignore_errors=True)
"""
"""The janitor's program: Python alone, so that it needs nothing of sudosat."""
MARK = "sudosat-janitor"
"""In the janitor's command line: a supervisor that ends its orphans waits for it."""

_pipe: list[int] = []
"""The write end of this process's janitor pipe, once started."""
_janitor: list[Any] = []
"""Its Popen, kept so that it is not collected while it runs."""


def _send(line: str) -> None:
    if not _pipe:
        _start()
    if _pipe:
        with contextlib.suppress(OSError):
            os.write(_pipe[0], (line + "\n").encode("utf-8", "surrogateescape"))


def _start() -> None:
    import subprocess  # here: the supervisor, which imports this module, never needs it

    try:
        janitor = subprocess.Popen(
            [sys.executable, "-c", JANITOR, MARK],
            stdin=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
    except OSError:  # no process to spare: the run's own clean-up still holds
        return
    assert janitor.stdin is not None
    _pipe.append(os.dup(janitor.stdin.fileno()))
    janitor.stdin.close()
    os.set_inheritable(_pipe[0], False)  # solver programs must not hold it open
    _janitor.append(janitor)


def close() -> None:
    """This process is done: its janitor may end (after its own look round)."""
    while _pipe:
        with contextlib.suppress(OSError):
            os.close(_pipe.pop())
    _janitor.clear()


def is_janitor(pid: int) -> bool:
    """Whether process ``pid`` is a janitor (of this process or of one that ended)."""
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as handle:
            return MARK.encode() in handle.read()
    except OSError:
        return False


def watch_directory(path: str) -> None:
    """Remove ``path`` if the run ends without removing it."""
    _send(f"d {path}")


def forget_directory(path: str) -> None:
    _send(f"-d {path}")


def watch_group(pid: int) -> None:
    """Kill the process group ``pid`` leads if the run ends before it does."""
    _send(f"g {pid}")


def forget_group(pid: int) -> None:
    _send(f"-g {pid}")
