"""A logical solve path: the steps a person would take, named and checked.

From the givens' candidates, each step is the first deduction of the easiest
technique that finds one (:data:`techniques.CLASSIC`, and for a variant each
rule's own steps, see :mod:`rulesteps`), until the grid is solved, nothing
applies (``stuck``), or the candidates break a rule (``contradiction``: no
solution). Bifurcation (a guess followed until it fails) comes last, only
when asked for, and is named with its depth.

Every step is checked against the true candidates (the values some solution
puts in a cell, see :mod:`candidates`): one that removes a true candidate is a
bug in a technique, raised as :class:`UnsoundStep` and never shown.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Collection, Iterable, Sequence
from functools import partial

from sudosat.core.masks import bit
from sudosat.core.masks import values as bits
from sudosat.core.puzzle import Puzzle, a_puzzle, cell_name, verify
from sudosat.logic.bitboard import singles_shape, walk_singles
from sudosat.logic.board import Board, Step, Technique, board_of
from sudosat.logic.branches import DEEP_BUDGET
from sudosat.logic.forcing import (
    DYNAMIC_FORCING,
    DYNAMIC_PLUS,
    FORCING,
    Finder,
    Settled,
    forcing,
    plus_forcing,
    propagate,
)
from sudosat.logic.intermediate import (
    BUG,
    UNIQUE_RECTANGLE,
    bug_plus_one,
    unique,
    unique_rectangle,
)
from sudosat.logic.levels import End, Family, Level
from sudosat.logic.nested import SCALES, VARIANT_DEEP_BUDGET, Solver, classic_solver, nested
from sudosat.logic.solve_path import RatedPath, Singles, SolvePath, technique_of
from sudosat.logic.techniques import CLASSIC, NAKED_SINGLE
from sudosat.sat.deadline import deadline_after
from sudosat.sat.limits import TooBig
from sudosat.solving.outcome import Outcome, Status

FORCING_KINDS = {FORCING: False, DYNAMIC_FORCING: True}
"""The forcing chains, and whether each is dynamic: for a variant they follow its
rules too."""

NESTED = frozenset(name for name, *_ in SCALES.values())
"""The nested chains' techniques (both depths): on a classic path, asked only when
nothing before them finds a step (see :func:`_easiest`)."""

BIFURCATION_WEIGHT = 9.0
"""Bifurcation's weight at depth 1; each level deeper adds one."""


BRANCH_WEIGHT = 7.0
"""Inside a guess, only techniques up to this weight are followed (everything up
to AIC, no forcing chains): a guess is refuted by them, or by guessing deeper."""


def nested_technique(
    solver: Solver,
    truth: Callable[[], Sequence[int] | None],
    words: str = "singles",
    depth: int = 2,
    budget: int = DEEP_BUDGET,
    past: Callable[[], bool] = lambda: False,
    every: bool = True,
) -> tuple[Technique, Finder]:
    """Nested forcing chains over ``solver``'s singles; at ``depth`` 3 the last
    technique, given up past ``budget`` branches; either given up once ``past()``;
    of ``every`` false candidate (else the first found: a variant's)."""
    name, weight, *_ = SCALES[depth]
    found = nested(solver, truth, words, depth, budget, past, every)
    return Technique(name, Family.FORCING, weight, Level.EXPERT), found


class UnsoundStep(AssertionError):
    """A technique removed a value some solution puts there: a bug, never shown."""


def _easiest(
    board: Board, order: Sequence[tuple[Technique, Finder]], last: Collection[str] = ()
) -> Step | None:
    """The first step of the easiest technique of ``order`` (lightest first) that
    finds one: a technique is asked while it weighs less than the best step yet
    (a rule question's step may weigh more than its question); the techniques
    named in ``last`` (at the end of the order: a classic path's nested chains)
    only when no technique before them finds a step, as Sudoku Explainer asks a
    deeper level of its chains only when the one before finds nothing."""
    best: Step | None = None
    for technique, find in order:
        if best is not None and (
            technique.weight >= technique_of(best).weight or technique.name in last
        ):
            break
        step = find(board)
        if step is None:
            continue
        if best is None or technique_of(step).weight < technique_of(best).weight:
            best = step
    return best


def truth_of(puzzle: Puzzle, timeout: float | None = None) -> list[int] | None:
    """Each cell's true candidates as masks (None: no solution), from :mod:`outright`."""
    return _truth(puzzle, timeout)[1]


