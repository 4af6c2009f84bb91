"""Batch runs: many puzzles per file, workers, order, shards, CSV, --check, exit
codes, streaming from stdin and Ctrl-C, through the real command."""

from __future__ import annotations

import contextlib
import csv
import io
import json
import os
import pty
import re
import signal
import subprocess
import threading
from pathlib import Path

import pytest

from sudosat.core.puzzle import Puzzle, rule_violations
from sudosat.reading.formats import parse
from sudosat.reading.inputs import read_file
from sudosat.running import runner
from sudosat.running.batch import Summary
from sudosat.sat.encoding import groups
from sudosat.solving.engine import Options, solve, solve_with
from sudosat.solving.fast import NAME, FastSolver
from tests.conftest import (
    ESCARGOT,
    GENERAL,
    PATIENCE,
    PUZZLES,
    REXL_FIRST,
    SUDOSAT,
    Ended,
    Run,
    as_a_shell_starts_it,
    children,
    drained,
    jsonl,
    read_line,
    shared,
    waited_for,
    work_process,
)

MAGICTOUR = PUZZLES / "tdoku-magictour-25.txt"


def puzzle_lines(path: Path) -> list[str]:
    return [x for x in path.read_text().splitlines() if x.strip() and not x.startswith("#")]


def without_time(records: list[dict[str, object]]) -> list[dict[str, object]]:
    return [{k: v for k, v in r.items() if k != "time"} for r in records]


@pytest.mark.slow
def test_tdoku_test_puzzles_counts_through_the_batch(tmp_path: Path, run: Run) -> None:
    rows = [x.split(":") for x in puzzle_lines(shared("tdoku/test_puzzles"))]
    path = tmp_path / "test_puzzles.txt"
    path.write_text("".join(row[0] + "\n" for row in rows))
    code, out, _ = run("solve", "--format", "jsonl", "--count", "-n", "1000", "-j", "2", str(path))
    records = jsonl(out)
    assert [r["count"] for r in records] == [int(row[1]) for row in rows]
    assert all(r["count_complete"] for r in records)
    for record, row in zip(records, rows, strict=True):
        if len(row) > 2 and row[1] == "1":
            assert record["solution"] == row[2]
    assert code == 3  # the file holds puzzles with no solution


@pytest.mark.slow
def test_check_reads_tdokus_expected_counts_and_solutions(tmp_path: Path, run: Run) -> None:
    path = shared("tdoku/test_puzzles")
    code, out, _ = run("solve", "--format", "jsonl", "--check", "--fail-on", "mismatch", str(path))
    records = jsonl(out)
    assert code == 0 and len(records) == 43
    assert {r["check"] for r in records} == {"ok"}
    code, out, _ = run("solve", "-f", "jsonl", "--check", "--count", "-n", "1000", str(path))
    assert {r["check"] for r in jsonl(out)} == {"ok"}
    assert code == 0  # every check passed, though some puzzles have no solution
    wrong = tmp_path / "wrong.txt"
    wrong.write_text(path.read_text().replace(":1:", ":2:", 1))
    code, out, err = run("solve", "--check", str(wrong))
    assert code == 6 and "--check: mismatch: 2 solutions expected" in err
    code, out, _ = run("solve", "-f", "jsonl", "--check", str(MAGICTOUR))
    assert code == 0 and {r["check"] for r in jsonl(out)} == {"no expected solution"}


def test_serg_benchmark_every_puzzle_has_several_solutions(run: Run) -> None:
    path = shared("tdoku/puzzles7_serg_benchmark")
    code, out, _ = run("solve", "--format", "jsonl", "--shard", "1/100", "-j", "2", str(path))
    *records, trailer = jsonl(out)
    assert trailer["shard"] == "1/100" and trailer["records"] == len(records)
    assert len(records) > 50
    assert {r["status"] for r in records} == {"multiple"}
    assert all(len(r["solutions"]) == 2 and r["unique"] is False for r in records)
    assert code == 1


