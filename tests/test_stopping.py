"""Issue 24: every command stops when told, and runs long only as long as asked.

Real processes, real signals: each run is signalled once it has used some CPU
(so it is at work, however loaded the machine), and the test then waits with
a generous deadline; no sleep decides a result."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path

import pytest

from sudosat import solve
from sudosat.core.puzzle import verify
from sudosat.making.explain import explain
from sudosat.reading.formats import parse

from .conftest import PUZZLES, SUDOSAT, cpu_seconds, shared, tree, work_process

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
        # a shell starts background jobs with SIGINT ignored; undo that
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )


def at_work(process: subprocess.Popen[str], seconds: float = 1.5) -> list[int]:
    """Waits until the run has used ``seconds`` of CPU (start-up takes well under
    one); the processes of the run by then."""
    while cpu_seconds(process.pid) < seconds:
        assert process.poll() is None, "the run ended before it was signalled"
        time.sleep(0.05)
    return tree(process.pid)


def gone(pids: list[int], within: float = 60.0) -> bool:
    """Whether every process of ``pids`` has ended (zombies count as ended)."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        alive = []
        for pid in pids:
            try:
                state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
            except OSError:
                continue
            if state != "Z":
                alive.append(pid)
        if not alive:
            return True
        time.sleep(0.05)
    return False


LONG_RUNS = {
    "generate": ("generate", "--rank", "6", "--seed", "1"),  # in process, in Minicard
    # PySAT's own Ctrl-C in Minicard's limited solves: an error, not KeyboardInterrupt
    "killers": ("generate", "--variant", "killer", "--rank", "4", "-n", "50", "-j", "1"),
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
        ("generate", "--jobs", "2", "--rank", "4", "--count", "100000", "--seed", "1"),
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
    while len(tree(work)) < 3:  # the work process and its two workers
        assert process.poll() is None
        time.sleep(0.05)
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
    while cpu_seconds(process.pid) < cpu + 1.0:  # a second more of work: it goes on
        assert process.poll() is None, "SIGHUP stopped a run that ignores it"
        time.sleep(0.05)
    process.send_signal(signal.SIGTERM)
    _, err = process.communicate(timeout=60)
    assert process.returncode == 143, err


# --- --timeout on every command that can run long ----------------------------


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(SUDOSAT), *args], capture_output=True, text=True, timeout=300)


def test_explain_timeout_keeps_what_it_found_and_names_what_ran_out(tmp_path: Path) -> None:
    empty = tmp_path / "empty36.txt"  # several solutions at once; hundreds of clues to add
    empty.write_text("." * 1296 + "\n")
    done = run("explain", "--format", "json", "--timeout", "2", str(empty))
    assert done.returncode == 5, done.stderr
    found = json.loads(done.stdout)
    assert found["status"] == "multiple" and found["differ"] and found["add"] is None
    assert found["timed_out"] == ["add"]
    done = run("explain", "--format", "json", "--timeout", "1", BIG)
    found = json.loads(done.stdout)
    assert done.returncode == 5 and found["status"] == "timeout"
    assert found["timed_out"] == ["solve"]
    done = run("explain", "--format", "text", "--timeout", "1", BIG)
    assert done.returncode == 5 and "ran out of time: solve" in done.stdout


def test_rate_timeout_is_per_puzzle_and_the_run_goes_on() -> None:
    escargot = str(PUZZLES / "ai-escargot.txt")
    done = run("rate", "--format", "jsonl", "--timeout", "2", "-q", escargot, BIG, escargot)
    records = [json.loads(line) for line in done.stdout.splitlines()]
    assert done.returncode == 5, done.stderr
    assert [r["status"] for r in records] == ["unique", "timeout", "unique"]
    assert records[0]["level"] == "expert" and records[1]["level"] is None


def test_rate_timeout_while_rating(tmp_path: Path) -> None:
    hard = shared("large/gecode/gecode_25x25.chars.txt").read_text().splitlines()[8]  # 13 s
    path = tmp_path / "hard.txt"
    path.write_text(hard + "\n")
    done = run("rate", "--format", "jsonl", "--timeout", "1", str(path))
    record = json.loads(done.stdout)
    assert done.returncode == 5 and record["status"] == "timeout" and record["rating"] is None


