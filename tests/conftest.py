"""Shared paths, puzzles and fixtures for the tests."""

from __future__ import annotations

import json
import os
import select
import sys
import threading
import time
from collections.abc import Callable
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


def tree(pid: int) -> list[int]:
    """``pid`` and every process below it."""
    found = [pid]
    for child in children(pid):
        found += tree(child)
    return found


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


def drained(fd: int, what: str, within: float = PATIENCE) -> bytes:
    """Everything a terminal's primary end ``fd`` gives until its process closes it;
    fails the test naming ``what`` when it is still open ``within`` seconds on."""
    deadline = time.monotonic() + within
    seen = b""
    while True:
        left = deadline - time.monotonic()
        ready, _, _ = select.select([fd], [], [], max(left, 0))
        if not ready:
            pytest.fail(f"waited {within:g} s for {what}", pytrace=False)
        try:
            data = os.read(fd, 65536)
        except OSError:  # the process ended and closed the terminal
            return seen
        if not data:
            return seen
        seen += data


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
