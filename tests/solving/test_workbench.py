"""The setter's workbench: true candidates, counts per candidate, estimates of the
number of solutions, and the clues and rules that do no work.

Candidates and counts are checked against brute force on 4x4 (every one of the
288 grids, variant rules by their own checks) and 6x6 (a plain backtracking
search, independent of the encoding), and on 9x9 against a second solver;
estimates against the known numbers of complete grids."""

from __future__ import annotations

import json
import math
import random
import subprocess
import sys
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace
from pathlib import Path

import lzstring
import pytest

from sudosat import InputError, Puzzle, candidates, estimate, explain, parse, solve
from sudosat.core.puzzle import Grid, Layout, verify
from sudosat.reading.ruletext import apply, from_option
from sudosat.rules import BY_WORD
from sudosat.solving import candidates as candidates_module
from sudosat.solving.estimate import EXACT_LIMIT
from tests.conftest import PUZZLES, Run, traded_jigsaw
from tests.rules.test_brute import every_grid, puzzle_text

GRIDS_6X6 = 28_200_960
RULE_KINDS = sorted(
    {kind for kind in BY_WORD.values() if kind.__module__.startswith("sudosat.rules")},
    key=lambda kind: kind.__name__,
)
GRIDS_9X9 = 6_670_903_752_021_072_936_960


def read(path: str) -> str:
    return Path(path).read_text()


def brute_marks(puzzle: Puzzle, grids: list[Grid]) -> tuple[tuple[int, ...], ...]:
    n = puzzle.size
    return tuple(tuple(sorted({g[cell] for g in grids})) for cell in range(n * n))


def solutions_4x4(puzzle: Puzzle) -> list[Grid]:
    rules = puzzle.rules
    return [
        grid
        for grid in every_grid()
        if all(grid[c] == v for c, v in puzzle.givens)
        and (rules is None or not rules.violations(grid))
    ]


def solutions_by_backtracking(puzzle: Puzzle) -> list[Grid]:
    """Every solution: cells in order, each value its row, column and box allow,
    variant rules checked on the full grid by their own checks (a 4x4 or a 6x6
    with a few givens: a few thousand grids at most)."""
    n = puzzle.size
    layout = Layout.boxes(n)
    rows, cols, boxes = layout.unit_index
    used = [[set[int]() for _ in range(n)] for _ in range(3)]
    grid = list(puzzle.cells)
    for cell, value in puzzle.givens:
        for kind, index in enumerate((rows[cell], cols[cell], boxes[cell])):
            used[kind][index].add(value)
    found: list[Grid] = []

    def place(cell: int) -> None:
        if cell == n * n:
            done = tuple(grid)
            if layout.violations(done):  # givens that clash are never checked on the way
                return
            if puzzle.rules is None or not puzzle.rules.violations(done):
                found.append(done)
            return
        if puzzle.cells[cell]:
            place(cell + 1)
            return
        units = (rows[cell], cols[cell], boxes[cell])
        for value in range(1, n + 1):
            if any(value in used[kind][index] for kind, index in enumerate(units)):
                continue
            for kind, index in enumerate(units):
                used[kind][index].add(value)
            grid[cell] = value
            place(cell + 1)
            for kind, index in enumerate(units):
                used[kind][index].discard(value)
        grid[cell] = 0

    place(0)
    return found


def expected_status(count: int) -> str:
    return "none" if count == 0 else "unique" if count == 1 else "multiple"


def check_against(puzzle: Puzzle, grids: list[Grid], limit: int = 10_000) -> None:
    """Candidates, their status and every per-candidate count as brute force says."""
    found = candidates(puzzle, count_each=limit)
    assert str(found.outcome.status) == expected_status(len(grids))
    if not grids:
        assert not any(found.marks) and found.conflict
        return
    assert found.marks == brute_marks(puzzle, grids)
    tally = Counter((cell, g[cell]) for g in grids for cell in range(puzzle.size**2))
    several = {cell for cell, values in enumerate(found.marks) if len(values) > 1}
    assert {key[0] for key in found.counts} == several
    for key, count in found.counts.items():
        if tally[key] >= limit:  # counted up to the limit: a lower bound
            assert int(count) == limit and (not count.complete or tally[key] == limit)
        else:
            assert count.complete and int(count) == tally[key]
    for grid in found.outcome.solutions:
        assert grid in grids


