"""Shared paths, puzzles and fixtures for the tests."""

from __future__ import annotations

import json
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path

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
        result = CliRunner().invoke(cli, list(args), input=input)
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


def work_process(pid: int) -> int:
    """The process doing a command's work: the supervisor's child running the
    same command line (see sudosat.system.process), waited for until it has started."""
    while Path(f"/proc/{pid}").exists():
        # read again each time: it is empty while the exec is still under way
        command = Path(f"/proc/{pid}/cmdline").read_bytes()
        for child in children(pid) if command else []:
            try:
                if Path(f"/proc/{child}/cmdline").read_bytes() == command:
                    return child
            except OSError:
                continue
        time.sleep(0.01)  # waits for the fork; decides nothing
    raise AssertionError(f"{pid} ended before its work process started")


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
    """An input error said in one line, exit 2 (click's usage error)."""
    return code == 2 and err.startswith("Error: ") and err.count("\n") == 1