@pytest.mark.slow
def test_batch_engine_agrees_with_the_engine() -> None:
    puzzles = [p for p in read_file(str(MAGICTOUR)) if not isinstance(p, Exception)]
    puzzles += [parse(REXL_FIRST), parse(REXL_FIRST.replace("34", ".4", 1))]
    puzzles += [
        parse((PUZZLES / "no-solution.txt").read_text()),
        parse((PUZZLES / "hex-16x16.txt").read_text()),
    ]
    fast = {3: FastSolver(3), 4: FastSolver(4)}
    for puzzle in puzzles:
        every = set(solve(puzzle, solver=GENERAL, max_solutions=1000).solutions)
        for limit in (1, 2, 50):
            answer = fast[puzzle.rank].solve(puzzle, limit)
            outcome = solve(puzzle, solver=GENERAL, max_solutions=limit)
            statuses = {answer.status, outcome.status}
            assert len(statuses) == 1 or statuses == {"unique", "solved"}  # unique: proven early
            assert len(answer.solutions) == len(outcome.solutions) == min(limit, len(every))
            assert set(answer.solutions) <= every
            assert answer.exhausted == (limit > len(every)) or answer.status == "unique"


def test_batch_engine_settles_by_propagation_or_searches_and_counts_every_grid() -> None:
    engine = FastSolver(3)
    puzzles = [p for p in read_file(str(PUZZLES / "royle17-25.txt")) if isinstance(p, Puzzle)]
    settled = 0
    for puzzle in puzzles:
        givens = [cell * 9 + v for cell, v in enumerate(puzzle.cells) if v]
        settled += len(engine.probe.propagate(assumptions=givens)[1]) == engine.top
        answer = engine.solve(puzzle)
        assert answer.status == "unique"
        assert answer.solutions == solve(puzzle, solver=GENERAL).solutions
    assert 0 < settled < len(puzzles)  # both ways are taken
    every = FastSolver(2).solve(Puzzle(2, (0,) * 16), limit=300)
    assert (every.status, len(set(every.solutions)), every.exhausted) == ("multiple", 288, True)
    assert all(rule_violations(2, grid) == [] for grid in every.solutions)


@pytest.mark.slow
def test_timeout_keeps_the_batch_engine_and_its_answers(tmp_path: Path, run: Run) -> None:
    # --timeout used to send every puzzle through a forked child (100x slower)
    puzzle = next(p for p in read_file(str(MAGICTOUR)) if isinstance(p, Puzzle))
    assert solve_with(puzzle, Options(timeout=30)).solver == NAME
    plain = run("solve", "--format", "jsonl", "-j", "1", str(MAGICTOUR))
    timed = run("solve", "--format", "jsonl", "-j", "1", "--timeout", "30", str(MAGICTOUR))
    assert plain[0] == timed[0] == 0
    assert without_time(jsonl(plain[1])) == without_time(jsonl(timed[1]))
    # a count that cannot finish: the solutions found by then, exit 5
    path = tmp_path / "empty.txt"
    path.write_text(("." * 81 + "\n") * 2)
    args = ("--count", "-n", "10000000", "--timeout", "1", "--format", "jsonl", "-j", "1")
    code, out, err = run("solve", *args, str(path))
    records = jsonl(out)
    assert code == 5 and "2 timeout" in err
    assert [r["status"] for r in records] == ["timeout", "timeout"]
    for r in records:
        assert r["count_complete"] is False and r["count"] > 1 and r["solution"]
        assert r["reason"] == "no answer within 1 s"


@pytest.mark.slow
def test_order_is_kept_with_several_workers(tmp_path: Path, run: Run) -> None:
    lines = puzzle_lines(MAGICTOUR) * 24 + [REXL_FIRST.replace("34", ".4", 1)]
    path = tmp_path / "many.txt"
    path.write_text("\n".join(lines) + "\n")
    outputs = {}
    for jobs in ("1", "2"):
        code, out, _ = run("solve", "--format", "jsonl", "-j", jobs, str(path))
        assert code == 1
        outputs[jobs] = without_time(jsonl(out))
    assert outputs["1"] == outputs["2"]
    assert [r["line"] for r in outputs["2"]] == list(range(1, len(lines) + 1))
    assert [r["puzzle"] for r in outputs["2"]] == lines


