"""The logical solve path (``sudosat steps``): each technique where it alone makes
progress, every step checked against the true candidates on many puzzles, the
variant steps of one generic mechanism, the rating derived from the path, and
the command in every format."""

from __future__ import annotations

import json
import random
import re
import shutil
import subprocess
from itertools import islice
from pathlib import Path

import pytest

from sudosat import parse, solve
from sudosat.core.masks import bit, from_values
from sudosat.core.puzzle import Layout, Puzzle
from sudosat.logic import explainer
from sudosat.logic.board import Board
from sudosat.logic.branches import Branches
from sudosat.logic.forcing import propagate
from sudosat.logic.levels import Level
from sudosat.logic.nested import MEAN_OF, SHOWN, TAKEN_APART, _shortest_broken, classic_solver
from sudosat.logic.nested import technique as nested_weight
from sudosat.logic.path import FORCING_KINDS, NESTED, Pathfinder, logical_path, truth_of
from sudosat.logic.rating import path_rating, rate_by_path
from sudosat.logic.rulesteps import MOST_REMOVALS
from sudosat.logic.ruleweights import WIDE
from sudosat.logic.solve_path import technique_of
from sudosat.logic.techniques import CLASSIC
from sudosat.making.generator import Asked
from sudosat.making.variant_generator import make_variant, unique_killer
from sudosat.reading.inputs import read_puzzles
from sudosat.reading.pencil import read_marks
from sudosat.sat.cnf import cell_value, literal
from tests.conftest import PUZZLES, Run, shared
from tests.solving.test_workbench import solutions_4x4

EXAMPLES = Path(__file__).parents[1] / "data" / "techniques.jsonl"
"""For each technique, candidates where it is the easiest that makes progress
(found in tdoku's sets by scripts/technique_examples.py)."""


def examples() -> list[dict[str, str]]:
    return [json.loads(line) for line in EXAMPLES.read_text().splitlines()]


def board_at(puzzle: Puzzle, finder: Pathfinder, marks: str) -> Board:
    return finder.board(read_marks(marks, "example", puzzle))


@pytest.mark.parametrize("example", examples(), ids=lambda e: e["technique"])
def test_each_technique_alone_makes_progress_where_it_is_claimed(example: dict[str, str]) -> None:
    puzzle = parse(example["puzzle"])
    truth = truth_of(puzzle)
    assert truth is not None
    name = example["technique"]
    with Pathfinder(puzzle, bifurcation=1) as finder:
        finder.truth = truth  # (what the uniqueness techniques ask)
        board = board_at(puzzle, finder, example["marks"])
        order = [t.name for t, _ in finder.order]
        easier = order[: order.index(name)] if name in order else order
        for technique, find in finder.order:
            if technique.name in easier:  # none easier applies here
                assert find(board) is None, technique.name
        step = finder.next_step(board)
        assert step is not None
        technique = technique_of(step)
        assert name in (technique.name, technique.name.split(",")[0])  # (weighed by its size)
        assert step.name.split(",")[0] == example["step"].split(",")[0]  # (nested: its size)
        assert step.eliminations or step.placements
        made = board.apply(step)  # sound: no true candidate goes
        assert not any(truth[c] & 1 << (v - 1) for c, v in made.eliminations)
        without = Pathfinder(puzzle, levels=())  # and without it (or anything), none
        assert without.next_step(board_at(puzzle, without, example["marks"])) is None


def test_a_naked_single_comes_first() -> None:
    # in pencil marks a lone candidate is a filled cell: a naked single is tested here
    _, found = first_step("12345678." + "." * 72)
    assert found is not None and found.name == "naked single"
    assert found.placements == ((8, 9),)


def test_the_examples_cover_the_techniques() -> None:
    found = {e["technique"] for e in examples()} | {"naked single"}
    rare = {"jellyfish", "hidden quad"}  # need nine open cells in a house: rare in practice
    assert {t.name for t, _ in CLASSIC} - rare <= found
    assert "nested forcing chains" in found


@pytest.mark.slow
def test_bifurcation_comes_only_when_asked_and_says_its_depth() -> None:
    example = next(e for e in examples() if e["technique"] == "nested forcing chains")
    puzzle = parse(example["puzzle"])
    without = {"forcing"}
    with Pathfinder(puzzle, without=without) as finder:
        assert finder.next_step(board_at(puzzle, finder, example["marks"])) is None
    found = logical_path(puzzle, bifurcation=2, without=without)
    guesses = [s for s in found.steps if s.name == "bifurcation"]
    assert guesses and all(s.depth >= 1 and "deep" in s.reason for s in guesses)
    assert found.end == "solved"


# --- sound on many puzzles ---------------------------------------------------


