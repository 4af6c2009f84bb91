"""A rule step over a rule and its houses, said as a setter says it: the digits a
house needs on the rule and the digits the rule holds where a cell sees them
(:mod:`sudosat.logic.rulelocks`), or each removal traced to a contradiction."""

from __future__ import annotations

import re
from functools import partial

from sudosat import parse
from sudosat.core.masks import bit
from sudosat.core.puzzle import Puzzle
from sudosat.logic.board import Board, Candidate, Fact, Step
from sudosat.logic.chains import fact_text, written
from sudosat.logic.path import Pathfinder
from sudosat.logic.rulelocks import held
from sudosat.logic.rulesteps import RuleSteps
from sudosat.logic.ruleweights import TIERS
from sudosat.logic.solve_path import technique_of
from sudosat.logic.trace import Trace
from sudosat.reading.inputs import read_puzzles
from sudosat.sat.cnf import literal
from tests.conftest import PUZZLES
from tests.logic.test_chains import check_forcing, check_path

RULE_AND_UNITS = TIERS[2]


def first_rule_step(text: str) -> tuple[Step, Board, RuleSteps]:
    with Pathfinder(parse(text)) as finder:
        board = finder.board()
        assert finder.rule_steps is not None
        step = finder.rule_steps.step(board, RULE_AND_UNITS)
        assert step is not None
        step = finder.rule_steps.said(board, step)
        return step, board, RuleSteps(finder.puzzle)


def no_solution_holds(steps: RuleSteps, board: Board, step: Step) -> None:
    """Each removal of ``step``, assumed on ``board``, leaves the puzzle no solution."""
    solver = steps.fresh(board)
    try:
        for cell, value in step.eliminations:
            assert not solver.solve(assumptions=[literal(board.size, cell, value)])
    finally:
        solver.delete()
        steps.close()


def test_a_renban_across_two_houses_holds_its_middle_digits_there() -> None:
    """Six cells of a run always hold 4, 5 and 6: in row 2 or box 2, which r2c4-r2c6
    both see."""
    step, board, steps = first_rule_step("renban: r2c1 r2c2 r2c3 r3c4 r3c5 r3c6\n" + "." * 81)
    assert technique_of(step).name == "renban line in 2 houses"
    assert step.reason == (
        "renban r2c1 to r3c6 in row 2 and box 2: the renban line holds 456 in row 2 or "
        "box 2: they leave r2c4, r2c5, r2c6"
    )
    assert set(step.eliminations) == {(c, v) for c in (12, 13, 14) for v in (4, 5, 6)}
    assert not step.chains
    no_solution_holds(steps, board, step)


def test_a_house_that_needs_a_digit_on_the_rule_makes_the_rule_hold_more() -> None:
    """Column 7's 1 can only go on the renban pair r5c7-r6c7 (1s in r2c8, r4c1, r8c9
    see the rest of it): the pair is 1 and 2, so it holds column 7's 2 as well."""
    grid = ["."] * 81
    for cell in (9 * 1 + 7, 9 * 3 + 0, 9 * 7 + 8):
        grid[cell] = "1"
    step, board, steps = first_rule_step("renban: r5c7 r6c7\n" + "".join(grid))
    assert technique_of(step).name == "renban line in its house"
    assert "needs its 1 on the renban line (r5c7, r6c7)" in step.reason
    assert "; the renban line holds 2 in column 7: 2 leaves r" in step.reason
    pair = {9 * 4 + 6, 9 * 5 + 6}
    assert step.eliminations and all(
        v == 2 and c % 9 == 6 and c not in pair for c, v in step.eliminations
    )
    no_solution_holds(steps, board, step)


def test_a_path_s_rule_and_house_steps_say_true_needs_and_hold_link_by_link() -> None:
    """The arrows' puzzle: each rule-in-its-houses step either names needs that the
    board shows (every place of the digit in the house on the rule) or carries one
    chain per removal, each link checked by test_chains' checker."""
    (puzzle,) = [
        p for p in read_puzzles([str(PUZZLES / "thermo-arrow.json")]) if isinstance(p, Puzzle)
    ]
    with Pathfinder(puzzle) as finder:
        path = finder.path(None)
        said = traced = 0
        for step, board in path.boards():
            name = technique_of(step).name
            if not re.search(r" in (its|their) house$| in \d+ houses$", name):
                continue
            if step.chains:
                assert len(step.chains) == len(step.eliminations)
                assert step.reason.endswith("each removal, assumed, breaks the grid")
                traced += 1
                continue
            said += 1
            for need in re.finditer(
                r"(row|column|box) (\d) needs its (\d) on [^(]+\(([^)]*)\)", step.reason
            ):
                kind, index, digit, cells = need.groups()
                unit = ("row", "column", "box").index(kind) * 9 + int(index) - 1
                places = {
                    board.name(c)
                    for c in puzzle.layout.units[unit]
                    if board.masks[c] & bit(int(digit))
                }
                assert places == set(cells.split(", "))
    assert said and traced
    assert check_path(puzzle) >= traced


