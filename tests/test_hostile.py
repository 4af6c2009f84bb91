"""Issue 33: what a hostile user tried, each ending in an answer or in one line
and a documented exit, nothing lost, nothing mixed, bounded time and memory."""

from __future__ import annotations

import json
import os
import subprocess
import threading
from pathlib import Path

import pytest

from sudosat import parse
from sudosat.making.explain import explain
from sudosat.running.batch import Summary
from sudosat.sat.encoding import encode
from sudosat.sat.limits import TooBig, check_solvable

from .conftest import PUZZLES, SUDOSAT, Run

KILLERS_16 = PUZZLES / "killer-16x16.links"


def one_line_error(err: str, code: int) -> bool:
    return code == 2 and err.startswith("Error: ") and err.count("\n") == 1


# --- internal errors that were --------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "ratio 0: r1c1 r1c2\n",
        json.dumps(
            {
                "size": 9,
                "grid": [[{}] * 9] * 9,
                "ratio": [{"cells": ["R1C1", "R1C2"], "value": "0"}],
            }
        ),
        '{"size": 9, "grid": ' + "[" * 100_000 + "]" * 100_000 + "}",
        "little-killer 10: r1c1 r1c2\n",
    ],
    ids=["ratio-0-text", "ratio-0-json", "nested-json", "little-killer-no-diagonal"],
)
def test_what_raised_is_one_line(text: str, run: Run) -> None:
    code, _, err = run("solve", "-", input=text)
    assert one_line_error(err, code), err


@pytest.mark.parametrize("fmt", ["svg", "pdf", "fpuzzles"])
def test_every_little_killer_read_is_drawn_and_written(fmt: str, run: Run) -> None:
    code, out, err = run(
        "solve", "-", "-f", fmt, input="little-killer 5: r1c9\nlittle-killer 30: r0c2 dr\n"
    )
    assert code == 1 and out, err


# --- nothing lost or mixed ------------------------------------------------------------


@pytest.mark.parametrize("kind", ["same", "symlink", "hard link"])
def test_no_input_is_overwritten(kind: str, tmp_path: Path, run: Run) -> None:
    rules = tmp_path / "r.txt"
    rules.write_text("cage 3: r1c1 r1c2\n")
    out = tmp_path / "out.cnf"
    if kind == "symlink":
        out.symlink_to(rules)
    elif kind == "hard link":
        os.link(rules, out)
    else:
        out = rules
    puzzle = str(PUZZLES / "ai-escargot.txt")
    code, _, err = run("cnf", puzzle, "--rules-file", str(rules), "--out", str(out))
    assert one_line_error(err, code) and "is also an input" in err
    assert rules.read_text() == "cage 3: r1c1 r1c2\n"


def shards(tmp_path: Path, name: str, source: Path, count: int, *args: str) -> list[Path]:
    found = []
    for k in range(1, count + 1):
        path = tmp_path / f"{name}-{k}.jsonl"
        with path.open("w") as out:
            command = [str(SUDOSAT), *args, "--shard", f"{k}/{count}", "-f", "jsonl", "-q"]
            done = subprocess.run([*command, str(source)] if source.name else command, stdout=out)
        assert done.returncode in (0, 1, 2, 3)
        found.append(path)
    return found


def mixed(tmp_path: Path) -> Path:
    """Classic lines (hard and easy), variant links, broken lines: one input."""
    lines = (PUZZLES / "tdoku-magictour-25.txt").read_text().splitlines()
    lines += [line for line in KILLERS_16.read_text().splitlines() if line.startswith("http")][:1]
    lines += (PUZZLES / "variants.links").read_text().splitlines()
    lines += [
        "this line is no puzzle",
        "1" * 80,
        *(PUZZLES / "royle17-25.txt").read_text().splitlines(),
    ]
    path = tmp_path / "mixed.txt"
    path.write_text("\n".join(lines) + "\n")
    return path


@pytest.mark.slow
def test_merged_shards_equal_one_run_byte_for_byte(tmp_path: Path) -> None:
    source = mixed(tmp_path)
    whole = subprocess.run(
        [str(SUDOSAT), "solve", str(source), "-f", "jsonl", "-q", "--no-time"],
        capture_output=True,
        text=True,
    ).stdout
    parts = shards(tmp_path, "part", source, 3, "solve", "--no-time")
    merged = subprocess.run(
        [str(SUDOSAT), "merge", *map(str, parts)], capture_output=True, text=True
    )
    assert merged.returncode == 0 and merged.stdout == whole
    assert '"time": null' in whole