def _truth(puzzle: Puzzle, timeout: float | None) -> tuple[Outcome, list[int] | None]:
    from sudosat.logic.outright import candidates  # deferred: a solver, for this alone

    found = candidates(puzzle, timeout=timeout)
    if found.outcome.status != Status.NONE and found.outcome.status != Status.TIMEOUT:
        return found.outcome, [sum(bit(v) for v in values) for values in found.marks]
    return found.outcome, None


PATH_LARGEST = 36
"""The largest grid a path is made for: its peers (each cell's, as sets) grow with
the fourth power of the rank; a 400x400's would take gigabytes."""


def check_size(puzzle: Puzzle) -> None:
    """TooBig (an InputError, exit 2) for a grid past :data:`PATH_LARGEST`."""
    if puzzle.size > PATH_LARGEST:
        n = puzzle.size
        raise TooBig(
            puzzle.source,
            puzzle.line,
            1,
            f"a logical path is made for grids up to {PATH_LARGEST}x{PATH_LARGEST}, "
            f"not {n}x{n} (rate --by search rates it)",
        )


class MarksError(ValueError):
    """Pencil marks that rule out a value some solution holds."""


def logical_path(
    puzzle: Puzzle,
    *,
    bifurcation: int = 0,
    marks: Sequence[int] | None = None,
    hint: bool = False,
    timeout: float | None = None,
    without: Iterable[str] = (),
    on_step: Callable[[Step, tuple[int, ...]], None] | None = None,
) -> SolvePath:
    """What ``sudosat steps`` answers for one puzzle: its true candidates first
    (the status, and what every step is checked against), then its path, or its
    first step (``hint``) from the givens or from pencil ``marks`` (a mask per
    cell), ``without`` the techniques named; ``on_step`` is told of each step as
    it is made, with the candidates the path started from. Past ``timeout`` the
    path ends ``timeout`` with the steps made (the nested search and a variant's
    rule questions stop inside their step).
    MarksError when the marks rule out a true candidate."""
    puzzle = a_puzzle(puzzle, "logical_path")
    check_size(puzzle)
    deadline = deadline_after(timeout)
    outcome, truth = _truth(puzzle, timeout)
    if outcome.status == Status.TIMEOUT:
        board = board_of(puzzle)
        reason = outcome.reason or "the true candidates took all the time"
        return SolvePath(puzzle, [], board, End.TIMEOUT, reason, outcome=outcome)
    if marks is not None and truth is not None:
        for cell, (mark, true) in enumerate(zip(marks, truth, strict=True)):
            lost = true & ~mark
            if lost:
                value = puzzle.symbol(bits(lost)[0])
                raise MarksError(
                    f"the marks rule out {cell_name(puzzle.size, cell)}={value}, "
                    "which a solution holds"
                )
    with Pathfinder(puzzle, bifurcation, without=without) as finder:
        found = finder.path(truth, marks, hint, on_step, deadline)
    outcome.stats.time += found.seconds  # the record's time: the candidates and the path
    found.outcome = outcome
    return found


def with_uniqueness(
    order: list[tuple[Technique, Finder]], truth: Callable[[], Sequence[int] | None]
) -> list[tuple[Technique, Finder]]:
    """A classic path's techniques with unique rectangles and BUG+1 among them, each
    before the first technique heavier than it, asked only of a puzzle whose true
    candidates say it has one solution (for classic Sudoku alone: a variant's
    rules, a diagonal or a jigsaw's regions may tell a rectangle's two fillings
    apart)."""
    added = [
        (UNIQUE_RECTANGLE[1], unique(truth, unique_rectangle)),
        (BUG, unique(truth, bug_plus_one)),
    ]
    found = list(order)
    for technique, find in added:
        at = next(i for i, (t, _) in enumerate(found) if t.weight > technique.weight)
        found.insert(at, (technique, find))
    return found


