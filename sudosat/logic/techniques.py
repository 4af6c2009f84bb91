"""The classic techniques of a logical solve, each a function from a board to its
first step (None: it finds nothing). They look at candidates only, never at the
solution, and none assumes the puzzle is unique.

Each technique reads as a setter would say it: a house, a value, the cells
involved. Here: singles, intersections, subsets, fish and wings, and the
order of every classic technique (:data:`CLASSIC`); colouring and the
alternating chains are :mod:`alternating`'s, HoDoKu's intermediate shapes
:mod:`intermediate`'s, the forcing chains :mod:`forcing`'s.
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import combinations

from sudosat.core.masks import bit
from sudosat.core.masks import values as bits
from sudosat.logic.alternating import (
    CHAINS,
    COLOURING,
    TURBOT,
    TURBOT_LINKS,
    chain,
    simple_colouring,
)
from sudosat.logic.bitboard import NOT_BUILT, Screen, finds, locked_at
from sudosat.logic.board import Board, Step, Technique
from sudosat.logic.forcing import DYNAMIC_FORCING, FORCING, Finder, forcing
from sudosat.logic.intermediate import (
    ALS_XY_WING,
    ALS_XZ,
    EMPTY_RECTANGLE,
    FINNED,
    als_xy_wing,
    als_xz,
    empty_rectangle,
    finned_fish,
)
from sudosat.logic.levels import FAMILIES, Family, Level

NAKED_SINGLE = Technique("naked single", Family.SINGLES, 1.0, Level.SIMPLE)
HIDDEN_SINGLE = Technique("hidden single", Family.SINGLES, 1.5, Level.EASY)
LOCKED = Technique("locked candidates", Family.LOCKED, 2.6, Level.INTERMEDIATE)
NAKED_SUBSETS = {
    2: Technique("naked pair", Family.SUBSETS, 3.0, Level.EXPERT),
    3: Technique("naked triple", Family.SUBSETS, 3.6, Level.EXPERT),
    4: Technique("naked quad", Family.SUBSETS, 5.0, Level.EXPERT),
}
HIDDEN_SUBSETS = {
    2: Technique("hidden pair", Family.SUBSETS, 3.4, Level.EXPERT),
    3: Technique("hidden triple", Family.SUBSETS, 4.0, Level.EXPERT),
    4: Technique("hidden quad", Family.SUBSETS, 5.4, Level.EXPERT),
}
FISHES = {
    2: Technique("X-wing", Family.FISH, 3.2, Level.EXPERT),
    3: Technique("swordfish", Family.FISH, 3.8, Level.EXPERT),
    4: Technique("jellyfish", Family.FISH, 5.2, Level.EXPERT),
}
XY_WING = Technique("XY-wing", Family.WINGS, 4.2, Level.EXPERT)
XYZ_WING = Technique("XYZ-wing", Family.WINGS, 4.4, Level.EXPERT)
W_WING = Technique("W-wing", Family.WINGS, 4.4, Level.EXPERT)
"""The classic techniques, each weighed on Sudoku Explainer's scale."""


def _popcount(mask: int) -> int:
    return mask.bit_count()


# --- singles -------------------------------------------------------------------


def naked_single(board: Board) -> Step | None:
    for cell in board.open_cells():
        mask = board.masks[cell]
        if mask and not mask & (mask - 1):
            value = mask.bit_length()
            return Step(
                NAKED_SINGLE.name,
                technique=NAKED_SINGLE,
                placements=((cell, value),),
                cells=(cell,),
                values=(value,),
                reason=f"{board.name(cell)} can only be {board.symbol(value)}",
            )
    return None


