"""Strong links and what they prove: simple colouring (one value's strong links
in two colours) and alternating inference chains (X-chains, XY-chains, AICs,
their loops), each the shortest that removes something.

From a candidate assumed false a strong link (the only other place, or the
only other value) makes the next true, and a weak link (a peer, or another
value of the cell) makes the next false; a chain from ``A`` false to ``E``
true proves "A or E", and whatever sees both goes. A chain that comes back to
``A`` is a loop: proving ``A`` true (a discontinuous loop) places it; ending
on a candidate weakly linked to ``A`` (a continuous loop) makes every weak link
"exactly one", and whatever sees both ends of any of them goes.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from itertools import combinations, product

from sudosat.core.masks import bit
from sudosat.core.masks import values as bits
from sudosat.logic.bitboard import NOT_BUILT, Screen, shortest_chain
from sudosat.logic.board import Board, Candidate, Step, Technique
from sudosat.logic.chains import alternating, eureka
from sudosat.logic.forcing import Finder
from sudosat.logic.levels import Family, Level

COLOURING = Technique("simple colouring", Family.CHAINS, 5.6, Level.EXPERT)
TURBOT = Technique("turbot fish", Family.CHAINS, 6.6, Level.EXPERT)
"""X-chains of four candidates (three links), asked before the other shapes of one
value and the longer X-chains, named by their shapes (skyscraper, 2-string kite,
turbot fish: :func:`_turbot`)."""
TURBOT_LINKS = 3
CHAINS = {
    "X-chain": Technique("X-chain", Family.CHAINS, 6.6, Level.EXPERT),
    "XY-chain": Technique("XY-chain", Family.CHAINS, 6.8, Level.EXPERT),
    "AIC": Technique("AIC", Family.CHAINS, 7.0, Level.EXPERT),
}
"""The alternating chains by kind, each weighed on Sudoku Explainer's scale."""


def _strong_places(board: Board, value: int) -> dict[int, set[int]]:
    """For each cell, the cells joined to it by a strong link on ``value`` (a house
    where the two are its only places)."""
    links: dict[int, set[int]] = {}
    for places in board.house_places(value):
        if len(places) == 2:
            p, q = places
            links.setdefault(p, set()).add(q)
            links.setdefault(q, set()).add(p)
    return links


def simple_colouring(board: Board) -> Step | None:
    """The strong links of one value, coloured in two colours: a colour twice in a house
    is false; a cell seeing both colours loses the value."""
    for value in range(1, board.size + 1):
        links = _strong_places(board, value)
        seen: set[int] = set()
        for start in sorted(links):
            if start in seen:
                continue
            colour = {start: 0}
            queue = [start]
            for cell in queue:
                for other in sorted(links[cell]):
                    if other not in colour:
                        colour[other] = 1 - colour[cell]
                        queue.append(other)
            seen.update(colour)
            if len(colour) < 3:
                continue
            sides = [[c for c in colour if colour[c] == k] for k in (0, 1)]
            step = _colour_wrap(board, value, sides) or _colour_trap(board, value, sides)
            if step:
                return step
    return None


def _colour_wrap(board: Board, value: int, sides: list[list[int]]) -> Step | None:
    for side in sides:
        for a, b in combinations(side, 2):
            if b in board.peers[a]:
                return Step(
                    COLOURING.name,
                    technique=COLOURING,
                    eliminations=tuple(sorted((c, value) for c in side)),
                    cells=tuple(sorted(sides[0] + sides[1])),
                    values=(value,),
                    reason=f"the strong links of {board.symbol(value)} coloured "
                    f"({_colours(board, sides)}): {board.name(a)} and {board.name(b)} share "
                    "a colour and a house, so that colour is false",
                )
    return None


def _colour_trap(board: Board, value: int, sides: list[list[int]]) -> Step | None:
    inside = set(sides[0]) | set(sides[1])
    first, second = (set().union(*(board.peers[c] for c in side)) for side in sides)
    masks, placed, held = board.masks, board.placed, bit(value)
    removed = [
        (cell, value)
        for cell in sorted((first & second) - inside)
        if not placed[cell] and masks[cell] & held
    ]
    if not removed:
        return None
    return Step(
        COLOURING.name,
        technique=COLOURING,
        eliminations=tuple(removed),
        cells=tuple(sorted(inside)),
        values=(value,),
        reason=f"the strong links of {board.symbol(value)} coloured "
        f"({_colours(board, sides)}): one colour is true, and "
        f"{board.names(c for c, _ in removed)} see both",
    )


def _colours(board: Board, sides: list[list[int]]) -> str:
    """The two colour classes: ``A: r1c1, r5c3; B: r2c2, r9c9``."""
    return "; ".join(
        f"{mark}: {board.names(sorted(side))}" for mark, side in zip("AB", sides, strict=True)
    )


