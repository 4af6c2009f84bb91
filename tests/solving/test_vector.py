"""The batch front end (sudosat/solving/vector.py): every answer it gives is the answer the
engine gives without it, on tdoku's sets and on puzzles with no solution and with
several, whatever the chunk size."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from sudosat.core.notation import format_line
from sudosat.core.puzzle import Puzzle, verify
from sudosat.making.generator import generate
from sudosat.reading import inputs
from sudosat.reading.formats import parse
from sudosat.reading.inputs import Inputs, read_file
from sudosat.running.batch import Settings, work
from sudosat.running.tasks import Solve
from sudosat.showing.view import View
from sudosat.solving import vector
from sudosat.solving.engine import Options, solve
from tests.conftest import ESCARGOT, PUZZLES, shared

IGNORED = ("solver", "time")
"""What may differ: which part answered, and how long it took."""


def records(
    path: Path, chunk: int, front_end: bool, monkeypatch: pytest.MonkeyPatch, **options: Any
) -> list[dict[str, Any]]:
    """The JSONL records of a batch over ``path`` in chunks of ``chunk`` lines."""
    monkeypatch.setattr(inputs, "CHUNK", chunk)
    monkeypatch.setattr(inputs, "MAX_CHUNK", chunk)
    task = Solve(check=options.pop("check", False))
    view = task.shaped(View(fmt="jsonl", many=True))
    rank = options.pop("rank", None)  # 16-character lines are 4x4s only when asked for
    settings = Settings(Options(**options), task, view, front_end)
    chunks = Inputs([str(path)], rank=rank).chunks()
    text = "".join(work((c, settings)).text for c in chunks)
    return [json.loads(line) for line in text.splitlines()]


def compare(path: Path, chunk: int, monkeypatch: pytest.MonkeyPatch, **options: Any) -> int:
    """Asserts that the front end changes nothing but the solver and the time; how
    many puzzles it answered itself."""
    with_it = records(path, chunk, True, monkeypatch, **dict(options))
    without = records(path, chunk, False, monkeypatch, **dict(options))
    assert len(with_it) == len(without) > 0
    for a, b in zip(with_it, without, strict=True):
        assert {k: v for k, v in a.items() if k not in IGNORED} == {
            k: v for k, v in b.items() if k not in IGNORED
        }, a["line"]
    return sum("numpy" in (r["solver"] or "") for r in with_it)


def sample(source: Path, take: int, tmp_path: Path) -> Path:
    lines = [x for x in source.read_text().splitlines() if x.strip() and not x.startswith("#")]
    path = tmp_path / source.name
    path.write_text("\n".join(lines[:take]) + "\n")
    return path


@pytest.mark.parametrize(
    ("relative", "take"),
    [
        ("tdoku/puzzles2_17_clue", 600),
        ("tdoku/puzzles1_unbiased.first1000", 300),
        ("tdoku/puzzles3_magictour_top1465", 150),
        ("tdoku/puzzles5_forum_hardest_1905_11+", 100),
        ("tdoku/puzzles7_serg_benchmark", 100),  # every one has several solutions
        ("tdoku/test_puzzles", 43),  # none, one and several
    ],
)
@pytest.mark.parametrize("chunk", [1, 7, 128, 1000])
@pytest.mark.slow
def test_the_front_end_answers_as_the_engine_on_tdokus_sets(
    relative: str, take: int, chunk: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = sample(shared(relative), take, tmp_path)
    answered = compare(path, chunk, monkeypatch)
    if "17_clue" in relative or "unbiased" in relative:
        assert answered > take // 2  # propagation and the short search settle most


@pytest.mark.parametrize("name", ["general_16x16.ints.txt", "general_9x9.ints.txt"])
@pytest.mark.slow
def test_lines_of_numbers_too(name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # lloyd_acs: every fill level, from the empty grid (several solutions) up
    source = shared(f"large/lloyd_acs/{name}")
    lines = source.read_text().splitlines()[::30]
    lines[3] = lines[3].replace(" ", " | ", 1)  # a box separator: the line reader's
    lines[4] = "17 " + lines[4].split(" ", 1)[1]  # not a value: an error record
    path = tmp_path / name
    path.write_text("\n".join(lines) + "\n")
    answered = compare(path, 32, monkeypatch)
    assert answered > len(lines) // 3
    found = records(path, 32, True, monkeypatch)
    assert found[4]["status"] == "error" and found[4]["line"] == 5
    # numbers to 16: a value out of range; digits: one character too many
    said = "out of range" if "16x16" in name else "found 82, expected 81 for a 9x9"
    assert said in found[4]["reason"]


def test_tdoku_counts_through_the_front_end(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = shared("tdoku/test_puzzles")
    expected = [int(x.split(":")[1]) for x in path.read_text().splitlines() if x.strip()]
    found = records(path, 1000, True, monkeypatch, check=True)
    statuses = [r["status"] for r in found]
    assert statuses == [("none", "unique")[n] if n < 2 else "multiple" for n in expected]
    assert all(r["check"] in ("ok", "mismatch: several solutions") or r["count"] for r in found)
    assert sum("numpy" in (r["solver"] or "") for r in found) >= 20  # the nones and most uniques


def test_broken_lines_clashes_and_dead_cells_keep_their_place(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    clash = "11" + ESCARGOT[2:]
    dead = "123456780" + "." * 8 + "9" + "." * 63  # r1c9 can hold nothing
    lines = [ESCARGOT, "not a puzzle", clash, ESCARGOT[:80], dead, "x" * 81, ESCARGOT]
    path = tmp_path / "mixed.txt"
    path.write_text("\n".join(lines) + "\n")
    for chunk in (1, 3, 100):
        compare(path, chunk, monkeypatch)
    found = records(path, 100, True, monkeypatch)
    assert [r["status"] for r in found] == [
        "unique",
        "error",
        "none",
        "error",
        "none",
        "error",
        "unique",
    ]
    assert "r1c1 and r1c2 both hold 1" in found[2]["reason"]
    assert found[4]["reason"]  # the dead cell is named, as without the front end


@pytest.mark.parametrize("options", [{"max_solutions": 1}, {"timeout": 30.0}])
def test_options_the_front_end_keeps(
    options: dict[str, Any], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = sample(shared("tdoku/test_puzzles"), 43, tmp_path)
    compare(path, 16, monkeypatch, **options)
    path = sample(shared("tdoku/puzzles2_17_clue"), 200, tmp_path)
    assert compare(path, 64, monkeypatch, **options) > 100


@pytest.mark.parametrize("rank", [2, 4, 5])
@pytest.mark.slow
def test_other_ranks(rank: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    symbols = {2: "1234", 4: "0123456789abcdef", 5: "ABCDEFGHIJKLMNOPQRSTUVWXY"}[rank]
    if rank == 5:  # generating 25x25s takes minutes: the bundled one, and its solution
        bundled = read_one(PUZZLES / "rank5-25x25.txt").cells
        made = [
            Puzzle(5, bundled, symbols),
            Puzzle(5, solve(Puzzle(5, bundled)).solutions[0], symbols),
        ]
    else:
        count = {2: 40, 4: 6}[rank]
        made = [generate(seed, rank=rank, alphabet=symbols).puzzle for seed in range(count)]
    count = len(made)
    lines = [format_line(p) for p in made]
    lines.append(format_line(Puzzle(rank, (0,) * rank**4, symbols)))  # several solutions
    lines.append(format_line(Puzzle(rank, (1, 1) + (0,) * (rank**4 - 2), symbols)))  # a clash
    path = tmp_path / "grids.txt"
    path.write_text("\n".join(lines) + "\n")
    assert compare(path, 5, monkeypatch, rank=rank) >= max(count // 2, 1)
    found = records(path, 5, True, monkeypatch, rank=rank)
    assert [r["status"] for r in found[-2:]] == ["multiple", "none"]


def read_one(path: Path) -> Puzzle:
    [puzzle] = read_file(str(path))
    assert isinstance(puzzle, Puzzle)
    return puzzle


def test_settle_proves_what_it_claims() -> None:
    # Straight from the array: every UNIQUE is a valid grid the engine agrees with,
    # every NONE has no solution, and UNDECIDED puzzles are left alone.
    lines = (PUZZLES / "royle17-25.txt").read_text().split()
    puzzles = [parse(x) for x in lines] + [parse(ESCARGOT), Puzzle(3, (0,) * 81)]
    grids = np.array([p.cells for p in puzzles])
    settled = vector.settle(grids, 3)
    for puzzle, verdict, solution in zip(
        puzzles, settled.verdicts.tolist(), settled.solutions.tolist(), strict=True
    ):
        if verdict == vector.UNIQUE:
            assert verify(puzzle, solution) == []
            assert solve(puzzle).solutions == [tuple(solution)]
        elif verdict == vector.NONE:
            assert solve(puzzle).status == "none"
    assert settled.verdicts.tolist()[-1] == vector.UNDECIDED  # the empty grid
    assert vector.UNIQUE in settled.verdicts.tolist()


def test_the_front_end_is_the_default_and_can_be_turned_off(run: Any, tmp_path: Path) -> None:
    path = tmp_path / "two.txt"
    path.write_text(f"{ESCARGOT}\n{ESCARGOT}\n")
    code, out, _ = run("solve", "-f", "jsonl", "-j", "1", str(path))
    assert code == 0 and all("numpy" in json.loads(x)["solver"] for x in out.splitlines())
    code, out, _ = run("solve", "-f", "jsonl", "-j", "1", "--no-front-end", str(path))
    assert code == 0 and not any("numpy" in json.loads(x)["solver"] for x in out.splitlines())
    assert vector.SEARCH_BUDGET > 0


def test_a_wrong_grid_is_caught_by_the_chunk_check() -> None:
    puzzle = parse(ESCARGOT)
    [grid] = solve(puzzle).solutions
    swapped = list(grid)
    swapped[0], swapped[1] = swapped[1], swapped[0]  # the row stays full, the columns do not
    blank = next(c for c, v in enumerate(puzzle.cells) if not v)
    other = list(grid)
    other[blank] = other[blank] % 9 + 1  # a row with a value twice
    checks = vector.solves([grid, tuple(swapped), tuple(other)], [puzzle.cells] * 3, 3)
    assert checks == [True, False, False]
    givens = list(puzzle.cells)
    givens[blank] = grid[blank] % 9 + 1  # a puzzle the right grid does not keep
    assert vector.solves([grid], [tuple(givens)], 3) == [False]
