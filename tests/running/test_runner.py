"""The runner at a terminal: what a person sees while a run shows its progress."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.conftest import PUZZLES, SUDOSAT, Screen

MAGICTOUR = PUZZLES / "tdoku-magictour-25.txt"


def many_puzzles(tmp_path: Path, copies: int) -> Path:
    lines = [line for line in MAGICTOUR.read_text().splitlines() if len(line) == 81]
    path = tmp_path / "many.txt"
    path.write_text("\n".join(lines * copies) + "\n")
    return path


@pytest.mark.slow
@pytest.mark.parametrize(("command", "answer"), [("solve", r"\d{81}"), ("rate", r"[a-z]+ [\d.]+")])
def test_answers_under_a_progress_bar_start_on_lines_of_their_own(
    tmp_path: Path, command: str, answer: str
) -> None:
    copies = 40 if command == "solve" else 2
    path = many_puzzles(tmp_path, copies)
    screen = Screen([str(SUDOSAT), command, "-f", "line", str(path)])
    assert screen.code == 0
    assert b"puzzles" in screen.seen  # the bar was shown while they were answered
    records = [line for line in screen.lines if re.fullmatch(answer, line)]
    assert len(records) == 25 * copies, screen.lines[:3]
    assert not [line for line in screen.lines if "puzzles" in line and "answered" not in line]


@pytest.mark.slow
def test_an_interrupted_count_at_a_terminal_shows_n_plus_on_its_own_line() -> None:
    args = [str(SUDOSAT), "solve", "--count", "-n", "100000000"]
    screen = Screen(
        [*args, str(PUZZLES / "empty-9x9.txt"), "-f", "line"], on=b"so far", keys=b"\x03"
    )
    assert screen.code == 130
    counts = [line for line in screen.lines if re.fullmatch(r"\d+\+", line)]
    assert len(counts) == 1, screen.lines
    assert f"{counts[0]} solutions (interrupted)" in screen.lines
    assert screen.lines[-1] == "sudosat: interrupted"
