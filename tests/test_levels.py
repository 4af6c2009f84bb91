"""Levels that mean what they say for variants: the reasoning of each level
(:mod:`sudosat.making.logic`) is sound (it never removes a true candidate),
each technique is needed where it is claimed, and generate makes killer,
jigsaw and X puzzles at easy, intermediate and expert."""

from __future__ import annotations

import json
import random

import pytest

from sudosat import parse, solve
from sudosat.core.puzzle import Layout
from sudosat.making.candidates import candidates
from sudosat.making.logic import Reasoner, houses
from sudosat.making.path import logical_path
from sudosat.making.rating import LEVELS, rate
from sudosat.making.variant_generator import unique_killer

from .conftest import PUZZLES, Run

STATEMENTS = [
    "diagonals",
    "anti-knight",
    "cage 10: r1c1 r1c2\ncage 20: r2c2 r2c3 r3c3",
    "thermo: r1c1 r1c2 r1c3 r1c4",
    "renban: r5c1 r5c2 r5c3\nwhispers: r9c1 r9c2 r9c3",
    "difference: r1c1 r1c2\nratio: r4c4 r4c5\nnegative: ratio",
    "extra-region: r2c2 r2c3 r2c4 r3c2 r3c3 r3c4 r4c2 r4c3 r4c4",
]


def puzzles(count: int) -> list[str]:
    """Variant puzzles with a few givens of a solution: many solutions, so that
    most cells keep several true candidates."""
    found = []
    rng = random.Random(5)
    for index in range(count):
        rules = STATEMENTS[index % len(STATEMENTS)]
        first = solve(parse(f"{rules}\n{'.' * 81}"), max_solutions=1)
        grid = first.solutions[0]
        cells = ["."] * 81
        for cell in rng.sample(range(81), rng.randint(18, 30)):
            cells[cell] = str(grid[cell])
        found.append(f"{rules}\n{''.join(cells)}")
    return found


@pytest.mark.parametrize("level", ["easy", "intermediate"])
def test_reasoning_never_removes_a_true_candidate(level: str) -> None:
    for text in puzzles(21):
        puzzle = parse(text)
        truth = candidates(puzzle).marks
        with Reasoner(puzzle, level) as reasoner:
            left = reasoner.candidates(puzzle)
        assert all(set(true) <= held for true, held in zip(truth, left, strict=True)), text


def test_diagonals_and_extra_regions_are_houses() -> None:
    puzzle = parse(STATEMENTS[0] + "\n" + STATEMENTS[6] + "\n" + "." * 81)
    found = houses(puzzle)
    assert len(found) == 27 + 3
    assert tuple(r * 9 + r for r in range(9)) in found


def test_a_single_in_a_diagonal_is_easy() -> None:
    # the main diagonal holds 1-8 and one blank: its 9 is a hidden single only there
    cells = ["."] * 81
    for r in range(8):
        cells[r * 9 + r] = str(r + 1)
    puzzle = parse("diagonal-\n" + "".join(cells))
    with Reasoner(puzzle, "easy") as reasoner:
        assert reasoner.candidates(puzzle)[80] == {9}
    without = parse("".join(cells))
    with Reasoner(without, "easy") as reasoner:
        assert len(reasoner.candidates(without)[80]) > 1


def test_locked_candidates_need_the_intermediate_level() -> None:
    # row 1 holds 1 only in box 1 (r1c4-r1c9 are given without it): pointing
    # takes 1 out of r2c1-r3c3's other cells... of box 1 outside row 1
    text = "..." + "234567" + "." * 72
    puzzle = parse(text)
    with Reasoner(puzzle, "easy") as easy, Reasoner(puzzle, "intermediate") as more:
        easy_left, more_left = easy.candidates(puzzle), more.candidates(puzzle)
    box_below = [9, 10, 11, 18, 19, 20]
    assert all(1 in easy_left[c] for c in box_below)
    assert not any(1 in more_left[c] for c in box_below)


def test_a_rules_own_propagation_is_intermediate() -> None:
    # a thermometer's bulb below a given 5: singles do not see it, the rule does
    puzzle = parse("thermo: r1c1 r1c2\n.5" + "." * 79)
    with Reasoner(puzzle, "easy") as easy, Reasoner(puzzle, "intermediate") as more:
        assert 6 in easy.candidates(puzzle)[0]
        assert more.candidates(puzzle)[0] == {1, 2, 3, 4}


@pytest.mark.slow
@pytest.mark.parametrize("variant", ["killer", "jigsaw", "x"])
@pytest.mark.parametrize("level", ["easy", "intermediate", "expert"])
def test_generate_makes_each_level(variant: str, level: str, run: Run) -> None:
    code, out, err = run(
        "generate",
        "--variant",
        variant,
        "--level",
        level,
        "--puzzles",
        "2",
        "--seed",
        "4",
        "-f",
        "jsonl",
    )
    assert code == 0, err
    made = [json.loads(line) for line in out.splitlines()]
    assert [m["level"] for m in made] == [level, level]
    for record in made:  # each settles by its level's reasoning to its one solution
        puzzle = parse(record["puzzle"])
        path = logical_path(puzzle)  # and the logical path solves it at that level or below
        assert path.end == "solved" and LEVELS.index(path.level()) <= LEVELS.index(level)
        if level != "expert":
            with Reasoner(puzzle, level) as reasoner:
                settled = [next(iter(v)) for v in reasoner.candidates(puzzle)]
            assert "".join(map(str, settled)) == record["solution"]


def test_simple_is_refused_for_variants_at_once(run: Run) -> None:
    code, _, err = run("generate", "--variant", "x", "--level", "simple")
    assert code == 2 and "never simple" in err


def test_levels_of_known_puzzles() -> None:
    levels = set()
    for seed in range(6):
        puzzle, _ = unique_killer(Layout.boxes(9), random.Random(seed), 4, level="easy")
        levels.add(rate(puzzle).level)
    assert levels == {"easy"}
    # the bundled killer needs its cages' combinations, but no search
    assert rate(parse((PUZZLES / "killer.txt").read_text())).level == "intermediate"