def test_what_a_rule_alone_holds_is_a_chain_s_link() -> None:
    """The six-cell renban with no 4 left in r2c1-r2c3: its 4 is in r3c4-r3c6, so
    4 leaves the rest of box 2 and row 3; its 5 and 6, anywhere on it, leave the
    cells that see all six (r2c4-r2c6 by row 2 and box 2, r3c1-r3c3 by box 1 and
    row 3). With r2c1 fixed at 1 its run is 1-6: no
    other cell of it can hold 1 (none twice), 7, 8 or 9."""
    with Pathfinder(parse("renban: r2c1 r2c2 r2c3 r3c4 r3c5 r3c6\n" + "." * 81)) as finder:
        board = finder.board()
        assert finder.rule_steps is not None
        rules = finder.rule_steps.holding()
        masks = list(board.masks)
        for cell in (9, 10, 11):
            masks[cell] &= ~bit(4)
        found, broken = held(board, rules, masks)
        assert broken is None
        by_link: dict[str, set[int]] = {}
        for (cell, value), link, cells in found:
            assert link == f"renban r2c1 to r3c6 holds {value}" and cells == (9, 10, 11, 21, 22, 23)
            by_link.setdefault(link, set()).add(cell)
        assert by_link == {
            "renban r2c1 to r3c6 holds 4": {3, 4, 5, 12, 13, 14, 18, 19, 20, 24, 25, 26},
            "renban r2c1 to r3c6 holds 5": {12, 13, 14, 18, 19, 20},
            "renban r2c1 to r3c6 holds 6": {12, 13, 14, 18, 19, 20},
        }
        masks = list(board.masks)
        masks[9] = bit(1)
        found, broken = held(board, rules, masks)
        cannot = {(c, v) for (c, v), link, _ in found if link.endswith(f"cannot hold {v}")}
        assert cannot == {(c, v) for c in (10, 11, 21, 22, 23) for v in (1, 7, 8, 9)}
        masks[10] = bit(9)
        assert held(board, rules, masks) == (
            [],
            ("renban r2c1 to r3c6 has no filling", (9, 10, 11, 21, 22, 23)),
        )


def pair_chain(masks: dict[int, int], assumed: Candidate, target: Fact) -> str:
    """A rule step's chain (what rules hold asked too) from ``assumed`` to
    ``target`` on an empty grid with a renban in row 9 and ``masks`` pencilled in,
    each link checked by test_chains' checker; the chain in words."""
    with Pathfinder(parse("renban: r9c1 r9c2 r9c3\n" + "." * 81)) as finder:
        board = finder.board()
        steps = finder.rule_steps
        assert steps is not None
        for cell, mask in masks.items():
            board.masks[cell] = mask
        board.changed()
        trace = Trace(board, True, steps.everything(), steps, partial(held, board, steps.holding()))
        trace.follow(*assumed, until=target)
        chain = trace.chain(target, fact_text(board.puzzle, (*assumed, True)))
        check_forcing(board, chain, rules=steps.everything(), parts=steps)
        return written(board.puzzle, chain, detail=True)


def test_a_rule_step_s_chain_takes_naked_and_hidden_pairs() -> None:
    """r1c9=3 leaves r1c1 and r1c2 {12}: a naked pair, so r1c4 {124} is 4. And
    r5c3=1 leaves 1 and 2 of row 1 in r1c1 and r1c2 alone: a hidden pair, so r1c1
    loses its 5."""
    twelve = bit(1) | bit(2)
    said = pair_chain({0: twelve, 1: twelve | bit(3), 3: twelve | bit(4)}, (8, 3), (3, 4, True))
    assert "r1c4<>1 (naked pair, row 1)" in said
    assert said.endswith("r1c4=4 (naked single: r1c4<>1, r1c4<>2)")
    rest = {c: 0b111111100 for c in range(3, 9)}  # no 1 or 2 in r1c4-r1c9
    masks = {0: twelve | bit(5), 1: twelve | bit(6), 2: bit(1) | bit(7) | bit(8), **rest}
    said = pair_chain(masks, (38, 1), (0, 5, False))
    assert "r1c1<>5 (hidden pair, row 1" in said