def paths_are_sound(puzzles: list[Puzzle]) -> dict[str, int]:
    """Each puzzle's path, checked step by step against its true candidates (an
    unsound step raises); how the paths ended."""
    ends: dict[str, int] = {}
    for puzzle in puzzles:
        found = logical_path(puzzle)
        ends[found.end] = ends.get(found.end, 0) + 1
        if found.outcome is not None and found.outcome.status == "unique":
            assert found.end in ("solved", "stuck")
    return ends


@pytest.mark.slow
def test_paths_are_sound_on_the_bundled_puzzles() -> None:
    names = ["tdoku-magictour-25.txt", "royle17-25.txt", "hodoku.txt", "explainer.txt"]
    puzzles = [p for n in names for p in read_puzzles(str(PUZZLES / n)) if isinstance(p, Puzzle)]
    ends = paths_are_sound(puzzles)
    assert ends.get("solved", 0) >= 40


def variant_puzzles(count: int) -> list[Puzzle]:
    """Variants with a few givens of a solution: many solutions, so that the true
    candidates are many and a step that removes one of them is caught."""
    from tests.logic.test_levels import puzzles  # the same rules as the levels' soundness check

    return [parse(text) for text in puzzles(count)]


@pytest.mark.slow
def test_paths_are_sound_on_variants_with_many_solutions() -> None:
    ends = paths_are_sound(variant_puzzles(14))
    assert ends.get("stuck", 0) >= 1  # several solutions: logic cannot finish


@pytest.mark.parametrize(
    "takes",
    [
        pytest.param((100, 200, 200), marks=pytest.mark.slow, id="hundreds"),
        pytest.param((300, 600, 600), marks=[pytest.mark.slow, pytest.mark.soak], id="thousands"),
    ],
)
def test_paths_are_sound_on_thousands_of_puzzles(takes: tuple[int, int, int]) -> None:
    puzzles = []
    names = ("puzzles3_magictour_top1465", "puzzles2_17_clue", "puzzles1_unbiased.first1000")
    for name, take in zip(names, takes, strict=True):
        puzzles += list(islice(read_puzzles(str(shared(f"tdoku/{name}"))), take))
    ends = paths_are_sound(puzzles)
    assert sum(ends.values()) == len(puzzles) and ends.get("solved", 0) > 0.95 * len(puzzles)


@pytest.mark.slow
def test_paths_are_sound_on_generated_variants() -> None:
    puzzles = [unique_killer(Layout.boxes(9), random.Random(s), 4)[0] for s in range(8)]
    paths_are_sound(puzzles + variant_puzzles(28))


# --- variant steps ---------------------------------------------------------------


def first_step(text: str, levels: tuple[str, ...] = ("simple", "easy", "intermediate")):  # type: ignore[no-untyped-def]
    puzzle = parse(text)
    with Pathfinder(puzzle, levels=levels) as finder:
        board = finder.board()
        found = finder.next_step(board)
        return board, found


def test_a_rule_alone_says_what_its_cells_may_hold() -> None:
    _, step = first_step("thermo: r1c1 r1c2\n.5" + "." * 79)
    assert step is not None
    technique = technique_of(step)
    assert technique.name == "thermometer bounds" and step.houses == ("thermo r1c1 to r1c2",)
    assert technique.weight == 1.8 and technique.level == "easy"
    assert {v for c, v in step.eliminations if c == 0} == {6, 7, 8, 9}  # 5: the given's


def test_two_rules_on_the_same_cells_say_more_than_each() -> None:
    # a cage of 9 is {1,2,6}, {1,3,5} or {2,3,4}; a renban of three is a run: only
    # together do they say {2,3,4}
    puzzle = parse("cage 9: r1c1 r1c2 r1c3\nrenban: r1c1 r1c2 r1c3\n" + "." * 81)
    with Pathfinder(puzzle, levels=("simple", "easy")) as alone:
        board = alone.board()
        while (found := alone.next_step(board)) is not None:
            board.apply(found)
        assert board.masks[0] == 0b111111  # each rule alone: 1-6
    found = logical_path(puzzle)
    pairs = [s for s in found.steps if s.name == "killer cage and renban line together"]
    assert pairs and {(0, 1), (0, 5), (0, 6)} <= set(pairs[0].eliminations)
    assert pairs[0].houses == ("cage r1c1-r1c3 sum 9", "renban r1c1 to r1c3")
    assert technique_of(pairs[0]).family == "rules together"
    assert len(pairs[0].chains) == len(pairs[0].eliminations)  # each removal's chain


