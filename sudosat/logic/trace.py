"""The traced propagation that finds a forcing chain's links: singles (and locked
candidates, pairs, a variant's rules) from a board and one assumption, each
fact with the link and the facts it follows from, and a chain cut back to the
fewest facts its end needs (:meth:`Trace.chain`). :mod:`chains` writes it out.

The search for a step (:mod:`techniques`, :mod:`forcing`) runs on masks without
tracing; a step found is traced again here, once, to write it out.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Protocol, cast

from pysat.solvers import Minicard

from sudosat.core.masks import bit, lowest
from sudosat.core.masks import values as bits
from sudosat.logic.board import Board, Candidate, Chain, Fact
from sudosat.logic.spare import without_spare
from sudosat.sat.cnf import cell_value, is_candidate, literal


class RuleParts(Protocol):
    """A variant's rules in small parts (:class:`rulesteps.RuleSteps`): what a
    chain's links through the rules are made of, each named by its part."""

    def small_scopes(self) -> Sequence[tuple[Any, str]]: ...

    def propagate_in(self, scope: Any, assumptions: list[int]) -> tuple[bool, list[int]]: ...

    def variables(self, scope: Any) -> frozenset[int]: ...


Deduce = Callable[
    [Sequence[int]],
    tuple[Sequence[tuple[Candidate, str, tuple[int, ...]]], tuple[str, tuple[int, ...]] | None],
]
"""What the rules alone say of some candidates past unit propagation
(:func:`rulelocks.held`): removals, each with its link and the cells it follows
from, or how the grid breaks and the cells that break it."""


def _facts(given: Fact | Sequence[Fact]) -> tuple[Fact, ...]:
    """A fact, or some: each of them."""
    if isinstance(given[0], int):
        return (cast(Fact, given),)
    return tuple(cast(Sequence[Fact], given))


Ways = dict[Fact, tuple[str, tuple[Fact, ...]]]
"""Each fact's link and the facts it follows from."""


def _needed(why: Ways, ends: Iterable[Fact]) -> set[Fact]:
    """The facts ``ends`` follow from, themselves included."""
    needed: set[Fact] = set()
    todo = list(ends)
    while todo:
        fact = todo.pop()
        if fact in needed or fact not in why:
            continue
        needed.add(fact)
        todo.extend(_premises_of(why, why[fact][1]))
    return needed


PLACED = frozenset({"cell", "peer"})
"""The links of a removal a placement makes (in its own cell, in a peer): as a
premise, the removal is the placement."""


def _premises_of(why: Ways, premises: Iterable[Fact]) -> tuple[Fact, ...]:
    """``premises`` as a chain shows them: a removal a placement made (in its own
    cell or a peer) is that placement; none twice."""
    shown: dict[Fact, None] = {}
    for fact in premises:
        while fact in why and why[fact][0] in PLACED:
            fact = why[fact][1][0]
        shown[fact] = None
    return tuple(shown)


