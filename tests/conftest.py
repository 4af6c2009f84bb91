"""Shared paths, puzzles and fixtures for the tests."""

from __future__ import annotations

import contextlib
import json
import os
import select
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO, Any, TypeVar

import pytest
from click.testing import CliRunner

from sudosat.cli import cli

ROOT = Path(__file__).resolve().parents[1]
PUZZLES = ROOT / "puzzles"
SHARED = Path(os.environ.get("SUDOSAT_SHARED", ROOT.parent / "shared")) / "puzzles"

REXL_FIRST = "....2..7.....34...358......5.48........1...89..2.....624....7...9...52......671.."
GENERAL = "cadical195"
"""A solver name: the general engine (a CNF on a fresh solver), not the batch engine."""
ESCARGOT = "1....7.9..3..2...8..96..5....53..9...1..8...26....4...3......1..4......7..7...3.."


def shared(relative: str) -> Path:
    """A file of ../shared/puzzles; the test is skipped where shared/ is absent."""
    path = SHARED / relative
    if not path.exists():
        pytest.skip(f"{path} is not here")
    return path


Run = Callable[..., tuple[int, str, str]]
"""``run("solve", "--count", path, input=...)``: exit code, stdout, stderr."""


@pytest.fixture
def run() -> Run:
    """The CLI, in process through click's CliRunner."""

    def invoke(*args: str, input: str | None = None) -> tuple[int, str, str]:
        result = CliRunner().invoke(cli, list(args), input=input, prog_name="sudosat")
        if result.exception and not isinstance(result.exception, SystemExit):
            raise result.exception
        return result.exit_code, result.stdout, result.stderr

    return invoke


