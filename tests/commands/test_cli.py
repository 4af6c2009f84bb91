from __future__ import annotations

import errno
import json
import os
import re
import resource
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from sudosat.cli import cli, os_failure
from sudosat.core.notation import format_line
from sudosat.core.puzzle import verify
from sudosat.reading.formats import parse
from sudosat.solving.engine import solve
from sudosat.solving.fast import NAME
from tests.conftest import (
    ESCARGOT,
    GENERAL,
    PUZZLES,
    REXL_FIRST,
    SUDOSAT,
    Run,
    as_a_shell_starts_it,
    cpu_seconds,
    waited_for,
)


def test_solve_prints_the_grid_and_says_unique(run: Run) -> None:
    code, out, err = run("solve", str(PUZZLES / "ai-escargot.txt"))
    assert code == 0
    assert out.splitlines()[0] == "1 6 2 | 8 5 7 | 4 9 3"
    assert "unique solution" in err


def test_solve_line_format_from_stdin(run: Run) -> None:
    code, out, _ = run("solve", "-", "--format", "line", input=ESCARGOT + "\n")
    assert code == 0
    assert out.strip() == "".join(map(str, solve(parse(ESCARGOT)).solutions[0]))


def test_several_solutions_exit_1_and_show_where_they_differ(run: Run) -> None:
    code, out, err = run("solve", str(PUZZLES / "several-solutions.txt"))
    assert code == 1
    assert len(out.strip().split("\n\n")) == 2
    assert "not unique: at least 2 solutions; the first two differ in r" in err


def test_count_gives_the_notebook_numbers(run: Run) -> None:
    code, out, err = run("solve", "--count", str(PUZZLES / "several-solutions.txt"))
    assert (code, out.strip()) == (1, "7")
    assert "7 solutions" in err
    code, out, _ = run("solve", "--count", "-", input=ESCARGOT.replace("7.9..", "7....", 1))
    assert out.strip() == "20"
    code, out, _ = run("solve", "--count", str(PUZZLES / "no-solution.txt"))
    assert (code, out.strip()) == (3, "0")


def test_count_stops_at_max_solutions(run: Run) -> None:
    code, out, err = run("solve", "--count", "-n", "5", "-", input="." * 81)
    assert (code, out.strip()) == (1, "5+")  # a lower bound, and says so
    assert "at least 5 solutions" in err


def test_clashing_clues_name_both_cells(run: Run) -> None:
    code, out, err = run("solve", str(PUZZLES / "clashing-clues.txt"))
    assert code == 3
    assert out.strip() == "none"
    assert "no solution: r1c1 and r" in err and "both hold 5" in err


def test_json_carries_everything(run: Run) -> None:
    hex16 = str(PUZZLES / "hex-16x16.txt")
    code, out, _ = run("solve", "--format", "json", "--stats", "--solver", GENERAL, hex16)
    assert code == 0
    record = json.loads(out)
    assert record["status"] == "unique" and record["unique"] is True
    assert record["rank"] == 4 and record["solver"] == GENERAL
    assert record["puzzle"].startswith(".e.0.19db")
    solution = record["solutions"][0]
    assert len(solution) == 256 and set(solution) == set("0123456789abcdef")
    assert {"variables", "clauses", "conflicts", "decisions", "propagations", "restarts"} <= set(
        record["stats"]
    )
    assert record["time"] > 0
    _, out, _ = run("solve", "--format", "json", hex16)
    assert json.loads(out)["solver"] == NAME and "stats" not in json.loads(out)


def test_many_puzzles_in_one_file_come_out_in_order(run: Run) -> None:
    code, out, _ = run("solve", "--format", "json", str(PUZZLES / "tdoku-magictour-25.txt"))
    records = json.loads(out)
    assert code == 0 and len(records) == 25
    assert [r["line"] for r in records] == list(range(3, 28))
    assert all(r["status"] == "unique" for r in records)


def test_many_puzzles_default_to_lines_and_grid_on_request(run: Run) -> None:
    path = str(PUZZLES / "tdoku-magictour-25.txt")
    _, out, _ = run("solve", path)
    assert len(out.splitlines()) == 25 and all(len(line) == 81 for line in out.splitlines())
    _, out, _ = run("solve", "--format", "grid", path)
    assert len(out.strip().split("\n\n")) == 25


