"""Solver programs for real (Debian's minisat, picosat, cadical, cryptominisat5),
shell pipelines through `sudosat decode`, and every failure path of the external
backend, driven by a deliberately broken solver script."""

from __future__ import annotations

import json
import os
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
from pathlib import Path
from unittest import mock

import pytest

from sudosat.core.errors import SolverError
from sudosat.core.notation import format_line
from sudosat.reading.formats import parse
from sudosat.reading.inputs import read_file
from sudosat.sat.solvers import SolverSpec, command_spec, solver_spec
from sudosat.solving.engine import solve
from sudosat.solving.outcome import Status
from tests.conftest import (
    ESCARGOT,
    PUZZLES,
    REXL_FIRST,
    SUDOSAT,
    Run,
    alive,
    as_a_shell_starts_it,
    gone,
    processes,
    waited_for,
)

PROGRAMS = ["minisat", "picosat", "cadical", "cryptominisat5"]
BROKEN = Path(__file__).parents[1] / "broken_solver.py"
HEX = PUZZLES / "hex-16x16.txt"


def need(program: str) -> str:
    """The program's path. In CI a missing program fails the test rather than skip it."""
    path = shutil.which(program)
    if path is None:
        if os.environ.get("CI"):  # .ci/run sets it
            pytest.fail(f"{program} is not installed (scripts/install-solvers installs it)")
        pytest.skip(f"{program} is not installed; run scripts/install-solvers")
    return path


def broken(mode: str) -> str:
    return shlex.join([sys.executable, str(BROKEN), mode])


def expected(puzzle_text: str, limit: int = 2) -> tuple[str, int]:
    """Status and count from the in-process default solver, to compare programs with."""
    outcome = solve(parse(puzzle_text), max_solutions=limit)
    return outcome.status, len(outcome.solutions)


@pytest.mark.parametrize("program", PROGRAMS)
def test_program_solves_ranks_3_and_4_with_uniqueness(program: str) -> None:
    need(program)
    cases = [
        (ESCARGOT, 2),
        (REXL_FIRST, 2),
        (REXL_FIRST.replace("34", ".4", 1), 100),  # 7 solutions: six re-runs with blocks
        ((PUZZLES / "no-solution.txt").read_text(), 2),
        (HEX.read_text(), 2),
        ((PUZZLES / "numbers-16x16.txt").read_text(), 2),
        ("".join(map(str, solve(parse(ESCARGOT)).solutions[0])), 2),  # no clauses: p cnf 0 0
    ]
    for text, limit in cases:
        puzzle = parse(text)
        outcome = solve(puzzle, solver=program, max_solutions=limit)
        reference = solve(puzzle, max_solutions=limit)
        assert outcome.solver == program
        assert outcome.status == reference.status
        assert sorted(outcome.solutions) == sorted(reference.solutions)  # any order
    several = solve(parse(REXL_FIRST.replace("34", ".4", 1)), solver=program, max_solutions=100)
    assert len(several.solutions) == 7 and several.exhausted


@pytest.mark.parametrize("program", PROGRAMS)
def test_solve_command_with_a_program(program: str, run: Run) -> None:
    need(program)
    code, out, err = run("solve", "--solver", program, "--format", "line", str(HEX))
    assert code == 0, err
    assert out.strip() == format_line(
        read_file(str(HEX))[0], solve(parse(HEX.read_text())).solutions[0]
    )
    assert "unique solution" in err
    code, out, _ = run(
        "solve", "--solver", program, "--count", str(PUZZLES / "several-solutions.txt")
    )
    assert (code, out.strip()) == (1, "7")


def test_a_16x16_with_several_solutions_through_a_program() -> None:
    need("cadical")
    text = HEX.read_text().replace("7", ".", 3)
    status, count = expected(text, 50)
    outcome = solve(parse(text), solver="cadical", max_solutions=50)
    assert (outcome.status, len(outcome.solutions)) == (status, count)
    assert count > 1


