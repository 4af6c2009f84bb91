"""Data-driven checks against public collections in ../shared (skipped where absent)."""

from __future__ import annotations

import pytest

from sudosat.core.puzzle import Puzzle, verify
from sudosat.reading.formats import parse
from sudosat.reading.inputs import read_file
from sudosat.solving.engine import solve
from tests.conftest import shared


@pytest.mark.slow
def test_tdoku_test_puzzles_exact_counts() -> None:
    path = shared("tdoku/test_puzzles")
    checked = 0
    for line in path.read_text().splitlines():
        if not line or line.startswith("#"):
            continue
        fields = line.split(":")
        puzzle, expected = parse(fields[0]), int(fields[1])
        outcome = solve(puzzle, max_solutions=1000)
        assert outcome.exhausted, line
        assert len(outcome.solutions) == expected, line
        if len(fields) > 2 and expected == 1:
            assert outcome.solutions[0] == parse(fields[2]).cells
        checked += 1
    assert checked == 43


@pytest.mark.parametrize(
    ("relative", "take"),
    [
        ("tdoku/puzzles2_17_clue", 200),
        ("tdoku/puzzles5_forum_hardest_1905_11+", 200),
        ("norvig/top95.txt", 95),
        ("large/gecode/gecode_16x16.chars.txt", 20),
    ],
)
@pytest.mark.slow
def test_collections_known_unique(relative: str, take: int) -> None:
    entries = read_file(str(shared(relative)))[:take]
    for entry in entries:
        assert isinstance(entry, Puzzle)
        outcome = solve(entry)
        assert outcome.status == "unique", f"{relative}:{entry.line}"
        assert verify(entry, outcome.solutions[0]) == []


@pytest.mark.slow
def test_serg_benchmark_has_several_solutions() -> None:
    entries = read_file(str(shared("tdoku/puzzles7_serg_benchmark")))[:100]
    assert all(isinstance(e, Puzzle) and solve(e).status == "multiple" for e in entries)