def processes(file: str, test: Callable[[bytes], bool]) -> list[int]:
    """The processes whose ``/proc/PID/FILE`` passes ``test``."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                data = Path(f"/proc/{entry}/{file}").read_bytes()
            except OSError:
                continue
            if test(data):
                found.append(int(entry))
    return found


def children(pid: int) -> list[int]:
    """The processes whose parent is ``pid``."""
    return processes("stat", lambda data: int(data.rsplit(b")", 1)[1].split()[1]) == pid)


def tree(pid: int, within: Callable[[int], bool] = lambda pid: True) -> list[int]:
    """``pid`` and every process below it (one look at /proc); with ``within``,
    only the processes below it through processes ``within`` holds true of."""
    below: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                data = Path(f"/proc/{entry}/stat").read_bytes()
            except OSError:
                continue
            below.setdefault(int(data.rsplit(b")", 1)[1].split()[1]), []).append(int(entry))
    found, todo = [], [pid]
    while todo:
        found.append(todo.pop())
        todo += [child for child in below.get(found[-1], []) if within(child)]
    return found


def as_a_shell_starts_it() -> None:
    """For ``preexec_fn``: the stopping signals at their defaults in the child, as a
    shell starts a command in the foreground. A test run started by ``nohup`` or
    as a background job holds them ignored, and a child would inherit that: its
    Ctrl-C or SIGTERM would never come."""
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT):
        signal.signal(sig, signal.SIG_DFL)


@pytest.fixture(autouse=True)
def nothing_left_running() -> Iterator[None]:
    """Every process a test started (and what those started) is ended with it, so
    that a test that fails half way leaves nothing running past it. Processes of
    broader fixtures (a module's server) were started before and stay, with what
    they start meanwhile (its workers)."""
    me = os.getpid()
    before = set(tree(me))
    yield
    # the test's own: new, and below this process through new ones alone (a module's
    # server, started before, keeps the workers it starts during the test)
    for pid in tree(me, within=lambda pid: pid not in before):
        if pid != me and not kept_for_the_process(pid):
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)


KEPT = (b"multiprocessing.resource_tracker", b"multiprocessing.forkserver")
"""What multiprocessing starts once for the whole process, when it is first
needed, and keeps: idle, and ended with the test process."""


def kept_for_the_process(pid: int) -> bool:
    try:
        command = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return False
    return any(name in command for name in KEPT)


PATIENCE = 120.0
"""Seconds a test helper waits for something before it fails the test, saying
what it waited for: a net for a hang (below the ceiling pytest-timeout sets for
every test), never what decides a result."""

T = TypeVar("T")


def waited_for(ready: Callable[[], T], what: str, within: float = PATIENCE) -> T:
    """``ready()``'s first true answer, asked again until it gives one; fails the
    test naming ``what`` when ``within`` seconds pass first."""
    deadline = time.monotonic() + within
    while True:
        found = ready()
        if found:
            return found
        if time.monotonic() > deadline:
            pytest.fail(f"waited {within:g} s for {what}", pytrace=False)
        time.sleep(0.02)  # between looks; decides nothing


def terminal_output(
    fd: int, what: str, within: float = PATIENCE, look: float | None = None
) -> Iterator[bytes]:
    """What a terminal's primary end ``fd`` gives, as it comes, until its process
    closes it (with ``look``: ``b""`` each time that long passes with nothing);
    fails the test naming ``what`` when it is still open ``within`` seconds on."""
    deadline = time.monotonic() + within
    while True:
        left = deadline - time.monotonic()
        ready, _, _ = select.select([fd], [], [], max(min(left, look or left), 0))
        if not ready:
            if left <= 0 or look is None:
                pytest.fail(f"waited {within:g} s for {what}", pytrace=False)
            yield b""
            continue
        try:
            data = os.read(fd, 65536)
        except OSError:  # the process ended and closed the terminal
            return
        if not data:
            return
        yield data


def drained(fd: int, what: str, within: float = PATIENCE) -> bytes:
    """Everything a terminal's primary end ``fd`` gives until its process closes it;
    fails the test naming ``what`` when it is still open ``within`` seconds on."""
    return b"".join(terminal_output(fd, what, within))


class Screen:
    """A command run as a person runs it at a terminal: stdout and stderr both on
    one pseudo-terminal, the command's controlling terminal in a session of its
    own, whose bytes a terminal emulator (pyte) draws. ``lines`` is what the
    screen shows at the end, as a person would copy it off."""

    ROWS, COLUMNS = 4000, 100
    """Tall enough that nothing scrolls away; as wide as a terminal window."""

    def __init__(
        self, args: list[str], *, on: bytes | Callable[[int], bool] | None = None, keys: bytes = b""
    ) -> None:
        """Runs ``args`` to its end; once ``on`` has been shown (or, a function,
        once it says so of the command's pid), types ``keys`` (``b"\\x03"``:
        Ctrl-C, which the terminal sends to the whole process group as SIGINT)."""
        import fcntl
        import pty
        import struct
        import subprocess
        import termios

        import pyte

        primary, secondary = pty.openpty()
        size = struct.pack("HHHH", self.ROWS, self.COLUMNS, 0, 0)
        fcntl.ioctl(secondary, termios.TIOCSWINSZ, size)
        env = {**os.environ, "TERM": "xterm", "COLUMNS": str(self.COLUMNS)}

        def controlling_terminal() -> None:  # in the child, after setsid
            fcntl.ioctl(1, termios.TIOCSCTTY, 0)
            as_a_shell_starts_it()

        process = subprocess.Popen(
            args,
            stdin=subprocess.DEVNULL,
            stdout=secondary,
            stderr=secondary,
            env=env,
            start_new_session=True,
            preexec_fn=controlling_terminal,
        )
        os.close(secondary)
        screen = pyte.Screen(self.COLUMNS, self.ROWS)
        stream = pyte.ByteStream(screen)
        try:
            self.seen = self._read(primary, stream, process, on, keys)
            self.code = process.wait(timeout=PATIENCE)
        finally:
            os.close(primary)
            if process.poll() is None:  # the test failed: end all it started
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(process.pid, signal.SIGKILL)
                process.wait()
        self.lines = [line.rstrip() for line in screen.display if line.strip()]

    @staticmethod
    def _read(
        fd: int, stream: Any, process: Any, on: bytes | Callable[[int], bool] | None, keys: bytes
    ) -> bytes:
        seen, typed = b"", on is None
        for data in terminal_output(fd, f"{process.args[:3]} to end", look=0.05):
            seen += data
            stream.feed(data)
            if not typed and (on in seen if isinstance(on, bytes) else on(process.pid)):
                os.write(fd, keys)
                typed = True
        return seen


def read_line(stream: IO[Any], what: str, within: float = PATIENCE) -> Any:
    """The next line of ``stream`` (a child's pipe); fails the test naming ``what``
    when none comes within ``within`` seconds."""
    box: list[str] = []
    reader = threading.Thread(target=lambda: box.append(stream.readline()), daemon=True)
    reader.start()
    reader.join(within)
    if reader.is_alive():
        pytest.fail(f"waited {within:g} s for {what}", pytrace=False)
    return box[0]


def alive(pid: int) -> bool:
    """True while ``pid`` runs: a zombie (ended, not yet reaped) counts as ended."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != "Z"


def gone(pids: list[int], within: float = PATIENCE) -> bool:
    """Whether every process of ``pids`` ends within ``within`` seconds."""
    deadline = time.monotonic() + within
    while any(alive(pid) for pid in pids):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True


class Ended(AssertionError):
    """The process waited for has ended."""


def work_process(pid: int) -> int:
    """The process doing a command's work: the supervisor's child running the
    same command line (see sudosat.system.process), waited for until it has
    started; Ended when ``pid`` ends first."""

    def started() -> int:
        if not alive(pid):
            raise Ended(f"{pid} ended before its work process started")
        try:  # read again each time: it is empty while the exec is still under way
            command = Path(f"/proc/{pid}/cmdline").read_bytes()
        except OSError:
            return 0
        for child in children(pid) if command else []:
            try:
                if Path(f"/proc/{child}/cmdline").read_bytes() == command:
                    return child
            except OSError:
                continue
        return 0

    return waited_for(started, f"the work process of {pid}")


def cpu_seconds(pid: int) -> float:
    """User and system time ``pid`` and the processes below it have used so far."""
    total = 0
    for member in tree(pid):
        try:
            fields = Path(f"/proc/{member}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])
    return total / os.sysconf("SC_CLK_TCK")


SUDOSAT = Path(sys.executable).with_name("sudosat")
"""The installed command, for tests that need a real process."""


@pytest.fixture(scope="session")
def sudosat() -> str:
    return str(SUDOSAT)


def jsonl(text: str) -> list[dict[str, object]]:
    return [json.loads(line) for line in text.splitlines()]


KILLERS_16 = PUZZLES / "killer-16x16.links"


def one_line_error(err: str, code: int) -> bool:
    """An input error said in one line, exit 2, as every error is:
    ``sudosat COMMAND: what went wrong``."""
    return code == 2 and err.startswith("sudosat ") and err.count("\n") == 1


def traded_jigsaw(n: int = 25, rank: int = 5, row: int = 0) -> str:
    """A blank jigsaw of boxes whose ``row`` trades two cells between two boxes:
    read, and no solution (no clash names it: the regions do)."""
    labels = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
    regions = [[labels[(r // rank) * rank + c // rank] for c in range(n)] for r in range(n)]
    regions[row][rank - 1], regions[row][rank] = regions[row][rank], regions[row][rank - 1]
    rows = "\n".join("." * n for _ in range(n))
    return f"size {n}\n{rows}\nregions:\n" + "\n".join("".join(r) for r in regions) + "\n"
