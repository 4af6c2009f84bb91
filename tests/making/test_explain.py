"""``explain``: which clues and rules a puzzle needs, checked by brute force
(every 4x4 grid, the rules by their own checks) or by a second solver on the
full CNF, never by the code under test."""

from __future__ import annotations

from dataclasses import replace

from sudosat import Puzzle, explain, parse, solve
from sudosat.core.puzzle import Grid, Rules
from sudosat.sat.cnf import Encoding
from tests.conftest import PUZZLES
from tests.rules.test_brute import every_grid
from tests.solving.test_workbench import solutions_4x4

Part = tuple[int, int] | object


FULL = Encoding(reduced=False)


def with_parts(puzzle: Puzzle, parts: list[Part]) -> Puzzle:
    """The puzzle of ``parts`` alone: these givens, these rules (settled anew)."""
    n = puzzle.size
    cells = [0] * (n * n)
    rules = []
    for part in parts:
        if isinstance(part, tuple):
            cells[part[0]] = part[1]
        else:
            rules.append(part)
    return replace(puzzle, cells=tuple(cells), rules=Rules.of(puzzle.layout, rules))  # type: ignore[arg-type]


def every_part(puzzle: Puzzle) -> list[Part]:
    return [*puzzle.givens, *(puzzle.rules.constraints if puzzle.rules else ())]


def same(a: Part, b: Part) -> bool:
    """A clue is a (cell, value) pair, a rule the puzzle's own object."""
    return a == b if isinstance(a, tuple) else a is b


def without(parts: list[Part], gone: Part) -> list[Part]:
    return [p for p in parts if not same(p, gone)]


def named(part: Part, parts: list[Part]) -> bool:
    return any(same(part, p) for p in parts)


def all_dots_4x4() -> Puzzle:
    """A 4x4 with a white dot on every consecutive pair of one grid, nonconsecutive,
    and r1c1 given: 12 dots."""
    grid = next(g for g in every_grid() if g[0] == 1 and consecutive_pairs(g) == 12)
    dots = [f"difference: {rc(a)} {rc(b)}" for a, b in pairs_4x4() if abs(grid[a] - grid[b]) == 1]
    rows = ["1...", "....", "....", "...."]
    return parse("\n".join(["size 4", "nonconsecutive", *dots, *rows]) + "\n")


def pairs_4x4() -> list[tuple[int, int]]:
    return [(r * 4 + c, r * 4 + c + 1) for r in range(4) for c in range(3)] + [
        (r * 4 + c, r * 4 + c + 4) for r in range(3) for c in range(4)
    ]


def consecutive_pairs(grid: Grid) -> int:
    return sum(abs(grid[a] - grid[b]) == 1 for a, b in pairs_4x4())


def rc(cell: int) -> str:
    return f"r{cell // 4 + 1}c{cell % 4 + 1}"


def test_a_dot_under_nonconsecutive_is_redundant_only_if_its_removal_keeps_the_answer() -> None:
    puzzle = all_dots_4x4()
    (solution,) = solutions_4x4(puzzle)
    found = explain(puzzle)
    assert found.redundant is not None and found.minimal is not None
    for part in found.redundant:
        assert solutions_4x4(with_parts(puzzle, without(every_part(puzzle), part))) == [solution], (
            part
        )
    for part in every_part(puzzle):  # and every part that can go is named
        alone = solutions_4x4(with_parts(puzzle, without(every_part(puzzle), part))) == [solution]
        assert alone == named(part, found.redundant), part
    assert_minimal(puzzle, found.minimal, solution)


def assert_minimal(puzzle: Puzzle, minimal: list[Part], solution: Grid) -> None:
    """The parts alone have ``solution`` and no other; without any one of them, not."""
    assert solutions_4x4(with_parts(puzzle, minimal)) == [solution]
    for part in minimal:
        assert solutions_4x4(with_parts(puzzle, without(minimal, part))) != [solution], part


def test_the_bundled_kropki_minimal_set_keeps_its_solution_alone() -> None:
    puzzle = parse((PUZZLES / "kropki-6x6.txt").read_text())
    found = explain(puzzle)
    solution = found.outcome.solutions[0]
    assert found.minimal is not None and found.redundant is not None

    def alone(parts: list[Part]) -> bool:  # Glucose on the full CNF: another path
        outcome = solve(with_parts(puzzle, parts), solver="glucose4", encoding=FULL)
        return outcome.solutions == [solution] and str(outcome.status) == "unique"

    assert alone(found.minimal)
    for part in found.minimal:
        assert not alone(without(found.minimal, part))
    for part in found.redundant:
        assert alone(without(every_part(puzzle), part))


def test_a_maximum_cell_taken_away_compares_its_neighbour_again() -> None:
    # two maximum cells side by side are not compared; without one of them, they are
    puzzle = parse("size 4\nmaximum: r1c3 r1c2\n1.3.\n32..\n41.3\n....\n")
    (solution,) = solutions_4x4(puzzle)
    found = explain(puzzle)
    assert found.redundant is not None and found.minimal is not None
    for part in every_part(puzzle):
        alone = solutions_4x4(with_parts(puzzle, without(every_part(puzzle), part))) == [solution]
        assert alone == named(part, found.redundant), part
    assert_minimal(puzzle, found.minimal, solution)


def test_a_conflict_under_a_negative_rule_holds_without_the_rest() -> None:
    # 1 and 2 side by side, a dot between them, nonconsecutive; 3 and 4 too, but
    # no dot: that pair alone with the rule conflicts
    puzzle = parse("size 4\nnonconsecutive\ndifference: r1c1 r1c2\n12..\n....\n....\n..34\n")
    found = explain(puzzle)
    assert str(found.outcome.status) == "none" and found.conflict
    assert solutions_4x4(with_parts(puzzle, found.conflict)) == []
    for part in found.conflict:
        assert solutions_4x4(with_parts(puzzle, without(found.conflict, part))), part
