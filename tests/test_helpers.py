"""The tests' own helpers (tests/conftest.py): every wait ends. A helper that
waits for a process must count a zombie (ended, not yet reaped) as ended, and
fail with a message when what it waits for never comes."""

from __future__ import annotations

import signal
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import ROOT, Ended, alive, as_a_shell_starts_it, gone, waited_for, work_process


def zombie() -> subprocess.Popen[bytes]:
    """A child that has ended and is not reaped yet: /proc still has it."""
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    waited_for(lambda: not alive(child.pid), "the child to end")  # ended, not reaped
    return child


def test_a_zombie_counts_as_ended() -> None:
    child = zombie()
    try:
        assert not alive(child.pid) and gone([child.pid], within=1)
        with pytest.raises(Ended):  # it once looped for ever here
            work_process(child.pid)
    finally:
        child.wait()


def test_a_wait_that_never_ends_fails_saying_what_it_waited_for() -> None:
    with pytest.raises(pytest.fail.Exception, match=r"waited 0\.2 s for the sky to fall"):
        waited_for(lambda: False, "the sky to fall", within=0.2)


SAYS_ITS_SIGINT = (
    "import signal; print('ignored' if signal.getsignal(signal.SIGINT) == signal.SIG_IGN "
    "else 'raises')"
)


def test_a_child_gets_the_stopping_signals_a_shell_gives_however_the_run_was_started() -> None:
    """Run from a background job (SIGINT ignored, as `make test &` in a script
    leaves it), a child inherits the ignored signal; started as the tests start
    their children, it has the default, as from a shell's prompt."""
    before = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        inherited = subprocess.run(
            [sys.executable, "-c", SAYS_ITS_SIGINT], capture_output=True, text=True
        ).stdout
        given = subprocess.run(
            [sys.executable, "-c", SAYS_ITS_SIGINT],
            capture_output=True,
            text=True,
            preexec_fn=as_a_shell_starts_it,
        ).stdout
    finally:
        signal.signal(signal.SIGINT, before)
    assert inherited.strip() == "ignored"
    assert given.strip() == "raises"


def test_a_failing_test_leaves_nothing_it_started_running(tmp_path: Path) -> None:
    pids = tmp_path / "pids"
    (tmp_path / "conftest.py").write_text("from tests.conftest import nothing_left_running\n")
    (tmp_path / "test_leaves.py").write_text(
        "import subprocess\n"
        "def test_fails_half_way():\n"
        "    child = subprocess.Popen(['sleep', '1000'], start_new_session=True)\n"
        f"    open({str(pids)!r}, 'w').write(str(child.pid))\n"
        "    assert False, 'half way'\n"
    )
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(tmp_path)],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert done.returncode == 1 and "half way" in done.stdout
    assert gone([int(pids.read_text())])
