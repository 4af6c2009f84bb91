"""Making and explaining puzzles: generate, rate, explain."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from sudosat import Puzzle, parse, solve
from sudosat.core.notation import DIGITS, HEX
from sudosat.core.puzzle import rule_violations, units, verify
from sudosat.logic import rating as rating_module
from sudosat.logic.rating import rate
from sudosat.making.explain import explain
from sudosat.making.generator import (
    Carving,
    Generated,
    check_minimal,
    digit_swaps,
    generate,
    generator,
    orbits,
)
from sudosat.showing.text import puzzle_line
from tests.conftest import ESCARGOT, KILLERS_16, PUZZLES, SUDOSAT, Run, jsonl, shared

SECOND = "minisat22"
"""A second solver, not the one that made the puzzles, re-checks them."""


def without(puzzle: Puzzle, cells: tuple[int, ...]) -> Puzzle:
    grid = list(puzzle.cells)
    for cell in cells:
        grid[cell] = 0
    return Puzzle(puzzle.rank, tuple(grid), puzzle.alphabet)


def assert_unique_and_minimal(made: Generated, symmetry: str = "none") -> None:
    puzzle = made.puzzle
    again = solve(puzzle, solver=SECOND)
    assert again.status == "unique" and again.solutions == [made.solution]
    given = {cell for cell, _ in puzzle.givens}
    for orbit in orbits(puzzle.rank, symmetry):
        if set(orbit) <= given:  # every set of clues that can go is needed
            assert solve(without(puzzle, orbit), solver=SECOND).status == "multiple", orbit


@pytest.mark.parametrize("seed", range(8))
def test_generated_9x9_is_unique_and_minimal_by_a_second_solver(seed: int) -> None:
    made = generate(seed, alphabet=DIGITS)
    assert 17 <= made.clues <= 35
    assert_unique_and_minimal(made)


def test_generated_4x4_for_every_seed() -> None:
    # Two random diagonal boxes of a 4x4 often complete to no grid (seed 1 did not).
    for seed in range(40):
        assert_unique_and_minimal(generate(seed, rank=2))


@pytest.mark.slow
def test_generated_16x16_is_unique_and_minimal() -> None:
    assert_unique_and_minimal(generate(1, rank=4, alphabet=HEX))


@pytest.mark.parametrize(
    ("seed", "symmetry", "clues"), [(1, "none", None), (2, "rotate180", None), (3, "none", 30)]
)
def test_removal_in_groups_gives_the_one_at_a_time_result(
    seed: int, symmetry: str, clues: int | None
) -> None:
    """The same orbits in the same order, tried one at a time by a second solver."""
    rng = random.Random(seed)
    carving = Carving(generator(3), rng)
    solution = carving.solution
    order = orbits(3, symmetry)
    rng.shuffle(order)
    grid, _ = carving.carve(order, clues)
    carving.checker.delete()
    kept, count = list(solution), 81
    for orbit in order:
        if clues is not None and count - len(orbit) < clues:
            continue
        trial = Puzzle(3, tuple(0 if c in orbit else v for c, v in enumerate(kept)), DIGITS)
        if solve(trial, solver=SECOND).status == "unique":
            kept, count = list(trial.cells), count - len(orbit)
            if count == clues:
                break
    assert grid == tuple(kept)


def test_digit_swaps_are_second_grids_that_every_puzzle_must_hit() -> None:
    made = generate(5, alphabet=DIGITS)
    swaps = digit_swaps(3, made.solution)
    assert len(swaps) >= 36  # at least one closed set per pair of values
    for other, mask in swaps:
        changed = {cell for cell in range(81) if mask >> cell & 1}
        assert changed == {c for c in range(81) if other[c] != made.solution[c]}
        assert not rule_violations(3, other)  # a valid grid ...
        assert changed & {cell for cell, _ in made.puzzle.givens}  # ... the puzzle rules out


def test_the_minimality_check_takes_real_witnesses_and_refuses_others() -> None:
    rng = random.Random(6)
    carving = Carving(generator(3), rng)
    solution = carving.solution
    order = orbits(3, "none")
    rng.shuffle(order)
    grid, witnesses = carving.carve(order, None)
    carving.checker.delete()
    puzzle = Puzzle(3, grid, DIGITS)
    check_minimal(puzzle, solution, witnesses, True)
    orbits_kept, seconds = list(witnesses), list(witnesses.values())
    swapped = dict(zip(orbits_kept, seconds[1:] + seconds[:1], strict=True))
    with pytest.raises(AssertionError):  # each changes another orbit's clue
        check_minimal(puzzle, solution, swapped, True)
    with pytest.raises(AssertionError):  # the solution itself is no second solution
        check_minimal(puzzle, solution, dict.fromkeys(orbits_kept, solution), True)
    with pytest.raises(AssertionError):  # a clue without a witness
        check_minimal(puzzle, solution, dict(list(witnesses.items())[1:]), True)


@pytest.mark.parametrize("symmetry", ["rotate180", "rotate90", "mirror", "diagonal"])
def test_symmetry_holds_and_no_symmetric_set_of_clues_can_go(symmetry: str) -> None:
    made = generate(3, symmetry=symmetry, alphabet=DIGITS)
    given = {cell for cell, _ in made.puzzle.givens}
    for orbit in orbits(3, symmetry):
        assert set(orbit) <= given or not set(orbit) & given  # all of an orbit, or none
    assert_unique_and_minimal(made, symmetry)


def test_orbits_are_the_symmetries_images() -> None:
    assert (0, 80) in orbits(3, "rotate180") and (0, 8, 72, 80) in orbits(3, "rotate90")
    assert (0, 8) in orbits(3, "mirror") and (1, 9) in orbits(3, "diagonal")
    assert all(len(o) == 1 for o in orbits(3, "none"))


def test_exact_clue_count_stays_unique() -> None:
    made = generate(11, clues=30, alphabet=DIGITS)
    assert made.clues == 30
    assert solve(made.puzzle, solver=SECOND).status == "unique"


@pytest.mark.slow
def test_same_seed_same_puzzles_across_runs_and_jobs(run: Run) -> None:
    assert generate(21, alphabet=DIGITS) == generate(21, alphabet=DIGITS)
    code, one, _ = run("generate", "--seed", "40", "--puzzles", "40", "-f", "jsonl")
    again = run("generate", "--seed", "40", "--puzzles", "40", "-f", "jsonl", "-j", "2")[1]
    assert code == 0 and one == again
    records = jsonl(one)
    assert [r["seed"] for r in records] == list(range(40, 80))
    single = jsonl(run("generate", "--seed", "57", "-f", "jsonl")[1])[0]
    assert single == records[17]  # puzzle i is made from seed + i alone
    assert len({r["puzzle"] for r in records}) == 40


def test_level_filter_and_output_formats(run: Run) -> None:
    code, out, _ = run(
        "generate", "--seed", "5", "--puzzles", "3", "--level", "intermediate", "-f", "jsonl"
    )
    records = jsonl(out)
    assert code == 0 and {r["level"] for r in records} == {"intermediate"}
    for record in records:
        assert rate(parse(str(record["puzzle"]))).level == "intermediate"
    _, out, _ = run("generate", "--seed", "5", "--puzzles", "2", "-f", "csv")
    assert out.splitlines()[0] == "puzzle,solution,clues,seed,rating,level"
    _, out, err = run("generate", "-f", "line")
    assert len(out.strip()) == 81 and err.startswith("seed: ")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--clues", "5"], "no puzzle with 5 clues"),
        (["--rank", "4", "--clues", "300"], "a 16x16 grid has 256 cells"),
        (["--symmetry", "spiral"], "'spiral' is not one of"),
        (["--level", "fiendish"], "'fiendish' is not one of"),
        (["--rank", "9"], "9 is not in the range"),
        (["--alphabet", "ABC"], "an alphabet of 9 distinct symbols"),
    ],
)
def test_bad_generate_options_exit_2_in_one_line(run: Run, args: list[str], message: str) -> None:
    code, out, err = run("generate", "--seed", "1", *args)
    assert code == 2 and out == "" and message in err
    assert "Traceback" not in err and err.startswith("sudosat generate: ") and err.count("\n") == 1


@pytest.mark.slow
def test_rating_levels_are_the_hardest_technique_of_the_path() -> None:
    assert rate(parse(ESCARGOT)).level == "expert"
    made = generate(4, symmetry="rotate180", level="intermediate", alphabet=DIGITS)
    found = rate(made.puzzle)
    assert found == made.rating and found.technique == "locked candidates"
    assert 2.6 <= found.rating <= 3.9


@pytest.mark.slow
def test_rate_command_adds_level_and_rating(run: Run) -> None:
    code, out, _ = run("rate", "-f", "jsonl", str(PUZZLES / "tdoku-magictour-25.txt"))
    records = jsonl(out)
    assert code == 0 and len(records) == 25
    assert all(r["level"] in ("intermediate", "expert") and r["rating"] >= 3 for r in records)
    code, out, _ = run("rate", str(PUZZLES / "several-solutions.txt"))
    assert (code, out.strip()) == (1, "multiple")  # only unique puzzles are rated


def test_conflict_is_a_minimal_set_of_clues_that_cannot_all_hold() -> None:
    puzzle = parse((PUZZLES / "rexl-partial.txt").read_text())
    found = explain(puzzle)
    assert found.conflict
    n = puzzle.size

    def only(clues: list[tuple[int, int]]) -> Puzzle:
        grid = [0] * (n * n)
        for cell, value in clues:
            grid[cell] = value
        return Puzzle(puzzle.rank, tuple(grid), puzzle.alphabet)

    assert solve(only(found.conflict), solver=SECOND).status == "none"
    for clue in found.conflict:  # each one is needed
        rest = [c for c in found.conflict if c != clue]
        assert solve(only(rest), solver=SECOND, max_solutions=1).status == "solved"
    assert found.fewest_removed == 1


def test_best_fill_is_seed_002s_79_cells() -> None:
    puzzle = parse((PUZZLES / "rexl-partial.txt").read_text())
    found = explain(puzzle)
    fill = found.best_fill
    assert fill is not None and found.filled == 79
    assert all(fill[cell] == v for cell, v in puzzle.givens)
    for unit in units(3):
        values = [fill[cell] for cell in unit if fill[cell]]
        assert len(values) == len(set(values))


@pytest.mark.slow
def test_explain_several_solutions_and_clashes(run: Run) -> None:
    puzzle = parse((PUZZLES / "several-solutions.txt").read_text())
    found = explain(puzzle)
    assert found.differ and found.add
    grid = list(puzzle.cells)
    for cell, value in found.add:
        grid[cell] = value
    assert solve(Puzzle(3, tuple(grid), DIGITS), solver=SECOND).status == "unique"
    code, out, _ = run("explain", "-f", "json", str(PUZZLES / "clashing-clues.txt"))
    data = json.loads(out)
    assert code == 3 and data["clashes"] and data["best_fill"] is None
    assert all("=" in clue for clue in data["conflict"])
    code, out, _ = run("explain", "-f", "json", str(PUZZLES / "ai-escargot.txt"))
    assert code == 0 and json.loads(out)["level"] == "expert"
    code, _, err = run("explain", "no/such/file.txt")
    assert code == 2 and "no such file" in err


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


def test_explain_default_budget_is_the_documented_one() -> None:
    from sudosat.making.explain import BUDGET

    done = subprocess.run([str(SUDOSAT), "explain", "--help"], capture_output=True, text=True)
    assert f"have {BUDGET:g} s together" in " ".join(done.stdout.split())


BIG = str(PUZZLES / "rkkautsar-64-1.txt")  # a 64x64 with several solutions: 15-25 s of search


# --- --timeout on explain and rate, --time-limit on generate -------------------------------


def finished(*args: str) -> subprocess.CompletedProcess[str]:
    """The installed command run to its end in a real process."""
    return subprocess.run([str(SUDOSAT), *args], capture_output=True, text=True, timeout=300)


@pytest.mark.slow
def test_explain_timeout_keeps_what_it_found_and_names_what_ran_out(tmp_path: Path) -> None:
    empty = tmp_path / "empty36.txt"  # several solutions at once; hundreds of clues to add
    empty.write_text("." * 1296 + "\n")
    done = finished("explain", "--format", "json", "--timeout", "2", str(empty))
    assert done.returncode == 5, done.stderr
    found = json.loads(done.stdout)
    assert found["status"] == "multiple" and found["differ"] and found["add"] is None
    assert found["timed_out"] == ["add"]
    done = finished("explain", "--format", "json", "--timeout", "1", BIG)
    found = json.loads(done.stdout)
    assert done.returncode == 5 and found["status"] == "timeout"
    assert found["timed_out"] == ["solve"]
    done = finished("explain", "--format", "text", "--timeout", "1", BIG)
    assert done.returncode == 5 and "ran out of time: solve" in done.stdout


@pytest.mark.slow
def test_rate_timeout_is_per_puzzle_and_the_run_goes_on(tmp_path: Path) -> None:
    """Three 64x64s whose search takes 15-25 s each, with --timeout 2: each gets a
    record of its own that ran its own two seconds (a timeout of the whole run
    would give the second and third none). No deadline decides it: load only
    makes each search longer still."""
    big = Path(BIG).read_text()
    path = tmp_path / "three.txt"
    path.write_text(big + "\n" + big + "\n" + big)
    done = finished("rate", "--format", "jsonl", "--timeout", "2", "-q", str(path))
    records = [json.loads(line) for line in done.stdout.splitlines()]
    assert done.returncode == 5, done.stderr
    assert [r["status"] for r in records] == ["timeout"] * 3
    assert all(r["time"] >= 2 and r["level"] is None for r in records), records


@pytest.mark.slow
def test_rate_timeout_while_rating(tmp_path: Path) -> None:
    hard = shared("large/gecode/gecode_25x25.chars.txt").read_text().splitlines()[8]  # 13 s
    path = tmp_path / "hard.txt"
    path.write_text(hard + "\n")
    done = finished("rate", "--format", "jsonl", "--timeout", "1", str(path))
    record = json.loads(done.stdout)
    assert done.returncode == 5 and record["status"] == "timeout" and record["rating"] is None


@pytest.mark.slow
def test_generate_timeout_prints_whole_puzzles_in_seed_order() -> None:
    done = finished(
        "generate", "--rank", "4", "--puzzles", "2000", "--seed", "3", "--time-limit", "2"
    )
    assert done.returncode == 5, done.stderr
    made = done.stdout.splitlines()
    assert len(made) < 2000 and "timeout: made" in done.stderr
    if made:  # the same puzzles as a run asked for just as many
        again = finished("generate", "--rank", "4", "--puzzles", str(len(made)), "--seed", "3")
        assert again.stdout.splitlines() == made
        for line in made:
            assert len(line) == 256


@pytest.mark.slow
def test_generate_timeout_with_workers() -> None:
    done = finished(
        "generate",
        "--rank",
        "4",
        "--puzzles",
        "2000",
        "--seed",
        "3",
        "--time-limit",
        "2",
        "-j",
        "2",
    )
    assert done.returncode == 5, done.stderr
    made = done.stdout.splitlines()
    if made:
        again = finished("generate", "--rank", "4", "--puzzles", str(len(made)), "--seed", "3")
        assert again.stdout.splitlines() == made


@pytest.mark.slow
def test_generate_level_takes_everyday_names() -> None:
    done = finished("generate", "--seed", "5", "--level", "medium", "--format", "jsonl")
    assert done.returncode == 0 and json.loads(done.stdout)["level"] == "intermediate"
    done = finished("generate", "--seed", "5", "--level", "hard", "--format", "jsonl")
    assert done.returncode == 0 and json.loads(done.stdout)["level"] == "expert"
    said = " ".join(finished("generate", "--help").stdout.split())
    assert "medium is intermediate, hard is expert" in said


@pytest.mark.slow
def test_explain_text_has_no_colour_codes(tmp_path: Path) -> None:
    for path in ("rexl-partial.txt", "several-solutions.txt", "ai-escargot.txt"):
        done = subprocess.run(
            [str(SUDOSAT), "explain", "--format", "text", "--color", str(PUZZLES / path)],
            capture_output=True,
            text=True,
            env={**os.environ, "FORCE_COLOR": "1"},
            timeout=120,
        )
        assert done.returncode in (0, 1, 3), done.stderr
        assert "\x1b[" not in done.stdout and done.stdout.strip()
    text = finished("explain", "--format", "text", str(PUZZLES / "rexl-partial.txt")).stdout
    assert "these clues cannot all hold: r1c5=2, r2c9=2, r3c1=3, r3c2=5, r3c3=8" in text
    assert "best fill: 79 of 81 cells" in text


@pytest.mark.slow
def test_explain_reads_many_puzzles_one_record_each(tmp_path: Path) -> None:
    many = tmp_path / "many.txt"
    lines = [(PUZZLES / name).read_text().strip() for name in ("several-solutions.txt",)]
    many.write_text("\n".join([lines[0], "not a puzzle at all", lines[0]]) + "\n")
    done = finished("explain", "--format", "jsonl", "-q", str(many))
    records = [json.loads(line) for line in done.stdout.splitlines()]
    assert [r["status"] for r in records] == ["multiple", "error", "multiple"]
    assert done.returncode == 2


# --- explain in bounded memory ---------------------------------------------------


@pytest.mark.slow
def test_explain_of_a_64x64_stays_under_a_gigabyte() -> None:
    # the peak of the whole run (every process of it), read by a parent that waits for it
    code = (
        "import resource, subprocess, sys\n"
        "done = subprocess.run(sys.argv[1:], capture_output=True)\n"
        "print(done.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, str(SUDOSAT), "explain", "--timeout", "8", BIG],
        capture_output=True,
        text=True,
        timeout=300,
    )
    returned, peak_kb = map(int, done.stdout.split())
    assert returned == 5  # cleanly timed out
    assert peak_kb < 1024 * 1024, f"{peak_kb / 1024:.0f} MB"


@pytest.mark.slow
def test_clues_to_add_make_the_puzzle_unique() -> None:
    puzzle = parse((PUZZLES / "several-solutions.txt").read_text())
    found = explain(puzzle)
    assert found.add is not None and found.differ
    cells = list(puzzle.cells)
    for cell, value in found.add:
        cells[cell] = value
    fixed = solve(replace(puzzle, cells=tuple(cells)))
    assert fixed.status == "unique" and not verify(puzzle, fixed.solutions[0])


def test_an_output_without_ratings_makes_none(run: Run, monkeypatch: pytest.MonkeyPatch) -> None:
    # a line (or grid) a puzzle shows no rating: the puzzles are the same, unrated;
    # jsonl rates each by its path
    code, out, _ = run("generate", "--seed", "5", "--puzzles", "3", "-f", "jsonl")
    rated = jsonl(out)
    assert code == 0 and all(r["level"] and r["rating"] for r in rated)

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("rated")

    monkeypatch.setattr(rating_module, "rate_by_path", refuse)
    code, out, _ = run("generate", "--seed", "5", "--puzzles", "3", "-f", "line")
    assert code == 0 and out.split() == [r["puzzle"] for r in rated]
    made = generate(5, alphabet=DIGITS, rated=False)
    assert made.rating is None and puzzle_line(made.puzzle) == rated[0]["puzzle"]
    with pytest.raises(AssertionError, match="rated"):
        run("generate", "--seed", "5", "-f", "csv")


def test_a_generated_grid_past_16x16_is_rated_by_search_unless_a_level_is_asked(
    run: Run,
) -> None:
    # its path could take tens of seconds (a 25x25's nested chains): the search's
    # effort, no level; a level asked for is the path's
    code, out, _ = run("generate", "--rank", "5", "--seed", "1", "--clues", "450", "-f", "jsonl")
    made = jsonl(out)[0]
    assert code == 0 and made["level"] is None and made["rating"] >= 0
    code, out, _ = run(
        "generate",
        "--rank",
        "5",
        "--seed",
        "1",
        "--clues",
        "450",
        "--level",
        "simple",
        "-f",
        "jsonl",
    )
    assert code == 0 and jsonl(out)[0]["level"] == "simple"
