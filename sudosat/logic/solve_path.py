"""A logical path as data: the steps and the board where it ended
(:class:`SolvePath`), the same as a rating reads it with each run of singles
as one (:class:`RatedPath`), and what both weigh: each step's technique, the
hardest, the level, Sudoku Explainer's ER, EP and ED (the singles weighed as
SE weighs them, :func:`easiest_single`). :mod:`path` makes them; :mod:`rating`
rates them."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from sudosat.core.puzzle import Puzzle
from sudosat.logic.board import Board, Chain, Step, Technique
from sudosat.logic.chains import chains_of
from sudosat.logic.levels import End, Family, Level
from sudosat.logic.techniques import HIDDEN_SINGLE, NAKED_SINGLE
from sudosat.solving.outcome import Outcome


class Weighed:
    """What a rating reads of a path: its techniques, the hardest, its level."""

    end: End

    def techniques(self) -> list[Technique]:
        raise NotImplementedError

    def explainer(self) -> tuple[float, float, float] | None:
        raise NotImplementedError

    def hardest(self) -> Technique | None:
        """The hardest technique the path needs (None: no step)."""
        return max(self.techniques(), key=lambda t: t.weight, default=None)

    def level(self) -> Level:
        """The highest level of its techniques (simple: none)."""
        return max(
            (t.level for t in self.techniques()), key=lambda x: x.order, default=Level.SIMPLE
        )


@dataclass
class SolvePath(Weighed):
    """A puzzle's logical solve path and where it ended."""

    puzzle: Puzzle
    steps: list[Step]
    board: Board
    end: End
    reason: str = ""
    """Why it ended as it did, in words (contradiction, stuck)."""
    seconds: float = 0.0
    outcome: Outcome | None = None
    """What the puzzle's true candidates say: unique, multiple, none or timeout."""
    start: tuple[int, ...] = ()
    """The candidates the path starts from, as masks."""
    opening: Board | None = None
    """The board the path starts from (its steps replay on a copy)."""
    hint: bool = False
    """Only the next step was asked for (no rating)."""

    @property
    def timed_out(self) -> bool:
        return self.end == End.TIMEOUT

    def boards(self) -> Iterator[tuple[Step, Board]]:
        """Each step with the board it was found on (one board, changed as it goes)."""
        board = (self.opening or self.board).copy()
        for step in self.steps:
            yield step, board
            board.apply(step)

    def written(self) -> Iterator[tuple[Step, tuple[Chain, ...]]]:
        """Each step with the chains it follows, written out (a variant's through
        its rules: unit propagation over them, traced)."""
        constraints = self.puzzle.constraints
        through_rules = not all(rule.houses(self.puzzle.layout) for rule in constraints)
        steps = None  # the rules' solver, made when a forcing step first needs it
        try:
            for step, board in self.boards():
                rules, parts = None, None
                if through_rules and step.branches:
                    if steps is None:
                        from sudosat.logic.rulesteps import RuleSteps  # deferred: variants

                        steps = RuleSteps(self.puzzle)
                    rules, parts = steps.everything(), steps
                yield step, chains_of(board, step, rules, parts)
        finally:
            if steps is not None:
                steps.close()

    def techniques(self) -> list[Technique]:
        """What each step is weighed as, in order."""
        return [technique_of(s) for s in self.steps]

    def explainer(self) -> tuple[float, float, float] | None:
        """ER, EP and ED as Sudoku Explainer gives them, on its scale: the heaviest
        step of the whole path, up to its first placement, and its first step
        (each step the easiest found; a single weighs what SE's easiest single on
        its board does, see :func:`easiest_single`). None: the path did not
        solve the puzzle."""
        if self.end != End.SOLVED or not self.steps:
            return None
        techniques = self.techniques()
        placing = next((i for i, s in enumerate(self.steps) if s.placements), len(self.steps) - 1)
        heaviest = max((t.weight for t in techniques if t.family != Family.SINGLES), default=0.0)
        # the boards are replayed as far as a single's weight can matter: to the
        # first placement, or (a path a single may top) to the end
        upto = placing + 1 if heaviest >= EXPLAINER_SINGLES["naked"] else len(techniques)
        weights = [
            easiest_single(board) if technique.family == Family.SINGLES else technique.weight
            for (_, board), technique in zip(self.boards(), techniques[:upto], strict=False)
        ]
        return max(heaviest, *weights), max(weights[: placing + 1]), weights[0]

    def counts(self) -> dict[str, int]:
        """How many steps each technique took, by the steps' names, in the order first used."""
        counted: dict[str, int] = {}
        for s in self.steps:
            counted[s.name] = counted.get(s.name, 0) + 1
        return counted