def test_solver_cmd_takes_a_command_line(run: Run) -> None:
    need("cadical")
    code, out, err = run(
        "solve",
        "--solver-cmd",
        "cadical -q --seed=7",
        "--format",
        "line",
        str(PUZZLES / "ai-escargot.txt"),
    )
    assert code == 0, err
    assert out.startswith("162857493")


def shell(script: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PATH": f"{SUDOSAT.parent}{os.pathsep}{os.environ['PATH']}"}
    return subprocess.run(
        ["bash", "-c", f"set -o pipefail; {script}"],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.mark.parametrize("program", ["cadical", "picosat", "cryptominisat5"])
@pytest.mark.slow
def test_pipeline_cnf_solver_decode(program: str, tmp_path: Path) -> None:
    need(program)
    puzzle = PUZZLES / "ai-escargot.txt"
    # solvers exit 10 on SAT, so the pipeline's status is decode's only through `; true`
    done = shell(
        f"sudosat cnf {puzzle} | {{ {program} || true; }} | sudosat decode {puzzle}", tmp_path
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[0] == "1 6 2 | 8 5 7 | 4 9 3"
    assert done.stderr.strip() == "solved (uniqueness not checked)"


@pytest.mark.slow
def test_pipeline_through_minisat_result_file(tmp_path: Path) -> None:
    need("minisat")
    done = shell(
        f"sudosat cnf {HEX} --out hex.cnf"
        " && { minisat -verb=0 hex.cnf hex.out >/dev/null || true; }"
        f" && sudosat decode {HEX} hex.out --format line",
        tmp_path,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == format_line(
        parse(HEX.read_text()), solve(parse(HEX.read_text())).solutions[0]
    )


@pytest.mark.slow
def test_pipeline_unsat_exits_3(tmp_path: Path) -> None:
    need("cadical")
    puzzle = PUZZLES / "no-solution.txt"
    done = shell(
        f"sudosat cnf {puzzle} | {{ cadical || true; }} | sudosat decode {puzzle}", tmp_path
    )
    assert done.returncode == 3, done.stderr
    assert "no solution" in done.stderr


ESCARGOT_FILE = str(PUZZLES / "ai-escargot.txt")


def model_text(fmt: str) -> str:
    """AI Escargot's solution as a model in one of the output conventions."""
    grid = solve(parse(ESCARGOT)).solutions[0]
    literals = [cell * 9 + value for cell, value in enumerate(grid)]
    negatives = [-(cell * 9 + v) for cell in range(81) for v in range(1, 10) if v != grid[cell]]
    ints = " ".join(map(str, sorted(literals + negatives, key=abs)))
    return {
        "competition": f"c a comment\ns SATISFIABLE\nv {ints} 0\n",
        "result-file": f"SAT\n{ints} 0\n",
        "bare": f"{ints}\n",
        "v-only": f"v {ints}\nv 0\n",
        "positives": " ".join(map(str, literals)) + " 0\n",
    }[fmt]


@pytest.mark.parametrize("fmt", ["competition", "result-file", "bare", "v-only", "positives"])
def test_decode_reads_every_convention(fmt: str, run: Run) -> None:
    code, out, err = run("decode", ESCARGOT_FILE, "-", "--format", "line", input=model_text(fmt))
    assert code == 0, err
    assert out.strip().startswith("162857493")


def test_decode_from_a_file_and_json(tmp_path: Path, run: Run) -> None:
    (tmp_path / "model.txt").write_text(model_text("competition"))
    code, out, _ = run("decode", ESCARGOT_FILE, str(tmp_path / "model.txt"), "--format", "json")
    record = json.loads(out)
    assert (
        code == 0
        and record["status"] == "solved"
        and record["solutions"][0].startswith("162857493")
    )


@pytest.mark.parametrize(
    ("model", "code", "message"),
    [
        ("s UNSATISFIABLE\n", 4, "UNSATISFIABLE, but the puzzle has a solution"),
        ("UNSAT\n", 4, "UNSATISFIABLE, but the puzzle has a solution"),
        ("s UNKNOWN\n", 5, "no answer"),
        ("INDET\n", 5, "no answer"),
        ("s SATISFIABLE\nv 1 2 x 0\n", 2, "<stdin>:2:7: expected an integer literal, found 'x'"),
        ("s SATISFIABLE\nv 1 2 3\n", 2, "<stdin>: the model does not end in 0"),
        ("s SATISFIABLE\nv 1 -1 0\n", 2, "<stdin>:2:5: variable 1 is assigned both ways"),
        ("s MAYBE\n", 2, "<stdin>:1:3: unknown answer 'MAYBE'"),
        ("", 2, "<stdin>: no model"),
        ("s SATISFIABLE\nv -1 0\n", 4, "<stdin>: the model is no solution of the puzzle: r1c2"),
    ],
)
def test_decode_errors(model: str, code: int, message: str, run: Run) -> None:
    got, _, err = run("decode", ESCARGOT_FILE, "-", input=model)
    assert got == code, err
    assert message in err
    assert err.count("\n") == 1


@pytest.mark.parametrize(
    ("puzzle", "trust", "code", "message"),
    [
        ("no-solution.txt", False, 3, "no solution"),
        ("no-solution.txt", True, 3, "no solution"),
        ("ai-escargot.txt", True, 3, "no solution"),
        ("ai-escargot.txt", False, 4, "--trust-solver skips this check"),
    ],
)
def test_decode_confirms_unsatisfiable(
    puzzle: str, trust: bool, code: int, message: str, run: Run
) -> None:
    # A claim of no solution is checked by solving the puzzle, unless trusted.
    args = ["decode", str(PUZZLES / puzzle), "-", *(["--trust-solver"] if trust else [])]
    got, out, err = run(*args, input="s UNSATISFIABLE\n")
    assert got == code, err
    assert message in out + err


def test_decode_reads_only_cell_variables_the_cnf_constrains(run: Run) -> None:
    # A model that also sets every given's other values and every eliminated
    # candidate true (as CaDiCaL does with variables in no clause) still decodes.
    grid = solve(parse(ESCARGOT)).solutions[0]
    puzzle = parse(ESCARGOT)
    candidates = puzzle.candidates
    lits = []
    for cell in range(81):
        for v in range(1, 10):
            chosen = v == grid[cell]
            stray = puzzle.cells[cell] != 0 or v not in candidates[cell]
            lits.append(cell * 9 + v if chosen or stray else -(cell * 9 + v))
    code, out, err = run(
        "decode", ESCARGOT_FILE, "--format", "line", input=" ".join(map(str, lits)) + " 0"
    )
    assert code == 0, err
    assert out.strip() == "".join(map(str, grid))


def test_decode_needs_the_model_off_stdin_when_the_puzzle_is(run: Run) -> None:
    code, _, err = run("decode", "-", "-", input="")
    assert code == 2 and "cannot both be stdin" in err


@pytest.mark.parametrize(
    ("mode", "message"),
    [
        ("wrong", "returned a model that is no solution"),
        ("garbage", "printed no answer it could read"),
        ("crash", "was killed by SIGSEGV"),
        ("fail", "exited with code 1: broken_solver: cannot read the input"),
        ("liar", "answered UNSAT but exited with code 10"),
        ("cutoff", "the model does not end in 0"),
        ("beyond", "returned a bad model: variable"),
        ("chatty", "printed no answer it could read"),
        ("vandal", "its output cannot be read"),
    ],
)
@pytest.mark.slow
def test_broken_solver_is_a_clear_error_exit_4(mode: str, message: str, run: Run) -> None:
    code, out, err = run("solve", "--solver-cmd", broken(mode), ESCARGOT_FILE)
    assert code == 4, err
    assert out == "error\n"  # its one record, never a wrong grid
    assert message in err
    assert "broken_solver.py" in err  # names the solver
    assert err.count("\n") == 1


def test_unknown_answer_is_a_timeout(run: Run) -> None:
    code, _, err = run("solve", "--solver-cmd", broken("unknown"), ESCARGOT_FILE)
    assert code == 5 and "gave no answer (UNKNOWN)" in err


def test_missing_program_exit_4(run: Run) -> None:
    code, _, err = run("solve", "--solver-cmd", "/no/such/solver -q", ESCARGOT_FILE)
    assert code == 4 and "program '/no/such/solver' not found" in err
    code, _, err = run("solve", "--solver-cmd", "no-such-solver-anywhere", ESCARGOT_FILE)
    assert code == 4 and "not found on PATH" in err


def test_solver_and_solver_cmd_together_is_a_usage_error(run: Run) -> None:
    code, _, err = run("solve", "--solver", "cadical", "--solver-cmd", "cadical", ESCARGOT_FILE)
    assert code == 2 and "not both" in err


@pytest.mark.slow
def test_no_shell_ever_sees_the_command(tmp_path: Path, run: Run, sudosat: str) -> None:
    need("cadical")
    done = subprocess.run(
        [sudosat, "solve", "--solver-cmd", "cadical -q; touch pwned", ESCARGOT_FILE],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 4, done.stderr
    assert not (tmp_path / "pwned").exists()
    command = broken("args") + " '$(touch pwned)' '`touch pwned`'"
    code, _, err = run("solve", "--solver-cmd", command, ESCARGOT_FILE)
    assert code == 4 and "`touch pwned`" in err  # the arguments arrived as written
    assert not Path("pwned").exists() and not (tmp_path / "pwned").exists()


def hanging_run(
    tmp_path: Path, *extra: str, mode: str = "hang"
) -> tuple[subprocess.Popen[str], list[int]]:
    """Start `sudosat solve` on the hanging solver; wait until it runs; its pids."""
    pids = tmp_path / "pids"
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    env = {**os.environ, "BROKEN_SOLVER_PIDS": str(pids), "TMPDIR": str(scratch)}
    child = subprocess.Popen(
        [str(SUDOSAT), "solve", "--solver-cmd", broken(mode), *extra, ESCARGOT_FILE],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=as_a_shell_starts_it,
    )

    def started() -> bool:
        assert child.poll() is None, "sudosat ended before the solver started"
        return pids.exists() and pids.read_text().endswith("\n")

    waited_for(started, "the solver to start")
    return child, [int(p) for p in pids.read_text().split()]


@pytest.mark.slow
def test_timeout_kills_the_solver_and_what_it_started(tmp_path: Path) -> None:
    child, pids = hanging_run(tmp_path, "--timeout", "1")
    _, err = child.communicate(timeout=60)
    assert child.returncode == 5, err
    assert "timeout" in err and "Traceback" not in err
    assert gone(pids)
    assert list((tmp_path / "tmp").iterdir()) == []  # the private directory is removed


@pytest.mark.parametrize(
    ("sig", "code", "mode"),
    [
        (signal.SIGINT, 130, "hang"),
        (signal.SIGTERM, 143, "hang"),
        (signal.SIGHUP, 129, "hang"),
        (signal.SIGTERM, 143, "escape"),  # a grandchild in a session of its own
    ],
)
@pytest.mark.slow
def test_interrupt_kills_the_solver_and_cleans_up(
    tmp_path: Path, sig: int, code: int, mode: str
) -> None:
    child, pids = hanging_run(tmp_path, mode=mode)
    child.send_signal(sig)
    _, err = child.communicate(timeout=60)
    assert child.returncode == code, err
    assert "Traceback" not in err
    assert gone(pids)
    assert list((tmp_path / "tmp").iterdir()) == []


def test_solvers_lists_programs_with_versions(run: Run) -> None:
    for program in PROGRAMS:
        need(program)
    code, out, _ = run("solvers", "--format", "json")
    listing = {i["name"]: i for i in json.loads(out)}
    assert code == 0
    for program in PROGRAMS:
        info = listing[program]
        assert info["kind"] == "program" and info["available"]
        assert info["path"] == shutil.which(program)
        assert info["version"] and info["version"] != "?"
    assert listing["cryptominisat5"]["version"].startswith("5.")
    assert listing["minisat"]["convention"] == "result-file"
    assert listing["cadical195"]["kind"] == "pysat"


def test_a_portfolio_outlives_broken_members_and_fails_when_all_do() -> None:
    cadical = solver_spec("cadical195")
    crash, wrong = command_spec(broken("crash")), command_spec(broken("wrong"))
    outcome = solve(parse(ESCARGOT), solver=SolverSpec("p", members=(crash, wrong, cadical)))
    assert outcome.status == Status.UNIQUE and outcome.solver == "cadical195"
    with pytest.raises(SolverError) as failed:
        solve(parse(ESCARGOT), solver=SolverSpec("p", members=(crash, wrong)))
    assert "SIGSEGV" in str(failed.value) and "no solution" in str(failed.value)


@pytest.mark.slow
def test_a_portfolio_at_its_deadline_leaves_nothing_running(tmp_path: Path) -> None:
    pids, scratch = tmp_path / "pids", tmp_path / "tmp"
    scratch.mkdir()
    hang = command_spec(broken("hang"))
    env = {"BROKEN_SOLVER_PIDS": str(pids), "TMPDIR": str(scratch)}
    with mock.patch.dict(os.environ, env):
        tempfile.tempdir = None  # read TMPDIR again
        try:
            outcome = solve(parse(ESCARGOT), solver=SolverSpec("p", members=(hang,) * 2), timeout=2)
        finally:
            tempfile.tempdir = None
    assert outcome.status == Status.TIMEOUT and outcome.solutions == []
    assert gone([int(p) for p in pids.read_text().split()])
    assert list(scratch.iterdir()) == []


@pytest.mark.slow
def test_sigterm_stops_every_solver_of_a_portfolio(tmp_path: Path) -> None:
    need("minisat")
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    puzzle = PUZZLES / "rkkautsar-64-1.txt"  # minutes for minisat
    process = subprocess.Popen(
        [str(SUDOSAT), "solve", "--solver", "cadical195,minisat", str(puzzle)],
        env={**os.environ, "TMPDIR": str(scratch)},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        preexec_fn=as_a_shell_starts_it,
    )

    def minisat_at_work() -> bool:
        assert process.poll() is None, "sudosat ended before minisat started"
        return bool(running(str(scratch)))

    waited_for(minisat_at_work, "minisat to start")
    process.send_signal(signal.SIGTERM)
    _, err = process.communicate(timeout=60)
    assert process.returncode == 143 and b"terminated" in err
    waited_for(lambda: not running(str(scratch)), "minisat to end")
    assert list(scratch.iterdir()) == []


def running(word: str) -> list[int]:
    """The processes whose command line holds ``word``."""
    return [pid for pid in processes("cmdline", lambda data: word.encode() in data) if alive(pid)]


@pytest.mark.slow
def test_an_unsat_claim_is_confirmed_unless_trusted(run: Run) -> None:
    seven = REXL_FIRST.replace("....34...", "....04...", 1)  # 7 solutions
    code, out, err = run("solve", "--solver-cmd", broken("denier"), "-", input=seven)
    assert code == 4 and out == "error\n"
    assert "answered UNSATISFIABLE, but cadical195 satisfies" in err
    code, out, _ = run(
        "solve", "--solver-cmd", broken("denier"), "--trust-solver", "-", input=seven
    )
    assert code == 0  # what --trust-solver risks: the program's word is taken
    code, _, err = run("solve", "--solver-cmd", broken("denier"), ESCARGOT_FILE)
    assert code == 0, err  # a true UNSAT is confirmed
    # with a deadline the check is one that the deadline can interrupt
    code, _, err = run(
        "solve", "--solver-cmd", broken("denier"), "--timeout", "60", "-", input=seven
    )
    assert code == 4 and "answered UNSATISFIABLE, but glucose4 satisfies" in err


@pytest.mark.parametrize("extra", [(), ("--timeout", "600")], ids=["in-process", "in-a-child"])
@pytest.mark.slow
def test_a_killed_run_leaves_no_solver_program_and_no_directory(
    extra: tuple[str, ...], tmp_path: Path
) -> None:
    child, pids = hanging_run(tmp_path, *extra)
    child.kill()  # SIGKILL of sudosat itself: nothing of its own code can act
    child.communicate(timeout=60)
    assert gone(pids), "the solver program (or its grandchild) outlived the killed run"
    scratch = tmp_path / "tmp"
    waited_for(lambda: not list(scratch.iterdir()), "the temporary directory to go")
