"""The sudosat process: exit codes, stopping signals, and a supervisor that
makes every command stop when told.

:func:`supervise` splits the command into two processes. The work process
runs the command as it would alone: Ctrl-C, SIGTERM and SIGHUP raise in its
main thread, so records are written whole, temporary files removed, solver
programs killed and the summary printed. But a PySAT solver holds the
interpreter for as long as one solve lasts (CaDiCaL does not give it back
even when asked to), and a signal's handler waits until then: minutes on a
hard grid. The supervisor only waits: it passes each stopping signal on to
the work process and, if that has spent a second of CPU since without ending
(or ten seconds have passed), kills it and whatever it started, and ends
with the signal's exit code. Nothing on any hot path pays for this; starting
the work process costs a fork (about 3 ms).
"""

from __future__ import annotations

import atexit
import contextlib
import errno
import os
import signal
import sys
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, NoReturn

from sudosat.core.errors import printable
from sudosat.system import janitor
from sudosat.system.signals import (
    PR_SET_CHILD_SUBREAPER,
    STOPPING,
    deferred,
    die_with_parent,
    prctl,
)

if TYPE_CHECKING:
    from sudosat.system import spent

EXIT_OK = 0
EXIT_MULTIPLE = 1
EXIT_USAGE = 2
EXIT_NONE = 3
EXIT_SOLVER = 4
EXIT_TIMEOUT = 5
EXIT_MISMATCH = 6
EXIT_UNAVAILABLE = 69
"""``serve`` cannot listen: its port is taken, or not to be had (sysexits' EX_UNAVAILABLE)."""
EXIT_INTERNAL = 70
"""A bug: an unexpected exception, or a crash (sysexits' EX_SOFTWARE)."""
EXIT_SYSTEM = 71
"""The operating system refused a resource or killed the work (sysexits' EX_OSERR)."""
EXIT_OUTPUT = 74
"""Output could not be written (sysexits' EX_IOERR)."""
EXIT_HUNG_UP = 129
EXIT_INTERRUPTED = 130
EXIT_TERMINATED = 143
STOPPED_CODES = {
    signal.SIGINT: EXIT_INTERRUPTED,
    signal.SIGTERM: EXIT_TERMINATED,
    signal.SIGHUP: EXIT_HUNG_UP,
}
STOPPED_WORDS = {
    signal.SIGINT: "interrupted",
    signal.SIGTERM: "terminated",
    signal.SIGHUP: "hung up",
}
GRACE = 1.0
"""CPU seconds the work process (with its workers and programs) may spend after a
stopping signal before it is killed: a process that does not end because a
solve holds its interpreter spends them in a second; one that only waits for a
loaded machine to run it spends none (see :mod:`sudosat.system.spent`)."""
GRACE_WALL = 10.0
"""Seconds the work process has to end after a stopping signal however little
it runs: a process hung without running."""
LOOK = 0.05
"""Seconds between looks at the work process's CPU time once it was told to stop."""


