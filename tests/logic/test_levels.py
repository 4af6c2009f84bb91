"""Levels that mean what they say, by one difficulty model (the logical path):
a path of each level's techniques is sound (it never removes a true
candidate), each technique is needed where it is claimed, and generate makes
killer, jigsaw and X puzzles at easy, intermediate and expert that their paths
rate so."""

from __future__ import annotations

import json
import random

import pytest

from sudosat import parse, solve
from sudosat.core.masks import bit
from sudosat.core.puzzle import Layout, Puzzle
from sudosat.logic.levels import LEVELS, Family, Level, level_named
from sudosat.logic.path import Pathfinder, logical_path, truth_of
from sudosat.logic.rating import open_at, rate
from sudosat.logic.techniques import left_out
from sudosat.making.variant_generator import unique_killer
from tests.conftest import PUZZLES, Run

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


@pytest.mark.slow
@pytest.mark.parametrize("level", [Level.EASY, Level.INTERMEDIATE])
def test_a_levels_path_never_removes_a_true_candidate(level: Level) -> None:
    for text in puzzles(21):
        puzzle = parse(text)
        truth = truth_of(puzzle)
        with Pathfinder(puzzle, upto=level) as finder:
            left = finder.path(truth).board.masks  # each step checked: UnsoundStep else
        assert truth is not None and all(not t & ~m for t, m in zip(truth, left, strict=True))


def test_diagonals_and_extra_regions_are_houses() -> None:
    puzzle = parse(STATEMENTS[0] + "\n" + STATEMENTS[6] + "\n" + "." * 81)
    with Pathfinder(puzzle) as finder:
        found = finder.board().houses
    assert len(found) == 27 + 3
    assert tuple(r * 9 + r for r in range(9)) in found


def placed_at(puzzle: Puzzle, level: Level) -> list[int]:
    """What a path of ``level``'s techniques places, cell by cell (0: open)."""
    with Pathfinder(puzzle, upto=level) as finder:
        return finder.path(None).board.placed


def masks_at(puzzle: Puzzle, level: Level) -> list[int]:
    with Pathfinder(puzzle, upto=level) as finder:
        return finder.path(None).board.masks


def test_a_single_in_a_diagonal_is_easy() -> None:
    # the main diagonal holds 1-8 and one blank: its 9 is a single only there
    cells = ["."] * 81
    for r in range(8):
        cells[r * 9 + r] = str(r + 1)
    assert placed_at(parse("diagonal-\n" + "".join(cells)), Level.EASY)[80] == 9
    assert placed_at(parse("".join(cells)), Level.EASY)[80] == 0


def test_locked_candidates_need_the_intermediate_level() -> None:
    # row 1 holds 1 only in box 1 (r1c4-r1c9 are given without it): pointing
    # takes 1 out of box 1's other cells
    puzzle = parse("..." + "234567" + "." * 72)
    easy, more = masks_at(puzzle, Level.EASY), masks_at(puzzle, Level.INTERMEDIATE)
    box_below = [9, 10, 11, 18, 19, 20]
    assert all(easy[c] & bit(1) for c in box_below)
    assert not any(more[c] & bit(1) for c in box_below)


def test_a_rules_own_step_is_easy() -> None:
    # a thermometer's bulb below a given 5: singles do not see it, the rule does
    puzzle = parse("thermo: r1c1 r1c2\n.5" + "." * 79)
    assert masks_at(puzzle, Level.SIMPLE)[0] & bit(6)
    assert masks_at(puzzle, Level.EASY)[0] == sum(bit(v) for v in (1, 2, 3, 4))


def test_levels_and_families_are_enums_and_read_as_words() -> None:
    assert [str(x) for x in LEVELS] == ["simple", "easy", "intermediate", "expert"]
    assert level_named("hard") is Level.EXPERT and level_named("medium") is Level.INTERMEDIATE
    assert json.dumps({"level": Level.EASY, "family": Family.RULES_TOGETHER}) == (
        '{"level": "easy", "family": "rules together"}'
    )
    with pytest.raises(ValueError, match="unknown level 'tough'"):
        level_named("tough")
    with pytest.raises(ValueError, match="no family 'guesses'"):
        left_out(["guesses"])


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
    for record in made:  # one difficulty model: the path solves it, at that level
        puzzle = parse(record["puzzle"])
        path = logical_path(puzzle)
        assert path.end == "solved" and path.level() == level
        solved = "".join(map(str, path.board.placed))
        assert solved == record["solution"]
        if level != "expert":
            assert not open_at(puzzle, Level(level))


def test_simple_is_refused_for_variants_at_once(run: Run) -> None:
    code, _, err = run("generate", "--variant", "x", "--level", "simple")
    assert code == 2 and "never simple" in err


@pytest.mark.slow
def test_levels_of_known_puzzles() -> None:
    levels = set()
    for seed in range(6):
        puzzle, _ = unique_killer(Layout.boxes(9), random.Random(seed), 4, level=Level.EASY)
        levels.add(rate(puzzle).level)
    assert levels == {Level.EASY}
    # the bundled killer needs a naked pair once its cages are read
    found = rate(parse((PUZZLES / "killer.txt").read_text()))
    assert found.level == Level.EXPERT and found.technique == "naked pair"