def test_malformed_lines_in_the_middle_get_their_own_record(tmp_path: Path, run: Run) -> None:
    good = puzzle_lines(MAGICTOUR)
    lines = ["# a comment", *good[:10], "", ESCARGOT[:-1] + "x", "12345", *good[10:20]]
    path = tmp_path / "broken.txt"
    path.write_text("\n".join(lines) + "\n")
    code, out, err = run("solve", "--format", "jsonl", "-j", "2", str(path))
    records = jsonl(out)
    assert len(records) == 22
    assert [r["line"] for r in records] == [*range(2, 12), 13, 14, *range(15, 25)]
    broken = records[10:12]
    assert [r["status"] for r in broken] == ["error", "error"]
    assert f"{path}:13:81: unknown symbol 'x'" in str(broken[0]["reason"])
    assert "wrong number of cells" in str(broken[1]["reason"])
    assert all(r["status"] == "unique" for r in records[:10] + records[12:])
    assert code == 2
    assert "20 unique, 2 error (2 malformed input)" in err
    assert f"2 malformed ({path}:13, {path}:14)" in err.splitlines()[-1]


@pytest.mark.parametrize(
    ("gate", "code"),
    [
        (["--fail-on", "none,multiple"], 2),  # a line that cannot be read fails any gate
        (["--fail-on", "none,multiple,error"], 2),
        (["--fail-on", "all,-malformed"], 0),  # unless left out in so many words
        (["--fail-on", "-malformed"], 0),
        (["--fail-on", "never"], 0),
        (["--allow-malformed"], 0),
        (["--allow-malformed", "--fail-on", "none"], 0),
    ],
)
def test_a_malformed_line_fails_the_run_unless_left_out_by_name(
    gate: list[str], code: int, tmp_path: Path, run: Run
) -> None:
    path = tmp_path / "broken.txt"
    path.write_text("\n".join([ESCARGOT, "12345", REXL_FIRST]) + "\n")
    found, out, err = run("solve", "--format", "jsonl", *gate, str(path))
    assert found == code, err
    assert [r["status"] for r in jsonl(out)] == ["unique", "error", "unique"]
    assert ("fail the run" in err) == (code != 0)


def test_the_gate_names_what_failed_it_and_where(tmp_path: Path, run: Run) -> None:
    none = (PUZZLES / "no-solution.txt").read_text().splitlines()[1]
    lines = [ESCARGOT, "12345", none, *["x"] * 5, REXL_FIRST.replace("34", ".4", 1)]
    path = tmp_path / "mixed.txt"
    path.write_text("\n".join(lines) + "\n")
    code, _, err = run("solve", "-q", "--format", "jsonl", "--fail-on", "none", str(path))
    assert code == 2 and err.count("\n") == 1  # --quiet: only what failed the run
    said = err.strip()
    assert said.startswith("sudosat: these fail the run (--fail-on malformed,none): ")
    assert f"6 malformed ({path}:2, {path}:4, {path}:5 and 3 more)" in said
    assert f"1 none ({path}:3)" in said and "multiple" not in said
    with pytest.raises(ValueError, match="never stands alone"):
        runner.fail_on("never,none")
    with pytest.raises(ValueError, match="unknown bogus"):
        runner.fail_on("none,-bogus")


def test_line_format_reports_reasons_on_stderr(tmp_path: Path, run: Run) -> None:
    path = tmp_path / "batch.txt"
    path.write_text(
        "\n".join([ESCARGOT, ESCARGOT[:-1] + "x", REXL_FIRST.replace("34", ".4", 1)]) + "\n"
    )
    code, out, err = run("solve", str(path))
    assert out.splitlines()[1:] == ["error", "multiple"]  # a puzzle that is not unique says so
    assert f"{path}:2:81: unknown symbol 'x'" in err
    assert f"{path}:3: not unique: at least 2 solutions; the first two differ in r" in err
    assert code == 2