class Terminated(KeyboardInterrupt):
    """SIGTERM or SIGHUP, raised so that temporary files are removed and solver
    programs killed. A KeyboardInterrupt, so that whatever keeps what it found
    when Ctrl-C comes (a count's ``N+``, a batch's whole records) keeps it when
    told to stop in any other way; :func:`signal_of` tells them apart."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


def signal_of(stop: BaseException) -> int:
    """The stopping signal a KeyboardInterrupt (or click's Abort made of one)
    stands for: the ``signum`` it carries (Terminated: SIGTERM or SIGHUP; a
    search's Interrupted: the signal that cut it), else SIGINT."""
    for err in (stop, stop.__cause__, stop.__context__):
        signum = getattr(err, "signum", None)
        if isinstance(signum, int):
            return signum
    return signal.SIGINT


_received: list[int] = []
"""Stopping signals seen. Python drops an exception raised while a finalizer
runs, so a signal that came then is acted on when the command returns."""


def _raise_for(signum: int) -> None:
    # An object the signal cut in half as it was made (a PySAT Solver before its
    # first attribute) complains from its finalizer as the stack unwinds: noise
    # once the run is stopping, and never the one line the stop promises.
    sys.unraisablehook = _quiet
    if signum == signal.SIGINT:
        raise KeyboardInterrupt
    raise Terminated(signum)


def _quiet(unraisable: object) -> None:
    pass


def _stop(signum: int, frame: object) -> None:
    """The work process's handler: the first stopping signal raises (after a
    :func:`signals.held` block, if inside one); later ones only count, so that
    a second Ctrl-C (or the supervisor passing the signal on) cannot cut the
    cleanup of the first."""
    _received.append(signum)
    if len(_received) > 1 or deferred(lambda: _raise_for(signum)):
        return
    _raise_for(signum)


def caught_interrupt(err: BaseException) -> bool:
    """PySAT's own Ctrl-C: a solve it was asked to keep interruptible takes SIGINT
    itself and raises ``pysolvers.error`` instead of KeyboardInterrupt."""
    kind = type(err)
    return kind.__module__ == "pysolvers" and "keyboard interrupt" in str(err).lower()


def stopped(signum: int) -> int:
    """Says why the run stopped, on stderr; the exit code."""
    with contextlib.suppress(OSError, ValueError):
        print(f"sudosat: {STOPPED_WORDS[signal.Signals(signum)]}", file=sys.stderr, flush=True)
    return STOPPED_CODES[signal.Signals(signum)]


def signal_received() -> int | None:
    """The first stopping signal this process was sent, if any."""
    return _received[0] if _received else None


def supervise(work: Callable[[], int]) -> NoReturn:
    """Run ``work`` (a command, returning its exit code) in a work process
    watched by this one (see the module's docstring), and exit with its code."""
    mend_standard_streams()
    prctl(PR_SET_CHILD_SUBREAPER, 1)  # orphans of the work come here, to be ended
    watched = stopping() | {signal.SIGCHLD}
    old = signal.pthread_sigmask(signal.SIG_BLOCK, watched)
    supervisor = os.getpid()
    try:
        pid = os.fork()
    except OSError:  # no process to spare: do the work here, unwatched
        signal.pthread_sigmask(signal.SIG_SETMASK, old)
        sys.exit(run_work(work))
    if pid == 0:
        die_with_parent(supervisor)
        signal.pthread_sigmask(signal.SIG_SETMASK, old)
        _end_work(run_work(work))
    code = _watch(pid, watched)
    end_orphans()
    sys.stderr.flush()
    os._exit(code)


def _end_work(code: int) -> NoReturn:
    """Ends the work process as forked children end: output flushed and exit
    handlers run, but no teardown of the interpreter, which would touch (and so
    copy) every page it shares with the supervisor: 20 ms for nothing."""
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError, AttributeError):
            stream.flush()
    atexit._run_exitfuncs()
    os._exit(code)


def run_work(work: Callable[[], int]) -> int:
    """``work`` with the stopping signals raising, as a command: its exit code,
    or the signal's if one came (also one lost in a finalizer)."""
    for signum in stopping():
        signal.signal(signum, _stop)
    prctl(PR_SET_CHILD_SUBREAPER, 1)  # and solver programs' orphans come here
    code: int | str | None
    try:
        code = work()
    except SystemExit as done:
        code = done.code
    finally:
        end_orphans()
    if not isinstance(code, int):  # sys.exit("message") or sys.exit()
        if code is not None:
            print(code, file=sys.stderr)
        code = EXIT_OK if code is None else 1
    first = signal_received()
    if first is not None and code not in STOPPED_CODES.values():  # its exception was lost
        code = stopped(first)
    return code


def stopping() -> frozenset[int]:
    """The stopping signals this process heeds: those not ignored when it started
    (``nohup`` ignores SIGHUP, a shell's background job SIGINT)."""
    return frozenset(s for s in STOPPING if signal.getsignal(s) is not signal.SIG_IGN)


def _watch(pid: int, watched: frozenset[int]) -> int:
    """The supervisor's loop: wait for the work process, pass stopping signals on,
    and kill it when it has not ended within its grace after the first."""
    first: int | None = None
    grace: spent.Grace | None = None
    killed = False
    while True:
        ended = _reaped(pid)
        if ended is not None:
            break
        # once told to stop, a look at its CPU time now and then
        info = signal.sigwaitinfo(watched) if grace is None else signal.sigtimedwait(watched, LOOK)
        if info is None:
            if grace is not None and grace.over():
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
                killed, grace = True, None
        elif info.si_signo != signal.SIGCHLD:
            if first is None:
                from sudosat.system.spent import Grace, tree_seconds  # (only once told to stop)

                first, grace = info.si_signo, Grace(GRACE, GRACE_WALL, lambda: tree_seconds(pid))
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, info.si_signo)
    return _exit_code(ended, first, killed)


def _reaped(pid: int) -> int | None:
    """The work process's wait status once it has ended."""
    try:
        done, status = os.waitpid(pid, os.WNOHANG)
    except ChildProcessError:
        return 0
    return status if done else None