def test_a_cage_s_digits_leave_its_units_as_a_naked_pair() -> None:
    board, found = first_step("cage 3: r1c1 r1c2\n" + "." * 81)
    assert found is not None and technique_of(found).name == "cage combinations"  # 1+2
    assert found.reason == "cage r1c1-r1c2 sum 3: 3 in two cells: 1+2"
    board.apply(found)
    with Pathfinder(parse("cage 3: r1c1 r1c2\n" + "." * 81)) as finder:
        step = finder.next_step(board)
    # the cage leaves {1,2} twice in row 1 and box 1: the naked pair a person sees,
    # named so, not a question over the cage and its units that holds it
    assert step is not None and technique_of(step).name == "naked pair"
    assert {(c, v) for c, v in step.eliminations} >= {(2, 1), (2, 2)}


def test_a_house_with_its_cages_knows_what_they_leave_45_rule() -> None:
    # two cages fill row 1 but r1c9: 45 - 20 - 17 = 8, though neither cage alone
    # (nor with its units) says anything of r1c9
    puzzle = parse("cage 20: r1c1 r1c2 r1c3 r1c4\ncage 17: r1c5 r1c6 r1c7 r1c8\n" + "." * 81)
    with Pathfinder(puzzle) as finder:
        board = finder.board()
        step = finder.next_step(board)
        assert step is not None
        technique = technique_of(step)
    assert technique.name == "45 rule" and technique.weight == 3.2
    assert step.houses == ("cage r1c1-r1c4 sum 20", "cage r1c5-r1c8 sum 17", "row 1")
    assert {v for c, v in step.eliminations if c == 8} == {1, 2, 3, 4, 5, 6, 7, 9}


@pytest.mark.slow
def test_the_miracle_sudoku_is_solved_by_logic_its_break_in_chains_through_its_rules() -> None:
    """No step is one question over the rules and many houses: a question that
    needs four parts or more is a last resort, after the forcing chains through
    the rules, and the Miracle's break-in is such chains, each link named by the
    one rule (with a house, where it needs one) that makes it."""
    puzzle = parse((PUZZLES / "miracle.txt").read_text())
    found = logical_path(puzzle)
    assert found.end == "solved" and len(found.steps) <= 130
    generic = [s for s in found.steps if technique_of(s).family == "rules together"]
    assert all(len(s.houses) < WIDE for s in generic)
    links = [link for _, chains in found.written() for c in chains for link in c.links]
    named = {link.removeprefix("contradiction (").split(" in ")[0].rstrip(")") for link in links}
    assert {"anti-king", "anti-knight", "nonconsecutive"} <= named
    assert "the rules" not in named  # every link through the rules names its rule
    assert max(len(s.eliminations) for s in found.steps) <= MOST_REMOVALS  # none sweeps
    hardest = found.hardest()
    assert hardest is not None and hardest.weight > 3.0


def published_style(index: int) -> Puzzle:
    """One puzzle of puzzles/published-style.links (by its place in the file)."""
    lines = (PUZZLES / "published-style.links").read_text().splitlines()
    return parse([line for line in lines if not line.startswith("#")][index])


@pytest.mark.slow
def test_a_question_of_many_parts_no_chain_says_gives_way_to_nested_chains() -> None:
    """The published-style arrows and little killer puzzle: where a question of four
    parts or more is all the rule questions find and no chain says it (it named
    three rules and five houses), the nested chains through the rules, written
    out link by link, take the step; every wide rule step left is said."""
    found = logical_path(published_style(2))
    assert found.end == "solved"
    wide = [s for s in found.steps if technique_of(s).family == "rules together"]
    wide = [s for s in wide if len(s.houses) >= WIDE]
    assert wide and all(s.chains or " needs " in s.reason or " holds " in s.reason for s in wide)
    assert all(not re.fullmatch(r"(\d )?rules? and \d+ units?", s.name) for s in wide)
    assert any(technique_of(s).name.startswith("nested forcing chains") for s in found.steps)


CAUSE = re.compile(r"(r\d+c\d+)=(\d) rules out")
EITHER_WAY = re.compile(r"(r\d+c\d+) \{(\d+)\} rules out")


