"""The engine's answers outright (sudosat.logic.outright) held to SAT and to brute
force on random killers, classic grids and jigsaws of every size it takes: the
same true candidates, the same status, the same counts up to a limit; and the
search's cages held to brute force on 4x4 killers."""

from __future__ import annotations

import random
from functools import cache
from itertools import combinations, permutations
from pathlib import Path

import pytest

from sudosat import parse, solve
from sudosat.core.puzzle import Grid, Puzzle, cell_name
from sudosat.logic import bitboard, outright
from sudosat.logic.board import board_of
from sudosat.making.generator import Carving, Generator
from sudosat.solving.candidates import candidates
from tests.sat.test_leftovers import random_layout, solutions, text_of

pytestmark = pytest.mark.skipif(bitboard.ENGINE is None, reason="the compiled engine is not built")

COUNT_EACH = 3
PUZZLES = Path(__file__).parents[2] / "puzzles"


def random_cages(grid: Grid, n: int, rng: random.Random, largest: int) -> list[tuple[int, ...]]:
    """The cells cut into joined cages of 1 to ``largest`` cells, none holding a
    value twice in ``grid``."""
    left = set(range(n * n))
    cages = []
    while left:
        cage = [min(left)]
        left.discard(cage[0])
        want = rng.randint(1, largest)
        while len(cage) < want:
            near = [
                c
                for cell in cage
                for c in (cell - n, cell + n, cell - 1 if cell % n else -1, cell + 1)
                if c in left
                and (c % n or cell % n != n - 1)
                and grid[c] not in {grid[x] for x in cage}
            ]
            if not near:
                break
            cage.append(rng.choice(near))
            left.discard(cage[-1])
        cages.append(tuple(cage))
    return cages


def killer_text(grid: Grid, n: int, cages: list[tuple[int, ...]], givens: dict[int, int]) -> str:
    lines = []
    for cage in cages:
        total = "" if len(cage) == 1 and not cage[0] % 3 else f" {sum(grid[c] for c in cage)}"
        lines.append(f"cage{total}: " + " ".join(cell_name(n, c) for c in cage))
    cells = "".join(str(givens.get(c, ".")) if n < 10 else "." for c in range(n * n))
    return "\n".join(lines) + "\n" + cells + "\n"


def agree(puzzle: Puzzle) -> bool:
    """The search's candidates (and counts) against SAT's, where it answers; whether it did."""
    found = outright.by_search(puzzle, count_each=COUNT_EACH)
    if found is None:
        return False
    expected = candidates(puzzle, count_each=COUNT_EACH)
    assert found.marks == expected.marks, puzzle
    assert found.outcome.status == expected.outcome.status
    assert found.counts == expected.counts
    assert {c: m.complete for c, m in found.counts.items()} == {
        c: m.complete for c, m in expected.counts.items()
    }
    assert found.outcome.solutions and found.outcome.solutions[0] in found.found
    return True


