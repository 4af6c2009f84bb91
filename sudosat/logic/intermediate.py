"""HoDoKu's intermediate techniques, after the wings and before the chains: the
empty rectangle, finned and sashimi fish, and, for a puzzle known to have one
solution, unique rectangles (types 1 to 4) and BUG+1.

Each is a chain a person sees as a shape. An empty rectangle and a finned fish
are X-chains with a group of cells for a node, weighed as X-chains (Sudoku
Explainer has no such shapes: it finds them as chains). A unique rectangle and
BUG+1 assume what the path knows, that the puzzle has one solution (its true
candidates say so): asked only then, and each says so.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from itertools import combinations
from typing import Any

from sudosat.core.masks import bit
from sudosat.core.masks import values as bits
from sudosat.logic import bitboard
from sudosat.logic.bitboard import Screen, finds
from sudosat.logic.board import Board, Step, Technique
from sudosat.logic.forcing import Finder
from sudosat.logic.levels import Family, Level

EMPTY_RECTANGLE = Technique("empty rectangle", Family.CHAINS, 6.6, Level.EXPERT)
FINNED = {
    2: Technique("finned X-wing", Family.FISH, 6.6, Level.EXPERT),
    3: Technique("finned swordfish", Family.FISH, 6.6, Level.EXPERT),
}
"""Finned fish, sashimi ones too (named so), weighed as the X-chains they are."""
UNIQUE_RECTANGLE = {
    1: Technique("unique rectangle", Family.UNIQUENESS, 4.5, Level.EXPERT),
    2: Technique("unique rectangle type 2", Family.UNIQUENESS, 4.6, Level.EXPERT),
    3: Technique("unique rectangle type 3", Family.UNIQUENESS, 4.7, Level.EXPERT),
    4: Technique("unique rectangle type 4", Family.UNIQUENESS, 4.6, Level.EXPERT),
}
BUG = Technique("BUG+1", Family.UNIQUENESS, 5.6, Level.EXPERT)
UNIQUE = "the puzzle has one solution"
"""What a uniqueness step assumes, and says."""


def _region_of(board: Board, cell: int) -> int:
    return next(h for h in board.cell_houses[cell] if h in board.boxes)


# --- the empty rectangle -------------------------------------------------------------


def empty_rectangle(board: Board) -> Step | None:
    """A value whose places in a box all lie in one row and one column of it (not in
    one alone): whichever holds it, the row or the column. A strong link in a
    line from that row's (or column's) far cell then removes the value where
    its other end sees the box's column (or row)."""
    if not finds(board, Screen.EMPTY_RECTANGLE):
        return None
    n = board.size
    for value in range(1, n + 1):
        strong = {line for line in range(2 * n) if len(board.places(line, value)) == 2}
        if not strong:
            continue  # (no strong link in a row or column to meet a rectangle)
        for box in board.boxes:
            places = board.places(box, value)
            if len(places) < 2:
                continue
            rows = {c // n for c in places}
            columns = {c % n for c in places}
            if len(rows) == 1 or len(columns) == 1:
                continue  # (locked candidates)
            for row in sorted(rows):
                for column in sorted(columns):
                    if all(c // n == row or c % n == column for c in places):
                        step = _rectangle_step(board, value, box, (row, column), strong)
                        if step is not None:
                            return step
    return None


def _rectangle_step(
    board: Board, value: int, box: int, cross: tuple[int, int], strong: set[int]
) -> Step | None:
    """The removal of an empty rectangle on ``box``'s ``cross`` (its row and column)
    by a strong link of ``strong`` (the rows and columns where ``value`` has two
    places), if any."""
    n = board.size
    row, column = cross
    inside = board.houses[box]
    # a strong link in a column from row ``row`` outside the box: its other end's row
    # meets ``column`` where the value goes (and the same with rows and columns swapped)
    for across in (True, False):
        line = row if across else n + column
        for near in board.places(line, value):
            other_line = n + near % n if across else near // n
            if other_line not in strong or near in inside:
                continue
            (far,) = (c for c in board.places(other_line, value) if c != near)
            target = (far // n) * n + column if across else row * n + far % n
            if target in inside or target == far or not board.masks[target] & bit(value):
                continue
            if board.placed[target]:
                continue
            names = (board.house_names[box], board.house_names[other_line])
            return Step(
                EMPTY_RECTANGLE.name,
                technique=EMPTY_RECTANGLE,
                eliminations=((target, value),),
                cells=tuple(sorted({*board.places(box, value), near, far})),
                values=(value,),
                houses=names,
                reason=f"{board.symbol(value)} in {names[0]} lies in "
                f"{board.house_names[row]} or {board.house_names[n + column]}, and in "
                f"{names[1]} in {board.name(near)} or {board.name(far)}: either way "
                f"{board.name(target)} sees it",
            )
    return None


# --- finned and sashimi fish ---------------------------------------------------------


def finned_fish(size: int) -> Finder:
    """``size`` rows whose places for a value lie in ``size`` columns but for a few
    (the fins), all in one box: either the fish holds (its columns' other cells
    lose the value) or a fin does (the box's other cells lose it); so a cell of
    the columns in the fins' box, outside the rows, loses it. Sashimi when a row
    keeps one place of the fish's own besides its fins."""
    technique = FINNED[size]
    sashimi = technique.name.replace("finned", "sashimi")

    def find(board: Board) -> Step | None:
        if not finds(board, Screen.FINNED, size):
            return None
        region = _regions(board)
        for value in range(1, board.size + 1):
            for by_rows in (True, False):
                found = _finned(board, region, value, by_rows, size)
                if found is not None:
                    step, thin = found
                    named = sashimi if thin else technique.name
                    return replace(step, name=named, technique=technique)
        return None

    return find


def _regions(board: Board) -> list[int]:
    """Each cell's region (its box), by the index of the house."""
    found = [-1] * (board.size * board.size)
    for box in board.boxes:
        for cell in board.houses[box]:
            found[cell] = box
    return found


def _finned(
    board: Board, region: list[int], value: int, by_rows: bool, size: int
) -> tuple[Step, bool] | None:
    """The first finned fish of ``value`` on ``size`` rows (columns), and whether it
    is sashimi: each line's places as a mask of the cross lines, and each
    line's places in each region, so a group of lines and a fins' region ask a
    few bit operations."""
    n = board.size
    lines: list[tuple[int, int, dict[int, int]]] = []
    for i in range(n):
        places = board.places(i if by_rows else n + i, value)
        if 2 <= len(places) <= size + 3:
            mask, parts = 0, dict[int, int]()
            for c in places:
                cross = bit((c % n if by_rows else c // n) + 1)
                mask |= cross
                parts[region[c]] = parts.get(region[c], 0) | cross
            lines.append((i, mask, parts))
    for group in combinations(lines, size):
        union = 0
        for _, mask, _ in group:
            union |= mask
        if not size < union.bit_count() <= size + 3:
            continue  # (a plain fish, or fins too many for one box)
        for fin_region in sorted({r for _, _, parts in group for r in parts}):
            must = 0  # the cross lines every place outside the fins' region needs
            for _, mask, parts in group:
                must |= mask & ~parts.get(fin_region, 0)
            if must.bit_count() > size:
                continue
            for extra in combinations(bits(union & ~must), size - must.bit_count()):
                covers = must
                for x in extra:
                    covers |= bit(x)
                if not union & ~covers:
                    continue  # (no fin: a plain fish)
                found = _finned_step(board, region, value, by_rows, group, covers, fin_region)
                if found is not None:
                    return found
    return None


def _finned_step(
    board: Board,
    region: list[int],
    value: int,
    by_rows: bool,
    group: Sequence[tuple[int, int, dict[int, int]]],
    covers: int,
    fin_region: int,
) -> tuple[Step, bool] | None:
    """The step of a fish on ``group``'s lines and the cross lines ``covers``, its
    fins (every place outside them: all in ``fin_region``, as the covers were
    chosen) and what they remove, if anything."""
    n = board.size
    if any(not mask & covers for _, mask, _ in group):
        return None  # (a line of fins alone)
    base = {i for i, _, _ in group}

    def line(c: int) -> int:
        return c // n if by_rows else c % n

    def cross(c: int) -> int:
        return bit((c % n if by_rows else c // n) + 1)

    removed = [
        (c, value)
        for c in board.places(fin_region, value)
        if cross(c) & covers and line(c) not in base
    ]
    if not removed:
        return None
    cells = [c for i, _, _ in group for c in board.places(i if by_rows else n + i, value)]
    fins = [c for c in cells if not cross(c) & covers]
    thin = any((mask & covers).bit_count() == 1 for _, mask, _ in group)
    names = [board.house_names[i if by_rows else n + i] for i, _, _ in group]
    cover_names = [board.house_names[n + k - 1 if by_rows else k - 1] for k in bits(covers)]
    step = Step(
        "finned",
        eliminations=tuple(sorted(removed)),
        cells=tuple(sorted(cells)),
        values=(value,),
        houses=(*names, *cover_names, board.house_names[fin_region]),
        reason=f"{board.symbol(value)} in {', '.join(names)} lies only in "
        f"{', '.join(cover_names)} but for the fins {board.names(sorted(fins))} "
        f"in {board.house_names[fin_region]}",
    )
    return step, thin


# --- uniqueness: unique rectangles and BUG+1 -----------------------------------------


def unique(truth: Callable[[], Sequence[int] | None], find: Finder) -> Finder:
    """``find``, asked only of a puzzle whose true candidates say it has one solution."""

    known: list[tuple[Sequence[int], bool]] = []
    """The last truth asked of, kept (so that its identity stays its own), and the answer."""

    def found(board: Board) -> Step | None:
        true = truth()
        if true is None:
            return None
        if not known or known[0][0] is not true:  # (the same truth all along a path)
            known[:] = [(true, not any(mask & (mask - 1) for mask in true))]
        return find(board) if known[0][1] else None

    return found


UR_ORDER = (1, 2, 4, 3)
"""The types of unique rectangle, lightest first (as the path asks them)."""


def unique_rectangle(board: Board) -> Step | None:
    """Four cells in two rows, two columns and two boxes, each holding {x,y}: were
    they only that, x and y could swap, two solutions. So, type 1: three are
    {x,y} and the fourth loses x and y; type 2: the other two hold one more
    value z, true in one of them, which leaves what sees both; type 3: their
    other values make a naked subset with cells of a house they share; type 4:
    x's only places in a house they share are these two, so y leaves both. The
    lightest type first (:data:`UR_ORDER`), each a technique of its own weight."""
    if not finds(board, Screen.UNIQUE_RECTANGLE):
        return None
    rectangles = _rectangles(board)
    roofs = [sum(board.masks[c] != pair for c in corners) for corners, pair in rectangles]
    for kind in UR_ORDER:
        technique = UNIQUE_RECTANGLE[kind]
        wanted = 1 if kind == 1 else 2
        for (corners, pair), roof in zip(rectangles, roofs, strict=True):
            if roof != wanted:
                continue
            step = _rectangle_kind(board, kind, corners, pair)
            if step is not None:
                return replace(step, name=technique.name, technique=technique)
    return None


def _rectangles(board: Board) -> list[tuple[tuple[int, int, int, int], int]]:
    """Each rectangle of open cells in two rows, two columns and two boxes that all
    hold two values, with the pair (as a mask): corners row by row."""
    n, masks, placed = board.size, board.masks, board.placed
    found = set()
    for a in board.open_cells():
        pair = masks[a]
        if pair.bit_count() != 2:
            continue
        row, column = divmod(a, n)
        across = [row * n + j for j in range(n) if j != column]
        down = [i * n + column for i in range(n) if i != row]
        across = [b for b in across if not placed[b] and masks[b] & pair == pair]
        down = [c for c in down if not placed[c] and masks[c] & pair == pair]
        for b in across:
            for c in down:
                d = (c // n) * n + b % n
                if placed[d] or masks[d] & pair != pair:
                    continue
                corners = tuple(sorted((a, b, c, d)))
                if len({_region_of(board, x) for x in corners}) == 2:
                    found.add((corners, pair))
    return sorted(found)  # type: ignore[arg-type]


def _rectangle_kind(
    board: Board, kind: int, corners: tuple[int, int, int, int], pair: int
) -> Step | None:
    n = board.size
    floor = [c for c in corners if board.masks[c] == pair]
    roof = [c for c in corners if board.masks[c] != pair]
    x, y = bits(pair)
    said = f"{board.names(corners)} hold {{{board.symbols(pair)}}}"
    if kind == 1 and len(roof) == 1:
        (cell,) = roof
        removed = tuple((cell, v) for v in (x, y))
        reason = f"{said}; three hold nothing else, so {board.name(cell)} is not "
        return _ur_step(board, corners, pair, removed, reason + f"{board.symbols(pair)}")
    if len(roof) != 2 or len(floor) != 2:
        return None
    c, d = roof
    extra_c, extra_d = board.masks[c] & ~pair, board.masks[d] & ~pair
    shared = [h for h in board.cell_houses[c] if h in board.cell_houses[d]]
    if kind == 2 and extra_c == extra_d and extra_c.bit_count() == 1:
        z = bits(extra_c)[0]
        seen = board.peers[c] & board.peers[d]
        removed = tuple(
            (p, z) for p in sorted(seen) if board.masks[p] & bit(z) and not board.placed[p]
        )
        reason = f"{said}; {board.name(c)} or {board.name(d)} holds {board.symbol(z)}"
        return _ur_step(board, corners, pair, removed, reason) if removed else None
    if c // n != d // n and c % n != d % n:
        return None  # (the roof across a diagonal shares no house: types 1 and 2 only)
    if kind == 3:
        return _type_three(board, corners, pair, c, d, shared, said)
    if kind == 4:
        for house in shared:
            for only, other in ((x, y), (y, x)):
                if sorted(board.places(house, only)) == sorted((c, d)):
                    removed = tuple((cell, other) for cell in (c, d))
                    reason = (
                        f"{said}; {board.symbol(only)} in {board.house_names[house]} is in "
                        f"{board.name(c)} or {board.name(d)}, so neither is {board.symbol(other)}"
                    )
                    return _ur_step(board, corners, pair, removed, reason)
    return None


def _type_three(
    board: Board,
    corners: tuple[int, int, int, int],
    pair: int,
    c: int,
    d: int,
    shared: list[int],
    said: str,
) -> Step | None:
    """The roof's other values, as one cell, and some cells of a house the roof
    shares: as many values as cells (a naked subset), which leave the house's rest."""
    extra = (board.masks[c] | board.masks[d]) & ~pair
    for house in shared:
        others = [x for x in board.houses[house] if x not in (c, d) and not board.placed[x]]
        for size in (1, 2):
            for group in combinations(others, size):
                held = extra
                for x in group:
                    held |= board.masks[x]
                if held.bit_count() != size + 1 or any(board.masks[x] & pair for x in group):
                    continue
                removed = tuple(
                    (x, v) for x in others if x not in group for v in bits(board.masks[x] & held)
                )
                if removed:
                    reason = (
                        f"{said}; {board.name(c)} or {board.name(d)} holds one of "
                        f"{{{board.symbols(extra)}}}, a naked subset with {board.names(group)} "
                        f"in {board.house_names[house]}"
                    )
                    return _ur_step(board, corners, pair, removed, reason)
    return None


def _ur_step(
    board: Board,
    corners: tuple[int, ...],
    pair: int,
    removed: tuple[tuple[int, int], ...],
    reason: str,
) -> Step | None:
    removed = tuple(x for x in removed if board.masks[x[0]] & bit(x[1]))
    if not removed:
        return None
    return Step(
        "unique rectangle",
        eliminations=removed,
        cells=tuple(corners),
        values=tuple(bits(pair)),
        reason=f"{reason} ({UNIQUE})",
    )


def bug_plus_one(board: Board) -> Step | None:
    """Every open cell holds two values but one, which holds three: were it one of
    them less, each value would have two places in each house, and the values
    could swap, two solutions. So it holds the one its houses hold thrice."""
    open_cells = board.open_cells()
    if not open_cells:
        return None
    wide = [c for c in open_cells if board.masks[c].bit_count() != 2]
    if len(wide) != 1 or board.masks[wide[0]].bit_count() != 3:
        return None
    (cell,) = wide
    for value in bits(board.masks[cell]):
        if all(len(board.places(h, value)) == 3 for h in board.cell_houses[cell]):
            return Step(
                BUG.name,
                technique=BUG,
                placements=((cell, value),),
                cells=(cell,),
                values=(value,),
                reason=f"every open cell holds two values but {board.name(cell)}, and "
                f"{board.symbol(value)} has three places in each of its houses ({UNIQUE})",
            )
    return None


# --- almost locked sets ----------------------------------------------------------------

ALS_XZ = Technique("ALS-XZ", Family.CHAINS, 7.5, Level.EXPERT)
ALS_XY_WING = Technique("ALS-XY-wing", Family.CHAINS, 7.7, Level.EXPERT)
"""Chains of almost locked sets, asked after the AICs (SE, which has no such sets,
finds them as forcing chains)."""
ALS_CELLS = 4
"""The most cells an almost locked set has here (a two-valued cell is one of one)."""
ALS_UP_TO = 9
"""The largest grid they are asked on (the sets of a bigger house are too many)."""

Als = tuple[tuple[int, ...], int]
"""An almost locked set: its cells, and the values they hold between them (one more
than cells)."""


def almost_locked_sets(board: Board) -> list[Als]:
    """Every almost locked set, house by house, fewest cells first, in the house's
    order (the engine's order: the same sets, the same first step)."""
    found = []
    masks = board.masks
    for house in board.houses:
        open_cells = [c for c in house if not board.placed[c]]
        for size in range(1, min(ALS_CELLS, len(open_cells) - 1) + 1):
            for cells in combinations(open_cells, size):
                mask = 0
                for c in cells:
                    mask |= masks[c]
                if mask.bit_count() == size + 1:
                    found.append((tuple(sorted(cells)), mask))
    return found


def _als_of(board: Board, cells: Sequence[int]) -> Als:
    mask = 0
    for c in cells:
        mask |= board.masks[c]
    return tuple(cells), mask


def _restricted(board: Board, a: Als, b: Als, x: int) -> bool:
    """Every cell of ``a`` holding ``x`` sees every cell of ``b`` holding it: not both."""
    here = [c for c in a[0] if board.masks[c] & bit(x)]
    there = [c for c in b[0] if board.masks[c] & bit(x)]
    return all(q in board.peers[p] for p in here for q in there)


def _seeing(board: Board, a: Als, b: Als, z: int) -> list[tuple[int, int]]:
    """The open cells outside ``a`` and ``b`` holding ``z`` that see every cell of
    both holding it."""
    holders = [c for c in (*a[0], *b[0]) if board.masks[c] & bit(z)]
    return [
        (t, z)
        for t in board.open_cells()
        if board.masks[t] & bit(z)
        and t not in a[0]
        and t not in b[0]
        and all(h in board.peers[t] for h in holders)
    ]


def _first_als(board: Board, wing: bool) -> tuple[Any, ...] | None:
    """The first ALS-XY-wing (``wing``) or ALS-XZ: its sets' cells and values, from
    the engine, else from the Python search (the same, in the same order)."""
    if board.size > ALS_UP_TO:
        return None
    found = bitboard.als(board, wing)
    if found == bitboard.NOT_BUILT:
        first = _first_wing if wing else _first_xz
        found = first(board, almost_locked_sets(board))
    return found


def _apart(a: Als, b: Als) -> bool:
    return not set(a[0]) & set(b[0])


def als_xz(board: Board) -> Step | None:
    """Two almost locked sets that share a value x only where each one's x sees the
    other's (a restricted common value: not in both): one of them locks, so for
    any other value z they share, z is in one of them; a cell seeing every z of
    both loses it."""
    found = _first_als(board, False)
    if found is None:
        return None
    a, b, x = _als_of(board, found[0]), _als_of(board, found[1]), int(found[2])
    removed = [r for z in bits(a[1] & b[1] & ~bit(x)) for r in _seeing(board, a, b, z)]
    return Step(
        ALS_XZ.name,
        technique=ALS_XZ,
        eliminations=tuple(sorted(removed)),
        cells=tuple(sorted({*a[0], *b[0]})),
        values=tuple(bits(a[1] & b[1])),
        reason=f"{_als_text(board, a)} and {_als_text(board, b)} hold "
        f"{board.symbol(x)} in one at most (where one has it, it sees the other's), so "
        f"one of them holds each of {board.symbols(a[1] & b[1] & ~bit(x))}",
    )


def _first_xz(board: Board, sets: list[Als]) -> tuple[Any, ...] | None:
    for i, a in enumerate(sets):
        for j, b in enumerate(sets):
            both = a[1] & b[1]
            if i == j or both.bit_count() < 2 or not _apart(a, b):
                continue
            for x in bits(both):
                if not _restricted(board, a, b, x):
                    continue
                if any(_seeing(board, a, b, z) for z in bits(both & ~bit(x))):
                    return a[0], b[0], x
    return None


def als_xy_wing(board: Board) -> Step | None:
    """Three almost locked sets: C shares a restricted common value x with A and y
    with B. Were a value z of A and B true in neither, A would lock x out of C and
    B y, leaving C too few values; so a cell seeing every z of A and B loses it."""
    found = _first_als(board, True)
    if found is None:
        return None
    a, b, c = (_als_of(board, cells) for cells in found[:3])
    x, y = int(found[3]), int(found[4])
    common = a[1] & b[1] & ~bit(x) & ~bit(y)
    removed = [r for z in bits(common) for r in _seeing(board, a, b, z)]
    return Step(
        ALS_XY_WING.name,
        technique=ALS_XY_WING,
        eliminations=tuple(sorted(removed)),
        cells=tuple(sorted({*a[0], *b[0], *c[0]})),
        values=tuple(bits(common | bit(x) | bit(y))),
        reason=f"{_als_text(board, c)} shares {board.symbol(x)} with {_als_text(board, a)} "
        f"and {board.symbol(y)} with {_als_text(board, b)}, each in one at most: so one of "
        f"those two holds each of {board.symbols(common)}",
    )


def _first_wing(board: Board, sets: list[Als]) -> tuple[Any, ...] | None:
    for k, c in enumerate(sets):
        partners = [
            (i, x)
            for i, a in enumerate(sets)
            if i != k and a[1] & c[1] and _apart(a, c)
            for x in bits(a[1] & c[1])
            if _restricted(board, a, c, x)
        ]
        for i, x in partners:
            for j, y in partners:
                a, b = sets[i], sets[j]
                if i == j or x == y or not _apart(a, b):
                    continue
                common = a[1] & b[1] & ~bit(x) & ~bit(y)
                if any(_seeing(board, a, b, z) for z in bits(common)):
                    return a[0], b[0], c[0], x, y
    return None


def _als_text(board: Board, als: Als) -> str:
    return f"{' '.join(board.name(c) for c in als[0])} {{{board.symbols(als[1])}}}"