def hidden_single(board: Board) -> Step | None:
    masks, placed = board.masks, board.placed
    for house, cells in enumerate(board.houses):
        seen = once = held = 0
        for c in cells:  # the values with one open place in the house, in one pass
            if placed[c]:
                held |= bit(placed[c])
            else:
                m = masks[c]
                once = (once & ~m) | (m & ~seen)
                seen |= m
        once &= ~held
        if once:
            value = (once & -once).bit_length()  # (the lowest: as the places were asked)
            (at,) = (c for c in cells if not placed[c] and masks[c] & bit(value))
            where = board.house_names[house]
            return Step(
                HIDDEN_SINGLE.name,
                technique=HIDDEN_SINGLE,
                placements=((at, value),),
                cells=cells,
                values=(value,),
                houses=(where,),
                reason=f"{board.symbol(value)} has one place in {where}: {board.name(at)}",
            )
    return None


# --- intersections ---------------------------------------------------------------


def locked_candidates(board: Board) -> Step | None:
    """A value whose places in one house all lie where it meets another: the other's
    remaining cells lose it (pointing from a box, claiming from a line)."""
    found = locked_at(board)  # the engine's answer, where it was built
    if found is None:
        return None
    if found != NOT_BUILT:
        meeting, value = found
        return _locked_step(board, *board.meetings[meeting], value)
    for one, other, common in board.meetings:
        for value in bits(board.missing(one)):
            places = board.places(one, value)
            if len(places) >= 2 and common.issuperset(places):
                step = _locked_step(board, one, other, common, value)
                if step is not None:
                    return step
    return None


def _locked_step(
    board: Board, one: int, other: int, common: frozenset[int], value: int
) -> Step | None:
    """The step of ``value`` locked in house ``one`` where it meets ``other``
    (None: it removes nothing)."""
    b = bit(value)
    places = [c for c in board.houses[one] if not board.placed[c] and board.masks[c] & b]
    removed = [
        (c, value)
        for c in board.houses[other]
        if c not in common and not board.placed[c] and board.masks[c] & b
    ]
    if not removed:
        return None
    kind = _locked_kind(board, one, other)
    a, b_name = board.house_names[one], board.house_names[other]
    return Step(
        kind,
        technique=LOCKED,
        eliminations=tuple(removed),
        cells=tuple(places),
        values=(value,),
        houses=(a, b_name),
        reason=f"in {a}, {board.symbol(value)} is only where it meets {b_name}",
    )


def _locked_kind(board: Board, one: int, other: int) -> str:
    if one in board.boxes and other < board.lines:
        return "pointing"
    if one < board.lines and other in board.boxes:
        return "claiming"
    return "locked candidates"


# --- subsets ---------------------------------------------------------------------


def naked_subset(size: int) -> Finder:
    def find(board: Board) -> Step | None:
        if not finds(board, Screen.NAKED, size):
            return None
        for house, cells in enumerate(board.houses):
            open_cells = [c for c in cells if not board.placed[c]]
            if len(open_cells) <= size:
                continue
            small = [c for c in open_cells if 2 <= _popcount(board.masks[c]) <= size]
            for group in combinations(small, size):
                union = 0
                for c in group:
                    union |= board.masks[c]
                if _popcount(union) != size:
                    continue
                removed = [
                    (c, v)
                    for c in open_cells
                    if c not in group
                    for v in bits(board.masks[c] & union)
                ]
                if removed:
                    where = board.house_names[house]
                    return Step(
                        NAKED_SUBSETS[size].name,
                        technique=NAKED_SUBSETS[size],
                        eliminations=tuple(removed),
                        cells=group,
                        values=tuple(bits(union)),
                        houses=(where,),
                        reason=f"in {where}, {board.names(group)} hold "
                        f"{{{board.symbols(union)}}} between them",
                    )
        return None

    return find