def test_broken_line_in_a_batch_is_reported_and_the_rest_solved(tmp_path: Path, run: Run) -> None:
    path = tmp_path / "batch.txt"
    path.write_text("\n".join([ESCARGOT, ESCARGOT[:-1] + "x", REXL_FIRST]) + "\n")
    code, out, err = run("solve", "--format", "line", str(path))
    assert code == 2
    lines = out.splitlines()
    assert len(lines) == 3 and lines[1] == "error" and len(lines[2]) == 81
    assert f"{path}:2:81: unknown symbol 'x'" in err


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        (ESCARGOT[:80], ":1:81: wrong number of cells: found 80"),
        (ESCARGOT[:40] + "x" + ESCARGOT[41:], ":1:41: unknown symbol 'x'"),
        (" ".join(["20"] + ["0"] * 255), ":1:1: value 20 out of range"),
        ("", ":1:1: empty input"),
        ("\x00\xff junk", ":1:1: binary data"),
        ("123456789" + "." * 247, "could be read as hex 0-f or as"),
    ],
)
def test_bad_input_is_one_line_exit_2(
    tmp_path: Path, content: str, expected: str, run: Run
) -> None:
    path = tmp_path / "bad.txt"
    path.write_bytes(content.encode("latin-1"))
    code, out, err = run("solve", str(path))
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("sudosat solve: ")
    assert expected in err


def test_missing_file(run: Run) -> None:
    code, _, err = run("solve", "no/such/puzzle.txt")
    assert code == 2 and "sudosat solve: no/such/puzzle.txt: no such file" in err


def test_unknown_solver_is_a_usage_error(run: Run) -> None:
    code, _, err = run("solve", "--solver", "nosuch", str(PUZZLES / "ai-escargot.txt"))
    assert code == 2 and "unknown solver 'nosuch'" in err


@pytest.mark.slow
def test_timeout_has_its_own_exit_code(run: Run) -> None:
    code, _, err = run("solve", "--count", "-n", "10000000", "--timeout", "1", "-", input="." * 81)
    assert code == 5 and "timeout" in err


def test_stats_report(run: Run) -> None:
    _, _, err = run("solve", "--stats", str(PUZZLES / "ai-escargot.txt"))
    for word in (
        "variables",
        "clauses",
        "conflicts",
        "decisions",
        "propagations",
        "restarts",
        "time",
    ):
        assert word in err


def test_rich_output_draws_boxes_and_tells_givens_apart(run: Run) -> None:
    code, out, _ = run("solve", "--format", "rich", "--color", str(PUZZLES / "ai-escargot.txt"))
    assert code == 0
    assert "┏" in out and "╋" in out
    assert "\x1b[1m1\x1b[0m" in out  # the given 1 in r1c1 is bold
    assert "\x1b[36m6\x1b[0m" in out  # the filled 6 in r1c2 is cyan
    assert "unique solution" in out


def test_cnf_header_comments_and_determinism(tmp_path: Path, run: Run) -> None:
    target = tmp_path / "escargot.cnf"
    code, out, _ = run("cnf", str(PUZZLES / "ai-escargot.txt"), "--full", "--out", str(target))
    assert code == 0 and out == ""
    text = target.read_text()
    lines = text.splitlines()
    header = next(line for line in lines if line.startswith("p cnf"))
    nv, nclauses = map(int, header.split()[2:])
    clauses = [line for line in lines if not line.startswith(("c", "p"))]
    assert (nv, nclauses) == (729, 11988 + 23) == (nv, len(clauses))
    assert all(line.endswith(" 0") for line in clauses)
    assert "c variable (r*9 + c)*9 + v + 1 means row r, column c holds value v (0-based)" in lines
    assert any(line.startswith("c puzzle 1....7.9.") for line in lines)
    _, again, _ = run("cnf", str(PUZZLES / "ai-escargot.txt"), "--full")
    assert again == text
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".sudosat-")]


