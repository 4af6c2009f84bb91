"""The tests' own helpers (tests/conftest.py): every wait ends. A helper that
waits for a process must count a zombie (ended, not yet reaped) as ended, and
fail with a message when what it waits for never comes."""

from __future__ import annotations

import subprocess
import sys

import pytest

from .conftest import Ended, alive, gone, waited_for, work_process


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