@pytest.mark.slow
def test_merge_reads_each_shard_once_from_pipes_and_fifos(tmp_path: Path) -> None:
    parts = shards(tmp_path, "p", PUZZLES / "royle17-25.txt", 3, "solve", "--no-time")
    expected = subprocess.run(
        [str(SUDOSAT), "merge", *map(str, parts)], capture_output=True, text=True
    ).stdout
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)

    def feed() -> None:
        with fifo.open("w") as handle:
            handle.write(parts[1].read_text())

    feeder = threading.Thread(target=feed)
    feeder.start()
    script = f'exec "{SUDOSAT}" merge <(cat "{parts[0]}") "{fifo}" - < "{parts[2]}"'
    done = subprocess.run(["bash", "-c", script], capture_output=True, text=True, timeout=120)
    feeder.join(timeout=60)
    assert done.returncode == 0 and done.stdout == expected, done.stderr


@pytest.mark.slow
def test_merge_refuses_shards_of_different_runs(tmp_path: Path, run: Run) -> None:
    first = PUZZLES / "royle17-25.txt"
    other = tmp_path / "other.txt"
    other.write_text("\n".join(reversed(first.read_text().splitlines())) + "\n")
    a = shards(tmp_path, "a", first, 2, "solve")
    b = shards(tmp_path, "b", other, 2, "solve")
    code, _, err = run("merge", str(a[0]), str(b[1]))
    assert one_line_error(err, code) and "of another run" in err
    c = shards(tmp_path, "c", first, 2, "solve", "--count")
    code, _, err = run("merge", str(a[0]), str(c[1]))
    assert one_line_error(err, code) and "of another run" in err
    made = shards(tmp_path, "g", Path(""), 2, "generate", "--count", "25", "--seed", "1")
    code, _, err = run("merge", str(a[0]), str(made[1]))
    assert one_line_error(err, code) and "not one run" in err


@pytest.mark.parametrize(
    ("trailer", "says"),
    [
        ('{"shard": "1/2", "records": 0, "of": 12.9, "run": "x"}', "no shard trailer"),
        ('{"shard": "1/2", "records": "0", "of": 1, "run": "x"}', "no shard trailer"),
        ('{"shard": "1/1", "records": 0, "of": 0}', "no shard trailer"),
        (
            '{"shard": "1/1000000000", "records": 0, "of": 0, "run": "x"}',
            "missing: 1 of 1000000000",
        ),
    ],
)
def test_merge_refuses_strange_trailers_at_once(
    trailer: str, says: str, tmp_path: Path, run: Run
) -> None:
    path = tmp_path / "s.jsonl"
    path.write_text(trailer + "\n")
    code, _, err = run("merge", str(path))
    assert one_line_error(err, code) and says in err, err


def test_merge_names_a_file_that_is_no_text_and_stops_on_endless_input(
    tmp_path: Path, run: Run
) -> None:
    path = tmp_path / "s.jsonl"
    path.write_bytes(b'{"a": 1}\n\xff\xfe\n')
    code, _, err = run("merge", str(path))
    assert one_line_error(err, code) and "s.jsonl:2:1: not UTF-8" in err
    code, _, err = run("merge", "/dev/zero")
    assert one_line_error(err, code) and "/dev/zero:1:1: a line of more than" in err


# --- bounded time and memory ------------------------------------------------------------


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


@pytest.mark.slow
def test_explain_has_a_budget_after_the_answer() -> None:
    killer = next(line for line in KILLERS_16.read_text().splitlines() if line.startswith("http"))
    puzzle = parse(killer)
    assert puzzle.rules is not None
    from dataclasses import replace

    from sudosat.rules import Rules
    from sudosat.rules.killer import KillerCage

    cages = list(puzzle.rules.constraints)
    first = next(i for i, c in enumerate(cages) if isinstance(c, KillerCage) and len(c.group) == 2)
    cage = cages[first]
    assert isinstance(cage, KillerCage) and cage.value is not None
    cages[first] = KillerCage(cage.group, cage.value + 1 if cage.value < 31 else cage.value - 1)
    broken = replace(puzzle, rules=Rules.of(puzzle.layout, cages))
    found = explain(broken, budget=1.0)
    assert found.outcome.status == "none" and "conflict" in found.timed_out


def test_a_run_stopped_early_says_so() -> None:
    summary = Summary(interrupted=True)
    assert summary.lines()[0].startswith("interrupted after 0 puzzles")
    assert "none answered yet" in summary.lines()[0] and "nothing to do" not in summary.lines()[0]
    assert Summary(stopped=True).lines()[0].startswith("stopped after 0 puzzles")


def test_explain_default_budget_is_the_documented_one() -> None:
    from sudosat.making.explain import BUDGET

    done = subprocess.run([str(SUDOSAT), "explain", "--help"], capture_output=True, text=True)
    assert f"have {BUDGET:g} s together" in " ".join(done.stdout.split())