def test_generate_timeout_prints_whole_puzzles_in_seed_order() -> None:
    done = run("generate", "--rank", "4", "--count", "2000", "--seed", "3", "--timeout", "2")
    assert done.returncode == 5, done.stderr
    made = done.stdout.splitlines()
    assert len(made) < 2000 and "timeout: made" in done.stderr
    if made:  # the same puzzles as a run asked for just as many
        again = run("generate", "--rank", "4", "--count", str(len(made)), "--seed", "3")
        assert again.stdout.splitlines() == made
        for line in made:
            assert len(line) == 256


def test_generate_timeout_with_workers() -> None:
    done = run(
        "generate", "--rank", "4", "--count", "2000", "--seed", "3", "--timeout", "2", "-j", "2"
    )
    assert done.returncode == 5, done.stderr
    made = done.stdout.splitlines()
    if made:
        again = run("generate", "--rank", "4", "--count", str(len(made)), "--seed", "3")
        assert again.stdout.splitlines() == made


def test_generate_level_takes_everyday_names() -> None:
    done = run("generate", "--seed", "5", "--level", "medium", "--format", "jsonl")
    assert done.returncode == 0 and json.loads(done.stdout)["level"] == "intermediate"
    done = run("generate", "--seed", "5", "--level", "hard", "--format", "jsonl")
    assert done.returncode == 0 and json.loads(done.stdout)["level"] == "expert"
    said = " ".join(run("generate", "--help").stdout.split())
    assert "medium is intermediate, hard is expert" in said


def test_explain_text_has_no_colour_codes(tmp_path: Path) -> None:
    for path in ("rexl-partial.txt", "several-solutions.txt", "ai-escargot.txt"):
        done = subprocess.run(
            [str(SUDOSAT), "explain", "--format", "text", "--color", str(PUZZLES / path)],
            capture_output=True,
            text=True,
            env={**os.environ, "FORCE_COLOR": "1"},
            timeout=120,
        )
        assert done.returncode in (0, 1, 3), done.stderr
        assert "\x1b[" not in done.stdout and done.stdout.strip()
    text = run("explain", "--format", "text", str(PUZZLES / "rexl-partial.txt")).stdout
    assert "these clues cannot all hold: r1c5=2, r2c9=2, r3c1=3, r3c2=5, r3c3=8" in text
    assert "best fill: 79 of 81 cells" in text


def test_explain_reads_many_puzzles_one_record_each(tmp_path: Path) -> None:
    many = tmp_path / "many.txt"
    lines = [(PUZZLES / name).read_text().strip() for name in ("several-solutions.txt",)]
    many.write_text("\n".join([lines[0], "not a puzzle at all", lines[0]]) + "\n")
    done = run("explain", "--format", "jsonl", "-q", str(many))
    records = [json.loads(line) for line in done.stdout.splitlines()]
    assert [r["status"] for r in records] == ["multiple", "error", "multiple"]
    assert done.returncode == 2


# --- explain in bounded memory ---------------------------------------------------


def test_explain_of_a_64x64_stays_under_a_gigabyte() -> None:
    # the peak of the whole run (every process of it), read by a parent that waits for it
    code = (
        "import resource, subprocess, sys\n"
        "done = subprocess.run(sys.argv[1:], capture_output=True)\n"
        "print(done.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, str(SUDOSAT), "explain", "--timeout", "8", BIG],
        capture_output=True,
        text=True,
        timeout=300,
    )
    returned, peak_kb = map(int, done.stdout.split())
    assert returned == 5  # cleanly timed out
    assert peak_kb < 1024 * 1024, f"{peak_kb / 1024:.0f} MB"


def test_clues_to_add_make_the_puzzle_unique() -> None:
    puzzle = parse((PUZZLES / "several-solutions.txt").read_text())
    found = explain(puzzle)
    assert found.add is not None and found.differ
    cells = list(puzzle.cells)
    for cell, value in found.add:
        cells[cell] = value
    fixed = solve(replace(puzzle, cells=tuple(cells)))
    assert fixed.status == "unique" and not verify(puzzle, fixed.solutions[0])