@dataclass(frozen=True)
class Singles:
    """Singles a path takes one after another, taken by the engine in one call
    (:meth:`Pathfinder.rated`): how many of each, and what Sudoku Explainer
    weighs the board before the first and the heaviest board (:func:`easiest_single`)."""

    naked: int
    hidden: int
    first: float
    heaviest: float


@dataclass
class RatedPath(Weighed):
    """A path as its rating reads it: its steps, each run of singles as one
    :class:`Singles`. It rates as the :class:`SolvePath` of the same puzzle does
    (tests/logic/test_bitboard.py holds them equal)."""

    end: End
    parts: list[Step | Singles]
    board: Board
    """The board where it ended."""

    def techniques(self) -> list[Technique]:
        found: list[Technique] = []
        for part in self.parts:
            if isinstance(part, Singles):
                found += [NAKED_SINGLE] * part.naked + [HIDDEN_SINGLE] * part.hidden
            else:
                found.append(technique_of(part))
        return found

    def explainer(self) -> tuple[float, float, float] | None:
        """As :meth:`SolvePath.explainer`, a run of singles weighed by its boards."""
        parts = self.parts
        if self.end != End.SOLVED or not parts:
            return None
        steps = [p for p in parts if isinstance(p, Step)]
        heaviest = max((technique_of(s).weight for s in steps), default=0.0)
        placing = next(
            (i for i, p in enumerate(parts) if isinstance(p, Singles) or p.placements),
            len(parts) - 1,
        )
        firsts = [p.first if isinstance(p, Singles) else technique_of(p).weight for p in parts]
        opening = max(firsts[: placing + 1])
        if heaviest >= EXPLAINER_SINGLES["naked"]:  # past the first placement no single matters
            return max(heaviest, opening), opening, firsts[0]
        most = [p.heaviest if isinstance(p, Singles) else technique_of(p).weight for p in parts]
        return max(heaviest, *most), opening, firsts[0]


EXPLAINER_SINGLES = {"full house": 1.0, "box": 1.2, "house": 1.5, "naked": 2.3}
"""Sudoku Explainer's singles: a house's last open cell, a hidden single in a box,
in another house (a row, a column), a naked single. Easier than sudosat's order
(naked first), so they are weighed on the board, not by the step taken."""


def easiest_single(board: Board) -> float:
    """The weight of the easiest single on ``board`` on Sudoku Explainer's scale
    (:data:`EXPLAINER_SINGLES`); a board with none weighs a naked single."""
    best = EXPLAINER_SINGLES["naked"]
    masks, placed = board.masks, board.placed
    for index, house in enumerate(board.houses):
        once = twice = held = left = 0  # (a value's places: its open cells, as masks)
        for c in house:
            if placed[c]:
                held |= 1 << (placed[c] - 1)
                continue
            left += 1
            twice |= once & masks[c]
            once |= masks[c]
        if left == 1:
            return EXPLAINER_SINGLES["full house"]
        if once & ~twice & ~held:
            kind = "box" if index in board.boxes else "house"
            best = min(best, EXPLAINER_SINGLES[kind])
    return best


def technique_of(step: Step) -> Technique:
    """What a step of a path is weighed as (the path sets it on every step it makes)."""
    assert step.technique is not None, step.name
    return step.technique
