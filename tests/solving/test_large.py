"""Large grids: singles before the CNF, compact numbering, the size check, stopping."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from sudosat import parse, solve
from sudosat.core.masks import bit
from sudosat.core.puzzle import Puzzle, verify
from sudosat.sat.encoding import encode
from sudosat.sat.limits import TooBig, check_solvable
from sudosat.solving.deduce import deduce
from sudosat.solving.engine import Status
from tests.conftest import (
    ESCARGOT,
    PUZZLES,
    REXL_FIRST,
    Run,
    alive,
    processes,
    waited_for,
    work_process,
)

SUDOSAT = str(Path(sys.executable).with_name("sudosat"))


def pattern(rank: int) -> tuple[int, ...]:
    """A valid full grid of any rank."""
    n = rank * rank
    return tuple(((r % rank) * rank + r // rank + c) % n + 1 for r in range(n) for c in range(n))


@pytest.mark.slow
def test_an_81x81_end_to_end_in_numbers(run: Run) -> None:
    path = str(PUZZLES / "rkkautsar-81-1.txt")
    code, out, _ = run("solve", path, "--format", "jsonl", "--stats")
    record = json.loads(out)
    assert code == 0 and record["status"] == "unique" and record["rank"] == 9
    puzzle = parse(Path(path).read_text())
    grid = tuple(int(token) for token in record["solutions"][0].split())
    assert not verify(puzzle, grid)
    assert record["stats"]["deduced"] > 0  # the singles placed some before the CNF
    # another solver on the plain reduced CNF (no singles) agrees
    assert solve(puzzle, solver="glucose4").solutions == [grid]


def test_singles_are_sound_and_agree_with_the_solver() -> None:
    for text in (ESCARGOT, REXL_FIRST):
        puzzle = parse(text)
        found = deduce(puzzle)
        solution = solve(puzzle).solutions[0]
        assert all(v == solution[c] for c, v in enumerate(found.grid) if v)
        for cell, mask in found.masks.items():
            assert mask & bit(solution[cell])  # the true value is never ruled out


def test_singles_prove_a_contradiction() -> None:
    # no two clues clash and every cell has a candidate, yet the singles run dry
    puzzle = parse((PUZZLES / "no-solution.txt").read_text())
    found = deduce(puzzle)
    assert found.contradiction and not puzzle.clashes()
    outcome = solve(puzzle, solver="glucose4")
    assert outcome.status == Status.NONE and outcome.reason == found.contradiction
    assert solve(puzzle).status == Status.NONE  # the batch engine, without singles, agrees


def test_compact_numbering_decodes_like_the_documented_one() -> None:
    puzzle = Puzzle(5, tuple(v if i % 3 else 0 for i, v in enumerate(pattern(5))))
    documented, compact = encode(puzzle), encode(puzzle, compact=True)
    assert documented.clause_count == compact.clause_count == len(compact.clauses)
    assert compact.nv == len(compact.cell_variables) < documented.nv
    grid = pattern(5)
    model = [
        compact.variable(f, values, grid[cell])
        for f, (cell, values) in zip(compact.first_variables(), compact.open_cells, strict=True)
    ]
    assert compact.decode(model) == grid
    assert compact.blocking_clause(grid) == [-v for v in model]


@pytest.mark.slow
def test_a_grid_too_big_for_the_machine_is_one_line_and_exit_2(tmp_path: Path, run: Run) -> None:
    empty = tmp_path / "empty400.txt"
    empty.write_text(" ".join(["0"] * 400**2) + "\n")
    code, _, err = run("solve", str(empty))
    assert code == 2 and "Traceback" not in err
    line = next(text for text in err.splitlines() if "400x400" in text)
    assert f"{empty}:1:1:" in line and "needs about" in line and "TB" in line
    code, _, err = run("cnf", "--rank", "20", "--out", str(tmp_path / "rules.cnf"))
    assert code == 2 and "400x400" in err and "Traceback" not in err
    assert not list(tmp_path.glob("*.cnf")) and not list(tmp_path.glob(".sudosat-*"))


@pytest.mark.slow
def test_rating_and_explaining_a_grid_too_big_for_the_rules(tmp_path: Path, run: Run) -> None:
    # solved at once (every cell given), but rating it holds the full rules three times
    full = tmp_path / "full400.txt"
    full.write_text(" ".join(map(str, pattern(20))) + "\n")
    code, out, err = run("rate", str(full))
    assert code == 2 and out == "error\n" and "the search's rules" in err
    code, _, err = run("explain", str(full))  # solved, but rated to explain it
    assert code == 2 and err.count("\n") == 1 and "the search's rules" in err and "TB" in err


def test_the_timeout_covers_the_preparation(tmp_path: Path) -> None:
    # a 400x400 with a third of the cells blank: the singles alone take seconds
    grid = pattern(20)
    puzzle = Puzzle(20, tuple(0 if i % 3 == 0 else v for i, v in enumerate(grid)))
    outcome = solve(puzzle, timeout=0.05)
    assert outcome.status == Status.TIMEOUT and not outcome.solutions


@pytest.mark.slow
def test_cnf_streams_the_full_rules_with_an_exact_header(tmp_path: Path, run: Run) -> None:
    out = tmp_path / "rules36.cnf"
    assert run("cnf", "--rank", "6", "--out", str(out))[0] == 0
    lines = out.read_text().splitlines()
    header = next(line for line in lines if line.startswith("p cnf"))
    clauses = [line for line in lines if line and line[0] not in "cp"]
    assert header == f"p cnf {6**6} {len(clauses)}"
    assert all(line.endswith(" 0") for line in clauses)


@pytest.mark.slow
def test_sigterm_stops_a_long_in_process_solve() -> None:
    path = PUZZLES / "rkkautsar-64-1.txt"  # several solutions, found in 15-25 s
    for jobs in ("1", "2"):
        process = subprocess.Popen(
            [SUDOSAT, "solve", str(path), "--jobs", jobs],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        _wait_for_search(work_process(process.pid))
        process.send_signal(signal.SIGTERM)
        _, err = process.communicate(timeout=60)
        assert process.returncode == 143 and b"terminated" in err, (jobs, err)
        assert not _descendants(process.pid)


def _descendants(pid: int) -> list[int]:
    return processes("stat", lambda data: int(data.rsplit(b")", 1)[1].split()[1]) == pid)


def _wait_for_search(pid: int) -> None:
    """Until the solve runs in a child process (the search of a big grid), however
    long that takes on a loaded machine."""

    def searching() -> bool:
        assert alive(pid), "sudosat ended before the search started"
        for child in _descendants(pid):
            try:
                if _descendants(child) or b"sudosat" in Path(f"/proc/{child}/cmdline").read_bytes():
                    return True
            except OSError:
                continue
        return False

    waited_for(searching, "the search to start in a child process")


@pytest.mark.parametrize(
    ("text", "most"),
    [("size 25\nsandwich 150: r0c1\n", 1_200_000), ("size 36\nx-sum 200: r1c0\n", 4_000_000)],
)
@pytest.mark.slow
def test_a_sum_over_a_big_grids_line_grows_gently(text: str, most: int) -> None:
    cnf = encode(parse(text))
    assert len(cnf.clauses) < most  # were 21.7 million for the sandwich


def test_the_memory_estimate_keeps_a_margin_and_counts_rules(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    empty = parse(json.dumps({"size": 100, "grid": [[{}] * 100] * 100}))
    monkeypatch.setattr("sudosat.sat.limits.available_memory", lambda: int(22.7 * 2**30))
    with pytest.raises(TooBig, match="can spare"):  # about 22.4 GB of 22.7 GB free
        check_solvable(empty, reduced=True)
    nine = parse("negative: ratio, xv\nnonconsecutive\n")
    monkeypatch.setattr("sudosat.sat.limits.available_memory", lambda: 4 * 2**20)
    with pytest.raises(TooBig):
        check_solvable(nine, reduced=True)