class Trace:
    """Singles (and locked candidates, and a variant's rules) from a board and one
    assumption, each fact with the link and the facts it follows from: the walk
    of :class:`forcing.Propagation` (and the compiled engine), round for round
    (:meth:`Board.singles_in`), followed again for the one step that is written
    out, because only a trace keeps each fact's reason."""

    def __init__(
        self,
        board: Board,
        locked: bool = False,
        rules: Minicard | None = None,
        parts: RuleParts | None = None,
        deduce: Deduce | None = None,
        pairs: bool = False,
        within: frozenset[int] | None = None,
    ) -> None:
        self.board = board
        self.within = within
        """The houses (by index) whose singles, locked candidates and pairs a local
        chain may use (None: every house); a placement still rules out all its peers."""
        self.locked = locked
        self.pairs = pairs
        """Naked and hidden pairs too, once singles and locked candidates run out."""
        self.rules = rules
        """A variant's: a solver of every rule and unit in the full numbering; what
        singles miss, its unit propagation adds (``the rules``), each fact with the
        fewest earlier facts it still follows from (see :meth:`_by_rules`)."""
        self.parts = parts
        """The same rules in small parts: a link through the rules is made by the
        first part that makes it alone, and named by it (:meth:`_by_rules`)."""
        self.deduce = deduce
        """What a rule alone holds, asked once propagation has run out (a rule step's
        chains only: a forcing chain's links are unit propagation's)."""
        self.masks = list(board.masks)
        self.placed = list(board.placed)
        self.dirty: set[int] = set()
        """The cells whose candidates changed since the singles last looked."""
        self.chosen: dict[int, int] = {}
        """Each cell's value once a fact places it (the placement may still wait)."""
        self.why: Ways = {}
        self.order: dict[Fact, int] = {}
        self.broken: tuple[str, tuple[Fact, ...]] | None = None
        """Once the facts break the grid: how, and the facts that do."""
        self.breaks: list[tuple[str, tuple[Fact, ...], str, tuple[int, ...]]] = []
        """Each way the facts break the grid in the round that first breaks it: how,
        the facts that do, how named (``r3c8 has no candidate left``), and where.
        The chain written is the shortest of them."""
        self._board_in: dict[Any, list[int]] = {}
        """Each small part's share of the board's own assumptions."""

    def follow(self, cell: int, value: int, until: Fact | Sequence[Fact] | None = None) -> None:
        """``cell`` holds ``value``: every fact that follows, until the grid breaks or
        ``until`` (a fact, or each of some) is known."""
        placements: deque[Fact] = deque()
        self._know((cell, value, True), "assumed", (), placements)
        self._run(placements, until)

    def refuted(self, inner: Trace, cell: int, value: int) -> None:
        """``cell`` cannot hold ``value``: ``inner`` (a copy of this trace that assumed
        it) broke the grid. Every fact that follows."""
        assert inner.broken is not None
        premises = tuple(f for f in inner.chain().facts if f in self.why)
        placements: deque[Fact] = deque()
        self.masks[cell] &= ~bit(value)
        self._know((cell, value, False), "contradiction chain inside", premises, placements)
        self._run(placements, None)

    def copy(self) -> Trace:
        found = Trace(
            self.board, self.locked, self.rules, self.parts, self.deduce, self.pairs, self.within
        )
        found.masks, found.placed = list(self.masks), list(self.placed)
        found.dirty, found.chosen = set(self.dirty), dict(self.chosen)
        found.why, found.order, found.broken = dict(self.why), dict(self.order), self.broken
        found.breaks = list(self.breaks)
        return found

    def _break(self, how: str, premises: Iterable[Fact], said: str, cells: Iterable[int]) -> None:
        """The facts break the grid: the round that first breaks it goes on to its end,
        for each way it breaks."""
        self.breaks.append((how, tuple(premises), said, tuple(cells)))
        if self.broken is None:
            self.broken = (how, tuple(premises))

    def _both(self, cell: int, first: int, second: int) -> str:
        symbol = self.board.puzzle.symbol
        return f"{self.board.name(cell)} cannot hold both {symbol(first)} and {symbol(second)}"

    def _run(self, placements: deque[Fact], until: Fact | Sequence[Fact] | None) -> None:
        wanted = [] if until is None else _facts(until)
        while not wanted or any(f not in self.why for f in wanted):
            if placements:  # first in, first out: a round at a time, as the walk
                self._place(placements.popleft(), placements)
                continue
            if self.broken is not None:
                return
            known = len(self.why)
            self._singles(placements)
            if self._through_rules and self.broken is None:
                self._by_rules(placements)  # (each round: the shortest chain may go through them)
            if not placements and self.locked:
                self._locked_candidates(placements)
                self._singles(placements)
            if not placements and self.pairs and self.broken is None:
                self._pairs(placements)
                self._singles(placements)
            if not placements and self._through_rules and self.broken is None:
                self._by_rules(placements)
            if len(self.why) == known and self.deduce is not None and self.broken is None:
                self._pairs(placements)
                if len(self.why) == known and self.broken is None:
                    self._by_holding(placements)
            if len(self.why) == known:
                return

    @property
    def _through_rules(self) -> bool:
        return self.rules is not None or self.parts is not None

    def _inside(self, index: int) -> bool:
        return self.within is None or index in self.within

    def chain(self, target: Fact | Sequence[Fact] | None = None, title: str = "") -> Chain:
        """The facts ``target`` (a fact, or each of some: what the chain proves; None:
        the contradiction) follows from, in order, each with the earlier facts it
        follows from, by the way that needs the fewest (:meth:`_fewest_ways`); a
        fact no later one (nor the end) needs is left out, and a placement stands
        for its cell's other values."""
        why = self._fewest_ways()
        said, cells = "", tuple[int, ...]()
        if target is None:
            assert self.broken is not None
            how, ends, said, cells = min(
                ((h, _premises_of(why, p), s, c) for h, p, s, c in self.breaks),
                key=lambda b: len(_needed(why, b[1])),
            )
        else:
            how = ""
            ends = _facts(target)
        needed = _needed(why, ends) | {min(self.why, key=self.order.__getitem__)}
        # (the branch's own assumption first, always: an inner chain may not need it)
        facts = tuple(sorted(needed, key=self.order.__getitem__))
        index = {f: i for i, f in enumerate(facts)}
        links = tuple(why[f][0] for f in facts[1:])
        premises = [_premises_of(why, why[f][1]) for f in facts[1:]]
        if how:
            links, premises = (*links, how), [*premises, ends]
        numbered = tuple(tuple(index[p] for p in given if p in index) for given in premises)
        proves = () if how else tuple(index[f] for f in ends if f in index)
        return Chain(facts, links, title, numbered, said, tuple(cells), proves=proves)

    def _fewest_ways(self) -> Ways:
        """Each fact's link and premises, of the ways the facts before it give it (the
        way it was found; a single in another house; a placement of its value in
        another peer): the way whose premises, with all they follow from, are
        fewest. Each premise the way needs is the cheapest fact that would do."""
        ordered = sorted(self.why, key=self.order.__getitem__)
        own = {f: 1 << i for i, f in enumerate(ordered)}
        behind: dict[Fact, int] = {}
        """Each fact and every fact it follows from (by its chosen way), as bits."""
        fewest: Ways = {}
        for fact in ordered:
            link, premises = self.why[fact]
            ways = [(link, [[p] for p in premises]), *self._other_ways(fact)]
            best: tuple[int, str, tuple[Fact, ...]] | None = None
            for said, needs in ways:
                picked = tuple(
                    min(each, key=lambda p: behind.get(p, 0).bit_count()) for each in needs
                )
                reach = 0 if said in PLACED else own[fact]  # (a placement's removal: itself)
                for p in picked:
                    reach |= behind.get(p, 0)
                if best is None or reach.bit_count() < best[0].bit_count():
                    best = (reach, said, picked)
            assert best is not None
            behind[fact], fewest[fact] = best[0], (best[1], best[2])
        return fewest

    def _other_ways(self, fact: Fact) -> list[tuple[str, list[list[Fact]]]]:
        """The other ways the facts found before ``fact`` give it by a single or a
        placement: each way's link and, for each premise it needs, the facts that
        would each do."""
        board, cell, value, holds = self.board, *fact
        found = self.order[fact]

        def before(options: Iterable[Fact]) -> list[Fact]:
            return [f for f in options if self.order.get(f, found) < found]

        if not holds:
            peers = before((p, value, True) for p in sorted(board.peers[cell]))
            placed = before((cell, w, True) for w in bits(board.masks[cell]) if w != value)
            return [*(("cell", [[p]]) for p in placed), *(("peer", [[p]]) for p in peers)]
        others = [v for v in bits(board.masks[cell]) if v != value]
        ways = []
        gone = before((cell, v, False) for v in others)
        if len(gone) == len(others):
            ways.append(("naked single", [[f] for f in gone]))
        for index in board.cell_houses[cell]:
            if not self._inside(index):
                continue
            needs = []
            for c in board.houses[index]:
                if c != cell and board.masks[c] & bit(value):
                    held = (w for w in bits(board.masks[c]) if w != value)
                    needs.append(before([(c, value, False), *((c, w, True) for w in held)]))
            if all(needs):
                ways.append((f"hidden single in {board.house_names[index]}", needs))
        return ways

    # --- the rules, each fact with its reason --------------------------------------

    def _know(
        self, fact: Fact, link: str, premises: Iterable[Fact], placements: deque[Fact]
    ) -> None:
        if fact in self.why:
            return
        self.why[fact] = (link, tuple(premises))
        self.order[fact] = len(self.order)
        cell, value, holds = fact
        self.dirty.add(cell)
        if holds:
            other = self.chosen.setdefault(cell, value)
            if other != value:
                premises = (fact, (cell, other, True))
                self._break("contradiction", premises, self._both(cell, value, other), [cell])
            placements.append(fact)

    def _place(self, fact: Fact, placements: deque[Fact]) -> None:
        cell, value, _ = fact
        held = self.placed[cell]
        if held:
            if held != value:
                premises = (fact, (cell, held, True))
                self._break("contradiction", premises, self._both(cell, value, held), [cell])
            return
        if not self.masks[cell] & bit(value):
            said = f"{self.board.name(cell)} cannot hold {self.board.puzzle.symbol(value)}"
            self._break("contradiction", (fact, (cell, value, False)), said, [cell])
            return
        self.placed[cell] = value
        for other in bits(self.masks[cell] & ~bit(value)):
            self._remove((cell, other, False), "cell", (fact,), placements)
        for peer in sorted(self.board.peers[cell]):
            if self.masks[peer] & bit(value):
                self._remove((peer, value, False), "peer", (fact,), placements)

    def _remove(
        self, fact: Fact, link: str, premises: tuple[Fact, ...], placements: deque[Fact]
    ) -> None:
        cell, value, _ = fact
        self.masks[cell] &= ~bit(value)
        self._know(fact, link, premises, placements)
        if not self.masks[cell]:
            gone = [f for v in bits(self.board.masks[cell]) for f in self._gone(cell, v)]
            self._break(
                "contradiction", gone, f"{self.board.name(cell)} has no candidate left", [cell]
            )

    def _gone(self, cell: int, value: int) -> list[Fact]:
        fact = (cell, value, False)
        return [fact] if fact in self.why else []

    def _absent(self, cell: int, value: int) -> list[Fact]:
        """The fact that ``cell`` does not hold ``value``: its placement of another
        value, or the removal (none: the board's own)."""
        other = self.chosen.get(cell)
        if other is not None and other != value:
            return [(cell, other, True)]
        return self._gone(cell, value)

    def _singles(self, placements: deque[Fact]) -> None:
        """A round of singles in the houses of the cells that changed, as the forcing
        chains walk it (:meth:`Board.singles_in`), each with the facts it follows
        from."""
        board, chosen = self.board, self.chosen
        houses = sorted({h for c in self.dirty for h in board.cell_houses[c]})
        self.dirty.clear()
        taken = [v or chosen.get(c, 0) for c, v in enumerate(self.placed)]
        for cell, value, index in board.singles_in(self.masks, taken, houses, self.within):
            if index < 0:
                premises = [f for v in bits(board.masks[cell]) for f in self._gone(cell, v)]
                self._know((cell, value, True), "naked single", premises, placements)
                continue
            house, where = board.houses[index], board.house_names[index]
            premises = [f for c in house for f in self._absent(c, value)]
            if cell < 0:
                said = f"{board.puzzle.symbol(value)} has no place in {where}"
                self._break("contradiction", premises, said, house)
            else:
                self._know((cell, value, True), f"hidden single in {where}", premises, placements)

    def _assumptions(self) -> dict[int, Fact | None]:
        """Each literal the candidates now assume, with the fact that made it (None:
        the board's own)."""
        n, full = self.board.size, self.board.full
        found: dict[int, Fact | None] = {}
        for cell, mask in enumerate(self.masks):
            for value in bits(full & ~mask):
                fact = (cell, value, False)
                found[-literal(n, cell, value)] = fact if fact in self.why else None
        for cell, value in self.chosen.items():
            found[literal(n, cell, value)] = (cell, value, True)
        return found

    def _by_rules(self, placements: deque[Fact]) -> None:
        """What unit propagation over the rules adds to the facts, each with the fewest
        facts it still follows from (one dropped at a time while it does): by the
        first small part that adds a fact or breaks the grid (a rule alone, or with
        one house: the link named by it), else by all of them (``the rules``). Only
        propagation is asked, never a solve: a solve's learned clauses would make
        later propagation stronger than the chain's links say."""
        n, given = self.board.size, self._assumptions()
        board = [x for x, fact in given.items() if fact is None]
        known = {x: fact for x, fact in given.items() if fact is not None}
        facts = sorted(known, key=lambda x: self._spare_first(known[x]))
        parts = self.parts.small_scopes() if self.parts is not None else ()
        whole = [(None, "the rules")] if self.rules is not None else []
        for scope, name in [*parts, *whole]:
            ok, implied = self._propagate(scope, board, facts)
            if not ok:
                needed = [known[x] for x in self._fewest(board, facts, None, scope)]
                cells = sorted({f[0] for f in needed})
                broken = f"{name} cannot be kept" if scope else "the rules cannot all be kept"
                said = f"{broken} on {self.board.names(cells)}"
                self._break(f"contradiction ({name})", needed, said, cells)
                return
            added = False
            for lit in implied:
                if not is_candidate(n, lit) or lit in given:
                    continue
                cell, value = cell_value(n, lit)
                fact = (cell, value, lit > 0)
                if fact in self.why or (lit < 0 and not self.masks[cell] & bit(value)):
                    continue
                if lit < 0 and self.chosen.get(cell, value) != value:
                    continue  # (its placement says so, and will, when it is placed)
                if lit > 0 and (self.placed[cell] or cell in self.chosen):
                    continue  # placed already (on the board, or by an earlier fact)
                premises = tuple(known[x] for x in self._fewest(board, facts, lit, scope))
                if lit > 0:
                    self._know(fact, name, premises, placements)
                else:
                    self._remove(fact, name, premises, placements)
                added = True
            if added or self.broken is not None:
                return

    def _by_holding(self, placements: deque[Fact]) -> None:
        """What a rule alone holds (:attr:`deduce`), each removal following from every
        fact on the rule's cells."""
        assert self.deduce is not None
        masks = list(self.masks)
        for cell, value in self.chosen.items():
            masks[cell] = bit(value)
        found, broken = self.deduce(masks)
        if broken is not None:
            how, cells = broken
            self._break(f"contradiction ({how})", self._on(cells), how, cells)
        for (cell, value), link, cells in found:
            self._remove((cell, value, False), link, self._on(cells), placements)

    def _pairs(self, placements: deque[Fact]) -> None:
        """Two cells of a house left with the same two values: the house's other cells
        lose them (a naked pair); two values of a house left with the same two
        places: those cells lose their other values (a hidden pair). Asked with what
        rules hold: a rule step's chains only."""
        board, masks = self.board, self.masks
        for index, house in enumerate(board.houses):
            if not self._inside(index):
                continue
            open_cells = [c for c in house if not self.placed[c] and c not in self.chosen]
            by_mask: dict[int, list[int]] = {}
            for c in open_cells:
                if masks[c].bit_count() == 2:
                    by_mask.setdefault(masks[c], []).append(c)
            for mask, cells in by_mask.items():
                if len(cells) < 2:
                    continue
                pair = cells[:2]  # (a third with the same two breaks the grid)
                premises = self._on(pair)
                link = f"naked pair, {board.house_names[index]}"
                for cell in open_cells:
                    for value in bits(masks[cell] & mask if cell not in pair else 0):
                        self._remove((cell, value, False), link, premises, placements)
            by_places: dict[tuple[int, ...], int] = {}
            for value in bits(board.full):
                places = tuple(c for c in house if masks[c] & bit(value))
                if len(places) == 2 and not any(self.placed[c] or c in self.chosen for c in places):
                    by_places[places] = by_places.get(places, 0) | bit(value)
            for places, values in by_places.items():
                if values.bit_count() < 2:
                    continue
                values = lowest(values, 2)  # (a third in the same places breaks)
                premises = self._on(c for c in house if c not in places)
                link = f"hidden pair, {board.house_names[index]}"
                for cell in places:
                    for value in bits(masks[cell] & ~values):
                        self._remove((cell, value, False), link, premises, placements)

    def _on(self, cells: Iterable[int]) -> tuple[Fact, ...]:
        """The facts known about ``cells``, in the order they were found (a cell's
        placement alone, where a fact places it)."""
        inside = set(cells)
        chosen = self.chosen
        found = (f for f in self.why if f[0] in inside and (f[0] not in chosen or f[2]))
        return tuple(sorted(found, key=self.order.__getitem__))

    def _propagate(self, scope: Any, board: list[int], facts: list[int]) -> tuple[bool, list[int]]:
        """Unit propagation of the board's own assumptions and the facts' over every
        rule (``scope`` None) or over one small part."""
        if scope is not None:
            assert self.parts is not None
            known = self.parts.variables(scope)
            mine = self._board_in.get(scope)
            if mine is None:  # (the board's own assumptions: the same all along)
                mine = self._board_in[scope] = [x for x in board if abs(x) in known]
            return self.parts.propagate_in(scope, mine + [x for x in facts if abs(x) in known])
        assert self.rules is not None
        ok, implied = self.rules.propagate(assumptions=board + facts)
        return bool(ok), list(implied or ())

    def _spare_first(self, fact: Fact) -> tuple[bool, int]:
        """The order facts are tried without: placements first (the removals they make
        say the same, and say where), then removals, the newest first (the oldest
        lie nearest the assumption, so the chain stays short)."""
        order = self.order[fact]
        return (not fact[2], order if fact[2] else -order)

    def _fewest(
        self, board: list[int], facts: list[int], lit: int | None, scope: Any = None
    ) -> list[int]:
        """Of the facts' literals, a set that with the board's still propagates to
        ``lit`` (None: to a conflict), none of them spare; the first are the first
        tried without (see :meth:`_spare_first`). Over every rule, or over one small
        ``scope`` of them (:attr:`parts`)."""

        def holds(trial: list[int]) -> bool:
            ok, implied = self._propagate(scope, board, trial)
            return (not ok) if lit is None else (ok and lit in implied)

        return without_spare(facts, holds)  # (propagation is monotone)

    def _locked_candidates(self, placements: deque[Fact]) -> None:
        board, masks = self.board, self.masks
        for one, other, common in board.meetings:
            if not self._inside(one):
                continue
            inside = outside = twice = 0
            for c in board.houses[one]:
                if c in common:
                    twice |= inside & masks[c]
                    inside |= masks[c]
                else:
                    outside |= masks[c]
            for value in bits(twice & ~outside):  # two places or more, all where they meet
                premises = [
                    f for c in board.houses[one] if c not in common for f in self._absent(c, value)
                ]
                for cell in board.houses[other]:
                    if cell not in common and masks[cell] & bit(value) and not self.placed[cell]:
                        link = f"locked candidates, {board.house_names[one]}"
                        self._remove((cell, value, False), link, tuple(premises), placements)
