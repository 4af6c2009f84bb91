"""The supervisor (sudosat.system.process): every command stops when told, and
leaves no process behind.

Real processes, real signals: each run is signalled once it has used some CPU
(so it is at work, however loaded the machine), and the test then waits with
a generous deadline; no sleep decides a result."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.conftest import (
    PATIENCE,
    PUZZLES,
    SUDOSAT,
    as_a_shell_starts_it,
    cpu_seconds,
    gone,
    shared,
    tree,
    waited_for,
    work_process,
)

pytestmark = pytest.mark.slow  # real processes stopped by real signals

BIG = str(PUZZLES / "rkkautsar-64-1.txt")  # a 64x64 with several solutions: 15-25 s of search
STOPPED = {signal.SIGTERM: (143, "terminated"), signal.SIGINT: (130, "interrupted")}
STOPPED[signal.SIGHUP] = (129, "hung up")


def start(*args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [str(SUDOSAT), *args],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=as_a_shell_starts_it,
    )


def at_work(process: subprocess.Popen[str], seconds: float = 1.5) -> list[int]:
    """Waits until the run has used ``seconds`` of CPU (start-up takes well under
    one); the processes of the run by then."""

    def busy() -> bool:
        assert process.poll() is None, "the run ended before it was signalled"
        return cpu_seconds(process.pid) >= seconds

    waited_for(busy, f"{seconds:g} s of CPU")
    return tree(process.pid)


LONG_RUNS = {
    "generate": ("generate", "--rank", "6", "--seed", "1"),  # in process, in Minicard
    # PySAT's own Ctrl-C in Minicard's limited solves: an error, not KeyboardInterrupt
    "killers": ("generate", "--variant", "killer", "--rank", "4", "--puzzles", "50", "-j", "1"),
    "explain": ("explain", BIG),
    "rate": ("rate", BIG),
    "solve": ("solve", "--solver", "glucose4", BIG),
}


@pytest.mark.parametrize("command", sorted(LONG_RUNS))
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT, signal.SIGHUP])
def test_every_command_stops_when_told_and_leaves_nothing(command: str, sig: int) -> None:
    process = start(*LONG_RUNS[command])
    running = at_work(process)
    process.send_signal(sig)
    _, err = process.communicate(timeout=60)
    code, word = STOPPED[signal.Signals(sig)]
    assert process.returncode == code, err
    assert err.endswith(f"sudosat: {word}\n") and "Traceback" not in err
    assert gone(running)


def test_rate_of_gecodes_25x25s_stops_at_once() -> None:
    process = start("rate", "--jobs", "1", str(shared("large/gecode/gecode_25x25.chars.txt")))
    running = at_work(process, 3.0)
    process.send_signal(signal.SIGTERM)
    _, err = process.communicate(timeout=60)
    assert process.returncode == 143 and "terminated" in err
    assert gone(running)


@pytest.mark.parametrize(
    "args",
    [
        ("solve", "--jobs", "2", "--format", "jsonl"),
        ("rate", "--jobs", "2"),
        ("generate", "--jobs", "2", "--rank", "4", "--puzzles", "100000", "--seed", "1"),
    ],
)
def test_workers_end_when_sudosat_is_killed(args: tuple[str, ...], tmp_path: Path) -> None:
    command = list(args)
    if command[0] != "generate":
        many = tmp_path / "many.txt"
        lines = (PUZZLES / "tdoku-magictour-25.txt").read_text().splitlines()
        puzzles = [line for line in lines if line and not line.startswith("#")]
        many.write_text("\n".join(puzzles * 8000) + "\n")  # 200,000: minutes of work
        command.append(str(many))
    process = start(*command)
    work = work_process(process.pid)

    def workers_started() -> bool:  # the work process and its two workers
        assert process.poll() is None
        return len(tree(work)) >= 3

    waited_for(workers_started, "two workers")
    running = tree(process.pid)
    process.kill()  # SIGKILL: nothing of sudosat's can act on it
    process.wait(timeout=60)
    assert gone(running), "workers outlived the killed run"


def test_a_closed_stdout_is_exit_74_in_one_line() -> None:
    done = subprocess.run(
        ["sh", "-c", f'exec "{SUDOSAT}" solve "{PUZZLES / "ai-escargot.txt"}" >&-'],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 74
    assert done.stderr.splitlines()[-1] == "sudosat: cannot write output: standard output is closed"
    assert "Traceback" not in done.stderr


def test_a_closed_stdout_does_not_matter_to_cnf_out(tmp_path: Path) -> None:
    out = tmp_path / "e.cnf"
    done = subprocess.run(
        ["sh", "-c", f'exec "{SUDOSAT}" cnf "{PUZZLES / "ai-escargot.txt"}" -o "{out}" >&-'],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert "p cnf 729 1680" in out.read_text()


def test_nohup_keeps_sighup_ignored(tmp_path: Path) -> None:
    process = subprocess.Popen(
        [str(SUDOSAT), *LONG_RUNS["generate"]],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=lambda: signal.signal(signal.SIGHUP, signal.SIG_IGN),  # as nohup does
    )
    at_work(process)
    process.send_signal(signal.SIGHUP)
    cpu = cpu_seconds(process.pid)
    waited_for(  # a second more of work (or its end, which fails below)
        lambda: process.poll() is not None or cpu_seconds(process.pid) >= cpu + 1.0,
        "a second more of the run's work",
    )
    assert process.poll() is None, "SIGHUP stopped a run that ignores it"
    process.send_signal(signal.SIGTERM)
    _, err = process.communicate(timeout=60)
    assert process.returncode == 143, err


def supervised(work: str) -> subprocess.Popen[str]:
    """A Python process that runs ``work`` (the body of a function returning an
    exit code) under the supervisor, as every command runs."""
    body = "\n".join(f"    {line}" for line in work.strip().splitlines())
    program = f"""
import signal, sys, time
from sudosat.system.process import supervise
def work():
{body}
supervise(work)
"""
    return subprocess.Popen(
        [sys.executable, "-c", program],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=as_a_shell_starts_it,
    )


def test_work_that_keeps_running_when_told_to_stop_is_killed() -> None:
    """A solve that holds the interpreter does not act on the signal; the
    supervisor kills it once it has spent its grace of CPU."""
    process = supervised("signal.signal(signal.SIGTERM, signal.SIG_IGN)\nwhile True: pass")
    running = at_work(process, 0.5)
    process.send_signal(signal.SIGTERM)
    _, err = process.communicate(timeout=PATIENCE)
    assert process.returncode == 143 and err == "sudosat: terminated\n", err
    assert gone(running)


def test_work_that_a_loaded_machine_runs_late_is_not_cut_short() -> None:
    """A work process that is not run for a while after the signal (held here by
    SIGSTOP, as an overloaded scheduler would) still ends by itself: its grace
    is counted in the CPU it spends, not on the wall clock."""
    process = supervised(
        """
told = []
signal.signal(signal.SIGTERM, lambda *_: told.append(1))
print("ready", flush=True)
while not told:
    time.sleep(0.01)
print("handed back", flush=True)
return 0"""
    )
    assert process.stdout is not None and process.stdout.readline() == "ready\n"
    work = work_process(process.pid)
    os.kill(work, signal.SIGSTOP)
    process.send_signal(signal.SIGTERM)
    time.sleep(1.5)  # past the wall-clock second the grace once was; not what decides
    os.kill(work, signal.SIGCONT)
    out, err = process.communicate(timeout=PATIENCE)
    assert (process.returncode, out, err) == (0, "handed back\n", "")
