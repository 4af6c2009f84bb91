"""Sudoku Explainer's own rating search (issue 77, part 3): a classic 9x9's ER at
the top of SE's scale is SE's, held to SE's ratings of the hardest lists
(../shared/puzzles/se-rated, skipped where absent), every step checked against
the solution."""

from __future__ import annotations

import json
import random
import signal
import subprocess
import time

import pytest

from sudosat import parse, solve
from sudosat.core.errors import SolverTimeout
from sudosat.logic import explainer
from sudosat.logic.explainer import SEARCHED_FROM, explainer_rating, searched
from sudosat.logic.path import logical_path
from sudosat.logic.rating import rate
from tests.conftest import (
    ESCARGOT,
    PATIENCE,
    PUZZLES,
    SUDOSAT,
    Run,
    as_a_shell_starts_it,
    cpu_seconds,
    shared,
    waited_for,
)

MAGICTOUR = PUZZLES / "tdoku-magictour-25.txt"

pytestmark = pytest.mark.skipif(explainer.SEARCH is None, reason="SE's search is not built")


def rated_rows(name: str, count: int, seed: int) -> list[tuple[str, float, float, float]]:
    """``count`` puzzles of a list of SE's ratings: puzzle, ER, EP, ED."""
    rows = []
    for line in shared(f"se-rated/{name}").read_text().splitlines():
        if line and not line.startswith("#"):
            puzzle, er, ep, ed = line.split("\t")[:4]
            rows.append((puzzle, float(er), float(ep), float(ed)))
    return random.Random(seed).sample(rows, count)


def check(row: tuple[str, float, float, float]) -> None:
    puzzle = parse(row[0])
    found = rate(puzzle).explainer
    assert found is not None
    assert found[0] == pytest.approx(row[1], abs=0.1), row[0]
    for ours, theirs in zip(found[1:], row[2:], strict=True):
        if theirs >= SEARCHED_FROM:  # lower, the path's (its own weights of singles)
            assert ours == pytest.approx(theirs, abs=0.1), row[0]


@pytest.mark.slow
def test_ai_escargot_rates_as_sudoku_explainer_rates_it() -> None:
    # SE 1.2.1's published rating (the path alone says 10.1)
    assert rate(parse(ESCARGOT)).explainer == (10.5, 1.2, 1.2)


@pytest.mark.slow
@pytest.mark.parametrize("row", range(2))
def test_the_te3_list_rates_as_sudoku_explainer_rates_it(row: int) -> None:
    check(rated_rows("monhard_te3_dev.tsv", 2, 3)[row])


@pytest.mark.slow
@pytest.mark.parametrize("row", range(6))
def test_elevens_list_rates_as_sudoku_explainer_rates_it(row: int) -> None:
    check(rated_rows("eleven_dev.tsv", 6, 5)[row])


@pytest.mark.slow
def test_easter_monster_rates_as_sudoku_explainer_rates_it() -> None:
    lines = shared("famous/famous.tsv").read_text().splitlines()
    monster = "1.......2.9.4...5...6...7...5.9.3.......7.......85..4.7.....6...3...9.8...2.....1"
    platinum = next(line.split("\t")[1] for line in lines if "Platinum Blonde" in line)
    # SE (1to9only's build, run beside: serate) gives 11.6/11.6/10.8 and 10.6/1.2/1.2
    assert rate(parse(monster)).explainer == (11.6, 11.6, 10.8)
    assert rate(parse(platinum)).explainer == (10.6, 1.2, 1.2)


@pytest.mark.slow
def test_every_step_is_checked_against_the_solution() -> None:
    puzzle = parse(ESCARGOT)
    truth = list(solve(puzzle).solutions[0])
    # a "solution" with two values of a row swapped: some step removes one of them
    first, second = [i for i in range(9) if not puzzle.cells[i]][:2]
    truth[first], truth[second] = truth[second], truth[first]
    with pytest.raises(AssertionError, match="removed a value of the solution"):
        searched(puzzle, truth)


def test_past_its_budget_the_er_is_not_computed() -> None:
    puzzle = parse(ESCARGOT)
    assert searched(puzzle, budget=1000) is None
    assert explainer_rating(puzzle, (10.1, 1.2, 1.2), budget=1000) is None


GOLDEN_NUGGET = ".......39....1...5..3..58....8..9..6.7..2....1..4.......9..8.5..2....6..4..7....."
"""SE's search takes seconds on it (0.54 G link expansions)."""


def test_a_deadline_stops_the_search_inside_it() -> None:
    puzzle = parse(GOLDEN_NUGGET)
    with pytest.raises(SolverTimeout):
        searched(puzzle, deadline=time.monotonic() + 0.1)


