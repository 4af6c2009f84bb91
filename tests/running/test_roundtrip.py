"""Every structured output reads back: what solve, candidates, rate, explain and
generate write as json, jsonl, csv, line and fpuzzles is input to solve again,
and gives the same puzzle (its cells, regions, rules and name)."""

from __future__ import annotations

from pathlib import Path

import pytest

from sudosat.core.puzzle import Puzzle
from sudosat.reading.inputs import read_puzzles
from tests.conftest import ESCARGOT, PUZZLES, Run

SAMPLES = [
    "ai-escargot.txt",
    "killer.txt",
    "jigsaw.txt",
    "kropki-6x6.txt",
    "thermo-arrow.json",
    "hex-16x16.txt",
]
COMMANDS = [
    ("solve", "jsonl"),
    ("solve", "json"),
    ("solve", "csv"),
    ("solve", "fpuzzles"),
    ("candidates", "jsonl"),
    ("candidates", "json"),
    ("candidates", "csv"),
    ("rate", "jsonl"),
    ("rate", "csv"),
    ("explain", "jsonl"),
    ("explain", "json"),
]


def puzzles_of(path: Path) -> list[Puzzle]:
    found = list(read_puzzles([str(path)]))
    assert all(isinstance(p, Puzzle) for p in found), found
    return [p for p in found if isinstance(p, Puzzle)]


def shape(puzzle: Puzzle) -> tuple[object, ...]:
    """What makes a puzzle the same puzzle: size, cells, regions, rules."""
    n = puzzle.size
    rules = sorted(rule.text(n) for rule in puzzle.rules.constraints) if puzzle.rules else []
    return n, puzzle.cells, puzzle.layout.unit_index[2], rules


def read_back(tmp_path: Path, run: Run, text: str, suffix: str) -> list[Puzzle]:
    path = tmp_path / f"out.{suffix}"
    path.write_text(text)
    code, out, err = run("solve", "-f", "jsonl", str(path))
    assert code in (0, 1), err  # a solution or several: each read as a puzzle
    assert "error" not in [line.split('"status": "')[1].split('"')[0] for line in out.splitlines()]
    return puzzles_of(path)


@pytest.mark.slow
@pytest.mark.parametrize("command,fmt", COMMANDS)
@pytest.mark.parametrize("sample", SAMPLES)
def test_each_output_reads_back_as_the_same_puzzle(
    sample: str, command: str, fmt: str, tmp_path: Path, run: Run
) -> None:
    original = puzzles_of(PUZZLES / sample)
    code, out, err = run(command, "-f", fmt, str(PUZZLES / sample))
    assert code in (0, 1), err
    back = read_back(tmp_path, run, out, fmt)
    assert [shape(p) for p in back] == [shape(p) for p in original]


def test_many_puzzles_read_back_in_order_with_their_names(tmp_path: Path, run: Run) -> None:
    source = tmp_path / "named.txt"
    source.write_text(f"Grid 01\n{ESCARGOT}\nGrid 02\n{ESCARGOT.replace('1', '.', 1)}\n")
    for fmt in ("jsonl", "json", "csv"):
        _, out, _ = run("solve", "-f", fmt, str(source))
        back = read_back(tmp_path, run, out, fmt)
        assert [(p.name, p.cells) for p in back] == [(p.name, p.cells) for p in puzzles_of(source)]


@pytest.mark.slow
@pytest.mark.parametrize("variant", ["classic", "killer", "x", "jigsaw"])
@pytest.mark.parametrize("fmt", ["jsonl", "csv", "line", "fpuzzles"])
def test_generated_puzzles_read_back(variant: str, fmt: str, tmp_path: Path, run: Run) -> None:
    args = ["generate", "--puzzles", "2", "--seed", "3", "-f", fmt]
    code, out, err = run(*args, *([] if variant == "classic" else ["--variant", variant]))
    assert code == 0, err
    back = read_back(tmp_path, run, out, fmt)
    code, again, _ = run("solve", "-f", "jsonl", str(tmp_path / f"out.{fmt}"))
    assert len(back) == 2
    assert again.count('"status": "unique"') == 2  # generated puzzles are unique


def test_a_solved_line_reads_back_as_its_solution(tmp_path: Path, run: Run) -> None:
    _, out, _ = run("solve", "-f", "line", str(PUZZLES / "ai-escargot.txt"))
    (back,) = read_back(tmp_path, run, out, "line")
    assert 0 not in back.cells


@pytest.mark.parametrize(
    "text,says",
    [
        ('{"puzzle": 5}\n{"puzzle": 6}\n', "expected a puzzle field"),
        (f'{{"puzzle": "{ESCARGOT}"}}\nnot json\n', "does not parse"),
        (f'{{"puzzle": "{ESCARGOT}", "rules": [3]}}\n{{"puzzle": "x"}}\n', "rules"),
        (f'{{"puzzle": "{ESCARGOT}", "rules": ["cage 99: r1c1"]}}\n{{"puzzle": "x"}}\n', "cage"),
    ],
)
def test_a_broken_record_is_one_error_naming_its_line(
    text: str, says: str, tmp_path: Path, run: Run
) -> None:
    path = tmp_path / "broken.jsonl"
    path.write_text(text)
    code, out, err = run("solve", "-f", "line", str(path))
    assert code == 2
    assert len(out.splitlines()) == 2  # every line one answer, in order
    assert f"{path}:" in err and says in err
