"""Forcing chains: each candidate of a cell (or each place of a value in a house)
followed through singles (and, dynamic, locked candidates; for a variant, its
rules); one that ends in a contradiction goes, and what every choice removes
goes. Their weights on Sudoku Explainer's scale, with its chain-length bonus.

Branches are followed on masks, without steps (:class:`Propagation`): a hard
puzzle follows thousands. A step found is written out when shown
(:mod:`chains`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any

from sudosat.core.masks import bit, lowest, packed
from sudosat.core.masks import values as bits
from sudosat.logic import bitboard
from sudosat.logic.board import Board, Candidate, Step, Technique
from sudosat.logic.levels import Family, Level

Finder = Callable[[Board], "Step | None"]

DYNAMIC = 8.5
"""Dynamic forcing chains on Sudoku Explainer's scale, before the length bonus."""
CONTRADICTION = "dynamic contradiction chain"
"""A candidate whose branch, followed by singles, breaks the grid."""
FORCING = Technique("forcing chains", Family.FORCING, 8.0, Level.EXPERT)
DYNAMIC_FORCING = Technique("dynamic forcing chains", Family.FORCING, DYNAMIC, Level.EXPERT)
"""The forcing chains, weighed on Sudoku Explainer's scale."""
PLUS = 9.0
"""Sudoku Explainer's dynamic forcing chains (+), before the length bonus."""
PLUS_NAME = "dynamic contradiction chain (+)"
DYNAMIC_PLUS = Technique("dynamic forcing chains (+)", Family.FORCING, PLUS, Level.EXPERT)


def length_bonus(length: int) -> float:
    """Sudoku Explainer's bonus for a chain of ``length`` nodes: a tenth for each of
    the thresholds 4, 6, 8, 12, 16, 24, ... (x3/2 and x4/3 in turn) that its
    length less 2 exceeds."""
    bonus, threshold, half = 0.0, 4, True
    while length - 2 > threshold:
        bonus += 0.1
        threshold = threshold * 3 // 2 if half else threshold * 4 // 3
        half = not half
    return round(bonus, 1)


def contradiction_chain(length: int, plus: bool = False) -> Technique:
    """A dynamic contradiction chain (``plus``: followed through pairs too), weighed
    by its length as Sudoku Explainer weighs chains (see :func:`length_bonus`)."""
    base, name = (PLUS, PLUS_NAME) if plus else (DYNAMIC, CONTRADICTION)
    weight = round(base + length_bonus(length), 1)
    return Technique(f"{name}, length {length}", Family.FORCING, weight, Level.EXPERT)


# --- forcing chains and bifurcation ---------------------------------------------------


def propagate(board: Board, cell: int, value: int, locked: bool = False) -> list[int] | None:
    """The candidates once ``cell`` holds ``value`` and naked and hidden singles (and,
    ``locked``, locked candidates) have run out; None: a contradiction."""
    run = Propagation(board)
    run.todo.append((cell, value))
    return run.settle(locked)


def plus_forcing(
    truth: Callable[[], Sequence[int] | None], settled: Settled | None = None
) -> Finder:
    """Sudoku Explainer's dynamic forcing chains (+): each candidate followed through
    singles and, each time they run out, locked candidates and then naked and hidden
    pairs; of those that break the grid, the one that removes fewest candidates on
    the way goes (SE takes its shortest chain; the removals are what a chain can be
    made of, an upper bound of its nodes). A candidate the solution holds (when
    known) cannot break: it is not followed. A branch the dynamic forcing chains
    followed on this board (``settled``) goes on from where they stopped."""

    def find(board: Board) -> Step | None:
        known = truth()
        kept = settled.of(board) if settled is not None else {}
        shut = settled.shut(board) if settled is not None else closure(board)
        earlier = settled.within("plus", board) if settled is not None else {}
        whole: dict[Candidate, Propagation] = {}
        best: tuple[int, int, int] | None = None
        for c in sorted(board.open_cells(), key=lambda c: board.masks[c].bit_count()):
            for v in bits(board.masks[c]):
                if known is not None and known[c] & bit(v):
                    continue
                # a branch that did not break on an earlier board goes on from there
                run = _went_on(earlier.get((c, v)), board, True, pairs=True)
                if run is not None:
                    whole[c, v] = run
                    continue
                # one that breaks is followed again from the start, for its length: a
                # branch the dynamic chains followed (with the houses it changed, as
                # started) goes on; one not followed, or broken by them, starts here
                kept_run = kept.get((c, v))
                run = Propagation.start(board, c, v, shut) if kept_run is None else kept_run.copy()
                if run.settle(True, pairs=True) is None:
                    length = run.removed()
                    if best is None or length < best[0]:
                        best = (length, c, v)
                else:
                    whole[c, v] = run
        if settled is not None:
            settled.keep("plus", board, whole)
        if best is None:
            return None
        length, c, v = best
        return Step(
            PLUS_NAME,
            technique=contradiction_chain(length, plus=True),
            eliminations=((c, v),),
            cells=(c,),
            values=(v,),
            reason=f"{board.name(c)}={board.symbol(v)} leads through singles, locked "
            "candidates and pairs to a contradiction",
            branches=((c, v),),
            dynamic=True,
            pairs=True,
            length=length,
        )

    return find