# --- true candidates ---------------------------------------------------------------


@pytest.mark.parametrize("seed", range(0, 240, 6))
def test_candidates_of_4x4_variants_are_those_of_every_solution(seed: int) -> None:
    try:
        puzzle = parse(puzzle_text(seed))
    except InputError:
        pytest.skip("refused when read (its own tests say how)")
    check_against(puzzle, solutions_by_backtracking(puzzle))


@pytest.mark.slow
@pytest.mark.parametrize("block", range(5))
def test_candidates_of_many_more_4x4_variants(block: int) -> None:
    for seed in range(block * 48 + 1, block * 48 + 48, 2):
        try:
            puzzle = parse(puzzle_text(seed))
        except InputError:
            continue
        check_against(puzzle, solutions_4x4(puzzle), limit=3)  # counts cut at 3


def six_by_six(seed: int, blanks: int, rules: str = "") -> Puzzle:
    """A 6x6 with ``blanks`` cells of a random grid left out."""
    rng = random.Random(seed)
    full = solve(parse("size 6\n" + "......\n" * 6), max_solutions=1).solutions[0]
    symbols = rng.sample(range(1, 7), 6)  # relabel: another grid of the same shape
    grid = [symbols[v - 1] for v in full]
    for cell in rng.sample(range(36), blanks):
        grid[cell] = 0
    rows = ["".join(str(v or ".") for v in grid[r * 6 : r * 6 + 6]) for r in range(6)]
    return parse("\n".join(["size 6", *([rules] if rules else []), *rows]) + "\n")


@pytest.mark.parametrize(
    ("seed", "blanks", "rules"),
    [(1, 20, ""), (2, 24, ""), (3, 22, "anti-king"), (4, 24, "thermo: r1c1 r2c2 r3c3")],
)
def test_candidates_of_6x6_match_backtracking(seed: int, blanks: int, rules: str) -> None:
    puzzle = six_by_six(seed, blanks, rules)
    check_against(puzzle, solutions_by_backtracking(puzzle))


def test_candidates_of_9x9_agree_with_a_second_solver() -> None:
    puzzle = parse(read("puzzles/several-solutions.txt"))
    every = solve(puzzle, solver="glucose4", max_solutions=1000)
    assert every.exhausted
    check_against(puzzle, every.solutions)


@pytest.mark.slow
def test_candidates_of_a_killer_with_half_its_cages_agree_with_a_second_solver() -> None:
    lines = [
        line for line in read("puzzles/killer.txt").splitlines(True) if line.startswith("cage")
    ]
    puzzle = parse("".join(lines[::2]))
    every = solve(puzzle, solver="glucose4", max_solutions=5000)
    assert every.exhausted and len(every.solutions) > 1000
    found = candidates(puzzle)
    assert found.marks == brute_marks(puzzle, every.solutions)
    assert found.witnesses < len(every.solutions) / 10  # each solution marks many


def test_a_unique_puzzles_candidates_are_its_solution() -> None:
    puzzle = parse(read("puzzles/ai-escargot.txt"))
    found = candidates(puzzle)
    assert found.unique and found.witnesses == 1
    assert [values[0] for values in found.marks] == list(solve(puzzle).solutions[0])
    assert all(len(values) == 1 for values in found.marks)
    # a solution, then no solution holding any other value: two solves (asking for
    # many values a solve starts only once a second solution is found)
    assert found.outcome.stats.solves == 2


def test_no_solution_names_the_conflict() -> None:
    found = candidates(parse(read("puzzles/clashing-clues.txt")))
    assert str(found.outcome.status) == "none" and not any(found.marks)
    assert found.conflict == [(0, 5), (19, 5)]
    killer = parse("cage 4: r1c1 r1c2\n" + "12.......\n" + ("." * 9 + "\n") * 8)
    found = candidates(killer)
    assert str(found.outcome.status) == "none" and found.conflict