class Pathfinder:
    """The techniques of one puzzle, in order, and the steps they take."""

    def __init__(
        self,
        puzzle: Puzzle,
        bifurcation: int = 0,
        levels: Collection[str] | None = None,
        upto: Level | None = None,
        without: Iterable[str] = (),
    ) -> None:
        """``bifurcation``: how deep guesses may go (0: none); ``levels``: the
        techniques of these levels alone; ``upto``: the path
        ends (``stuck``) at its first step past this level, as a rating would
        find it (:meth:`past_level`); ``without``: the families of
        techniques left out (see :data:`techniques.FAMILIES`)."""
        self.puzzle = puzzle
        self.bifurcation = bifurcation
        self.deadline: float | None = None
        """When the path being made must end (a ``time.monotonic()``; None: never):
        the longest searches stop inside a step once it passes (:meth:`past`)."""
        self.rule_steps = None
        self.truth: Sequence[int] | None = None
        self.last: frozenset[str] = frozenset()
        """The techniques asked only when none before them finds a step."""
        constraints = puzzle.constraints
        self.rule_houses = [
            (house, rule.describe(puzzle.size))
            for rule in constraints
            for house in rule.houses(puzzle.layout)
        ]
        order: list[tuple[Technique, Finder]] = []
        if any(not rule.houses(puzzle.layout) for rule in constraints):
            from sudosat.logic.rulesteps import RuleSteps  # deferred: variants only
            from sudosat.logic.ruleweights import TIERS  # (the same)

            steps = self.rule_steps = RuleSteps(puzzle)
            steps.past = self.past
            tiers = [(t, partial(steps.step, tier=t)) for t in TIERS]
            for technique, find in CLASSIC:
                while tiers and tiers[0][0].weight < technique.weight:
                    order.append(tiers.pop(0))  # after the classic techniques of its weight
                if technique in FORCING_KINDS:  # they follow the rules too
                    find = forcing(FORCING_KINDS[technique], steps.propagate, "the rules")
                order.append((technique, find))
            words, past = "singles and the rules", self.past
            order.append(nested_technique(steps.fresh, self.true, words, past=past, every=False))
            deep = nested_technique(steps.fresh, self.true, words, 3, VARIANT_DEEP_BUDGET, past)
            order.append(deep)
        else:
            # SE's order: forcing chains through pairs before any chain nested in
            # another, going on from the dynamic forcing chains' branches
            settled = Settled()
            order = [
                (t, forcing(True, settled=settled) if t is DYNAMIC_FORCING else find)
                for t, find in CLASSIC
            ]
            if puzzle.classic:  # (a diagonal or a jigsaw's regions may tell the fillings apart)
                order = with_uniqueness(order, self.true)
            order.append((DYNAMIC_PLUS, plus_forcing(self.true, settled)))
            order.append(nested_technique(classic_solver, self.true, past=self.past))
            order.append(nested_technique(classic_solver, self.true, depth=3, past=self.past))
            self.last = NESTED
        if levels is not None:
            order = [(t, find) for t, find in order if t.level in levels]
        self.upto = upto
        if upto is not None:  # a technique heavier than all of the level's is never taken
            heaviest = max(t.weight for t, _ in order if t.level.order <= upto.order)
            order = [(t, find) for t, find in order if t.weight <= heaviest]
        left = frozenset(without)
        self.order = [(t, find) for t, find in order if t.family not in left]

    def past_level(self, step: Step) -> bool:
        """Whether ``step`` is past the level the path is kept to (``upto``)."""
        return self.upto is not None and technique_of(step).level.order > self.upto.order

    def past(self) -> bool:
        """Whether the path's deadline has passed."""
        return self.deadline is not None and time.monotonic() > self.deadline

    def true(self) -> Sequence[int] | None:
        """The true candidates of the path being made (None: not known)."""
        return self.truth

    def close(self) -> None:
        if self.rule_steps is not None:
            self.rule_steps.close()

    def __enter__(self) -> Pathfinder:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def board(
        self,
        marks: Sequence[int] | None = None,
        puzzle: Puzzle | None = None,
        place_lone: bool = True,
    ) -> Board:
        """The givens' board (of ``puzzle``, when given: the same rules, other givens);
        ``marks``: candidates a solver has pencilled in (a cell with one mark counts
        as placed, unless not ``place_lone``: then a naked single places it, named)."""
        board = board_of(puzzle or self.puzzle, self.rule_houses)
        if marks is not None:
            for cell, mark in enumerate(marks):
                board.masks[cell] &= mark
            board.changed()
            for cell, mark in enumerate(marks if place_lone else ()):
                one = mark and not mark & (mark - 1)
                if one and not board.placed[cell] and board.masks[cell] & mark:
                    board.place_silently(cell, mark.bit_length())
        return board

    def next_step(self, board: Board) -> Step | None:
        """The easiest technique's first step on ``board`` (not yet made), with what
        it is weighed as. A rule question's step weighs what its smallest part
        needed: when that is more than the question's own weight, the lighter
        techniques after it are asked first, as a person would try them."""
        order = self.order
        settled = self._only_true_left(board)
        if settled:  # no sound step removes a candidate now: a lone one may still be placed
            order = [(t, find) for t, find in order if t is NAKED_SINGLE]
        best = _easiest(board, order, self.last)
        if best is None and self.bifurcation and not settled:
            best = self._bifurcate(board)
        if best is not None and self.rule_steps is not None:
            said = self.rule_steps.said(board, best)
            if said is best and self.rule_steps.last_resort(best):
                # a question of many parts that no chain says: the nested chains, which
                # show their implication link by link, are asked first
                weight = technique_of(best).weight
                heavier = [(t, f) for t, f in order if t.weight > weight]
                said = _easiest(board, heavier) or best
            best = said
        return best

    def _only_true_left(self, board: Board) -> bool:
        """Whether every candidate left is in a solution (the true candidates are
        known): then nothing sound can remove one, and the path is stuck once the
        lone candidates are placed; the techniques are not asked (the nested
        chains would try every branch in vain)."""
        truth = self.truth
        return truth is not None and all(
            not m & ~t for m, t in zip(board.masks, truth, strict=True)
        )

    def path(
        self,
        truth: Sequence[int] | None,
        marks: Sequence[int] | None = None,
        hint: bool = False,
        on_step: Callable[[Step, tuple[int, ...]], None] | None = None,
        deadline: float | None = None,
        puzzle: Puzzle | None = None,
        place_lone: bool = True,
    ) -> SolvePath:
        """Steps until solved, stuck or a contradiction (or ``deadline``, a
        ``time.monotonic()``, passes: ``timeout``); each checked against ``truth``
        (the true candidates; None: there is no solution). ``place_lone``: see
        :meth:`board`."""
        start = time.perf_counter()
        self.truth, self.deadline = truth, deadline
        board = self.board(marks, puzzle, place_lone)
        first, opening = tuple(board.masks), board.copy()
        steps: list[Step] = []
        end, reason = End.STUCK, ""
        while True:
            why = board.contradiction()
            if why:
                end, reason = End.CONTRADICTION, why
                break
            if board.solved:
                broken = verify(board.puzzle, board.placed)
                end, reason = (End.CONTRADICTION, broken[0]) if broken else (End.SOLVED, "")
                break
            step = None if self.past() else self.next_step(board)
            if step is None and self.past():  # (before the step, or given up inside it)
                end, reason = End.TIMEOUT, f"{len(steps)} steps made in the time given"
                break
            if step is None:
                reason = "no technique of the path applies"
                break
            if self.past_level(step):
                reason = f"{step.name} is past {self.upto}"
                break
            if not step.eliminations and not step.placements:  # a rule that cannot hold
                steps.append(step)
                end, reason = End.CONTRADICTION, step.reason
                break
            made = board.apply(step)
            _check(made, truth, board)
            steps.append(made)
            if on_step is not None:
                on_step(made, first)
            if hint:
                end = End.HINT
                break
        seconds = time.perf_counter() - start
        return SolvePath(
            board.puzzle,
            steps,
            board,
            end,
            reason,
            seconds,
            start=first,
            opening=opening,
            hint=hint,
        )

    def rated(
        self,
        truth: Sequence[int] | None,
        deadline: float | None = None,
        puzzle: Puzzle | None = None,
    ) -> RatedPath | None:
        """The path as :meth:`path` makes it, each run of singles taken by the
        compiled engine in one call (the path's own order, one at a time), the
        other steps as the path takes them: what a rating reads, many times
        faster. None where the engine is not built, or the path has rule
        questions or guesses (those keep to :meth:`path`). ``puzzle``: as
        :meth:`path` takes it."""
        board = self.board(puzzle=puzzle)
        shape = singles_shape(board)
        if shape is None or self.rule_steps is not None or self.bifurcation:
            return None
        self.truth, self.deadline = truth, deadline
        order = [(t, find) for t, find in self.order if t.family != Family.SINGLES]
        parts: list[Step | Singles] = []
        while True:
            end, naked, hidden, first, heaviest = walk_singles(shape, board)
            if naked or hidden:
                parts.append(Singles(naked, hidden, first / 10, heaviest / 10))
                _check_all(board, truth)
            if end:
                solved = end == 1 and not verify(board.puzzle, board.placed)
                return RatedPath(End.SOLVED if solved else End.CONTRADICTION, parts, board)
            if self.past():
                return RatedPath(End.TIMEOUT, parts, board)
            step = None if self._only_true_left(board) else _easiest(board, order, self.last)
            if step is None or self.past_level(step):
                return RatedPath(End.TIMEOUT if self.past() else End.STUCK, parts, board)
            if not step.eliminations and not step.placements:
                return RatedPath(End.CONTRADICTION, parts, board)
            made = board.apply(step)
            _check(made, truth, board)
            parts.append(made)

    def open_cells(self, puzzle: Puzzle) -> list[int]:
        """The cells the path leaves open in ``puzzle`` (these rules, other givens);
        every cell when it ends in a contradiction."""
        found: RatedPath | SolvePath | None = self.rated(None, puzzle=puzzle)
        if found is None:  # no engine: the path itself
            found = self.path(None, puzzle=puzzle)
        if found.end == End.CONTRADICTION:
            return list(range(puzzle.size**2))
        return found.board.open_cells()

    def _bifurcate(self, board: Board) -> Step | None:
        """A guess that fails, the shallowest first, in cells with fewest candidates
        first. Only values the true candidates rule out are tried: a true one
        never fails, so the solution only spares the search, never decides it."""
        open_cells = [c for c in board.open_cells() if board.masks[c].bit_count() > 1]
        open_cells.sort(key=lambda c: (board.masks[c].bit_count(), c))
        truth = self.truth
        for depth in range(1, self.bifurcation + 1):
            for cell in open_cells:
                for value in bits(board.masks[cell]):
                    if truth is not None and truth[cell] & bit(value):
                        continue
                    if self._fails(board, cell, value, depth):
                        return Step(
                            "bifurcation",
                            eliminations=((cell, value),),
                            cells=(cell,),
                            values=(value,),
                            reason=f"{board.name(cell)}={board.symbol(value)} fails "
                            f"{depth} guess{'es' if depth > 1 else ''} deep",
                            depth=depth,
                            technique=bifurcation(depth),
                        )
        return None

    def _fails(self, board: Board, cell: int, value: int, depth: int) -> bool:
        """Whether ``cell`` holding ``value`` leads to a contradiction by the path's
        techniques, guessing again (in the cell with fewest candidates) below depth 1."""
        masks = propagate(board, cell, value)
        if masks is None:
            return True
        trial = board.copy()
        trial.masks = masks  # the cells it settled are placed below
        while not trial.contradiction():
            for c in trial.open_cells():
                m = trial.masks[c]
                if not m & (m - 1):
                    trial.placed[c] = m.bit_length()
            trial.changed()
            if trial.solved:  # a full grid fails only by breaking a rule
                return bool(verify(trial.puzzle, trial.placed))
            found = None
            for technique, find in self.order:
                if technique.weight > BRANCH_WEIGHT:
                    break
                found = find(trial)
                if found is not None:
                    break
            if found is None:
                if depth <= 1:
                    return False
                guess = min(
                    (c for c in trial.open_cells() if trial.masks[c].bit_count() > 1),
                    key=lambda c: trial.masks[c].bit_count(),
                )
                return all(
                    self._fails(trial, guess, v, depth - 1) for v in bits(trial.masks[guess])
                )
            if not found.eliminations and not found.placements:
                return True
            trial.apply(found)
        return True


def bifurcation(depth: int) -> Technique:
    """A guess that fails ``depth`` guesses deep."""
    weight = BIFURCATION_WEIGHT + depth - 1
    return Technique(f"bifurcation depth {depth}", Family.BIFURCATION, weight, Level.EXPERT)


def _check_all(board: Board, truth: Sequence[int] | None) -> None:
    """Raise UnsoundStep when the board lost a true candidate (the engine's singles)."""
    if truth is None:
        return
    for cell, (mask, true) in enumerate(zip(board.masks, truth, strict=True)):
        if true & ~mask:
            value = bits(true & ~mask)[0]
            raise UnsoundStep(
                f"singles removed {board.name(cell)}={board.symbol(value)}, which a solution holds"
            )


def _check(step: Step, truth: Sequence[int] | None, board: Board) -> None:
    """Raise UnsoundStep when ``step`` removed a true candidate."""
    if truth is None:
        return
    for cell, value in step.eliminations:
        if truth[cell] & bit(value):
            raise UnsoundStep(
                f"{step.name} removed {board.name(cell)}={board.symbol(value)}, "
                "which a solution holds"
            )
