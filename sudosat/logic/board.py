"""The board a logical solve works on: each cell's candidates, the houses, the steps.

A cell's candidates are one integer (:mod:`sudosat.core.masks`). A house is a
group of N cells that holds every value once: a row, a column, a region, or a
house a rule declares (a diagonal, an extra region). Peers are the cells
sharing a house with a cell. A :class:`Step` is one deduction: what it places
and removes, and what justifies it (the cells, the values, the houses and
rules, a sentence).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property, lru_cache
from itertools import combinations
from typing import Any, TypeVar, cast

from sudosat.core.masks import bit, once_and_seen
from sudosat.core.masks import values as bits
from sudosat.core.puzzle import Puzzle, cell_name
from sudosat.logic.levels import Family, Level

T = TypeVar("T")

Candidate = tuple[int, int]
"""(cell, value)."""

Fact = tuple[int, int, bool]
"""(cell, value, holds): ``r4c4=3`` when it holds, ``r4c4<>3`` when it does not."""


@dataclass(frozen=True)
class Chain:
    """A chain written out: facts in order, each following from the ones before it
    by its link (``links[i]`` leads from ``facts[i]`` to ``facts[i + 1]``).

    An alternating chain's links are ``strong`` (one of the two is true: the
    only two values of a cell, or the only two places of a value in a house)
    and ``weak`` (not both: two values of a cell, or one value in two cells
    that see each other). A forcing chain's first fact is the branch assumed
    and each later one follows from it and the facts before it by the link
    named: ``peer`` or ``cell`` (a value placed rules out its peers' and its
    cell's others), ``naked single``, ``hidden single``, ``locked candidates``;
    the rules (``the rules``: a variant's, by unit propagation); its last link may
    be ``contradiction`` (the facts break the grid; ``contradiction (the rules)``:
    a variant's rules)."""

    facts: tuple[Fact, ...]
    links: tuple[str, ...]
    title: str = ""
    """What it shows, for a forcing chain's branch (``r4c4=3``)."""
    premises: tuple[tuple[int, ...], ...] = ()
    """A forcing chain's: for each link, the earlier facts (by index) it follows from,
    none of them spare: what the reader needs to rebuild the link. A placement
    stands for its cell's other values (no ``cell`` link is shown)."""
    broken: str = ""
    """A chain that breaks the grid: how, named (``r3c8 has no candidate left``, ``5
    has no place in row 3``, ``arrow r1c6>r3c5 cannot be kept``)."""
    broken_cells: tuple[int, ...] = ()
    """The cells where it breaks: the empty cell, the house's, the rule's."""
    proves: tuple[int, ...] = ()
    """A branch's: the facts (by index) it proves, each removal of its step."""
    inside: int = 0
    """An inner chain of a nested one (in the branch its title names first): 1, or 2
    for a chain inside an inner chain (depth three)."""


@dataclass(frozen=True)
class Technique:
    """A way of reasoning, as a step is weighed: its name, the family a person can
    leave out (``--without``), its weight on Sudoku Explainer's scale (1.0: a naked
    single) and the rating level a puzzle needing it gets at least."""

    name: str
    family: Family
    weight: float
    level: Level


@dataclass(frozen=True)
class Step:
    """One deduction of a logical solve."""

    name: str
    """What the step is called where it is shown (``pointing``, ``cell forcing chains``)."""
    placements: tuple[Candidate, ...] = ()
    eliminations: tuple[Candidate, ...] = ()
    cells: tuple[int, ...] = ()
    """The cells that justify it (shaded in its picture)."""
    values: tuple[int, ...] = ()
    """The values it reasons about."""
    houses: tuple[str, ...] = ()
    """The houses and rules it reasons about, named (``row 3``, ``killer cage ...``)."""
    reason: str = ""
    """Why, in a few words (without the technique's name or what it removes)."""
    depth: int = 0
    """Bifurcation only: how many guesses deep its contradiction lies."""
    length: int = 0
    """A chain weighed by its length: the nodes it passes (see :func:`forcing.length_bonus`)."""
    tells_what_is_left: bool = False
    """Its reason names what its cells may still hold (its removals go without saying)."""
    chains: tuple[Chain, ...] = ()
    """The alternating chain it follows, written out."""
    branches: tuple[Candidate, ...] = ()
    """A forcing chain's assumptions, one of which holds (a contradiction chain's one,
    refuted), followed through singles (and, ``dynamic``, locked candidates): its
    chains are traced when it is shown (:func:`chains.chains_of`), not when found."""
    dynamic: bool = False
    pairs: bool = False
    """Its branches are followed through naked and hidden pairs too (``dynamic``
    with pairs: Sudoku Explainer's forcing chains (+))."""
    inside: tuple[Candidate, ...] = ()
    """A nested chain's inner assumptions, each refuted inside its branch in turn."""
    deeper: tuple[tuple[Candidate, ...], ...] = ()
    """At depth three, each inner assumption's own inner assumptions (refuted inside
    both branches in turn; none: singles refute it)."""
    technique: Technique | None = None
    """What it is weighed as: its finder's technique, or a finer one (a chain by its
    length, a rule question by the part of it that did the work). Every finder
    sets it; None only in a step made by hand."""


@dataclass
class Board:
    """One puzzle's candidates while it is solved by logic."""

    puzzle: Puzzle
    masks: list[int]
    houses: list[tuple[int, ...]]
    house_names: list[str]
    placed: list[int] = field(default_factory=list)
    """The value each cell holds once placed (0: open)."""
    lines: int = 0
    """The first ``lines`` houses are rows then columns (the fish's houses)."""
    boxes: range = range(0)
    """Indices of the layout's regions among the houses."""
    _where: list[list[list[int]]] | None = field(default=None, init=False, repr=False)
    _kept: dict[str, Any] = field(default_factory=dict, init=False, repr=False)
    size: int = field(default=0, init=False, repr=False)
    """N, the puzzle's (kept: the branches ask for it hundreds of thousands of times)."""

    def __post_init__(self) -> None:
        n = self.size = self.puzzle.size
        self.full = (1 << n) - 1
        self.cell_houses, self.peers = _shape(self.houses, n * n)
        if not self.placed:
            self.placed = [0] * (n * n)

    def name(self, cell: int) -> str:
        return cell_name(self.size, cell)

    def names(self, cells: Iterable[int]) -> str:
        return ", ".join(self.name(c) for c in cells)

    def symbol(self, value: int) -> str:
        return self.puzzle.symbol(value)

    def symbols(self, mask: int) -> str:
        return self.puzzle.spell(bits(mask))

    @cached_property
    def meetings(self) -> list[tuple[int, int, frozenset[int]]]:
        """Every two houses that share two cells or more, both ways round, with the
        cells they share (where locked candidates look)."""
        sets = [frozenset(h) for h in self.houses]
        found = []
        for a, b in combinations(range(len(sets)), 2):
            common = sets[a] & sets[b]
            if len(common) >= 2:
                found += [(a, b, common), (b, a, common)]
        return found

    @cached_property
    def meeting_cells(self) -> list[tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]]:
        """Each of :attr:`meetings` as cells: where the two houses meet, the rest of
        the first, the rest of the second (what a fast locked candidates reads)."""
        return [
            (
                tuple(c for c in self.houses[one] if c in common),
                tuple(c for c in self.houses[one] if c not in common),
                tuple(c for c in self.houses[other] if c not in common),
            )
            for one, other, common in self.meetings
        ]

    @cached_property
    def meetings_from(self) -> list[list[tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]]]:
        """Each house's :attr:`meeting_cells` where it is the first of the two (the
        house whose values may lie only where they meet)."""
        found: list[list[tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]]] = [
            [] for _ in self.houses
        ]
        for (one, _, _), cells in zip(self.meetings, self.meeting_cells, strict=True):
            found[one].append(cells)
        return found

    def copy(self) -> Board:
        return replace(self, masks=list(self.masks), placed=list(self.placed))

    def open_cells(self) -> list[int]:
        return [c for c, v in enumerate(self.placed) if not v]

    @property
    def solved(self) -> bool:
        return all(self.placed)

    def places(self, house: int, value: int) -> list[int]:
        """The open cells of a house that can still take ``value`` (do not change it)."""
        return self._table()[house][value]

    def _table(self) -> list[list[list[int]]]:
        if self._where is None:
            self._where = self._index()
        return self._where

    def _index(self) -> list[list[list[int]]]:
        """For each house and value, its places: made once per change of candidates."""
        n = self.size
        table = []
        for house in self.houses:
            row: list[list[int]] = [[] for _ in range(n + 1)]
            for c in house:
                if not self.placed[c]:
                    for v in bits(self.masks[c]):
                        row[v].append(c)
            table.append(row)
        return table

    def house_places(self, value: int) -> list[list[int]]:
        """Each house's places for ``value`` (:meth:`places` of every house at once)."""
        return [row[value] for row in self._table()]

    def kept(self, name: str, make: Callable[[], T]) -> T:
        """What ``make`` reads from these candidates (``name``: what it is), made once
        until they change: several finders read the same board."""
        if name not in self._kept:
            self._kept[name] = make()
        return cast(T, self._kept[name])

    def changed(self) -> None:
        """Say that ``masks`` or ``placed`` were changed from outside."""
        self._forget()

    def _forget(self) -> None:
        self._where = None
        self._kept = {}

    def singles_in(
        self,
        masks: Sequence[int],
        taken: Sequence[int],
        houses: Sequence[int],
        within: frozenset[int] | None = None,
    ) -> list[tuple[int, int, int]]:
        """One round of singles on candidates ``masks`` (a branch's), in the houses
        whose candidates changed (``houses``, ascending): (cell, value, house) for
        each cell of them left one candidate (a naked single, house -1), in cell
        order; then, house by house (those ``within``, if given), for each value in
        turn with no place left (cell -1: the grid breaks) or one (a hidden single).
        A cell ``taken`` (placed or waiting, with its value) or found earlier in the
        round holds that value alone. The one round of the walk that forcing chains
        follow (:meth:`forcing.Propagation.singles`, ``_engine.c``) and that a
        chain written out traces (:meth:`trace.Trace._singles`)."""
        found: list[tuple[int, int, int]] = []
        now: dict[int, int] = {}  # the cells this round places, with their values
        for cell in sorted({c for h in houses for c in self.houses[h]}):
            m = masks[cell]
            if not taken[cell] and m and not m & (m - 1):
                now[cell] = m.bit_length()
                found.append((cell, now[cell], -1))
        for index in houses:
            if within is not None and index not in within:
                continue
            house = self.houses[index]
            held = [bit(v) if (v := taken[c] or now.get(c, 0)) else masks[c] for c in house]
            once, seen = once_and_seen(held)
            gone = self.full & ~seen
            for value in bits(gone | once):
                if gone & bit(value):
                    found.append((-1, value, index))
                    continue
                at = house[next(i for i, m in enumerate(held) if m & bit(value))]
                if not (taken[at] or at in now):
                    now[at] = value
                    found.append((at, value, index))
        return found

    def missing(self, house: int) -> int:
        """The values not yet placed in a house, as a mask."""
        held = 0
        for c in self.houses[house]:
            if self.placed[c]:
                held |= bit(self.placed[c])
        return self.full & ~held

    def contradiction(self) -> str:
        """Why the candidates cannot hold a solution ("" while they may)."""
        for cell, mask in enumerate(self.masks):
            if not mask:
                return f"{self.name(cell)} has no candidate left"
        for index, house in enumerate(self.houses):
            left = 0
            for c in house:
                left |= self.masks[c]
            if left != self.full:
                value = bits(self.full & ~left)[0]
                return f"{self.house_names[index]} has no place for {self.symbol(value)}"
        return ""

    def apply(self, step: Step) -> Step:
        """Make the step's placements and removals; a placement also removes its
        value from every peer (added to the step's eliminations). The step as made."""
        removed = set(step.eliminations)
        for cell, value in step.placements:
            removed.update((c, v) for c in [cell] for v in bits(self.masks[c] & ~bit(value)))
            removed.update((p, value) for p in self.peers[cell] if self.masks[p] & bit(value))
        self._forget()
        for cell, value in removed:
            self.masks[cell] &= ~bit(value)
        for cell, value in step.placements:
            self.placed[cell] = value
            self.masks[cell] = bit(value)
        kept = tuple(sorted(x for x in removed if x[0] not in {c for c, _ in step.placements}))
        return replace(step, eliminations=kept)

    def place_silently(self, cell: int, value: int) -> None:
        """A given: placed, its value out of its peers, no step."""
        self._forget()
        self.placed[cell] = value
        self.masks[cell] = bit(value)
        for p in self.peers[cell]:
            self.masks[p] &= ~bit(value)