def test_csv_in_and_out_with_check(tmp_path: Path, run: Run) -> None:
    puzzles = puzzle_lines(MAGICTOUR)[:6]
    solutions = [
        json.loads(line)["solution"]
        for line in run("solve", "-f", "jsonl", str(MAGICTOUR))[1].splitlines()[:6]
    ]
    wrong = solutions[2][::-1]
    path = tmp_path / "sudoku.csv"
    rows = [f"{p.replace('.', '0')},{s}" for p, s in zip(puzzles, solutions, strict=True)]
    path.write_text("quizzes,solutions\n" + "\n".join(rows) + "\n")
    code, out, _ = run("solve", "--format", "csv", "--check", str(path))
    table = list(csv.DictReader(io.StringIO(out)))
    assert code == 0
    assert [r["line"] for r in table] == [str(n) for n in range(2, 8)]
    assert {r["check"] for r in table} == {"ok"} and {r["unique"] for r in table} == {"true"}
    assert [r["solution"] for r in table] == solutions
    rows[2] = f"{puzzles[2].replace('.', '0')},{wrong}"
    path.write_text("quizzes,solutions\n" + "\n".join(rows) + "\n")
    code, out, err = run("solve", "--format", "jsonl", "--check", str(path))
    records = jsonl(out)
    assert code == 6
    assert [r["check"] for r in records] == ["ok", "ok", "mismatch", "ok", "ok", "ok"]
    assert records[2]["expected"] == wrong
    assert "1 failed --check" in err
    code, _, _ = run("solve", "--format", "jsonl", "--check", "--fail-on", "error", str(path))
    assert code == 0


def test_shards_together_are_the_whole(tmp_path: Path, run: Run) -> None:
    path = tmp_path / "many.txt"
    path.write_text("\n".join(puzzle_lines(MAGICTOUR) * 3) + "\n")
    _, whole, _ = run("solve", "--format", "jsonl", str(path))
    parts = []
    _, first, _ = run("solve", "--format", "jsonl", "--shard", "1/4", str(path))
    run_id = jsonl(first)[-1]["run"]  # the same for every shard of the run
    for k in (1, 2, 3, 4):
        code, out, _ = run("solve", "--format", "jsonl", "--shard", f"{k}/4", str(path))
        assert code == 0
        *part, trailer = jsonl(out)
        assert [r["line"] for r in part] == list(range(k, 76, 4))
        assert trailer == {"shard": f"{k}/4", "records": len(part), "of": 75, "run": run_id}
        parts += part
    assert without_time(sorted(parts, key=lambda r: int(str(r["line"])))) == without_time(
        jsonl(whole)
    )


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--shard", "0/4"], "expected K/N with 1 <= K <= N"),
        (["--shard", "5/4"], "expected K/N"),
        (["--fail-on", "nonsense"], "unknown nonsense"),
    ],
)
def test_bad_batch_options_are_usage_errors(args: list[str], message: str, run: Run) -> None:
    code, _, err = run("solve", *args, str(MAGICTOUR))
    assert code == 2 and message in err


def test_exit_codes_and_fail_on(tmp_path: Path, run: Run) -> None:
    path = tmp_path / "mixed.txt"
    none = (PUZZLES / "no-solution.txt").read_text().splitlines()[1]
    path.write_text("\n".join([ESCARGOT, none, REXL_FIRST.replace("34", ".4", 1)]) + "\n")
    assert run("solve", "-f", "jsonl", str(path))[0] == 3  # no solution outranks several
    assert run("solve", "-f", "jsonl", "--fail-on", "multiple", str(path))[0] == 1
    assert run("solve", "-f", "jsonl", "--fail-on", "never", str(path))[0] == 0
    assert run("solve", "-f", "jsonl", "--fail-on", "all", str(path))[0] == 3
    records = jsonl(run("solve", "-f", "jsonl", str(path))[1])
    assert [r["status"] for r in records] == ["unique", "none", "multiple"]
    assert [r["unique"] for r in records] == [True, False, False]


def test_summary_on_stderr(tmp_path: Path, run: Run) -> None:
    code, _, err = run("solve", "-f", "jsonl", str(MAGICTOUR))
    assert code == 0
    first, second = err.splitlines()
    assert first.startswith("answered 25 puzzles in ") and "puzzles/s): 25 unique" in first
    assert second.startswith(f"slowest: {MAGICTOUR}:")
    assert run("solve", "-f", "jsonl", "--quiet", str(MAGICTOUR))[2] == ""


def test_several_files_and_a_grid_file_in_one_batch(run: Run) -> None:
    code, out, _ = run("solve", "-f", "jsonl", str(MAGICTOUR), str(PUZZLES / "ai-escargot.txt"))
    records = jsonl(out)
    assert code == 0 and len(records) == 26
    assert records[-1]["source"] == str(PUZZLES / "ai-escargot.txt")
    assert str(records[-1]["solution"]).startswith("162857493")
    code, out, _ = run("solve", "-f", "jsonl", str(MAGICTOUR), "no/such/file.txt")
    records = jsonl(out)
    assert code == 2 and len(records) == 26 and records[-1]["status"] == "error"
    assert "no/such/file.txt: no such file" in str(records[-1]["reason"])