class Propagation:
    """A board's candidates copied and reasoned on quickly, without steps: the
    placements still to make (``todo``) and the houses whose candidates changed
    since they were last looked at (``dirty``)."""

    def __init__(
        self, board: Board, masks: list[int] | None = None, placed: list[int] | None = None
    ) -> None:
        self.board = board
        self.masks = list(board.masks if masks is None else masks)
        self.placed = list(board.placed if placed is None else placed)
        self.todo: list[tuple[int, int]] = []
        self.dirty: set[int] = set()
        self.touched: set[int] | None = None
        """The houses changed since :meth:`pairs` last looked (None: it has not)."""
        self.touched_locked: set[int] | None = None
        """The same for :meth:`locked`."""
        self.shape = bitboard.shape_of(board)
        """The board's shape for the compiled engine (None: :meth:`settle` in Python)."""

    @classmethod
    def start(cls, board: Board, cell: int, value: int, shut: tuple[bool, bool]) -> Propagation:
        """The branch where ``cell`` holds ``value``; on a board with no locked
        candidates (no pair) to take, ``shut`` says so (see :func:`closure`), and
        they are looked for only in the houses the branch changes."""
        run = cls(board)
        run.todo.append((cell, value))
        run.touched_locked = set() if shut[0] else None
        run.touched = set() if shut[1] else None
        return run

    def copy(self) -> Propagation:
        """The same branch, to go on with apart."""
        found = Propagation(self.board, self.masks, self.placed)
        found.todo, found.dirty = list(self.todo), set(self.dirty)
        found.touched = None if self.touched is None else set(self.touched)
        found.touched_locked = None if self.touched_locked is None else set(self.touched_locked)
        return found

    def within(self, board: Board) -> Propagation | None:
        """This branch, settled on an earlier board, carried to ``board`` (whose
        candidates are some of that board's): its candidates those of both, the
        houses that lost some to look at again; None if a cell has none left."""
        run = Propagation(board, placed=self.placed)
        run.touched, run.touched_locked = set(), set()
        for c, (mine, theirs) in enumerate(zip(self.masks, board.masks, strict=True)):
            m = mine & theirs
            if m != mine:
                if not m:
                    return None
                run.dirty.update(board.cell_houses[c])
                if not run.placed[c] and not m & (m - 1):
                    run.todo.append((c, m.bit_length()))
            run.masks[c] = m
        return run

    def went_on(self, board: Board, locked: bool, pairs: bool) -> Propagation | None:
        """This branch carried to ``board`` (:meth:`within`) and settled there; None
        if it breaks (in the engine, both in one call)."""
        if self.shape is None:
            carried = self.within(board)
            return carried if carried and carried.settle(locked, pairs) is not None else None
        run = Propagation(board, self.masks, self.placed)
        run.touched, run.touched_locked = set(), set()
        return run if bitboard.settle(run, locked, pairs, board.masks) else None

    def settle(self, locked: bool = False, pairs: bool = False) -> list[int] | None:
        """Singles (and ``locked`` candidates, and then naked and hidden ``pairs``)
        until nothing changes: the candidates, or None for a contradiction. In
        the compiled engine where it is built, step for step as in Python."""
        if self.shape is not None:
            return self.masks if bitboard.settle(self, locked, pairs) else None
        while True:
            if not self.singles():
                return None
            if locked and self.locked():
                continue
            if not pairs or not self.pairs():
                return self.masks

    def removed(self) -> int:
        """How many of the board's candidates this branch has removed."""
        return sum(
            (was & ~now).bit_count() for was, now in zip(self.board.masks, self.masks, strict=True)
        )

    def pairs(self) -> bool:
        """One round of naked and hidden pairs; whether it removed anything. The
        same rules as a written chain's (:meth:`chains.Trace._pairs`): two cells
        with the same two values (the first two, if more) clear them from the
        house; two values with the same two places (the first two, if more) clear
        those cells of the rest. A third of either breaks the grid."""
        board, masks, placed = self.board, self.masks, self.placed
        changed = False
        # a house unchanged since the last round has no new pair (the first looks at all)
        looked = range(len(board.houses)) if self.touched is None else sorted(self.touched)
        self.touched = set()
        for index in looked:
            house = board.houses[index]
            open_cells = [c for c in house if not placed[c]]
            by_mask: dict[int, list[int]] = {}
            for c in open_cells:
                if masks[c].bit_count() == 2:
                    by_mask.setdefault(masks[c], []).append(c)
            for mask, cells in by_mask.items():
                if len(cells) >= 2:
                    for other in open_cells:
                        if other not in cells[:2] and masks[other] & mask:
                            changed |= self._remove(other, mask)
            once = twice = more = 0  # the values with one, two, more places
            for c in house:
                m = masks[c]
                more |= twice & m
                twice |= once & m
                once |= m
            by_places: dict[tuple[int, ...], int] = {}
            for value in bits(twice & ~more):
                b = bit(value)
                places = tuple(c for c in house if masks[c] & b)
                if not (placed[places[0]] or placed[places[1]]):
                    by_places[places] = by_places.get(places, 0) | b
            for places, values in by_places.items():
                if values.bit_count() >= 2:
                    keep = lowest(values, 2)
                    for c in places:
                        if masks[c] & ~keep:
                            changed |= self._remove(c, masks[c] & ~keep)
        return changed

    def _remove(self, cell: int, gone: int) -> bool:
        """Candidates ``gone`` leave ``cell`` (a single left is placed next)."""
        masks = self.masks
        masks[cell] &= ~gone
        self.dirty.update(self.board.cell_houses[cell])
        m = masks[cell]
        if m and not m & (m - 1):
            self.todo.append((cell, m.bit_length()))
        return True

    def singles(self) -> bool:
        """Naked and hidden singles to a fixpoint, in rounds; False: a contradiction.
        The placements waiting in ``todo`` are made first in, first out (each value
        leaving its peers in the board's order); then a round
        (:meth:`Board.singles_in`) finds the next in the houses that changed. A
        chain written out (:class:`trace.Trace`) walks the same rounds, so a
        branch's removals before it breaks, which choose the shortest chain, are
        counted in the order its chain is written. The engine's reference, step
        for step."""
        masks, placed, todo, dirty = self.masks, self.placed, self.todo, self.dirty
        board = self.board
        cell_houses, peers = board.cell_houses, board.peers
        while True:
            for c, v in todo:
                if placed[c]:
                    if placed[c] != v:
                        return False
                    continue
                b = bit(v)
                if not masks[c] & b:
                    return False
                placed[c] = v
                masks[c] = b
                dirty.update(cell_houses[c])
                for p in peers[c]:
                    if masks[p] & b:
                        masks[p] &= ~b
                        if not masks[p]:
                            return False
                        dirty.update(cell_houses[p])
            todo.clear()
            if not dirty:
                return True
            if self.touched is not None:
                self.touched |= dirty
            if self.touched_locked is not None:
                self.touched_locked |= dirty
            checking = sorted(dirty)
            dirty.clear()
            for cell, value, _ in board.singles_in(masks, placed, checking):
                if cell < 0:
                    return False
                todo.append((cell, value))
            if not todo:
                return True

    def locked(self) -> bool:
        """One round of locked candidates; whether it removed anything."""
        board, masks = self.board, self.masks
        changed = False
        # a house unchanged since the last round locks nothing new (the first looks at all)
        if self.touched_locked is None:
            meetings = board.meeting_cells
        else:
            meetings = [m for h in sorted(self.touched_locked) for m in board.meetings_from[h]]
        self.touched_locked = set()
        for common, rest, targets in meetings:
            inside = twice = 0
            for c in common:
                twice |= inside & masks[c]
                inside |= masks[c]
            if not twice:  # (two places or more: one is a single's, as traced)
                continue
            outside = 0
            for c in rest:
                outside |= masks[c]
            locked = twice & ~outside
            if not locked:
                continue
            for c in targets:
                if masks[c] & locked and not self.placed[c]:
                    changed |= self._remove(c, locked)
        return changed


