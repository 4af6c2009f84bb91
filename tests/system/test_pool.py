"""Worker processes (sudosat.system.pool): a stopping signal sent to the whole
process group, as Ctrl-C, ``timeout``, a CI cancel and ``kill -- -PGID`` send
it, keeps what every worker had found, as one sent to the main process does.

Each run is signalled once it has used some CPU (both workers at work, however
loaded the machine); no sleep decides a result."""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import subprocess
import time

import pytest

from tests.conftest import (
    PATIENCE,
    PUZZLES,
    SUDOSAT,
    Screen,
    as_a_shell_starts_it,
    cpu_seconds,
    gone,
    tree,
    waited_for,
    work_process,
)

pytestmark = pytest.mark.slow  # real processes stopped by real signals

EMPTY = str(PUZZLES / "empty-9x9.txt")
COUNT = ["solve", "-f", "jsonl", "-j", "2", "--count", "-n", "100000000", EMPTY, EMPTY]
"""Two counts that take hours, one a worker."""
AT_WORK = 3.0
"""CPU seconds the run's processes have used once both workers count (start-up
takes well under one a process)."""


def both_counts_kept(out: str) -> None:
    records = [json.loads(line) for line in out.splitlines()]
    assert [r["line"] for r in records] == [1, 1], out
    for record in records:
        assert record["count"] > 1 and record["count_complete"] is False
        assert record["reason"] == "interrupted" and record["status"] == "multiple"


def at_work(pid: int) -> bool:
    return cpu_seconds(pid) >= AT_WORK


@pytest.mark.parametrize(
    ("how", "sig"),
    [
        ("kill -- -PGID", signal.SIGTERM),
        ("kill -- -PGID", signal.SIGHUP),
        ("timeout", signal.SIGTERM),
    ],
)
def test_a_signal_to_the_process_group_keeps_every_workers_count(how: str, sig: int) -> None:
    name = signal.Signals(sig).name
    # timeout, told to stop, passes the signal to its command and then its group
    args = [str(SUDOSAT), *COUNT] if how != "timeout" else ["timeout", "-s", name, "3600"]
    if how == "timeout":
        args += [str(SUDOSAT), *COUNT]
    process = subprocess.Popen(
        args,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # a group of its own, as a CI job's
        preexec_fn=as_a_shell_starts_it,
    )
    try:
        waited_for(lambda: at_work(process.pid), f"{AT_WORK:g} s of CPU")
        running = tree(process.pid)
        if how == "timeout":
            os.kill(process.pid, sig)  # timeout itself, as a CI runner cancels
        else:
            os.killpg(process.pid, sig)
        out, err = process.communicate(timeout=PATIENCE)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
    word = {"SIGTERM": "terminated", "SIGHUP": "hung up", "SIGINT": "interrupted"}[name]
    if how != "timeout":  # (timeout exits with its own code for a signal it was sent)
        assert process.returncode == 128 + sig, err
    both_counts_kept(out)
    assert err.endswith(f"sudosat: {word}\n") and "Traceback" not in err
    assert gone(running)


def test_ctrl_c_at_a_terminal_keeps_every_workers_count() -> None:
    line = [arg if arg != "jsonl" else "line" for arg in COUNT]
    screen = Screen([str(SUDOSAT), *line], on=at_work, keys=b"\x03")
    assert screen.code == 130
    counts = [line for line in screen.lines if re.fullmatch(r"\d+\+", line)]
    assert len(counts) == 2 and all(int(count[:-1]) > 1 for count in counts), screen.lines
    assert screen.lines[-1] == "sudosat: interrupted"


LATE = 1.5
"""Seconds the workers are held stopped after the signal: past the wall-clock
grace a stopped run once gave them (0.5 s, and the supervisor's kill at 1 s),
well inside the CPU-time grace it gives now, which a worker that does not run
does not spend."""


def test_workers_run_late_by_a_loaded_machine_keep_their_counts() -> None:
    """A loaded machine may not run a told worker for a while; what it had found
    is kept all the same. SIGSTOP holds both workers as an overloaded scheduler
    would, across the signal and past the old wall-clock graces."""
    process = subprocess.Popen(
        [str(SUDOSAT), *COUNT],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        preexec_fn=as_a_shell_starts_it,
    )
    try:
        waited_for(lambda: at_work(process.pid), f"{AT_WORK:g} s of CPU")
        running = tree(process.pid)
        workers = tree(work_process(process.pid))[1:]  # the workers, and what they started
        assert len(workers) >= 2, workers
        for pid in workers:
            os.kill(pid, signal.SIGSTOP)
        os.killpg(process.pid, signal.SIGTERM)
        time.sleep(LATE)  # not what decides: the grace is counted in CPU time now
        for pid in workers:
            with contextlib.suppress(ProcessLookupError):  # killed by a wall-clock grace
                os.kill(pid, signal.SIGCONT)
        out, err = process.communicate(timeout=PATIENCE)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
    assert process.returncode == 143, err
    both_counts_kept(out)
    assert err.endswith("sudosat: terminated\n") and "Traceback" not in err
    assert gone(running)