@pytest.mark.slow
@pytest.mark.parametrize(
    "text", ["miracle.txt", None, pytest.param("published", marks=pytest.mark.slow)]
)
def test_a_pair_rule_step_names_the_placed_digits_that_cause_it(text: str | None) -> None:
    """Anti-king, anti-knight and nonconsecutive steps name each placed digit that
    causes them, and the cells whose every candidate does, and those account
    for every removal by the rule alone."""
    rules = "anti-knight, nonconsecutive\n"
    if text == "published":  # anti-knight, nonconsecutive, palindromes and kropki dots
        puzzle = published_style(8)
    else:
        puzzle = parse((PUZZLES / text).read_text() if text else rules + "..1" + "." * 78)
    assert puzzle.rules is not None
    by_name = {rule.describe(9): rule for rule in puzzle.rules.constraints}
    found = logical_path(puzzle)
    caused = either = 0
    for step, board in found.boards():
        causes = [(cell_index(name), int(value)) for name, value in CAUSE.findall(step.reason)]
        pencilled = [(cell_index(name), held) for name, held in EITHER_WAY.findall(step.reason)]
        if not causes and not pencilled:
            continue
        caused += 1
        either += bool(pencilled)
        rule = by_name[step.houses[0]]
        assert all(board.placed[cell] == value for cell, value in causes)
        seen = {x for cell, value in causes for x in rule.sees(puzzle.layout, cell, value)}
        for cell, held in pencilled:  # whichever the cell holds, it rules them out
            assert not board.placed[cell] and board.masks[cell] == from_values(map(int, held))
            sets = [set(rule.sees(puzzle.layout, cell, int(v))) for v in held]
            seen |= set.intersection(*sets)
        assert step.eliminations and set(step.eliminations) <= seen
        assert len(step.eliminations) <= MOST_REMOVALS
        assert step.tells_what_is_left  # the causes list the removals
    assert caused >= (1 if text is None else 10)
    if text == "published":
        assert either  # (this path has a cell whose candidates cause a step)


@pytest.mark.slow
def test_an_easy_killer_needs_singles_and_cage_combinations_alone() -> None:
    for seed in range(3):
        puzzle, _ = unique_killer(Layout.boxes(9), random.Random(seed), 4, level=Level.EASY)
        found = logical_path(puzzle)
        assert found.end == "solved"
        assert set(found.counts()) <= {"naked single", "hidden single", "cage combinations"}


def test_a_variants_forcing_chains_follow_its_rules() -> None:
    # r1c3 = 1 leaves a cage of 3 in r1c1-r1c2 only 2s: a contradiction through the
    # cage's clauses that singles alone do not see
    puzzle = parse("cage 3: r1c1 r1c2\n" + "." * 81)
    with Pathfinder(puzzle) as finder:
        board = finder.board()
        assert finder.rule_steps is not None
        assert finder.rule_steps.propagate(board, 2, 1) is None
        assert propagate(board, 2, 1) is not None
        assert finder.rule_steps.propagate(board, 2, 5) is not None
        board.masks[2] = 0b10001  # r1c3 pencilled {1,5}: a branch to follow
        board.changed()
        forcing = [find for t, find in finder.order if t in FORCING_KINDS]
        step = forcing[0](board)
    assert step is not None and step.eliminations == ((2, 1),)
    assert "r1c3=1 leads through the rules to a contradiction" in step.reason


# --- the rating --------------------------------------------------------------------


def test_the_rating_follows_the_hardest_technique() -> None:
    puzzles = islice(read_puzzles(str(PUZZLES / "tdoku-magictour-25.txt")), 6)
    rated = [rate_by_path(p) for p in puzzles if isinstance(p, Puzzle)]
    assert all(r.level == "expert" and r.technique for r in rated)
    easy = rate_by_path(parse((PUZZLES / "kropki-6x6.txt").read_text()))
    assert (easy.level, easy.rating, easy.technique) == ("easy", 2.0, "kropki neighbours")


@pytest.mark.slow
def test_er_ep_ed_are_the_hardest_step_the_hardest_to_a_placement_and_the_first(
    run: Run,
) -> None:
    """``rate`` reports ER, EP and ED as Sudoku Explainer defines them, read off
    the path ``steps`` prints: the heaviest step's weight, the heaviest up to the
    first step that places a digit, and the first step's; a single weighs SE's
    easiest single on its board (1.0 to 2.3)."""
    for line in islice(read_puzzles(str(PUZZLES / "tdoku-magictour-25.txt")), 3):
        assert isinstance(line, Puzzle)
        text = "".join(str(v or ".") for v in line.cells)
        _, out, _ = run("steps", "-f", "json", "-", input=text)
        steps = json.loads(out)["steps"]
        placing = next(i for i, s in enumerate(steps) if s["placements"])
        weights = [technique_of(s).weight for s in logical_path(line).steps]
        _, rated, _ = run("rate", "-f", "jsonl", "-", input=text)
        record = json.loads(rated)
        assert record["er"] == max(weights)  # (a chain: no single is the hardest)
        singles = {"naked single", "hidden single"}
        before = [
            w
            for w, s in zip(weights, steps[:placing], strict=False)
            if s["technique"] not in singles
        ]
        hardest_before = max(before, default=1.0)  # (else the first placement's single)
        if hardest_before > 2.3:
            assert record["ep"] == hardest_before
        else:
            assert 1.0 <= record["ep"] <= 2.3
        assert record["ed"] <= record["ep"] <= record["er"] < record["rating"]
    _, out, err = run("rate", "puzzles/ai-escargot.txt", "-f", "grid")
    assert re.search(r"\(ER \d+\.\d, EP \d+(\.\d)?, ED \d+(\.\d)?\)", out + err), out