def hidden_subset(size: int) -> Finder:
    def find(board: Board) -> Step | None:
        if not finds(board, Screen.HIDDEN, size):
            return None
        for house, cells in enumerate(board.houses):
            if sum(1 for c in cells if not board.placed[c]) <= size:
                continue
            spots = {v: board.places(house, v) for v in bits(board.missing(house))}
            few = [v for v, places in spots.items() if 2 <= len(places) <= size]
            for group in combinations(few, size):
                where_cells = sorted({c for v in group for c in spots[v]})
                if len(where_cells) != size:
                    continue
                kept = sum(bit(v) for v in group)
                removed = [(c, v) for c in where_cells for v in bits(board.masks[c] & ~kept)]
                if removed:
                    where = board.house_names[house]
                    return Step(
                        HIDDEN_SUBSETS[size].name,
                        technique=HIDDEN_SUBSETS[size],
                        eliminations=tuple(removed),
                        cells=tuple(where_cells),
                        values=group,
                        houses=(where,),
                        reason=f"in {where}, {{{board.symbols(kept)}}} fit only in "
                        f"{board.names(where_cells)}",
                    )
        return None

    return find


# --- fish --------------------------------------------------------------------------


def fish(size: int) -> Finder:
    """``size`` rows whose places for a value lie in ``size`` columns: those columns'
    other cells lose it (and the same with rows and columns swapped)."""

    def find(board: Board) -> Step | None:
        if not finds(board, Screen.FISH, size):
            return None
        n = board.size
        for value in range(1, n + 1):
            for by_rows in (True, False):
                bases = []
                for i in range(n):
                    places = board.places(i if by_rows else n + i, value)
                    if 2 <= len(places) <= size:
                        bases.append((i, places))
                for group in combinations(bases, size):
                    covers = {(c % n if by_rows else c // n) for _, places in group for c in places}
                    if len(covers) != size:
                        continue
                    base_cells = {c for _, places in group for c in places}
                    removed = [
                        (c, value)
                        for cover in sorted(covers)
                        for c in board.places(n + cover if by_rows else cover, value)
                        if c not in base_cells
                    ]
                    if removed:
                        names = [board.house_names[i if by_rows else n + i] for i, _ in group]
                        cover_names = [board.house_names[n + k if by_rows else k] for k in covers]
                        return Step(
                            FISHES[size].name,
                            technique=FISHES[size],
                            eliminations=tuple(removed),
                            cells=tuple(sorted(base_cells)),
                            values=(value,),
                            houses=tuple(names + sorted(cover_names)),
                            reason=f"{board.symbol(value)} in {', '.join(names)} lies "
                            f"only in {', '.join(sorted(cover_names))}",
                        )
        return None

    return find


# --- wings -----------------------------------------------------------------------


def _bivalue(board: Board) -> list[int]:
    return [c for c in board.open_cells() if _popcount(board.masks[c]) == 2]


def xy_wing(board: Board) -> Step | None:
    """A pivot {x,y} seeing pincers {x,z} and {y,z}: z goes from what sees both pincers."""
    pairs = _bivalue(board)
    for pivot in pairs:
        pm = board.masks[pivot]
        pincers = [c for c in pairs if c in board.peers[pivot]]
        for a, b in combinations(pincers, 2):
            ma, mb = board.masks[a], board.masks[b]
            z = ma & ~pm
            if _popcount(ma & pm) != 1 or _popcount(mb & pm) != 1 or ma & mb & pm:
                continue
            if not z or mb & ~pm != z:
                continue
            value = z.bit_length()
            removed = [(c, value) for c in board.peers[a] & board.peers[b] if board.masks[c] & z]
            removed = [x for x in removed if x[0] != pivot]
            if removed:
                return Step(
                    XY_WING.name,
                    technique=XY_WING,
                    eliminations=tuple(sorted(removed)),
                    cells=(pivot, a, b),
                    values=tuple(bits(pm | z)),
                    reason=f"pivot {board.name(pivot)} {{{board.symbols(pm)}}} makes "
                    f"{board.name(a)} or {board.name(b)} {board.symbol(value)}",
                )
    return None


def xyz_wing(board: Board) -> Step | None:
    """A pivot {x,y,z} seeing pincers {x,z} and {y,z}: z goes from what sees all three."""
    pairs = _bivalue(board)
    for pivot in board.open_cells():
        pm = board.masks[pivot]
        if _popcount(pm) != 3:
            continue
        pincers = [c for c in pairs if c in board.peers[pivot] and board.masks[c] & ~pm == 0]
        for a, b in combinations(pincers, 2):
            ma, mb = board.masks[a], board.masks[b]
            if ma == mb or ma | mb != pm:
                continue
            z = ma & mb
            value = z.bit_length()
            seen = board.peers[pivot] & board.peers[a] & board.peers[b]
            removed = sorted((c, value) for c in seen if board.masks[c] & z)
            if removed:
                return Step(
                    XYZ_WING.name,
                    technique=XYZ_WING,
                    eliminations=tuple(removed),
                    cells=(pivot, a, b),
                    values=tuple(bits(pm)),
                    reason=f"one of {board.name(pivot)}, {board.name(a)}, {board.name(b)} "
                    f"is {board.symbol(value)}",
                )
    return None


def w_wing(board: Board) -> Step | None:
    """Two far cells {x,y} whose x's are joined by a strong link on x: y goes from
    what sees both."""
    pairs = _bivalue(board)
    for a, b in combinations(pairs, 2):
        mask = board.masks[a]
        if board.masks[b] != mask or b in board.peers[a]:
            continue
        for x, y in (tuple(bits(mask)), tuple(bits(mask))[::-1]):
            seen = board.peers[a] & board.peers[b]
            removed = sorted((c, y) for c in seen if board.masks[c] & bit(y))
            if not removed:
                continue
            for house in range(len(board.houses)):
                places = board.places(house, x)
                if len(places) != 2 or a in places or b in places:
                    continue
                p, q = places
                if (p in board.peers[a] and q in board.peers[b]) or (
                    q in board.peers[a] and p in board.peers[b]
                ):
                    return Step(
                        W_WING.name,
                        technique=W_WING,
                        eliminations=tuple(removed),
                        cells=(a, b, p, q),
                        values=(x, y),
                        houses=(board.house_names[house],),
                        reason=f"{board.name(a)} and {board.name(b)} are {{{board.symbols(mask)}}} "
                        f"and {board.symbol(x)} in {board.house_names[house]} is in "
                        f"{board.name(p)} or {board.name(q)}: one of them is {board.symbol(y)}",
                    )
    return None


CLASSIC: tuple[tuple[Technique, Finder], ...] = (
    (NAKED_SINGLE, naked_single),
    (HIDDEN_SINGLE, hidden_single),
    (LOCKED, locked_candidates),
    (NAKED_SUBSETS[2], naked_subset(2)),
    (FISHES[2], fish(2)),
    (HIDDEN_SUBSETS[2], hidden_subset(2)),
    (NAKED_SUBSETS[3], naked_subset(3)),
    (FISHES[3], fish(3)),
    (HIDDEN_SUBSETS[3], hidden_subset(3)),
    (XY_WING, xy_wing),
    (XYZ_WING, xyz_wing),
    (W_WING, w_wing),
    (NAKED_SUBSETS[4], naked_subset(4)),
    (FISHES[4], fish(4)),
    (HIDDEN_SUBSETS[4], hidden_subset(4)),
    (COLOURING, simple_colouring),
    (TURBOT, chain("X-chain", TURBOT_LINKS)),
    (EMPTY_RECTANGLE, empty_rectangle),
    (FINNED[2], finned_fish(2)),
    (FINNED[3], finned_fish(3)),
    *((technique, chain(kind)) for kind, technique in CHAINS.items()),
    (ALS_XZ, als_xz),
    (ALS_XY_WING, als_xy_wing),
    (FORCING, forcing(False)),
    (DYNAMIC_FORCING, forcing(True)),
)
"""The classic techniques, easiest first, each with the function that finds its
first step: a path always takes the first that finds something."""


def left_out(families: Iterable[str]) -> frozenset[Family]:
    """The families named, checked; ValueError naming one that is none."""
    found = frozenset(families)
    for family in sorted(found - set(FAMILIES)):
        raise ValueError(f"no family {family!r}: choose from {', '.join(FAMILIES)}")
    return frozenset(Family(name) for name in found)
