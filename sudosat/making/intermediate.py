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

from sudosat.core.masks import bit
from sudosat.core.masks import values as bits
from sudosat.making.bitboard import Screen, finds
from sudosat.making.board import Board, Step, Technique
from sudosat.making.forcing import Finder
from sudosat.making.levels import Family, Level

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