def _exit_code(status: int, first: int | None, killed: bool) -> int:
    """The work process's exit code, or what its death by a signal means."""
    if os.WIFEXITED(status):
        return os.WEXITSTATUS(status)
    number = os.WTERMSIG(status)
    if killed and first is not None:
        return stopped(first)
    if number in STOPPED_CODES:
        return stopped(number)
    name = signal_name(number)
    if number == signal.SIGKILL:
        _say(f"system error: the work was killed ({name}; out of memory?)")
        return EXIT_SYSTEM
    _say(f"internal error: the work process crashed ({name})")
    return EXIT_INTERNAL


def signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"


def _say(message: str) -> None:
    with contextlib.suppress(OSError, ValueError):
        print(f"sudosat: {message}", file=sys.stderr, flush=True)


OUTPUT_ERRNOS = frozenset(
    {errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO, errno.EPIPE, errno.EROFS, errno.EBADF}
)
"""What a failed write to stdout raises; any other OSError is the system's."""


def os_failure(err: OSError) -> tuple[int, str]:
    """The exit code and one-line message for an OSError no command handled:
    74 for output that cannot be written, 71 for anything else the operating
    system refused (no processes, no file descriptors, no semaphores)."""
    reason = err.strerror or str(err)
    if err.filename is None and err.errno in OUTPUT_ERRNOS:
        if err.errno == errno.EBADF and _CLOSED_STDOUT:
            reason = "standard output is closed"
        return EXIT_OUTPUT, f"cannot write output: {reason}"
    name = f"{printable(str(err.filename))}: " if err.filename is not None else ""
    return EXIT_SYSTEM, f"system error: {name}{reason}"


_CLOSED_STDOUT: list[bool] = []
"""Holds True when this process started with standard output closed."""


def mend_standard_streams() -> None:
    """Standard streams the shell closed (``>&-``) get a stand-in, so that no file
    sudosat opens later takes their number: stdin reads as empty, writes to
    stdout fail (exit 74, "standard output is closed"), stderr goes nowhere."""
    streams = ((0, os.O_RDONLY, "stdin"), (1, os.O_RDONLY, "stdout"), (2, os.O_WRONLY, "stderr"))
    for fd, mode, name in streams:
        try:
            os.fstat(fd)
            continue
        except OSError:
            pass
        stand_in = os.open(os.devnull, mode)
        if stand_in != fd:
            os.dup2(stand_in, fd)
            os.close(stand_in)
        if fd == 1:
            _CLOSED_STDOUT.append(True)
        stream = open(fd, "w" if fd else "r", encoding="utf-8", closefd=False)  # noqa: SIM115
        setattr(sys, name, stream)


def silence_stdout() -> None:
    """Point stdout at /dev/null, so that Python's flush at exit cannot fail again."""
    with contextlib.suppress(OSError, ValueError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())


def end_orphans() -> None:
    """Kill and reap every process still a child of this one: by now only what
    solver programs (or a killed work process) left behind. A janitor (see
    :mod:`janitor`) is let finish its clean-up first."""
    janitor.close()
    for _ in range(100):  # each round may bring the next generation of orphans
        below = children(os.getpid())
        if not below:
            return
        left = [pid for pid in below if not (janitor.is_janitor(pid) and _ended(pid))]
        for pid in left:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
        for pid in left:
            with contextlib.suppress(OSError):
                os.waitpid(pid, 0)


JANITOR_GRACE = 5.0
"""Seconds a janitor has for its clean-up (a kill and a directory or two)."""


def _ended(pid: int, grace: float = JANITOR_GRACE) -> bool:
    """Whether child ``pid`` ends by itself (reaped) within ``grace`` seconds."""
    end = time.monotonic() + grace
    try:
        while time.monotonic() < end:
            if os.waitpid(pid, os.WNOHANG)[0]:
                return True
            time.sleep(0.01)
    except ChildProcessError:
        return True
    return False


def rss(pid: int) -> int:
    """Bytes of memory ``pid`` holds now (Linux: VmRSS); 0 when not known."""
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError):
        pass
    return 0


def children(parent: int) -> list[int]:
    """The processes whose parent is ``parent`` (Linux /proc; none when unreadable)."""
    found = []
    with contextlib.suppress(OSError):
        for entry in os.listdir("/proc"):
            if entry.isdigit():
                try:
                    with open(f"/proc/{entry}/stat", "rb") as handle:
                        fields = handle.read().rsplit(b")", 1)[1].split()
                except OSError:
                    continue
                if int(fields[1]) == parent:
                    found.append(int(entry))
    return found