def _shape(
    houses: list[tuple[int, ...]], cells: int
) -> tuple[list[list[int]], list[frozenset[int]]]:
    """Each cell's houses (their indices) and its peers, made once a shape (a board
    is made, and copied, many times a path; they are read, never changed)."""
    return _shape_of(tuple(houses), cells)


@lru_cache(maxsize=64)  # (a jigsaw generator makes a shape a puzzle: bounded)
def _shape_of(
    houses: tuple[tuple[int, ...], ...], cells: int
) -> tuple[list[list[int]], list[frozenset[int]]]:
    cell_houses: list[list[int]] = [[] for _ in range(cells)]
    for index, house in enumerate(houses):
        for cell in house:
            cell_houses[cell].append(index)
    peers = [
        frozenset(c for h in cell_houses[cell] for c in houses[h]) - {cell} for cell in range(cells)
    ]
    return cell_houses, peers


def board_of(puzzle: Puzzle, rule_houses: Sequence[tuple[tuple[int, ...], str]] = ()) -> Board:
    """The board of ``puzzle``: every value possible, then each given placed
    (its peers lose it). ``rule_houses``: houses the rules add, with their names."""
    grid = puzzle.layout
    n = puzzle.size
    houses = list(grid.units)
    names = [grid.unit_name(i) for i in range(len(houses))]
    for house, name in rule_houses:
        if house not in houses:
            houses.append(house)
            names.append(name)
    board = Board(
        puzzle, [(1 << n) - 1] * (n * n), houses, names, lines=2 * n, boxes=range(2 * n, 3 * n)
    )
    for cell, value in puzzle.givens:
        board.place_silently(cell, value)
    return board
