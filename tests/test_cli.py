from __future__ import annotations

import json
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from sudosat.cli import cli
from sudosat.reading.formats import parse
from sudosat.solving.engine import solve
from sudosat.solving.fast import NAME

from .conftest import ESCARGOT, GENERAL, PUZZLES, REXL_FIRST, Run, cpu_seconds


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
    assert err.count("\n") == 1 and err.startswith("Error: ")
    assert expected in err


def test_missing_file(run: Run) -> None:
    code, _, err = run("solve", "no/such/puzzle.txt")
    assert code == 2 and "Error: no/such/puzzle.txt: no such file" in err


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
    code, _, err = run("cnf")
    assert code == 2 and "--rank" in err


def test_solvers_lists_what_is_installed(run: Run) -> None:
    code, out, _ = run("solvers", "--format", "json")
    infos = {i["name"]: i for i in json.loads(out)}
    assert code == 0
    assert infos["cadical195"]["available"] and infos["cadical195"]["default"]
    programs = [i for i in infos.values() if i["kind"] == "program"]
    for program in programs:  # found exactly where the shell would find it
        assert program["path"] == shutil.which(str(program["name"]))


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
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    assert child.stdin is not None
    child.stdin.write("." * 81 + "\n")
    child.stdin.close()
    child.stdin = None
    # Past start-up (well under a second of CPU) and inside the enumeration, however
    # loaded the machine is: wait for CPU time used, not for wall time.
    while cpu_seconds(child.pid) < 2 and child.poll() is None:
        time.sleep(0.05)
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