@pytest.mark.slow
@pytest.mark.parametrize(
    "index", [0, pytest.param(1, marks=pytest.mark.slow), pytest.param(2, marks=pytest.mark.slow)]
)
def test_ep_and_ed_are_sudoku_explainers_on_its_rated_lists(index: int) -> None:
    """Where SE's ratings of the hardest lists are here: the first puzzles of
    mith's T&E(3) list, whose EP and ED SE puts at 1.2 (a hidden single in a box
    first), get SE's EP and ED (the first in the fast tier: each path takes
    seconds)."""
    rows = [
        line.split("\t")
        for line in shared("se-rated/monhard_te3_dev.tsv").read_text().splitlines()
        if not line.startswith("#")
    ]
    puzzle, _, ep, ed = rows[index]
    explainer = logical_path(parse(puzzle)).explainer()
    assert explainer is not None and explainer[1:] == (float(ep), float(ed))


@pytest.mark.slow
def test_intermediate_ratings_spread_by_technique_and_steps_below_expert() -> None:
    links = [p for p in read_puzzles(str(PUZZLES / "variants.links")) if isinstance(p, Puzzle)]
    jigsaws = [unique_jigsaw_at("intermediate", seed) for seed in range(4)]
    rated = [rate_by_path(p) for p in links + jigsaws]
    middle = [r.rating for r in rated if r.level == "intermediate"]
    assert len(set(middle)) > 1 and all(2.6 <= r <= 3.9 for r in middle)
    assert max(middle) < min(r.rating for r in rated if r.level == "expert")
    assert max(r.rating for r in rated if r.level == "easy") < min(middle)


def unique_jigsaw_at(level: str, seed: int) -> Puzzle:
    return make_variant(seed, Asked(level=level, variant="jigsaw")).puzzle


@pytest.mark.slow
def test_path_ratings_order_tdokus_sets(monkeypatch: pytest.MonkeyPatch) -> None:
    # the path's own rating orders them; SE's search (seconds a hard puzzle) is not asked
    monkeypatch.setattr(explainer, "SEARCH", None)

    def mean(name: str, take: int) -> float:
        puzzles = list(islice(read_puzzles(str(shared(f"tdoku/{name}"))), take))
        return sum(rate_by_path(p).rating for p in puzzles) / len(puzzles)

    clue17 = mean("puzzles2_17_clue", 60)
    magictour = mean("puzzles3_magictour_top1465", 60)
    hardest = mean("puzzles5_forum_hardest_1905_11+", 20)
    assert clue17 < magictour < hardest


@pytest.mark.slow
def test_path_ratings_order_qqwings_levels() -> None:
    if shutil.which("qqwing") is None:
        pytest.skip("qqwing is not installed")
    rated = []
    for rank, level in enumerate(("simple", "easy", "intermediate", "expert")):
        made = subprocess.run(
            ["qqwing", "--generate", "25", "--difficulty", level, "--one-line"],
            capture_output=True,
            text=True,
            check=True,
        )
        rated += [(rank, rate_by_path(parse(line)).rating) for line in made.stdout.split()]
    pairs = [(a, b) for a in rated for b in rated if a[0] < b[0]]
    won = sum(1.0 if a[1] < b[1] else 0.5 if a[1] == b[1] else 0.0 for a, b in pairs)
    assert won / len(pairs) >= 0.95


# --- the command -------------------------------------------------------------------


def test_steps_prints_a_sentence_a_step_and_the_rating(run: Run) -> None:
    code, out, _ = run("steps", "-f", "text", str(PUZZLES / "kropki-6x6.txt"))
    assert code == 0
    lines = out.splitlines()
    assert lines[0].startswith(" 1. kropki neighbours: ")
    assert "solved by logic" in lines[-1] and "level easy" in lines[-1]


@pytest.mark.slow
def test_steps_json_replays_to_the_solution(run: Run) -> None:
    escargot = str(PUZZLES / "ai-escargot.txt")
    code, out, _ = run("steps", "-f", "json", escargot, "--bifurcation", "2")
    record = json.loads(out)
    assert code == 0 and record["end"] == "solved"
    puzzle = parse((PUZZLES / "ai-escargot.txt").read_text())
    candidates = [{v} if v else set(range(1, 10)) for v in puzzle.cells]
    for step in record["steps"]:
        assert step["technique"] and step["reason"]
        for change in step["eliminations"]:
            candidates[cell_index(change["cell"])].discard(int(change["value"]))
        for change in step["placements"]:
            candidates[cell_index(change["cell"])] = {int(change["value"])}
    solution = puzzle_solution(puzzle)
    assert [next(iter(c)) for c in candidates] == solution