def closure(board: Board) -> tuple[bool, bool]:
    """Whether the board has no locked candidates and no pair left to take (as a
    path's boards have once those techniques ran): a branch then finds them only in
    the houses it changes."""
    return not Propagation(board).locked(), not Propagation(board).pairs()


class Settled:
    """The branches of one board followed through singles and locked candidates (by
    the dynamic forcing chains), kept for the forcing chains (+), which go on from
    where they stopped: a branch is followed once on a board, not twice."""

    def __init__(self) -> None:
        self.masks: list[int] = []
        self.runs: dict[Candidate, Propagation | None] = {}
        self.closed: tuple[bool, bool] | None = None
        """The board's :func:`closure`, once asked (both finders start from it)."""
        self.settled: dict[str, tuple[list[int], dict[Candidate, Propagation]]] = {}
        """Each finder's branches that did not break, settled, with the candidates of
        the board it last looked at (see :meth:`within`)."""

    def of(self, board: Board) -> dict[Candidate, Propagation | None]:
        """The branches kept for ``board`` (none once its candidates change)."""
        if self.masks != board.masks:
            self.masks, self.runs, self.closed = list(board.masks), {}, None
        return self.runs

    def within(self, finder: str, board: Board) -> dict[Candidate, Propagation]:
        """The branches ``finder`` kept settled on the boards before, if ``board``
        has only candidates of those (a later board of the same path); none else.
        Each goes on from there (:meth:`Propagation.within`): the rules only remove,
        so a branch settles the same whichever way it gets there."""
        masks, runs = self.settled.get(finder, ([], {}))
        if len(masks) != len(board.masks):
            return {}
        if any(now & ~was for now, was in zip(board.masks, masks, strict=True)):
            return {}
        return runs

    def keep(self, finder: str, board: Board, runs: dict[Candidate, Propagation]) -> None:
        """``finder``'s branches that did not break on ``board``, settled, kept with
        those of the boards before."""
        self.settled[finder] = (list(board.masks), {**self.within(finder, board), **runs})

    def shut(self, board: Board) -> tuple[bool, bool]:
        """The board's :func:`closure`, worked out once for both finders."""
        self.of(board)
        if self.closed is None:
            self.closed = closure(board)
        return self.closed


