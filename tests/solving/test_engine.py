from __future__ import annotations

import pytest

from sudosat.core.errors import SolverError
from sudosat.core.puzzle import Puzzle, verify
from sudosat.reading.formats import parse
from sudosat.reading.inputs import read_file
from sudosat.sat.solvers import solver_spec
from sudosat.sat.solvers.pysat_backend import pysat_solvers
from sudosat.solving.engine import solve
from sudosat.solving.outcome import Status
from tests.conftest import ESCARGOT, PUZZLES, REXL_FIRST

SEVEN = REXL_FIRST.replace("....34...", "....04...", 1)
TWENTY = ESCARGOT.replace("1....7.9.", "1....7...", 1)
CLASH_FREE_ZERO = REXL_FIRST.replace("....2..7.", "....2..74", 1)
INSTALLED = [info.name for info in pysat_solvers() if info.available]


def test_rexl_notebook_counts() -> None:
    assert solve(parse(REXL_FIRST), max_solutions=100).status == Status.UNIQUE
    seven = solve(parse(SEVEN), max_solutions=100)
    assert (seven.status, len(seven.solutions), seven.exhausted) == (Status.MULTIPLE, 7, True)
    twenty = solve(parse(TWENTY), max_solutions=100)
    assert (len(twenty.solutions), twenty.exhausted) == (20, True)
    zero = solve(parse(CLASH_FREE_ZERO), max_solutions=100)
    assert (zero.status, zero.solutions) == (Status.NONE, [])


def test_every_solution_obeys_the_rules_and_givens() -> None:
    puzzle = parse(TWENTY)
    outcome = solve(puzzle, max_solutions=100)
    assert len(set(outcome.solutions)) == 20
    for grid in outcome.solutions:
        assert verify(puzzle, grid) == []


def test_verify_catches_a_changed_given_and_a_broken_unit() -> None:
    puzzle = parse(ESCARGOT)
    grid = list(solve(puzzle).solutions[0])
    grid[0], grid[1] = grid[1], grid[0]
    assert any("changes a given" in p for p in verify(puzzle, grid))
    assert any("does not hold every value" in p for p in verify(puzzle, grid))


def test_clashing_clues_are_found_before_solving() -> None:
    puzzle = read_file(str(PUZZLES / "clashing-clues.txt"))[0]
    assert isinstance(puzzle, Puzzle)
    outcome = solve(puzzle)
    assert outcome.status == Status.NONE
    assert outcome.stats.clauses == 0  # nothing was encoded
    described = [c.describe(puzzle) for c in outcome.clashes]
    assert "r1c1 and r4c1 both hold 5 in column 1" in described
    assert "r1c1 and r3c2 both hold 5 in box 1" in described


def test_a_cell_with_no_candidate_is_no_solution() -> None:
    line = "12345678." + "........9" + "." * 63
    outcome = solve(parse(line))
    assert outcome.status == Status.NONE and "r1c9" in outcome.reason


def test_full_grid_is_its_own_unique_solution() -> None:
    solution = solve(parse(ESCARGOT)).solutions[0]
    puzzle = Puzzle(3, solution, "123456789")
    assert solve(puzzle).status == Status.UNIQUE


def test_max_solutions_one_skips_the_uniqueness_check() -> None:
    outcome = solve(parse(SEVEN), max_solutions=1)
    assert outcome.status == Status.SOLVED and outcome.unique is None


@pytest.mark.slow
def test_timeout_keeps_what_was_found() -> None:
    empty = Puzzle(3, (0,) * 81)
    outcome = solve(empty, max_solutions=10**7, timeout=2)
    assert outcome.status == Status.TIMEOUT
    assert len(outcome.solutions) > 0
    assert all(verify(empty, g) == [] for g in outcome.solutions)


def test_timeout_answer_matches_in_process_answer() -> None:
    assert (
        solve(parse(SEVEN), max_solutions=100, timeout=30).solutions
        == solve(parse(SEVEN), max_solutions=100).solutions
    )


@pytest.mark.parametrize("solver", INSTALLED)
@pytest.mark.slow
def test_every_installed_pysat_solver_agrees(solver: str) -> None:
    assert solve(parse(ESCARGOT), solver=solver).status == Status.UNIQUE
    assert len(solve(parse(SEVEN), solver=solver, max_solutions=50).solutions) == 7
    assert len(solve(parse(TWENTY), solver=solver, max_solutions=50).solutions) == 20
    assert solve(parse(CLASH_FREE_ZERO), solver=solver).status == Status.NONE
    hex16 = read_file(str(PUZZLES / "hex-16x16.txt"))[0]
    assert isinstance(hex16, Puzzle)
    assert solve(hex16, solver=solver).status == Status.UNIQUE


@pytest.mark.parametrize(
    ("name", "rank"),
    [
        ("ai-escargot.txt", 3),
        ("hex-16x16.txt", 4),
        ("numbers-16x16.txt", 4),
        ("rank5-25x25.txt", 5),
        ("rank6-36x36.txt", 6),
        ("rank2-4x4.txt", 2),
    ],
)
@pytest.mark.slow
def test_bundled_puzzles_of_every_rank_are_unique(name: str, rank: int) -> None:
    puzzle = read_file(str(PUZZLES / name))[0]
    assert isinstance(puzzle, Puzzle) and puzzle.rank == rank
    outcome = solve(puzzle)
    assert outcome.status == Status.UNIQUE
    assert verify(puzzle, outcome.solutions[0]) == []


def test_the_default_solver_and_the_seeds_solvers_are_installed() -> None:
    assert {"cadical195", "glucose4", "minisat22"} <= set(INSTALLED)


def test_a_portfolio_counts_like_one_solver() -> None:
    portfolio = "cadical195,glucose4"
    for text, count in ((ESCARGOT, 1), (SEVEN, 7), (TWENTY, 20)):
        outcome = solve(parse(text), solver=portfolio, max_solutions=50)
        assert (len(outcome.solutions), outcome.exhausted) == (count, True)
        assert outcome.solver in portfolio.split(",")  # the one that answered first
    assert solve(parse(CLASH_FREE_ZERO), solver=portfolio).status == Status.NONE
    rank5 = read_file(str(PUZZLES / "rank5-25x25.txt"))[0]
    assert isinstance(rank5, Puzzle)
    outcome = solve(rank5, solver=portfolio)
    assert outcome.status == Status.UNIQUE and verify(rank5, outcome.solutions[0]) == []


def test_a_portfolio_names_each_solver_once() -> None:
    with pytest.raises(SolverError, match="each solver once"):
        solve(parse(ESCARGOT), solver="cadical195,cd19")
    assert solver_spec("glucose4,").name == "glucose4"  # one name: no portfolio