def cell_index(name: str) -> int:
    row, col = name[1:].split("c")
    return (int(row) - 1) * 9 + int(col) - 1


def puzzle_solution(puzzle: Puzzle) -> list[int]:

    return list(solve(puzzle).solutions[0])


def test_hint_from_pencil_marks_gives_the_next_step(run: Run, tmp_path: Path) -> None:
    example = next(e for e in examples() if e["technique"] == "X-wing")
    puzzle_file, marks = tmp_path / "p.txt", tmp_path / "marks.txt"
    puzzle_file.write_text(example["puzzle"] + "\n")
    marks.write_text(example["marks"] + "\n")
    code, out, _ = run("steps", "--hint", "--marks", str(marks), "-f", "json", str(puzzle_file))
    record = json.loads(out)
    assert code == 0 and record["end"] == "hint" and len(record["steps"]) == 1
    assert record["steps"][0]["technique"] == "X-wing"


def test_the_bundled_marks_give_escargots_next_step_as_the_help_shows(run: Run) -> None:
    marks, puzzle = str(PUZZLES / "escargot-marks.txt"), str(PUZZLES / "hodoku.txt")
    code, out, _ = run("steps", "--hint", "--marks", marks, "-f", "json", puzzle)
    record = json.loads(out)
    assert code == 0 and record["end"] == "hint" and len(record["steps"]) == 1
    assert record["steps"][0]["technique"] == "finned swordfish"
    assert f"--marks {marks.removeprefix(str(PUZZLES.parent) + '/')}" in run("steps", "--help")[1]


def test_marks_that_rule_out_a_solution_value_are_refused(run: Run, tmp_path: Path) -> None:
    example = next(e for e in examples() if e["technique"] == "X-wing")
    puzzle = parse(example["puzzle"])
    truth = truth_of(puzzle)
    assert truth is not None
    tokens = example["marks"].split()
    cell = next(c for c, t in enumerate(tokens) if len(t) > 1)
    true_value = str(truth[cell].bit_length())
    tokens[cell] = tokens[cell].replace(true_value, "")
    (tmp_path / "marks.txt").write_text(" ".join(tokens))
    (tmp_path / "p.txt").write_text(example["puzzle"])
    code, _, err = run("steps", "--marks", str(tmp_path / "marks.txt"), str(tmp_path / "p.txt"))
    assert code == 2 and "which a solution holds" in err
    (tmp_path / "marks.txt").write_text(" ".join(tokens[:-1]))
    code, _, err = run("steps", "--marks", str(tmp_path / "marks.txt"), str(tmp_path / "p.txt"))
    assert code == 2 and "marks.txt:1:" in err and "expected 81" in err


def test_steps_of_a_puzzle_with_no_solution_and_with_several(run: Run) -> None:
    code, out, _ = run("steps", "-f", "jsonl", str(PUZZLES / "several-solutions.txt"))
    assert code == 1 and json.loads(out)["end"] == "stuck"
    code, out, _ = run("steps", "-f", "line", str(PUZZLES / "no-solution.txt"))
    assert code == 3 and out.split()[0] in ("contradiction", "stuck")


def test_steps_pictures_strike_the_removed_candidates(run: Run) -> None:
    code, out, _ = run("steps", "-f", "svg", "--each-step", str(PUZZLES / "kropki-6x6.txt"))
    assert code == 0 and out.count("<svg") >= 40  # one a step, on one sheet
    assert "#d62728" in out and "#2ca02c" in out  # struck removals, ringed placements


@pytest.mark.slow
def test_rate_by_path_and_by_search(run: Run) -> None:
    path = str(PUZZLES / "tdoku-magictour-25.txt")
    code, out, _ = run("rate", "-f", "jsonl", path)
    records = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and all(r["technique"] and r["level"] == "expert" for r in records)
    code, out, _ = run("rate", "--by", "search", "-f", "jsonl", path)
    records = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and all(r["technique"] is None for r in records)


def test_a_grid_past_36x36_gets_one_line_not_a_path(run: Run) -> None:
    code, _, err = run("steps", "-f", "line", str(PUZZLES / "rkkautsar-64-1.txt"))
    assert code == 2 and "made for grids up to 36x36, not 64x64" in err
    assert err.count("\n") == 1 and "Traceback" not in err