CHAIN_LINKS = 16
"""The longest chain looked for, in links."""


def _links(
    board: Board, kind: str
) -> tuple[dict[Candidate, list[Candidate]], Callable[[Candidate], list[Candidate]]]:
    """Strong links between candidates as a chain of ``kind`` may use them, and a
    function giving a candidate's weak links (found when first asked for)."""
    strong: dict[Candidate, list[Candidate]] = {}
    open_cells = board.open_cells()
    bivalue_only = kind == "XY-chain"
    if kind != "X-chain":
        for c in open_cells:
            values = list(bits(board.masks[c]))
            if len(values) == 2:
                strong.setdefault((c, values[0]), []).append((c, values[1]))
                strong.setdefault((c, values[1]), []).append((c, values[0]))
    if not bivalue_only:
        for value in range(1, board.size + 1):
            for cell, others in _strong_places(board, value).items():
                strong.setdefault((cell, value), []).extend((o, value) for o in sorted(others))
    known: dict[Candidate, list[Candidate]] = {}

    def weak(node: Candidate) -> list[Candidate]:
        found = known.get(node)
        if found is None:
            c, v = node
            b = bit(v)
            found = [
                (p, v)
                for p in sorted(board.peers[c])
                if not board.placed[p]
                and board.masks[p] & b
                and (not bivalue_only or int.bit_count(board.masks[p]) == 2)
            ]
            if kind == "AIC":
                found += [(c, w) for w in bits(board.masks[c] & ~b)]
            known[node] = found
        return found

    return strong, weak


