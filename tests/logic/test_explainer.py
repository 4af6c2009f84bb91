"""Sudoku Explainer's own rating search (issue 77, part 3): a classic 9x9's ER at
the top of SE's scale is SE's, held to SE's ratings of the hardest lists
(../shared/puzzles/se-rated, skipped where absent), every step checked against
the solution."""

from __future__ import annotations

import random

import pytest

from sudosat import parse, solve
from sudosat.logic import explainer
from sudosat.logic.explainer import SEARCHED_FROM, explainer_rating, searched
from sudosat.logic.path import logical_path
from sudosat.logic.rating import rate
from tests.conftest import ESCARGOT, PUZZLES, shared

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


def test_ai_escargot_rates_as_sudoku_explainer_rates_it() -> None:
    # SE 1.2.1's published rating (the path alone says 10.1)
    assert rate(parse(ESCARGOT)).explainer == (10.5, 1.2, 1.2)


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


def test_every_step_is_checked_against_the_solution() -> None:
    puzzle = parse(ESCARGOT)
    truth = list(solve(puzzle).solutions[0])
    # a "solution" with two values of a row swapped: some step removes one of them
    first, second = [i for i in range(9) if not puzzle.cells[i]][:2]
    truth[first], truth[second] = truth[second], truth[first]
    with pytest.raises(AssertionError, match="removed a value of the solution"):
        searched(puzzle, truth)


def test_past_its_budget_the_paths_er_stands() -> None:
    puzzle = parse(ESCARGOT)
    assert searched(puzzle, budget=1000) is None
    assert explainer_rating(puzzle, (10.1, 1.2, 1.2), budget=1000) == (10.1, 1.2, 1.2)


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


def test_without_the_search_the_paths_er_stands(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(explainer, "SEARCH", None)
    puzzle = parse(ESCARGOT)
    assert rate(puzzle).explainer == logical_path(puzzle).explainer()