@pytest.mark.slow
def test_the_famous_hardest_are_solved_by_logic_in_explainers_order() -> None:
    # sudoku_acs's "logic-solvable" instances and Inkala's (../shared/puzzles/famous):
    # every one with one solution is solved, the easy ones by what they need, the
    # hardest by nested chains or SE's forcing chains (+) (AI Escargot's longest
    # (+) chain outweighs its nested ones, each with one chain inside), AI
    # Escargot (ER 10.5) rated below Golden Nugget and Platinum Blonde (ER 11.9);
    # the one with several solutions is stuck
    import csv

    rows = list(csv.DictReader(shared("famous/famous.tsv").open(), delimiter="\t"))
    hardest, rating = {}, {}
    for row in rows:
        name = row["name"].removeprefix("sudoku_acs logic-solvable: ").split(" (")[0]
        found = logical_path(parse(row["puzzle"]))
        assert found.end == ("stuck" if name == "sabuncu3" else "solved"), name
        if found.end == "stuck":
            continue
        technique = found.hardest()
        hardest[name] = technique.name.split(",")[0] if technique else ""
        rating[name] = path_rating(found).rating
    chains = {"nested forcing chains", "dynamic contradiction chain (+)"}
    assert {k: v for k, v in hardest.items() if v not in chains} == {
        "sabuncu1": "naked single",
        "sabuncu10": "naked single",
        "sabuncu2": "hidden single",
        "sabuncu4": "naked pair",
        "sabuncu5": "naked single",
        "sabuncu7": "XY-wing",
        "sabuncu8": "hidden single",
        "sabuncu9": "naked pair",
    }
    assert {"Golden Nugget", "Platinum Blonde", "Arto Inkala 2012"} <= {
        k for k, v in hardest.items() if v == "nested forcing chains"
    }
    assert rating["AI Escargot"] < min(rating["Golden Nugget"], rating["Platinum Blonde"])


@pytest.mark.slow
def test_ai_escargot_is_solved_by_nested_chains_each_with_the_fewest_inside() -> None:
    puzzle = parse((PUZZLES / "ai-escargot.txt").read_text())
    found = logical_path(puzzle)
    assert found.end == "solved"
    nested = [s for s in found.steps if s.name.startswith("nested forcing chains")]
    assert nested
    # the first: its chains inside break the branch, and leaving any one out does not
    with Pathfinder(puzzle) as finder:
        board = finder.board()
        for step in found.steps[: found.steps.index(nested[0])]:
            board.apply(step)
        solver = classic_solver(board)
        branches = Branches(board, solver)
        ((cell, value),) = nested[0].eliminations
        x = literal(9, cell, value)
        said = re.findall(r"r(\d)c(\d)=(\d)", nested[0].reason)[1:]
        inside = [-literal(9, (int(r) - 1) * 9 + int(c) - 1, int(v)) for r, c, v in said]
        count = int(nested[0].name.split(", ")[1].split()[0])
        assert len(inside) == min(count, SHOWN)
        if count == len(inside):
            assert branches.holds(x, inside)
            for lit in inside:
                assert not branches.holds(x, [i for i in inside if i != lit])
        solver.delete()


@pytest.mark.slow
def test_the_nested_finder_keeps_the_branches_every_false_candidate_would_give() -> None:
    """On each board where the path of an ER 11.8 puzzle (eleven's list) takes a nested
    step, no technique before the nested chains finds a step (SE's order), and the
    branches followed in step, one removal at a time, are those every false
    candidate's branch followed to its end gives: the TAKEN_APART with fewest
    removals, the first of a length first (or the first with at most one); the
    step needs the fewest chains inside of them, and weighs by the mean of the
    MEAN_OF fewest."""
    rows = shared("se-rated/eleven_dev.tsv").read_text().splitlines()
    line = next(row.split("\t")[0] for row in rows if not row.startswith("#"))
    puzzle = parse(line)
    found = logical_path(puzzle)
    assert found.end == "solved"
    truth = truth_of(puzzle)
    assert truth is not None
    checked = 0
    with Pathfinder(puzzle) as finder:
        finder.truth = truth
        board = finder.board()
        for step in found.steps:
            if step.name.startswith("nested forcing chains") and checked < 3:
                checked += 1
                for technique, find in finder.order:
                    if technique.name not in NESTED:
                        assert find(board) is None, (step.name, technique.name)
                solver = classic_solver(board)
                branches = Branches(board, solver)
                start = branches.follow([])
                assert start is not None
                false = [
                    x
                    for x in branches.open(start)
                    if not truth[cell_value(9, x)[0]] & bit(cell_value(9, x)[1])
                ]
                alone = [(x, r) for x in false if (r := branches.refute(x)) is not None]
                alone.sort(key=lambda kept: len(kept[1]))
                fewest = alone[:1] if len(alone[0][1]) <= 1 else alone[:TAKEN_APART]
                assert _shortest_broken(branches, false) == fewest
                # weighed by the mean chains inside of the MEAN_OF easiest taken apart
                counts = sorted(len(branches.fewest(x, r)) for x, r in fewest)[:MEAN_OF]
                count = int(step.name.split(", ")[1].split()[0])
                assert count == counts[0]
                mean = sum(counts) / len(counts)
                assert step.technique == nested_weight(count, mean=mean)
                solver.delete()
            board.apply(step)
    assert checked == 3