def test_rate_with_a_timeout_says_timeout_however_long_the_search(run: Run) -> None:
    code, out, _ = run("rate", "--timeout", "1", "-f", "json", GOLDEN_NUGGET)
    record = json.loads(out)
    assert code == 5 and record["status"] == "timeout"
    assert record["reason"] == "no rating within 1 s" and record["er"] is None
    assert record["time"] >= 1  # the rating's time, not the solve's


@pytest.mark.slow
@pytest.mark.parametrize("failing", range(1, 60))
def test_out_of_memory_anywhere_in_the_search_is_a_memory_error(failing: int) -> None:
    """The search's n-th allocation fails: the answer is a MemoryError, or the
    search's own answer where it needed fewer; never "no rating"."""
    search = explainer.SEARCH
    puzzle = parse(next(line for line in MAGICTOUR.read_text().splitlines() if len(line) == 81))
    truth = bytes(solve(puzzle).solutions[0])
    right = search.rate(bytes(puzzle.cells), 0, 5, truth)
    search.fail_after(failing)
    try:
        found = search.rate(bytes(puzzle.cells), 0, 5, truth)
    except MemoryError:
        return
    finally:
        search.fail_after(0)
    assert found == right


def test_below_forcing_chains_plus_the_path_rates_alone() -> None:
    puzzle = parse(ESCARGOT)
    # the search is asked only where the path reaches forcing chains (+)
    assert explainer_rating(puzzle, (8.9, 1.2, 1.2), budget=1000) == (8.9, 1.2, 1.2)
    easier = parse((PUZZLES / "royle17-25.txt").read_text().splitlines()[0])
    by_path = logical_path(easier).explainer()
    assert by_path is not None and by_path[0] < SEARCHED_FROM
    assert rate(easier).explainer == by_path


def test_sudoku_explainer_rates_classic_9x9_alone() -> None:
    killer = parse((PUZZLES / "killer.txt").read_text())
    hex16 = parse((PUZZLES / "hex-16x16.txt").read_text())
    assert searched(killer) is None and searched(hex16) is None


@pytest.mark.slow
def test_without_the_search_the_er_past_nine_is_not_computed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """One rating whatever the build: where SE's search would set it, a build
    without that search gives none, and says so, rather than another number."""
    with_search = rate(parse(ESCARGOT))
    assert with_search.engine == "compiled" and with_search.explainer == (10.5, 1.2, 1.2)
    monkeypatch.setattr(explainer, "SEARCH", None)
    found = rate(parse(ESCARGOT))
    assert found.explainer is None and found.engine == "python"
    assert found.not_computed == "SE's rating search is not built here"
    assert found.explained() == "ER not computed: SE's rating search is not built here"
    assert found.rating == with_search.rating and found.level == with_search.level
    easier = parse((PUZZLES / "royle17-25.txt").read_text().splitlines()[0])
    assert rate(easier).explainer == logical_path(easier).explainer()  # below 9.0: the path's


@pytest.mark.slow
@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_a_signal_inside_the_search_keeps_the_puzzle_s_record(sig: int) -> None:
    """The search checks for signals as it goes: the rating stops at once and its
    record says so (a search that never looked would be killed a second later,
    its record lost)."""
    process = subprocess.Popen(
        [str(SUDOSAT), "rate", "-f", "json", GOLDEN_NUGGET],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=as_a_shell_starts_it,
    )
    try:  # the path takes about a second of CPU; the search past it, tens
        waited_for(lambda: cpu_seconds(process.pid) >= 4, "4 s of CPU: inside SE's search")
        process.send_signal(sig)
        out, err = process.communicate(timeout=PATIENCE)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert process.returncode == 128 + sig, err
    record = json.loads(out)
    assert record["reason"] == "interrupted before its rating was found" and record["er"] is None
    assert record["status"] == "unique" and record["time"] >= 3


def test_the_ed_is_the_easiest_first_step_on_sudoku_explainer_s_scale() -> None:
    first = explainer._first
    assert first(7.8, 8.5) == 7.8  # the search's first step is easier: SE takes it
    assert first(8.5, 7.8) == 7.8  # the path's, on SE's scale below 9.0, is easier
    assert first(10.8, 10.4) == 10.8  # a nested step of the path's weighs its own way
    assert first(8.0, 9.5) == 8.0
    assert first(None, 1.2) == 1.2  # a single first: the path weighs it as SE


@pytest.mark.slow
def test_explain_with_a_timeout_is_bounded_inside_the_rating_too(run: Run) -> None:
    """explain rates a unique puzzle: its --timeout reaches SE's search, which
    gives up inside itself and is named as the part that ran out."""
    code, out, _ = run("explain", "--timeout", "2", "-f", "json", GOLDEN_NUGGET)
    record = json.loads(out)
    assert code == 5 and "rating" in record["timed_out"], record["timed_out"]
    assert record["rating"] is None and record["status"] == "unique"