def test_cnf_rules_alone_for_rank_4(run: Run) -> None:
    code, out, _ = run("cnf", "--rank", "4", "--encoding", "efficient")
    assert code == 0
    assert "p cnf 4096 123136" in out.splitlines()


def test_cnf_needs_a_puzzle_or_a_rank(run: Run) -> None:
    code, _, err = run("cnf", input="")  # nothing down the pipe
    assert code == 2 and "<stdin>" in err and "--rank" in err


@pytest.mark.parametrize("command", ["solve", "rate", "candidates"])
def test_quiet_leaves_stderr_empty_for_a_puzzle_that_does_not_fail(run: Run, command: str) -> None:
    code, out, err = run(command, "-q", str(PUZZLES / "rexl-notebook.txt"))
    assert code == 0 and out and err == ""
    code, _, err = run(command, str(PUZZLES / "rexl-notebook.txt"))
    assert code == 0 and err  # said without -q
    code, _, err = run("solve", "-q", str(PUZZLES / "several-solutions.txt"))
    assert code == 1 and "not unique" in err  # a puzzle that fails still says why


def test_bare_sudosat_prints_the_help_as_help_lays_it_out(sudosat: str) -> None:
    done = subprocess.run([sudosat], capture_output=True, text=True)
    shown = subprocess.run([sudosat, "--help"], capture_output=True, text=True).stdout
    assert done.returncode == 2  # no command: a usage error
    assert done.stderr == shown and done.stdout == ""
    lines = done.stderr.splitlines()
    assert lines[0].startswith("Usage: sudosat") and "Commands:" in lines
    assert max(len(line) for line in lines) <= 100


def test_solvers_lists_what_is_installed(run: Run) -> None:
    code, out, _ = run("solvers", "--format", "json")
    infos = {i["name"]: i for i in json.loads(out)}
    assert code == 0
    assert infos["cadical195"]["available"] and infos["cadical195"]["default"]
    programs = [i for i in infos.values() if i["kind"] == "program"]
    for program in programs:  # found exactly where the shell would find it
        assert program["path"] == shutil.which(str(program["name"]))


def test_the_solvers_table_reads_at_80_columns(sudosat: str) -> None:
    env = {**os.environ, "COLUMNS": "80"}
    done = subprocess.run(
        [sudosat, "solvers", "-f", "rich"], capture_output=True, text=True, env=env
    )
    listing = json.loads(subprocess.run([sudosat, "solvers"], capture_output=True).stdout)
    lines = done.stdout.splitlines()
    assert done.returncode == 0 and max(len(line) for line in lines) <= 80
    assert "…" not in done.stdout  # nothing cut
    names = {line.split()[0].rstrip("*") for line in lines if line.strip()}
    assert {solver["name"] for solver in listing} <= names  # each whole, at a row's start