def test_a_classic_nested_step_weighs_by_the_mean_on_its_documented_scale() -> None:
    """docs/reference/techniques.md: a classic nested step weighs 9.1 + 1.08 a doubling
    of the mean chains inside of the easiest branches, from 9.5 to 11.9; a
    variant's weighs by its own count, 9.7 + 0.9 a doubling; the name keeps the
    step's own count."""
    by_mean = {1: 9.5, 2: 10.2, 3: 10.8, 4: 11.3, 6: 11.9, 40: 11.9}
    assert {m: nested_weight(1, mean=m).weight for m in by_mean} == by_mean
    assert nested_weight(2, mean=2.5).name == "nested forcing chains, 2 inside"
    by_count = {1: 9.7, 2: 10.6, 3: 11.1, 4: 11.5, 6: 11.9}
    assert {n: nested_weight(n).weight for n in by_count} == by_count


def test_the_path_of_a_puzzle_with_no_solution_never_ends_solved() -> None:
    puzzle = parse("size 4\ndifference 2: r1c1 r1c2\n.234\n3412\n2143\n4321\n")
    assert solutions_4x4(puzzle) == []
    path = logical_path(puzzle)
    assert path.end == "contradiction"
    assert "white dot 2 r1c1-r1c2" in path.reason


class TimeUpAfter(Pathfinder):
    """A path whose time is up once its searches have asked ``asks`` times: what a
    deadline passing inside a step does, without a clock deciding it."""

    asks = 0

    def past(self) -> bool:
        self.asked = getattr(self, "asked", 0) + 1
        return self.asked > self.asks


@pytest.mark.slow
def test_the_time_limit_stops_a_search_inside_its_step() -> None:
    """AI Escargot's path needs nested chains at step k. The path asks whether its
    time is up once before each step (k + 1 times up to step k), and the nested
    search once before each candidate it tries: with the time up at the search's
    second candidate, the path ends `timeout` with its first k steps, not `stuck`
    and not a step later."""
    puzzle = parse((PUZZLES / "ai-escargot.txt").read_text())
    truth = truth_of(puzzle)
    with Pathfinder(puzzle) as whole:
        full = whole.path(truth)
    k = next(i for i, s in enumerate(full.steps) if s.name.startswith("nested"))
    with TimeUpAfter(puzzle) as finder:
        finder.asks = k + 2
        cut = finder.path(truth, deadline=0.0)
    assert full.end == "solved" and cut.end == "timeout"
    assert cut.reason == f"{k} steps made in the time given"
    assert cut.steps == full.steps[:k]


def test_a_variant_s_rule_questions_stop_when_the_time_is_up() -> None:
    puzzle = parse("cage 9: r1c1 r1c2 r1c3\nrenban: r1c1 r1c2 r1c3\n" + "." * 81)
    with Pathfinder(puzzle) as finder:
        steps = finder.rule_steps
        assert steps is not None
        board = finder.board()
        tier = next(t for t, _ in finder.order if t.name == "rule")
        assert steps.step(board, tier) is not None
        steps.past = lambda: True
        assert steps.step(board, tier) is None


def test_rate_help_says_the_numbers_the_code_rates_by() -> None:
    """`rate --help`'s scale is the code's: each technique named at 1 + its weight,
    the nested chains from 1 + the lightest to 1 + the heaviest, the search above."""
    from click.testing import CliRunner

    from sudosat.cli import cli
    from sudosat.logic.alternating import CHAINS
    from sudosat.logic.forcing import FORCING
    from sudosat.logic.nested import HEAVIEST, LIGHTEST
    from sudosat.logic.rating import INTERMEDIATE_TOP, SEARCH_RATING
    from sudosat.logic.techniques import FISHES, NAKED_SUBSETS, XY_WING

    said = " ".join(CliRunner().invoke(cli, ["rate", "--help"]).output.split())
    for name, technique in (
        ("a pair", NAKED_SUBSETS[2]),
        ("an X-wing", FISHES[2]),
        ("an XY-wing", XY_WING),
        ("an AIC", CHAINS["AIC"]),
        ("forcing chains", FORCING),
    ):
        assert f"{name} {1 + technique.weight:g}" in said
    assert f"nested chains {1 + LIGHTEST:g} to {1 + HEAVIEST:g}" in said
    assert (
        f"below {SEARCH_RATING:g}; where no technique finishes the path, {SEARCH_RATING:g} +"
        in said
    )
    assert f"to {INTERMEDIATE_TOP:g})" in said