def chain(kind: str, most: int = CHAIN_LINKS) -> Finder:
    """Alternating inference chains: ``X-chain`` (one value, strong links between
    places), ``XY-chain`` (bivalue cells, each the only other value of its cell),
    ``AIC`` (any of these links); of ``most`` links at most."""

    screen = {"X-chain": Screen.X_CHAIN, "XY-chain": Screen.XY_CHAIN, "AIC": Screen.AIC}[kind]
    technique = TURBOT if most == TURBOT_LINKS else CHAINS[kind]

    def find(board: Board) -> Step | None:
        hint = shortest_chain(board, screen)
        if hint is None or (hint != NOT_BUILT and hint[1] > most):
            return None
        strong, weak = _links(board, kind)
        starts = sorted(strong)
        if hint != NOT_BUILT:  # (the engine found the shortest chain's start)
            n = board.size
            starts = [(hint[0] // n, hint[0] % n + 1)]
        found = _shortest_chain(board, kind, starts, strong, weak, most)
        return found if found is None else replace(found, technique=technique)

    return find


State = tuple[Candidate, bool]
"""A candidate, and whether the chain has proved it true (else false)."""


def _shortest_chain(
    board: Board,
    kind: str,
    starts: Sequence[Candidate],
    strong: dict[Candidate, list[Candidate]],
    weak: Callable[[Candidate], list[Candidate]],
    most: int = CHAIN_LINKS,
) -> Step | None:
    """The shortest chain of all of ``most`` links at most, from any start assumed
    false to a candidate proved true that removes something (of equal length:
    the first start's); no candidate is passed twice. Each start after the
    first that finds one looks only for a shorter chain."""
    best: tuple[list[Candidate], tuple[Candidate, ...]] | None = None
    for start in starts:
        links = most if best is None else len(best[0]) - 3
        if links < 1:
            break
        found = _chain_from(board, start, strong, weak, links)
        if found is not None:
            best = found
    return None if best is None else _chain_step(board, kind, *best, strong)


def _chain_from(
    board: Board,
    start: Candidate,
    strong: dict[Candidate, list[Candidate]],
    weak: Callable[[Candidate], list[Candidate]],
    links: int,
) -> tuple[list[Candidate], tuple[Candidate, ...]] | None:
    """The shortest chain from ``start`` assumed false, of ``links`` links at most, to
    a candidate proved true that removes something: its path and removals. A
    path to a candidate weakly linked to ``start`` closes a continuous loop (its
    path ends with ``start`` again, by that weak link) and removes along every
    weak link."""
    parent: dict[State, State | None] = {(start, False): None}
    frontier = [(start, False)]
    closing = set(weak(start))
    for _ in range(links):
        ahead = []
        for node, true in frontier:
            for nxt in weak(node) if true else strong.get(node, ()):
                state = (nxt, not true)
                if state in parent:
                    continue
                if (nxt, true) in parent and _passed(parent, (node, true), nxt):
                    continue  # (a candidate is passed once: reached the other way first)
                parent[state] = (node, true)
                ahead.append(state)
                if not true:  # nxt is now proved true: "start or nxt"
                    if nxt in closing:
                        path = _path(parent, state)
                        removed = _loop_removes(board, [*path, start])
                        if removed:
                            return [*path, start], removed
                        continue
                    removed = _either_removes(board, start, nxt)
                    if removed:
                        return _path(parent, state), removed
        frontier = ahead
        if not frontier:
            break
    return None


def _loop_removes(board: Board, loop: Sequence[Candidate]) -> tuple[Candidate, ...]:
    """What a continuous loop removes (``loop``: its candidates from the start
    assumed false round to the start again): each weak link of it holds exactly
    one true candidate, so whatever sees both of its ends goes."""
    weak_links = zip(loop[1::2], loop[2::2], strict=False)
    return tuple(sorted({r for a, e in weak_links for r in _either_removes(board, a, e)}))


def _passed(parent: dict[State, State | None], at: State | None, candidate: Candidate) -> bool:
    """Whether the chain that reached ``at`` passed ``candidate`` already."""
    while at is not None:
        if at[0] == candidate:
            return True
        at = parent[at]
    return False


def _chain_step(
    board: Board,
    kind: str,
    path: list[Candidate],
    removed: tuple[Candidate, ...],
    strong: dict[Candidate, list[Candidate]],
) -> Step:
    """The step of a chain found; one that removes its start's strong partner closes
    a discontinuous loop (the start, false, would make itself true) and places
    its start instead, which removes all the chain did."""
    placed: tuple[Candidate, ...] = ()
    partner = next((z for z in strong.get(path[0], ()) if z in removed and z not in path), None)
    if path[0] == path[-1]:  # (closed by a weak link back to its start)
        named = NAMED_LOOPS[0]
    elif partner is not None:
        named, placed, removed = NAMED_LOOPS[1], (path[0],), ()
        path = [*path, partner, path[0]]
    else:
        named = _turbot(board, path) if kind == "X-chain" else kind  # (weighed as an X-chain)
    written = alternating(path)
    return Step(
        named,
        placements=placed,
        technique=CHAINS[kind],
        eliminations=removed,
        cells=tuple(dict.fromkeys(c for c, _ in path)),
        values=tuple(sorted({v for _, v in path})),
        reason=eureka(board.puzzle, written),
        chains=(written,),
    )


NAMED_X_CHAINS = ("skyscraper", "2-string kite", "turbot fish")
"""X-chains of four candidates, by HoDoKu's names (:func:`_turbot`)."""

NAMED_LOOPS = ("continuous loop", "discontinuous loop")
"""Chains that close on their start (:func:`_chain_step`), of any kind."""


def _turbot(board: Board, path: Sequence[Candidate]) -> str:
    """An X-chain of four candidates by its name (HoDoKu's): a skyscraper (two strong
    links in parallel lines, their ends in one cross line), a 2-string kite (one
    in a row, one in a column, their ends in one box), else a turbot fish."""
    if len(path) != 4:
        return "X-chain"
    (a, value), (b, _), (c, _), (d, _) = path
    first, second = _strong_kinds(board, a, b, value), _strong_kinds(board, c, d, value)
    shared = {_house_kind(board, h) for h in set(board.cell_houses[b]) & set(board.cell_houses[c])}
    for one, other in product(first, second):
        if one == other and one in ("row", "column") and ({"row", "column"} - {one}) & shared:
            return "skyscraper"
        if {one, other} == {"row", "column"} and "box" in shared:
            return "2-string kite"
    return "turbot fish"


def _strong_kinds(board: Board, a: int, b: int, value: int) -> set[str]:
    """The kinds of house where ``a`` and ``b`` are ``value``'s only two places."""
    return {
        _house_kind(board, h)
        for h in set(board.cell_houses[a]) & set(board.cell_houses[b])
        if len(board.places(h, value)) == 2
    }


def _house_kind(board: Board, index: int) -> str:
    if index < board.lines:
        return "row" if index < board.lines // 2 else "column"
    return "box" if index in board.boxes else "house"


def _either_removes(board: Board, a: Candidate, e: Candidate) -> tuple[Candidate, ...]:
    """What "a or e is true" removes."""
    (ca, va), (ce, ve) = a, e
    if va == ve:
        if ca == ce:
            return ()
        seen = board.peers[ca] & board.peers[ce]
        return tuple(sorted((c, va) for c in seen if board.masks[c] & bit(va)))
    if ca == ce:
        return tuple((ca, v) for v in bits(board.masks[ca] & ~(bit(va) | bit(ve))))
    removed = []
    if ce in board.peers[ca]:
        if board.masks[ca] & bit(ve):
            removed.append((ca, ve))
        if board.masks[ce] & bit(va):
            removed.append((ce, va))
    return tuple(sorted(removed))


def _path(parent: dict[State, State | None], state: State) -> list[Candidate]:
    path = []
    at: State | None = state
    while at is not None:
        path.append(at[0])
        at = parent[at]
    return path[::-1]