@pytest.mark.parametrize(
    "path",
    ["puzzles/hex-16x16.txt", pytest.param("puzzles/rank5-25x25.txt", marks=pytest.mark.slow)],
)
def test_candidates_of_big_grids_with_givens_removed(path: str) -> None:
    alphabet = "hex" if "hex" in path else None
    puzzle = parse(read(path), alphabet=alphabet)
    rng = random.Random(5)
    cells = list(puzzle.cells)
    for cell in rng.sample([c for c, v in enumerate(cells) if v], 6):
        cells[cell] = 0
    loose = replace(puzzle, cells=tuple(cells))
    found = candidates(loose)
    solution = solve(puzzle).solutions[0]
    assert all(solution[c] in values for c, values in enumerate(found.marks))
    for cell in found.open_cells()[:3]:  # each shown candidate has a solution
        for value in found.marks[cell]:
            fixed = list(loose.cells)
            fixed[cell] = value
            assert solve(replace(loose, cells=tuple(fixed)), max_solutions=1).solutions


def renamed(grid: Grid, names: list[int]) -> Grid:
    return tuple(names[v - 1] for v in grid)


@pytest.mark.parametrize("rank", [3, 6])
def test_a_blank_grid_has_every_candidate_from_one_solve(rank: int) -> None:
    """Every rule relabels and no value is given: one solve, its renamed copies
    (each checked) mark the rest (a blank 36x36 took 93 solves)."""
    found = candidates(Puzzle.empty(rank))
    n = rank * rank
    assert found.marks == tuple(tuple(range(1, n + 1)) for _ in range(n * n))
    assert found.outcome.stats.solves == 1 and found.witnesses == n
    assert all(not verify(Puzzle.empty(rank), grid) for grid in found.found)