@pytest.mark.slow
def test_installed_command_and_module_run_for_real(sudosat: str) -> None:
    escargot = str(PUZZLES / "ai-escargot.txt")
    for command in ([sudosat], [sys.executable, "-m", "sudosat"]):
        done = subprocess.run(
            [*command, "solve", "--format", "line", escargot],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert done.returncode == 0, done.stderr
        assert done.stdout.strip().startswith("162857493")
        assert "Traceback" not in done.stderr
    done = subprocess.run([sudosat, "solve", "/no/such"], capture_output=True, text=True)
    assert done.returncode == 2 and done.stderr.count("\n") == 1


@pytest.mark.slow
def test_ctrl_c_exits_130_without_a_traceback(sudosat: str) -> None:
    child = subprocess.Popen(
        [sudosat, "solve", "--count", "-n", "10000000", "-"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        # A shell that starts jobs in the background ignores SIGINT in them; undo that.
        preexec_fn=as_a_shell_starts_it,
    )
    assert child.stdin is not None
    child.stdin.write("." * 81 + "\n")
    child.stdin.close()
    child.stdin = None
    # Past start-up (well under a second of CPU) and inside the enumeration, however
    # loaded the machine is: wait for CPU time used, not for wall time.
    waited_for(lambda: cpu_seconds(child.pid) >= 2 or child.poll() is not None, "2 s of CPU")
    child.send_signal(signal.SIGINT)
    _, err = child.communicate(timeout=60)
    assert child.returncode == 130, err
    assert "interrupted" in err and "Traceback" not in err


COLOUR = re.compile(r"\x1b\[([\d;]*)m")


def colours(text: str) -> set[str]:
    """The SGR colour parameters (30-39, 90-97, 38;...) in ``text``."""
    found = set()
    for params in COLOUR.findall(text):
        for part in params.split(";"):
            if part.isdigit() and (30 <= int(part) <= 39 or 90 <= int(part) <= 97):
                found.add(part)
    return found


@pytest.mark.slow
def test_piped_output_has_no_colour_or_boxes(sudosat: str) -> None:
    done = subprocess.run(
        [sudosat, "solve", str(PUZZLES / "ai-escargot.txt")],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0
    assert "\x1b" not in done.stdout + done.stderr
    assert not set("┏━┃┌─│╋") & set(done.stdout)


def test_color_flags_and_no_color() -> None:
    puzzle = str(PUZZLES / "ai-escargot.txt")
    forced = CliRunner(env={"FORCE_COLOR": "1", "NO_COLOR": None})
    assert colours(forced.invoke(cli, ["solve", "--format", "rich", puzzle]).stdout)
    plain = CliRunner(env={"FORCE_COLOR": "1", "NO_COLOR": "1"})
    result = plain.invoke(cli, ["solve", "--format", "rich", puzzle])
    assert result.exit_code == 0 and not colours(result.stdout)
    result = plain.invoke(cli, ["solve", "--format", "rich", "--color", puzzle])
    assert colours(result.stdout)  # the flag wins over NO_COLOR
    result = forced.invoke(cli, ["solve", "--format", "rich", "--no-color", puzzle])
    assert not colours(result.stdout)


def test_csv_stats_say_what_the_singles_removed(run: Run) -> None:
    code, out, _ = run(
        "solve",
        "--format",
        "csv",
        "--stats",
        "--solver",
        "cadical195",
        str(PUZZLES / "rank5-25x25.txt"),
    )
    assert code == 0
    header, row = out.splitlines()[:2]
    record = dict(zip(header.split(","), row.split(","), strict=True))
    assert int(record["deduced"]) > 0 and int(record["ruled_out"]) > 0
    assert int(record["variables"]) > 0


# --- hostile input, closed pipes, full disks, bugs: the command in a real process ---


def shell(*args: str, input: bytes | None = None) -> tuple[int, str, str]:
    """The installed command in a real process: the exit code and stderr a shell sees."""
    done = subprocess.run([str(SUDOSAT), *args], input=input, capture_output=True, timeout=120)
    return done.returncode, done.stdout.decode(), done.stderr.decode()


def one_line(err: str) -> bool:
    return err.count("\n") == 1 and "Traceback" not in err


@pytest.mark.parametrize(
    ("content", "code", "says"),
    [
        (b"1\t2\t3\n", 2, "wrong number of cells"),  # a tab once raised StopIteration
        (" ".join(["\u00b2"] + ["0"] * 15).encode(), 2, "unknown symbol"),  # isdigit() but no int
        (" ".join(["\u0663"] + ["0"] * 15).encode(), 2, "unknown symbol"),  # Arabic-Indic 3
        (" ".join(["1" * 5000] + ["0"] * 15).encode(), 2, "(5,000 characters) out of range"),
        (b"x" * 3_000_000 + b"\n", 2, "line longer than 2,097,152 bytes"),
        (b"1" * 1_000_000 + b"\n", 2, "wrong number of cells: found 1000000"),  # took 9 s
        (b"12 3 " * 200_000 + b"\n", 2, "wrong number of cells: found 400000"),
        (b"\xff\xfe junk", 2, "binary data"),
    ],
)
@pytest.mark.slow
def test_bad_puzzle_text_is_one_line_never_a_traceback(
    tmp_path: Path, content: bytes, code: int, says: str
) -> None:
    path = tmp_path / "bad.txt"
    path.write_bytes(content)
    got, _, err = shell("solve", str(path))
    assert got == code and says in err and one_line(err), err


def test_tabs_are_white_space(tmp_path: Path) -> None:
    path = tmp_path / "tabs.txt"
    path.write_text("\n".join("\t".join(ESCARGOT[r * 9 : r * 9 + 9]) for r in range(9)))
    code, out, err = shell("solve", str(path), "--format", "line")
    assert code == 0, err
    assert not verify(parse(ESCARGOT), tuple(int(ch) for ch in out.strip()))


@pytest.mark.slow
def test_csv_with_cr_line_ends_and_huge_fields(tmp_path: Path) -> None:
    cr = tmp_path / "cr.csv"
    cr.write_bytes(f"puzzle,solution\r{ESCARGOT},\r{ESCARGOT},\r".encode())
    code, out, err = shell("solve", str(cr), "--format", "jsonl", "-q")
    records = [json.loads(line) for line in out.splitlines()]
    assert code == 0, err
    assert [(r["line"], r["status"]) for r in records] == [(2, "unique"), (3, "unique")]
    huge = tmp_path / "huge.csv"
    huge.write_text(f"puzzle,solution\n{ESCARGOT},{'x' * 200_000}\n")
    code, _, err = shell("solve", str(huge), "--format", "jsonl", "-q")
    assert code == 0 and "Traceback" not in err


@pytest.mark.slow
def test_an_overlong_line_in_a_batch_is_one_error_record(tmp_path: Path) -> None:
    path = tmp_path / "batch.txt"
    path.write_text(f"{ESCARGOT}\n{'1' * 3_000_000}\n{ESCARGOT}\n")
    code, out, _ = shell("solve", str(path), "--format", "jsonl", "-q")
    records = [json.loads(line) for line in out.splitlines()]
    assert code == 2
    assert [(r["line"], r["status"]) for r in records] == [
        (1, "unique"),
        (2, "error"),
        (3, "unique"),
    ]
    assert "line longer than" in records[1]["reason"]


@pytest.mark.parametrize(
    "args",
    [
        ("solve", "/dev/zero"),
        ("cnf", "/dev/zero"),
        ("solve", "-f", "jsonl", "/dev/zero"),
        ("solve", "-f", "csv", "/dev/zero"),
        ("decode", "puzzles/ai-escargot.txt", "/dev/zero"),
        ("rate", "/dev/zero"),
    ],
)
@pytest.mark.slow
def test_endless_input_is_refused_in_bounded_memory(args: tuple[str, ...]) -> None:
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run([str(SUDOSAT), *args], cwd=root, capture_output=True, timeout=120)
    err = done.stderr.decode()
    assert done.returncode == 2 and "/dev/zero" in err and one_line(err), err
    with open("/dev/zero", "rb") as zeros:
        done = subprocess.run(
            [str(SUDOSAT), *[arg if arg != "/dev/zero" else "-" for arg in args]],
            cwd=root,
            stdin=zeros,
            capture_output=True,
            timeout=120,
        )
    err = done.stderr.decode()
    assert done.returncode == 2 and "<stdin>" in err and one_line(err), err


@pytest.mark.slow
def test_a_file_name_with_a_newline_is_printed_escaped(tmp_path: Path) -> None:
    path = tmp_path / "evil\n\x1b[31mname.txt"
    path.write_text("123")
    code, _, err = shell("solve", str(path))
    assert code == 2 and one_line(err) and "evil\\n\\x1b[31mname.txt" in err


@pytest.mark.parametrize(
    "args",
    [("cnf", "--rank", "5"), ("solve", "--format", "jsonl", "puzzles/tdoku-magictour-25.txt")],
)
@pytest.mark.slow
def test_a_closed_pipe_ends_the_run_quietly(args: tuple[str, ...]) -> None:
    root = Path(__file__).resolve().parents[2]
    shell = f"'{SUDOSAT}' {' '.join(args)} | head -1 > /dev/null; echo ${{PIPESTATUS[0]}}"
    done = subprocess.run(
        ["bash", "-c", shell], cwd=root, capture_output=True, text=True, timeout=120
    )
    assert done.stdout.strip() == "0"
    assert "Error" not in done.stderr and "Traceback" not in done.stderr


@pytest.mark.slow
def test_a_full_disk_is_one_line_exit_74(tmp_path: Path) -> None:
    puzzle = tmp_path / "p.txt"
    puzzle.write_text(ESCARGOT)
    for args in (
        ("solve", str(puzzle)),
        ("cnf", str(puzzle)),
        ("cnf", str(puzzle), "-o", "/dev/full"),
    ):
        with open("/dev/full", "wb") as full:
            done = subprocess.run(
                [str(SUDOSAT), *args], stdout=full, stderr=subprocess.PIPE, timeout=60
            )
        err = done.stderr.decode()
        assert done.returncode == 74 and "No space left on device" in err and one_line(err)


@pytest.mark.slow
def test_a_resource_the_system_refuses_is_one_line_exit_71(tmp_path: Path) -> None:
    # Ten file descriptors: enough to start, too few for a pool of two workers.
    puzzles = tmp_path / "many.txt"
    puzzles.write_text((format_line(parse(ESCARGOT)) + "\n") * 300)

    def few_descriptors() -> None:
        resource.setrlimit(resource.RLIMIT_NOFILE, (10, 10))

    done = subprocess.run(
        [str(SUDOSAT), "solve", str(puzzles), "-f", "jsonl", "-j", "2", "-q"],
        capture_output=True,
        text=True,
        timeout=120,
        preexec_fn=few_descriptors,
    )
    assert done.returncode == 71, done.stderr
    assert "system error: Too many open files" in done.stderr and one_line(done.stderr)


def test_os_failure_tells_output_from_the_system() -> None:
    assert os_failure(OSError(errno.ENOSPC, "No space left on device"))[0] == 74
    code, message = os_failure(OSError(errno.EMFILE, "Too many open files"))
    assert code == 71 and message == "system error: Too many open files"
    code, message = os_failure(PermissionError(errno.EACCES, "Permission denied", "/dev/shm"))
    assert code == 71 and message == "system error: /dev/shm: Permission denied"


@pytest.mark.slow
def test_a_sigterm_during_a_finalizer_still_ends_in_143(tmp_path: Path) -> None:
    # Python drops an exception raised in __del__; the signal must not be lost with it.
    code = (
        "import os, signal, sys, sudosat.commands.solve as cli\n"
        "class Late:\n"
        "    def __del__(self):\n"
        "        os.kill(os.getpid(), signal.SIGTERM)\n"
        "        sum(range(1000))  # the handler runs here, inside the finalizer\n"
        "solve = cli.answer\n"
        "def answer(*args, **kwargs):\n"
        "    Late()\n"
        "    return solve(*args, **kwargs)\n"
        "cli.answer = answer\n"
    )
    done = with_patched_cli(code, tmp_path)
    assert done.returncode == 143 and done.stderr.endswith("sudosat: terminated\n")
    assert "Exception ignored" not in done.stderr  # the dropped exception says nothing


@pytest.mark.slow
def test_an_internal_error_is_one_line_exit_70_and_debug_shows_it(tmp_path: Path) -> None:
    # a bug, put in on purpose: the solve command's worker raises
    code = (
        "import sys, sudosat.commands.solve as cli\n"
        "def bug(*args, **kwargs): raise ZeroDivisionError('a bug')\n"
        "cli.answer = bug\n"
    )
    done = with_patched_cli(code, tmp_path)
    assert done.returncode == 70 and one_line(done.stderr)
    assert "internal error: ZeroDivisionError: a bug" in done.stderr
    done = with_patched_cli(code, tmp_path, "--debug")
    assert done.returncode == 70 and "Traceback" in done.stderr


def with_patched_cli(patch: str, tmp_path: Path, *options: str) -> subprocess.CompletedProcess[str]:
    """``sudosat [options] solve`` on a puzzle, in a process whose solve command's
    module ``patch`` (Python source) has changed first."""
    puzzle = tmp_path / "p.txt"
    puzzle.write_text(ESCARGOT)
    run = "import sudosat.__main__ as entry\nentry.main()\n"
    code = patch + "sys.argv = ['sudosat', *sys.argv[1:]]\n" + run
    return subprocess.run(
        [sys.executable, "-c", code, *options, "solve", str(puzzle)],
        capture_output=True,
        text=True,
        timeout=60,
    )