def test_16x16_batch_in_hex(tmp_path: Path, run: Run) -> None:
    hexline = "".join((PUZZLES / "hex-16x16.txt").read_text().split())
    hexline = "".join(ch for ch in hexline if ch not in "|+-")
    path = tmp_path / "hex.txt"
    path.write_text((hexline + "\n") * 5)
    code, out, _ = run("solve", "-f", "jsonl", "-j", "2", str(path))
    records = jsonl(out)
    assert code == 0 and len(records) == 5 and {r["status"] for r in records} == {"unique"}


@pytest.mark.slow
@pytest.mark.parametrize("record", [False, True])
def test_stdin_is_answered_before_it_ends(record: bool, sudosat: str) -> None:
    """Lines of puzzles, or sudosat's own jsonl records, from a pipe: the first
    answered while the pipe is still open."""
    with subprocess.Popen(
        [sudosat, "solve", "--format", "jsonl", "-j", "2", "-"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=as_a_shell_starts_it,
    ) as child:
        assert child.stdin is not None and child.stdout is not None
        child.stdin.write((json.dumps({"puzzle": ESCARGOT}) if record else ESCARGOT) + "\n")
        child.stdin.flush()
        first = json.loads(read_line(child.stdout, "the first answer"))  # stdin still open
        assert first["line"] == 1 and first["status"] == "unique"
        child.stdin.write((json.dumps({"puzzle": REXL_FIRST}) if record else REXL_FIRST) + "\n")
        child.stdin.close()
        child.stdin = None
        rest, _ = child.communicate(timeout=PATIENCE)
    assert json.loads(rest)["line"] == 2
    assert child.returncode == 0


def ended(child: subprocess.Popen[str], reader: threading.Thread | None = None) -> str:
    """What an ending child wrote to stderr, its pipes closed, once ``reader`` has
    read the rest of its stdout (first: no two readers of one pipe)."""
    if reader is not None:
        reader.join(PATIENCE)
        assert not reader.is_alive(), "the child's stdout never ended"
    _, err = child.communicate(timeout=PATIENCE)  # stdout at its end by now
    return err or ""


def read_in_background(child: subprocess.Popen[str]) -> tuple[list[str], threading.Thread]:
    """Collect the child's stdout lines in a thread; returns once the first has come."""
    lines: list[str] = []
    started = threading.Event()

    def read() -> None:
        assert child.stdout is not None
        for line in child.stdout:
            lines.append(line)
            started.set()

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    assert started.wait(PATIENCE), "no answer came"
    return lines, reader


@pytest.mark.slow
def test_ctrl_c_leaves_whole_records_and_exits_130(tmp_path: Path, sudosat: str) -> None:
    path = tmp_path / "long.txt"
    path.write_text("\n".join(puzzle_lines(MAGICTOUR) * 4000) + "\n")  # 100,000 puzzles
    child = subprocess.Popen(
        [sudosat, "solve", "--format", "jsonl", "-j", "2", str(path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=as_a_shell_starts_it,
    )
    lines, reader = read_in_background(child)  # inside the run, more chunks on the way
    child.send_signal(signal.SIGINT)
    err = ended(child, reader)
    assert child.returncode == 130, err
    records = jsonl("".join(lines))  # every line is a whole record
    assert 0 < len(records) < 100_000
    assert [r["line"] for r in records] == list(range(1, len(records) + 1))
    assert f"interrupted after {len(records)} puzzles" in err
    assert err.endswith("sudosat: interrupted\n")  # as every interrupted command ends
    assert "Traceback" not in err


@pytest.mark.slow
def test_progress_bar_only_on_a_terminal(sudosat: str) -> None:
    primary, secondary = pty.openpty()
    try:
        done = subprocess.run(
            [sudosat, "solve", "-f", "jsonl", str(MAGICTOUR)],
            stdout=subprocess.PIPE,
            stderr=secondary,
            timeout=60,
            env={**os.environ, "TERM": "xterm"},
        )
        os.close(secondary)
        seen = drained(primary, "the progress bar's terminal to close")
    finally:
        os.close(primary)
    assert done.returncode == 0
    assert b"puzzles" in seen and b"\x1b[" in seen  # drawn, then the summary
    assert b"\x1b[" not in done.stdout


def test_stats_for_many_puzzles_in_every_record(run: Run) -> None:
    code, out, _ = run("solve", "--stats", "-f", "jsonl", str(MAGICTOUR))
    records = jsonl(out)
    assert code == 0 and len(records) == 25
    assert all({"variables", "clauses", "conflicts"} <= set(r["stats"]) for r in records)


TIME = re.compile(r'("time": |,)\d+\.\d+(e-\d+)?')


def untimed(text: str) -> str:
    return TIME.sub(r"\1T", text)


@pytest.mark.slow
@pytest.mark.parametrize("fmt", ["line", "grid", "json", "jsonl", "csv"])
@pytest.mark.parametrize("path", [PUZZLES / "ai-escargot.txt", MAGICTOUR])
def test_options_never_change_the_shape_of_the_output(fmt: str, path: Path, run: Run) -> None:
    code, plain, _ = run("solve", "-f", fmt, str(path))
    for extra in (["--jobs", "2"], ["--jobs", "1"], ["--fail-on", "all"], ["--shard", "1/1"]):
        again = run("solve", "-f", fmt, *extra, str(path))
        shape = again[1]
        if "--shard" in extra and fmt == "jsonl":  # a shard's jsonl ends with its trailer
            shape, trailer = shape.rsplit("\n", 2)[0] + "\n", json.loads(shape.splitlines()[-1])
            assert trailer["shard"] == "1/1" and trailer["of"] == trailer["records"]
        assert again[0] == code and untimed(shape) == untimed(plain), extra
    many = path == MAGICTOUR
    if fmt == "json":
        assert isinstance(json.loads(plain), list) == many  # many: the list of jsonl objects
    if fmt == "jsonl":
        assert len(plain.splitlines()) == (25 if many else 1)


def test_csv_with_a_byte_order_mark_and_a_header_without_a_puzzle_column(
    tmp_path: Path, run: Run
) -> None:
    path = tmp_path / "bom.csv"
    path.write_bytes(
        b"\xef\xbb\xbfquizzes,solutions\n" + ESCARGOT.replace(".", "0").encode() + b",\n"
    )
    code, out, _ = run("solve", "-f", "jsonl", str(path))
    assert code == 0 and jsonl(out)[0]["status"] == "unique"
    path.write_text("a,b\n1,2\n")
    code, out, _ = run("solve", "-f", "jsonl", str(path))
    assert code == 2
    assert "1:1: a CSV header naming no puzzle column" in str(jsonl(out)[0]["reason"])


@pytest.mark.slow
def test_binary_junk_in_a_batch_is_an_error_record(tmp_path: Path, sudosat: str) -> None:
    path = tmp_path / "junk.txt"
    path.write_bytes(
        f"{ESCARGOT}\n".encode() + ESCARGOT[:80].encode() + b"\xff\n" + f"{REXL_FIRST}\n".encode()
    )
    for fmt in ("jsonl", "csv", "line"):
        done = subprocess.run(
            [sudosat, "solve", "--format", fmt, str(path)], capture_output=True, timeout=60
        )
        assert done.returncode == 2
        done.stdout.decode("utf-8")  # the output stays text
        assert f"{path}:2:81: unknown symbol".encode() in done.stdout + done.stderr


def workers(pid: int) -> list[int]:
    """The worker processes of a run: the work process's children, or the
    children of its fork server, but not the fork server or the resource
    tracker themselves."""
    found = []
    try:
        work = work_process(pid)
    except Ended:  # the run has ended: no workers
        return []
    for child in children(work):
        try:
            command = Path(f"/proc/{child}/cmdline").read_bytes()
        except OSError:
            continue
        if b"forkserver" in command:
            found += children(child)
        elif b"resource_tracker" not in command:
            found.append(child)
    return found


def long_run(tmp_path: Path) -> tuple[subprocess.Popen[str], list[str], threading.Thread]:
    path = tmp_path / "long.txt"
    path.write_text("\n".join(puzzle_lines(MAGICTOUR) * 400) + "\n")
    child = subprocess.Popen(
        [str(SUDOSAT), "solve", "--format", "jsonl", "-j", "2", str(path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=as_a_shell_starts_it,
    )
    lines, reader = read_in_background(child)  # the workers are running
    return child, lines, reader


@pytest.mark.slow
def test_a_worker_that_dies_is_replaced_and_nothing_is_lost(tmp_path: Path) -> None:
    child, lines, reader = long_run(tmp_path)
    running = workers(child.pid)
    assert len(running) >= 2
    os.kill(running[0], signal.SIGKILL)
    err = ended(child, reader)
    assert child.returncode == 0, err
    assert "a worker process died; starting new workers" in err and "Traceback" not in err
    records = jsonl("".join(lines))
    assert [r["line"] for r in records] == list(range(1, 10001))
    assert {r["status"] for r in records} == {"unique"}
    first = {r["puzzle"]: r["solution"] for r in records[:25]}
    assert all(r["solution"] == first[r["puzzle"]] for r in records)


@pytest.mark.slow
def test_workers_that_keep_dying_stop_the_run_with_exit_4(tmp_path: Path) -> None:
    child, lines, reader = long_run(tmp_path)

    def stopped() -> bool:
        if child.poll() is not None:
            return True
        for pid in workers(child.pid):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        return False

    waited_for(stopped, "the run to stop, its workers killed again and again")
    err = ended(child, reader)
    assert child.returncode == 4, err
    assert "worker processes kept dying" in err and "Traceback" not in err
    records = jsonl("".join(lines))
    assert 0 < len(records) < 10000
    assert [r["line"] for r in records] == list(range(1, len(records) + 1))


@pytest.mark.parametrize("rank", [2, 3, 4])
def test_batch_engine_groups_by_arithmetic_are_the_rules_groups(rank: int) -> None:
    cells, unit_values = groups(rank)
    member: list[list[int]] = [[] for _ in range(rank**6 + 1)]
    for index, group in enumerate(cells + unit_values):
        for variable in group:
            member[variable].append(index)
    engine = FastSolver(rank)
    assert engine.groups_of[1:] == [tuple(found) for found in member[1:]]
    assert engine.group_count == len(cells + unit_values)


def test_a_run_stopped_early_says_so() -> None:
    summary = Summary(interrupted=True)
    assert summary.lines()[0].startswith("interrupted after 0 puzzles")
    assert "none answered yet" in summary.lines()[0] and "nothing to do" not in summary.lines()[0]
    assert Summary(stopped=True).lines()[0].startswith("stopped after 0 puzzles")


def records(tmp_path: Path, run: Run) -> list[str]:
    puzzles = tmp_path / "three.txt"
    puzzles.write_text("".join(link_or_line(i) + "\n" for i in range(3)))
    _, out, _ = run("solve", str(puzzles), "-f", "json", "-q")
    return out.splitlines()


def link_or_line(i: int) -> str:
    return [
        "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........",
        "7.8...3.....2.1...5.........4.....263...8.......1...9..9.6....4....7.5...........",
        "7.8...3.....6.1...5.........4.....263...8.......1...9..9.6....4....7.5...........",
    ][i]


@pytest.mark.parametrize("broken", [1, 2, 3])
def test_a_broken_record_of_a_json_list_is_an_error_of_its_own(
    broken: int, tmp_path: Path, run: Run
) -> None:
    lines = records(tmp_path, run)
    assert lines[0] == "[" and len(lines) == 5
    lines[broken] = lines[broken][:40] + '"x,' + lines[broken][40:]
    path = tmp_path / "broken.json"
    path.write_text("\n".join(lines) + "\n")
    code, out, err = run("solve", str(path), "-f", "line")
    answers = out.split()
    assert len(answers) == 3 and answers[broken - 1] == "error"
    assert all(a != "error" for i, a in enumerate(answers) if i != broken - 1)
    assert code == 2 and f"broken.json:{broken + 1}:" in err and "does not parse" in err


def test_a_record_without_a_puzzle_says_so(tmp_path: Path, run: Run) -> None:
    lines = records(tmp_path, run)
    lines[1] = lines[1].replace('"puzzle"', '"puzz"')
    path = tmp_path / "nopuzzle.json"
    path.write_text("\n".join(lines) + "\n")
    code, out, err = run("solve", str(path), "-f", "line")
    assert out.split()[0] == "error" and "expected a puzzle field" in err
    code, _, err = run("solve", "-", input='{"status": "unique", "line": 3}\n')
    assert code == 2 and "expected a puzzle field" in err and "f-puzzles" not in err