@pytest.mark.parametrize(
    "rules", ["anti-knight", "diagonals", "disjoint-groups", "cage: r1c1 r2c2 r3c3"]
)
def test_renaming_the_free_values_keeps_the_candidates_true(
    rules: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A few givens and rules that hold when digits are renamed: the candidates are
    those found with no renaming, each witness checked (a given's value is never
    renamed)."""
    puzzle = parse(rules + "\n1.......2" + "." * 45 + "..3......" + "." * 18 + "\n")
    assert puzzle.rules is not None and all(r.relabels() for r in puzzle.rules.constraints)
    found = candidates(puzzle)
    assert found.marks[0] == (1,) and found.marks[8] == (2,)
    assert all(not verify(puzzle, grid) for grid in found.found)
    monkeypatch.setattr(candidates_module, "_free_values", lambda puzzle: ())
    alone = candidates(puzzle)
    assert alone.witnesses <= alone.outcome.stats.solves  # a solve each at most
    assert found.marks == alone.marks
    assert found.outcome.stats.solves < alone.outcome.stats.solves  # copies were taken


def test_earlier_witnesses_renamed_to_the_new_givens_save_solves() -> None:
    """Givens typed one at a time on a 16x16, each answer starting from the last
    one's witnesses (as the server starts): they are renamed to agree with the
    new givens, so fewer solves find the same candidates as a start from nothing."""
    cells = [0] * 256
    earlier = candidates(Puzzle.empty(4), solver="auto").found
    reused = alone = 0
    for cell, value in ((0, 1), (17, 2), (100, 3), (200, 1), (55, 4)):
        cells[cell] = value
        puzzle = Puzzle(4, tuple(cells))
        found = candidates(puzzle, solver="auto", maybe=earlier)
        fresh = candidates(puzzle, solver="auto")
        assert found.marks == fresh.marks
        assert all(not verify(puzzle, grid) for grid in found.found)
        reused += found.outcome.stats.solves
        alone += fresh.outcome.stats.solves
        earlier = found.found[:64]
    assert reused < 0.75 * alone, (reused, alone)  # 71 and 127 solves when written


@pytest.mark.parametrize("kind", RULE_KINDS, ids=lambda kind: kind.__name__)
def test_a_rule_that_says_it_relabels_holds_with_the_digits_renamed(kind: type) -> None:
    """Each kind's example: when its rules say they relabel, every renaming of a few
    of its solutions keeps them (one that does not may say so: it is never
    renamed)."""
    puzzle = apply(Puzzle.empty(3), (from_option(kind.example),))
    assert puzzle.rules is not None
    if not all(rule.relabels() for rule in puzzle.rules.constraints):
        pytest.skip(f"{kind.__name__}: does not relabel")
    rng = random.Random(kind.__name__)
    for grid in solve(puzzle, max_solutions=3).solutions:
        for _ in range(20):
            names = rng.sample(range(1, 10), 9)
            assert not puzzle.rules.violations(renamed(grid, names)), names


# --- estimates ----------------------------------------------------------------------


def empty(size: int) -> Puzzle:
    head = "size 6\n" if size == 6 else ""
    return parse(head + ("." * size + "\n") * size)


def test_small_counts_are_exact() -> None:
    assert estimate(empty(4)).exact and estimate(empty(4)).estimate == 288
    seven = estimate(parse(read("puzzles/several-solutions.txt")))
    assert seven.exact and seven.estimate == 7 and seven.method == "exact"
    assert estimate(parse(read("puzzles/no-solution.txt"))).estimate == 0


@pytest.mark.slow
def test_the_6x6_grids_lie_in_the_interval() -> None:
    found = estimate(empty(6))
    assert not found.exact and found.low <= GRIDS_6X6 <= found.high
    assert found.high - found.low <= 2 * found.epsilon * found.estimate * 1.0001
    assert found.low >= EXACT_LIMIT


@pytest.mark.slow
def test_the_9x9_grids_lie_in_the_interval() -> None:
    found = estimate(empty(9), epsilon=0.4)
    assert found.converged and found.low <= GRIDS_9X9 <= found.high
    box = parse("123......\n456......\n789......\n" + ("." * 9 + "\n") * 6)
    boxed = estimate(box, seed=3, epsilon=0.4)
    assert boxed.low <= GRIDS_9X9 // math.factorial(9) <= boxed.high


@pytest.mark.slow
def test_an_estimate_is_repeatable_and_seeded() -> None:
    assert estimate(empty(6), seed=4).estimate == estimate(empty(6), seed=4).estimate
    assert estimate(empty(6), seed=4).estimate != estimate(empty(6), seed=5).estimate


@pytest.mark.slow
def test_approxmc_holds_its_bound_on_a_killer() -> None:
    lines = [
        line for line in read("puzzles/killer.txt").splitlines(True) if line.startswith("cage")
    ]
    puzzle = parse("".join(lines[::2]))
    exact = len(solve(puzzle, solver="glucose4", max_solutions=5000).solutions)
    found = estimate(puzzle, method="approxmc", epsilon=0.8, delta=0.2)
    assert found.method == "approxmc" and found.low <= exact <= found.high


def test_bad_estimate_arguments_are_refused() -> None:
    with pytest.raises(ValueError):
        estimate(empty(4), epsilon=0)
    with pytest.raises(ValueError):
        estimate(empty(4), method="guess")
    with pytest.raises(ValueError):
        candidates(empty(4), count_each=0)


# --- clues that do no work --------------------------------------------------------------


def test_redundant_clues_can_each_go_and_the_minimal_set_keeps_it_unique() -> None:
    escargot = parse(read("puzzles/ai-escargot.txt"))
    solution = solve(escargot).solutions[0]
    extra = [c for c, v in enumerate(escargot.cells) if not v][:2]
    cells = list(escargot.cells)
    for cell in extra:
        cells[cell] = solution[cell]
    padded = replace(escargot, cells=tuple(cells))
    found = explain(padded)
    assert found.redundant is not None and found.minimal is not None
    assert {cell for cell, _ in found.redundant} >= set(extra)
    for cell, _ in found.redundant:  # each alone can go
        assert solve(without(padded, {cell}), solver="glucose4").unique
    kept = {cell for cell, _ in found.minimal}
    rest = without(padded, set(range(81)) - kept)
    assert solve(rest, solver="glucose4").unique
    for cell in kept:  # and none of the minimal set can
        assert not solve(without(rest, {cell}), solver="glucose4").unique


def without(puzzle: Puzzle, cells: set[int]) -> Puzzle:
    return replace(puzzle, cells=tuple(0 if c in cells else v for c, v in enumerate(puzzle.cells)))


def test_a_killers_redundant_cages_each_can_go() -> None:
    killer = parse(read("puzzles/killer.txt"))
    found = explain(killer)
    assert found.redundant and found.minimal
    assert killer.rules is not None
    constraints = killer.rules.constraints
    for cage in found.redundant[:4]:
        kept = [rule for rule in constraints if rule != cage]
        assert solve(replace(killer, rules=replace(killer.rules, constraints=kept))).unique
    kept = [rule for rule in constraints if rule in found.minimal]
    assert solve(replace(killer, rules=replace(killer.rules, constraints=kept))).unique
    assert len(kept) < len(constraints)


# --- the command line ---------------------------------------------------------------


def sudosat(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "sudosat", *args],
        capture_output=True,
        text=True,
        input=stdin,
        check=False,
    )


@pytest.mark.slow
def test_candidates_command_in_every_text_format() -> None:
    path = "puzzles/several-solutions.txt"
    puzzle = parse(read(path))
    marks = candidates(puzzle).marks
    run = sudosat("candidates", path, "-f", "json", "--count-each", "2")
    assert run.returncode == 1, run.stderr
    data = json.loads(run.stdout)
    assert data["status"] == "multiple" and data["witnesses"] >= 2
    assert [tuple(v) for v in data["candidates"].values()] == list(marks)
    assert set(data["counts"]) == set(data["open"])
    line = sudosat("candidates", path, "-f", "line")
    assert line.stdout.split() == ["".join(map(str, values)) for values in marks]
    assert "24 cells have several candidates" in line.stderr
    grid = sudosat("candidates", path, "-f", "grid").stdout.splitlines()
    assert len(grid) == 11 and "356" in grid[1]
    csv = sudosat("candidates", path, "-f", "csv").stdout.splitlines()
    assert csv[0].startswith("source,line,name,puzzle,status,candidates")
    rich = sudosat("candidates", path, "-f", "rich", "--color")
    assert rich.returncode == 1 and "\x1b[" in rich.stdout and "witnessed by" in rich.stdout


def test_candidates_as_pictures_and_links() -> None:
    path = "puzzles/several-solutions.txt"
    svg = sudosat("candidates", path, "-f", "svg").stdout
    assert svg.startswith("<?xml") or svg.startswith("<svg")
    assert svg.count('class="pencil"') == sum(
        len(v) for v in candidates(parse(read(path))).marks if len(v) > 1
    )
    link = sudosat("candidates", path, "-f", "fpuzzles").stdout.strip()
    data = json.loads(lzstring.LZString().decompressFromBase64(link.split("load=")[1]))
    assert data["grid"][0][3]["centerPencilMarks"] == [3, 5]
    assert data["grid"][0][0] == {"value": 4}  # one candidate: the digit, not a given
    assert parse(link).cells == parse(read(path)).cells  # it reads back the same


def test_candidates_of_many_puzzles_one_record_each_in_order() -> None:
    text = read("puzzles/several-solutions.txt").splitlines()[-1]
    lines = [text, "1234", read("puzzles/royle17-25.txt").splitlines()[0]]
    run = sudosat("candidates", "-", "-f", "jsonl", stdin="\n".join(lines) + "\n")
    records = [json.loads(line) for line in run.stdout.splitlines()]
    assert [r["status"] for r in records] == ["multiple", "error", "unique"]
    assert run.returncode == 2


@pytest.mark.slow
def test_candidates_bad_input_and_timeouts() -> None:
    bad = sudosat("candidates", "-", stdin="12x4\n")
    assert bad.returncode == 2 and "Traceback" not in bad.stderr
    assert len(bad.stderr.strip().splitlines()) == 1
    many = ("." * 36 + "\n") * 36  # 36x36 blank: far more than 2 s of counting
    slow = sudosat(
        "candidates", "-", "--count-each", "1000", "--timeout", "2", "-f", "json", stdin=many
    )
    assert slow.returncode == 5
    assert json.loads(slow.stdout)["timed_out"] in (["candidates"], ["count_each"])


@pytest.mark.slow
def test_estimate_command() -> None:
    run = sudosat("solve", "--estimate", "-", "-f", "json", stdin="size 6\n" + "......\n" * 6)
    assert run.returncode == 1
    data = json.loads(run.stdout)["estimate"]
    assert data["low"] <= GRIDS_6X6 <= data["high"] and data["confidence"] == 0.95
    assert (
        sudosat("solve", "--estimate", "puzzles/several-solutions.txt", "-f", "line").stdout
        == "7\n"
    )
    blank = ("." * 25 + "\n") * 25
    slow = sudosat(
        "solve", "--estimate", "--epsilon", "0.01", "--timeout", "2", "-", "-f", "json", stdin=blank
    )
    assert slow.returncode == 5 and json.loads(slow.stdout)["estimate"]["converged"] is False


@pytest.mark.slow
def test_approxmc_stops_at_the_timeout() -> None:
    # ApproxMC holds the interpreter: it counts in a child, killed at the deadline
    args = ("solve", "--estimate", "--estimator", "approxmc", "--timeout", "2", "-f", "json")
    run = sudosat(*args, "puzzles/empty-9x9.txt")
    assert run.returncode == 5, run.stderr
    assert json.loads(run.stdout)["status"] == "timeout"


@pytest.mark.slow
def test_explain_lists_redundant_clues_in_every_format() -> None:
    run = sudosat("explain", "puzzles/killer.txt", "-f", "json")
    data = json.loads(run.stdout)
    assert data["redundant"] and data["minimal"] and run.returncode == 0
    assert all(text.startswith("cage ") for text in data["redundant"])
    text = sudosat("explain", "puzzles/ai-escargot.txt", "-f", "text").stdout
    assert "every clue and rule is needed" in text
    svg = sudosat("explain", "puzzles/killer.txt", "-f", "svg").stdout
    assert "#d62728" in svg  # the redundant cages drawn in red


THERMO_6X6 = "size 6\nthermo: r6c5 r6c6 r5c6\n....3.\n2.....\n......\n...3..\n......\n5....3\n"


BAND_9X9_GRIDS = 7_022_836_224
"""The grids whose first band is ``puzzles/band-9x9.txt``'s, counted exhaustively
by ``benchmarks/count_band.c`` (every second band, each one's third bands)."""


COVERAGE = {  # seeds: about a minute a test (make soak); 50 catch 80% coverage 7 runs in 10
    "blank 4x4, sampled": ("....\n" * 4, lambda: 288, {"exact_limit": 0}, 150),
    "blank 6x6": ("size 6\n" + "......\n" * 6, lambda: 28_200_960, {}, 100),
    "6x6 thermo": (THERMO_6X6, lambda: len(solutions_by_backtracking(parse(THERMO_6X6))), {}, 60),
    "9x9 first band": (
        (PUZZLES / "band-9x9.txt").read_text(),
        lambda: BAND_9X9_GRIDS,
        {"epsilon": 0.5},
        50,
    ),
}


def covered(args: tuple[str, int, int]) -> bool:
    name, seed, truth = args
    text, _, options, _ = COVERAGE[name]
    found = estimate(parse(text), seed=seed, **options)  # type: ignore[arg-type]
    return found.low <= truth <= found.high


def too_many_misses(misses: int, seeds: int, delta: float) -> bool:
    """Whether ``misses`` of ``seeds`` intervals at confidence 1 - delta is so many
    that an honest interval would miss that often less than once in 1,000 runs."""
    tail = sum(
        math.comb(seeds, k) * delta**k * (1 - delta) ** (seeds - k)
        for k in range(misses, seeds + 1)
    )
    return tail < 0.001


def test_the_coverage_test_can_fail() -> None:
    assert too_many_misses(30, 300, 0.05) and not too_many_misses(20, 300, 0.05)


@pytest.mark.slow
@pytest.mark.soak  # (slow too: -m "not slow" leaves it out)
@pytest.mark.parametrize("name", sorted(COVERAGE))
def test_the_interval_covers_the_known_count_as_often_as_it_says(name: str) -> None:
    _, truth_of, _, seeds = COVERAGE[name]
    truth = truth_of()
    with ProcessPoolExecutor(2) as pool:
        hits = list(pool.map(covered, [(name, seed, truth) for seed in range(seeds)]))
    misses = hits.count(False)
    assert not too_many_misses(misses, seeds, 0.05), f"{misses} of {seeds} missed {truth}"


def test_an_estimate_can_be_made_to_sample_and_covers_the_4x4s() -> None:
    blank = parse("....\n" * 4)
    found = estimate(blank, exact_limit=0, seed=1)
    assert found.method == "sampling" and found.low <= 288 <= found.high


def test_count_each_says_n_plus_only_past_n(run: Run) -> None:
    blank = "....\n" * 4
    for limit, expected in ((71, "71+"), (72, 72), (73, 72)):
        code, out, _ = run("candidates", "--count-each", str(limit), "-f", "json", "-", input=blank)
        assert code == 1
        counts = json.loads(out)["counts"]
        assert {v for cell in counts.values() for v in cell.values()} == {expected}, limit
    found = candidates(parse(blank), count_each=72)
    assert all(count.complete and int(count) == 72 for count in found.counts.values())


@pytest.mark.parametrize("option", [("--epsilon", "nan"), ("--delta", "nan"), ("--timeout", "nan")])
def test_nan_is_a_usage_error(option: tuple[str, str], run: Run) -> None:
    code, _, err = run("solve", "--estimate", *option, "-", input="size 6\n" + "......\n" * 6)
    assert code == 2 and "is not a number" in err


@pytest.mark.slow
def test_the_smallest_delta_sampling_takes_gets_an_answer() -> None:
    """Smaller ones are refused (issue 55: no sampled interval is that sure)."""
    blank = parse("size 6\n" + "......\n" * 6)
    found = estimate(blank, delta=1e-6, epsilon=0.5)
    assert found.low <= 28_200_960 <= found.high and found.delta == 1e-6
    with pytest.raises(ValueError, match="delta 1e-06 or more"):
        estimate(blank, delta=1e-17, epsilon=0.5)


# --- counts past a float ---------------------------------------------------------------


def real_walks(count: int) -> list[float]:
    """The logs of ``count`` real walks of a blank 9x9."""
    from sudosat.solving.estimate import walks
    from sudosat.solving.search import opened

    blank = empty(9)
    found = []
    for log in walks(blank, opened(blank).cnf, seed=3):  # type: ignore[arg-type]
        found.append(log)
        if len(found) == count:
            return found
    raise AssertionError("walks end")


@pytest.mark.slow
@pytest.mark.parametrize("samples", [1, 2, 3, 4, 40])
def test_estimates_past_a_float_are_worked_out_in_logs(samples: int) -> None:
    """A blank 9x9's walks, each a product e^1000 times as large: what a 25x25 or a
    36x36 gives (e^888, e^2200), past the 1.8e308 a float holds. Nothing
    overflows, no bound is NaN, and below four samples there are no bounds."""
    from sudosat.serving.plugin_answers import _sampled
    from sudosat.solving.estimate import Estimate, interval, scientific

    logs = [x + 1000 for x in real_walks(samples)]
    mean, low, high = interval(logs, 0.05, random.Random(1))
    assert not any(math.isnan(x) for x in (mean, low, high))
    if samples < 4:
        assert (low, high) == (-math.inf, math.inf)
    else:
        assert low < mean < high < math.inf
    assert 1000 + 40 < mean < 1000 + 60  # a 9x9 has e^50.5 grids
    found = Estimate(mean, low, high, False, "sampling", 0.2, 0.05, samples)
    record = json.loads(json.dumps(found.as_dict(), allow_nan=False))
    assert record["estimate"] is None and record["log10_estimate"] > 450  # e^1050 = 10^456
    assert (record["log10_high"] is None) == (samples < 4)
    text = found.text()
    assert text.startswith(f"about {scientific(mean)}") and "e+45" in text
    assert ("too few for an interval" in text) == (samples < 4)
    plugin = _sampled(logs)
    assert isinstance(plugin["estimate"], str) and "E+45" in plugin["estimate"]
    assert plugin["iterations"] == samples and not math.isnan(plugin["relErrPercent"])
    if samples < 4:
        assert plugin["ci95_upper"] == math.inf  # sent as "Infinity", as the protocol does


def test_scientific_writes_any_size() -> None:
    from sudosat.solving.estimate import scientific

    assert scientific(math.log(7.02e21)) == "7.02e+21"
    assert scientific(888 * math.log(10) + math.log(1.49)) == "1.49e+888"
    assert scientific(2000 * math.log(10) + math.log(9.9999)) == "1e+2001"
    assert scientific(-math.inf) == "0" and scientific(math.inf) == "inf"


@pytest.mark.slow
def test_candidates_of_a_big_grid_with_no_solution_say_none_in_about_a_solve(
    run: Run, tmp_path: Path
) -> None:
    """A 25x25 jigsaw whose regions leave no solution: one plain solve says so (the
    marking asked for many values at a time first, for four times as long), and
    a conflict not named within a second is no timeout: exit 3, not 5."""
    path = tmp_path / "traded.txt"
    path.write_text(traded_jigsaw())
    code, out, err = run("candidates", str(path))
    assert code == 3 and out.strip() == "none", err
    assert "no solution" in err