def _went_on(
    before: Propagation | None, board: Board, locked: bool, pairs: bool = False
) -> Propagation | None:
    """A branch that did not break on an earlier board (``before``, kept by
    :class:`Settled`), gone on from where it settled there to settle on ``board``;
    None if it breaks now (or none was kept). Whichever way it gets there, a
    branch settles the same, so one that does not break now would not have from
    the start either."""
    return None if before is None else before.went_on(board, locked, pairs)


def _kept_by_any(boards: list[list[int]], cell: int) -> int:
    """The candidates of ``cell`` that one of ``boards`` at least keeps."""
    kept = 0
    for masks in boards:
        kept |= masks[cell]
    return kept


def _branches(board: Board) -> Iterator[tuple[str, list[Candidate], tuple[int, ...], str]]:
    """Sets of candidates one of which is true: each cell's (fewest first), then each
    house's places for a value."""
    open_cells = sorted(board.open_cells(), key=lambda c: board.masks[c].bit_count())
    for c in open_cells:
        if board.masks[c].bit_count() <= 4:
            yield "cell", [(c, v) for v in bits(board.masks[c])], (c,), board.name(c)
    for house in range(len(board.houses)):
        for value in bits(board.missing(house)):
            places = board.places(house, value)
            if 2 <= len(places) <= 3:
                name = f"{board.symbol(value)} in {board.house_names[house]}"
                yield "house", [(c, value) for c in places], tuple(places), name


def fewest_breaking(board: Board, order: Sequence[tuple[int, int, Any]]) -> int:
    """The index of the first of ``order`` (cell, value, ...) whose branch breaks the
    grid by singles having removed fewest candidates (-1: none breaks): the
    shortest chain, as Sudoku Explainer takes it (the removals are what the chain
    is made of). The engine's reference (:func:`bitboard.fewest_breaking`)."""
    best, fewest = -1, 0
    for i, (c, v, _) in enumerate(order):
        run = Propagation.start(board, c, v, (False, False))
        if run.settle() is None:
            removed = run.removed()
            if best < 0 or removed < fewest:
                best, fewest = i, removed
    return best


Follower = Callable[[Board, int, int, bool], "list[int] | None"]
"""How a branch is followed: (board, cell, value, locked) to the candidates it
leaves (None: a contradiction)."""