@pytest.mark.parametrize("rank", [2, 3])
def test_killer_candidates_agree_with_sat(rank: int) -> None:
    """Random killers, some cages taken away (several solutions) and a given here
    and there: wherever the search answers, SAT answers the same."""
    rng = random.Random(rank)
    generator = Generator(rank)
    n = rank * rank
    answered = 0
    for _ in range(40 if rank == 2 else 24):
        grid = Carving(generator, rng).solution
        cages = random_cages(grid, n, rng, 3 if rank == 2 else 5)
        kept = rng.sample(cages, len(cages) - rng.randrange(0, max(2, len(cages) // 4)))
        givens = {c: grid[c] for c in rng.sample(range(n * n), rng.randrange(0, 3))}
        answered += agree(parse(killer_text(grid, n, kept, givens)))
    assert answered >= (30 if rank == 2 else 16)


@pytest.mark.parametrize(
    "rank, tries, least",
    [
        (2, 30, 20),
        (3, 30, 20),
        (4, 8, 4),
        (5, 3, 2),
        pytest.param(6, 2, 1, marks=pytest.mark.slow),
    ],
)
def test_classic_candidates_agree_with_sat(rank: int, tries: int, least: int) -> None:
    """Solution grids with cells emptied (a fifth to three quarters on a 9x9, to
    two fifths on a 16x16, to a fifth past it), at every size to 36x36."""
    rng = random.Random(7)
    generator = Generator(rank)
    cells_of = rank**4
    most = cells_of * 3 // 4 if rank < 4 else cells_of * 2 // 5 if rank == 4 else cells_of // 5
    answered = 0
    for _ in range(tries):
        grid = Carving(generator, rng).solution
        cells = list(grid)
        for cell in rng.sample(range(cells_of), rng.randrange(cells_of // 8, most)):
            cells[cell] = 0
        answered += agree(Puzzle(rank, tuple(cells)))
    assert answered >= least


@pytest.mark.parametrize(
    "rules",
    ["diagonals", "disjoint-groups", "extra-region: r2c2 r2c3 r2c4 r3c2 r3c3 r3c4 r4c2 r4c3 r4c4"],
)
def test_rules_kept_by_their_houses_agree_with_sat(rules: str) -> None:
    """An X-sudoku's diagonals, disjoint groups and an extra region are houses the
    search keeps: a solution of the rules with cells emptied, answered alike."""
    rng = random.Random(3)
    blank = parse(f"{rules}\n" + "." * 81)
    answered = 0
    for _ in range(12):
        order = rng.sample(range(1, 10), 9)  # a random solution: the first, renamed
        first = solve(blank).solutions[0]
        grid = [order[v - 1] for v in first]
        for cell in rng.sample(range(81), rng.randrange(20, 55)):
            grid[cell] = 0
        answered += agree(parse(f"{rules}\n" + "".join(str(v or ".") for v in grid)))
    assert answered >= 8


def test_jigsaw_candidates_agree_with_brute_force() -> None:
    rng = random.Random(5)
    answered = 0
    for _ in range(30):
        layout = random_layout(4, rng)
        every = solutions(layout, {})
        if not every:
            continue
        chosen = rng.choice(every)
        givens = {c: chosen[c] for c in rng.sample(range(16), rng.randrange(0, 6))}
        puzzle = parse(text_of(layout, givens))
        found = outright.by_search(puzzle)
        grids = solutions(layout, givens)
        expected = tuple(tuple(sorted({g[c] for g in grids})) for c in range(16))
        if found is not None:
            answered += 1
            assert found.marks == expected and found.witnesses == len(grids)
    assert answered >= 20


@cache
def every_4x4() -> list[Grid]:
    """Every 4x4 Sudoku grid (288): rows as permutations, row by row, each kept
    where the columns and boxes so far hold no value twice."""
    rows = list(permutations(range(1, 5)))
    found: list[Grid] = []

    def fill(grid: tuple[int, ...]) -> None:
        r = len(grid) // 4
        if r == 4:
            found.append(grid)
            return
        for row in rows:
            g = grid + row
            if any(len({g[i * 4 + c] for i in range(r + 1)}) <= r for c in range(4)):
                continue
            box = ({g[(r - 1) * 4 + c + d] for d in (0, 1)} | set(row[c : c + 2]) for c in (0, 2))
            if r % 2 and any(len(b) < 4 for b in box):
                continue
            fill(g)

    fill(())
    return found


def brute_killer(cages: list[tuple[tuple[int, ...], int | None]]) -> list[Grid]:
    """The 4x4 grids whose cages hold distinct digits adding up to their sums:
    apart from any engine."""
    return [
        grid
        for grid in every_4x4()
        if all(
            len({grid[x] for x in cells}) == len(cells)
            and (total is None or sum(grid[x] for x in cells) == total)
            for cells, total in cages
        )
    ]


def test_the_search_s_cages_agree_with_brute_force() -> None:
    """Cages of random cells (joined or not, sums that may not be met, some
    without a sum) over a blank 4x4: the search finds every grid brute force
    does, and no other, before any check."""
    rng = random.Random(11)
    shape = board_of(Puzzle.empty(2))
    for _ in range(25):
        cages: list[tuple[tuple[int, ...], int | None]] = []
        for _ in range(rng.randrange(1, 5)):
            cells = tuple(rng.sample(range(16), rng.randrange(2, 5)))
            total = (
                None if rng.random() < 0.2 else rng.randrange(len(cells) + 2, 4 * len(cells) - 1)
            )
            cages.append((cells, total))
        packed = []
        for cells, total in cages:
            if total is None:
                packed.append((cells, (0b1111,)))
                continue
            sets = tuple(
                sum(1 << (v - 1) for v in combo)
                for combo in combinations(range(1, 5), len(cells))
                if sum(combo) == total
            )
            packed.append((cells, sets))
        if any(not sets for _, sets in packed):
            continue
        found = bitboard.search(shape, [0b1111] * 16, [], 10**6, 10**9, packed)
        assert found is not None and found.settled
        assert sorted(found.solutions) == sorted(brute_killer(cages)), cages


def test_without_the_engine_the_answer_is_sat_s(monkeypatch: pytest.MonkeyPatch) -> None:
    """The same candidates whoever finds them; the search says nothing without the engine."""
    puzzle = parse((PUZZLES / "killer.txt").read_text())
    with_engine = outright.candidates(puzzle, count_each=COUNT_EACH)
    assert with_engine.outcome.solver == outright.SOLVER
    monkeypatch.setattr(bitboard, "ENGINE", None)
    assert outright.by_search(puzzle) is None
    without = outright.candidates(puzzle, count_each=COUNT_EACH)
    assert without.outcome.solver != outright.SOLVER
    assert with_engine.marks == without.marks and with_engine.unique and without.unique


def test_a_rule_the_search_does_not_keep_is_left_to_sat() -> None:
    """A thermometer: the search would find grids that are no solutions, many of them."""
    puzzle = parse("thermo: r1c1 r1c2 r1c3\n" + "." * 81)
    assert outright.cages(puzzle) is None and outright.by_search(puzzle) is None
    assert outright.candidates(puzzle).outcome.solver != outright.SOLVER