def forcing(
    dynamic: bool,
    follower: Follower | None = None,
    words: str = "singles",
    settled: Settled | None = None,
) -> Finder:
    """Each candidate of a cell (or each place of a value in a house) followed through
    singles (``dynamic``: and locked candidates; ``follower``: another way, such as
    a variant's rules, named by ``words``): one that ends in a contradiction goes
    (static, through singles alone: of those that do, the one removing fewest on the
    way, the shortest chain; else the first); what every choice removes goes.
    ``settled``: where the branches are kept for the forcing chains (+) (classic
    dynamic ones only)."""
    prefix = "dynamic " if dynamic else ""
    technique = DYNAMIC_FORCING if dynamic else FORCING
    through = f"{words} and locked candidates" if dynamic else words

    def find(board: Board) -> Step | None:
        whole: dict[Candidate, Propagation] = {}
        try:
            return search(board, whole)
        finally:
            if settled is not None:
                settled.keep("dynamic", board, whole)

    def search(board: Board, whole: dict[Candidate, Propagation]) -> Step | None:
        """The step, if any; each branch followed that does not break goes into
        ``whole``, settled."""
        branches = board.kept("forcing branches", lambda: list(_branches(board)))
        outcomes: dict[Candidate, list[int] | None] = {}

        kept = settled.of(board) if settled is not None else None
        if follower is not None or not dynamic:
            shut = (False, False)
        else:
            shut = settled.shut(board) if settled is not None else closure(board)
        earlier = settled.within("dynamic", board) if settled is not None else {}

        def follow(c: int, v: int) -> list[int] | None:
            if (c, v) not in outcomes:
                if follower is not None:
                    outcomes[c, v] = follower(board, c, v, dynamic)
                    return outcomes[c, v]
                # a branch that did not break on an earlier board goes on from there;
                # one that breaks now is followed from the start, and kept for the
                # forcing chains (+) as it was started
                run = _went_on(earlier.get((c, v)), board, dynamic)
                if run is not None:
                    whole[c, v] = run
                    outcomes[c, v] = run.masks
                    return run.masks
                run = Propagation.start(board, c, v, shut)
                outcomes[c, v] = run.settle(dynamic)
                if kept is not None:
                    kept[c, v] = run if outcomes[c, v] is not None else None
                if outcomes[c, v] is not None:
                    whole[c, v] = run
            return outcomes[c, v]

        order = [(c, v, cells) for _, options, cells, _ in branches for c, v in options]
        if follower is None and not dynamic:  # of the branches that break, the shortest
            first = bitboard.fewest_breaking(board, order)
            if first is None:
                first = fewest_breaking(board, order)
        else:  # the first branch that breaks (dynamic: following them all for the
            # shortest cost 4% of the hardest paths for a fact or two a chain)
            first = next((i for i, (c, v, _) in enumerate(order) if follow(c, v) is None), -1)
        if first >= 0:
            c, v, cells = order[first]
            return Step(
                f"{prefix}contradiction chain",
                technique=technique,
                eliminations=((c, v),),
                cells=cells,
                values=(v,),
                reason=f"{board.name(c)}={board.symbol(v)} leads through {through} "
                "to a contradiction",
                branches=((c, v),),
                dynamic=dynamic,
            )
        if follower is None and not dynamic:  # the first set that removes, in the engine
            at = bitboard.first_forcing(board, [options for _, options, _, _ in branches])
            if at is not None:
                branches = branches[at : at + 1] if at >= 0 else []
        size, held = board.size, board.masks
        whole_board = packed(held, size)
        packs: dict[Candidate, int] = {}  # each branch's candidates in one int (0: it breaks)
        for kind, options, cells, name in branches:
            union = 0
            for c, v in options:
                if (c, v) not in packs:
                    kept_masks = follow(c, v)
                    packs[c, v] = 0 if kept_masks is None else packed(kept_masks, size)
                union |= packs[c, v]
            if not whole_board & ~union:
                continue  # (every choice keeps every candidate: the usual case, in one OR)
            live = [m for m in (follow(c, v) for c, v in options) if m is not None]
            removed = [
                (c, v)
                for c in board.open_cells()
                if (gone := held[c] & ~_kept_by_any(live, c))
                for v in bits(gone)
            ]
            if removed:
                return Step(
                    f"{prefix}{kind} forcing chains",
                    technique=technique,
                    eliminations=tuple(removed),
                    cells=cells,
                    values=tuple(sorted({v for _, v in options})),
                    reason=f"every choice for {name} leads through {through} to this",
                    branches=tuple(options),
                    dynamic=dynamic,
                )
        return None

    return find
