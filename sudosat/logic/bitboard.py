"""The compiled reasoning engine, where it was built: naked and hidden singles on
a board's candidates as bit masks, a branch at a time (``_engine.c``).

A board's houses are packed once into a geometry (:func:`geometry`); a branch
is a list of literals (:func:`sudosat.sat.cnf.literal`'s numbering, negative:
ruled out), followed by singles to a fixpoint. The answers are those of a
Minicard holding the board's "exactly one" constraints (the reference the
tests hold it to): whether the branch breaks, and the literals it sets.

The engine is built with sudosat (a C extension, ``pip install`` compiles it).
Where it was not built or cannot be loaded, or ``SUDOSAT_ENGINE=python`` asks for
the reference alone, :func:`propagator` returns None and the callers keep to
the Python and Minicard forms; ``--verbose`` says so once.
"""

from __future__ import annotations

import logging
import os
from array import array
from collections.abc import Callable, Sequence
from enum import IntEnum
from typing import Any, NamedTuple

from sudosat.logic.board import Board

log = logging.getLogger("sudosat")


def load_compiled(name: str) -> tuple[Any, str]:
    """The compiled module ``sudosat.logic.NAME`` and "", or None and why not."""
    if os.environ.get("SUDOSAT_ENGINE") == "python":  # the reference alone (make test runs it)
        return None, "SUDOSAT_ENGINE=python"
    try:  # as `from sudosat.logic import NAME` (through __import__, as a test hides it)
        logic = __import__("sudosat.logic", fromlist=[name])
    except ImportError as err:  # broken
        return None, str(err)
    module = getattr(logic, name, None)
    return (module, "") if module is not None else (None, f"sudosat.logic.{name} is not built")


ENGINE, WHY_NOT = load_compiled("_engine")
_said = False


SLOWER = "up to 80 times"
"""How much slower the logic runs in Python than with the compiled engine
(BENCHMARKS.md, "Without a compiler"): a command that follows logical paths says
so once where the engine is not built."""


def fallback_note() -> str | None:
    """What a run that follows logical paths says once on a machine where the
    compiled engine is not built; None where it is (or where SUDOSAT_ENGINE=python
    asks for the Python engine)."""
    if ENGINE is not None or WHY_NOT == "SUDOSAT_ENGINE=python":
        return None
    return (
        f"the compiled engine is not built ({WHY_NOT}): the logic runs in Python, "
        f"{SLOWER} slower, and SE's ER past 9.0 is not computed (install gcc and "
        "reinstall sudosat to build it)"
    )


def compiled() -> bool:
    """Whether the compiled engine is here; under ``--verbose``, the first ask on a
    machine without it says why, once."""
    global _said
    if ENGINE is None and not _said:
        _said = True
        log.info("the compiled reasoning engine is not built (%s): logic runs in Python", WHY_NOT)
    return ENGINE is not None


_GEOMETRIES: dict[tuple[tuple[int, ...], ...], bytes] = {}
"""Each board shape's geometry, packed once (a few shapes a run)."""
SHAPES_KEPT = 64
"""Shapes kept packed at most (a jigsaw generator or a setter's page makes a new
one a puzzle: past this many, the packed ones are dropped)."""


def geometry(board: Board) -> bytes:
    """The board's houses, each cell's houses and its peers, packed for the engine;
    the peers in the order the board's own sets give them (Python's forcing
    chains place in that order, and so the engine's singles do)."""
    key = tuple(board.houses)
    packed = _GEOMETRIES.get(key)
    if packed is None:
        n, cells = board.size, board.size**2
        k, p = max(map(len, board.cell_houses)), max(map(len, board.peers))
        words = [n, cells, len(board.houses), k, p, *(c for house in key for c in house)]
        for mine in board.cell_houses:
            words += [*mine, *[-1] * (k - len(mine))]
        for near in board.peers:
            words += [*near, *[-1] * (p - len(near))]
        if len(_GEOMETRIES) >= SHAPES_KEPT:
            _GEOMETRIES.clear()
        packed = _GEOMETRIES[key] = array("i", words).tobytes()
    return packed


_MEETINGS: dict[tuple[tuple[int, ...], ...], bytes] = {}


def meetings(board: Board) -> bytes:
    """The board's meetings of two houses (:attr:`Board.meeting_cells`, and each
    house's, :attr:`Board.meetings_from`), packed for the engine's locked
    candidates, in the board's order."""
    key = tuple(board.houses)
    packed = _MEETINGS.get(key)
    if packed is None:
        cells = board.meeting_cells
        data: list[int] = []
        meeting_at = []
        for common, rest, targets in cells:
            meeting_at.append(len(data))
            for part in (common, rest, targets):
                data += [len(part), *part]
        meeting_at.append(len(data))
        index = {id(cell): i for i, cell in enumerate(cells)}
        house_at: list[int] = []
        listed: list[int] = []
        for mine in board.meetings_from:
            house_at.append(len(listed))
            listed += [index[id(cell)] for cell in mine]
        house_at.append(len(listed))
        words = [len(cells), len(board.houses), *meeting_at, *house_at, *data, *listed]
        if len(_MEETINGS) >= SHAPES_KEPT:
            _MEETINGS.clear()
        packed = _MEETINGS[key] = array("i", words).tobytes()
    return packed


Shape = tuple[bytes, bytes]
"""A board's geometry and meetings, packed for the engine."""

_last: tuple[object, Shape | None] = (None, None)


def shape_of(board: Board) -> Shape | None:
    """The board's geometry and meetings for the engine's settle (None without the
    engine, or past 64 values); the last board's houses answer at once (a path's
    branches ask thousands of times for one board's)."""
    global _last
    if ENGINE is None or board.size > 64:
        return None
    if _last[0] is not board.houses:
        _last = (board.houses, (geometry(board), meetings(board)))
    return _last[1]


def settle(run: Any, locked: bool, pairs: bool, theirs: list[int] | None = None) -> bool:
    """:meth:`forcing.Propagation.settle` in the engine, step for step: the run's
    lists and sets changed as Python changes them; whether it holds. With
    ``theirs`` (a later board's candidates), carried there first, as
    :meth:`forcing.Propagation.within` carries it."""
    shape, meeting = run.shape
    ok, run.touched, run.touched_locked = ENGINE.settle(
        shape,
        meeting,
        run.masks,
        run.placed,
        run.todo,
        run.dirty,
        run.touched,
        run.touched_locked,
        locked,
        pairs,
        theirs,
    )
    return bool(ok)


def masks_of(board: Board) -> bytes:
    """The board's candidates, a 64-bit word a cell."""
    return array("Q", board.masks).tobytes()


class Branching(NamedTuple):
    """A board's branches through the engine (literals as :func:`sudosat.sat.cnf.literal`
    numbers them, negative: ruled out)."""

    propagate: Callable[[list[int]], tuple[bool, list[int]]]
    """Whether singles hold once the literals do, and the literals they set beyond
    the board's (as Minicard's ``propagate``)."""
    breaks: Callable[[list[int]], bool]
    """Whether singles break the board once the literals hold."""
    first_break: Callable[[list[int], list[int], int], tuple[int, int]]
    """(assumed, ys, start): the branch of ``assumed`` followed once, then each of
    ``ys`` from ``start`` on that it leaves open added in turn: the index of the
    first that breaks it (-1: none, -2: the branch itself breaks), and how many
    were followed."""
    shortest_broken: Callable[
        [list[int], list[int], int, Callable[[], bool]],
        tuple[list[tuple[int, list[int]]] | None, int],
    ]
    """(xs, ys, taken_apart, past): :func:`nested._shortest_broken` in one call,
    each branch's rounds of removals as :meth:`nested.Branches.removals` makes
    them; with the branches followed."""


def propagator(board: Board) -> Branching | None:
    """The board's branches through the engine; None without it, or past 64 values."""
    if not compiled() or board.size > 64:
        return None
    shape = geometry(board)
    engine = ENGINE
    masks = engine.prepare(shape, masks_of(board))  # (read once, loaded many times)

    def propagate(assumed: list[int]) -> tuple[bool, list[int]]:
        ok, implied = engine.propagate(shape, masks, assumed)
        return bool(ok), implied

    def breaks(assumed: list[int]) -> bool:
        return bool(engine.breaks(shape, masks, assumed))

    def first_break(assumed: list[int], ys: list[int], start: int) -> tuple[int, int]:
        found, tested = engine.first_break(shape, masks, assumed, ys, start)
        return int(found), int(tested)

    def shortest_broken(
        xs: list[int], ys: list[int], taken_apart: int, past: Callable[[], bool]
    ) -> tuple[list[tuple[int, list[int]]] | None, int]:
        found, calls = engine.shortest_broken(shape, masks, xs, ys, taken_apart, past)
        return found, int(calls)

    return Branching(propagate, breaks, first_break, shortest_broken)


def singles_shape(board: Board) -> bytes | None:
    """The board's geometry for :func:`walk_singles` (None without the engine, or
    past 64 values)."""
    if not compiled() or board.size > 64:
        return None
    return geometry(board)


def walk_singles(shape: bytes, board: Board) -> tuple[int, int, int, int, int]:
    """The singles a logical path takes from ``board`` one at a time, taken in the
    engine (the board changed in place): (end, naked, hidden, first, heaviest);
    end 0: none left, 1: the grid is full, 2: a contradiction; first and
    heaviest: Sudoku Explainer's weights, in tenths, of the board before the
    first single and the heaviest (:func:`sudosat.logic.solve_path.easiest_single`)."""
    boxes = board.boxes
    end, naked, hidden, first, heaviest = ENGINE.path_singles(
        shape, board.masks, board.placed, boxes.start, boxes.stop
    )
    board.changed()
    return int(end), int(naked), int(hidden), int(first), int(heaviest)


class Screen(IntEnum):
    """The techniques the engine screens boards for (:func:`finds`)."""

    LOCKED = 0
    NAKED = 1
    HIDDEN = 2
    FISH = 3
    X_CHAIN = 4
    XY_CHAIN = 5
    AIC = 6
    FINNED = 7
    EMPTY_RECTANGLE = 8
    UNIQUE_RECTANGLE = 9


def finds(board: Board, kind: Screen, size: int = 0) -> bool:
    """Whether the technique ``kind`` (of ``size``) finds a step on ``board``, as
    its Python finder would (True without the engine: ask the finder); the
    step itself is the finder's to make."""
    shape = shape_of(board)
    if shape is None:
        return True
    return bool(ENGINE.finds(shape[0], shape[1], board.masks, board.placed, kind, size))


def shortest_chain(board: Board, kind: Screen) -> tuple[int, int] | None:
    """The shortest alternating chain of ``kind`` on ``board``: its first start (as
    ``cell * N + value - 1``) and its links, as :func:`techniques.chain` takes it
    (None: there is none; :data:`NOT_BUILT`: no engine)."""
    shape = shape_of(board)
    if shape is None:
        return NOT_BUILT
    found = ENGINE.finds(shape[0], shape[1], board.masks, board.placed, kind, 1)
    return None if found is None else (int(found[0]), int(found[1]))


def als(board: Board, wing: bool) -> tuple[Any, ...] | None:
    """The first ALS-XZ (``wing`` False) or ALS-XY-wing on ``board``, as the cells of
    its almost locked sets (in order) and the values that link them, in the order
    :mod:`intermediate` asks them (None: there is none; :data:`NOT_BUILT`: no
    engine)."""
    shape = shape_of(board)
    if shape is None:
        return NOT_BUILT
    found = ENGINE.als(shape[0], board.masks, board.placed, int(wing))
    return None if found is None else tuple(found)


NOT_BUILT = (-1, 0)
"""What :func:`locked_at` says without the engine: ask the finder."""


def locked_at(board: Board) -> tuple[int, int] | None:
    """Where locked candidates' first step is on ``board``: the index of its
    meeting (:attr:`Board.meetings`) and its value, as the Python finder takes
    them (None: there is none; :data:`NOT_BUILT`: no engine)."""
    shape = shape_of(board)
    if shape is None:
        return NOT_BUILT
    found = ENGINE.finds(shape[0], shape[1], board.masks, board.placed, Screen.LOCKED, 0)
    return None if found is None else (int(found[0]), int(found[1]))


def fewest_breaking(board: Board, candidates: list[tuple[int, int, Any]]) -> int | None:
    """The index of the first of ``candidates`` (cell, value, ...) that, placed on
    ``board`` and followed by singles as :class:`forcing.Propagation` follows it,
    breaks it having removed fewest of its candidates (-1: none breaks); None
    without the engine."""
    if not compiled() or board.size > 64:
        return None
    n = board.size
    lits = [c * n + v for c, v, _ in candidates]
    placed = bytes(board.placed)
    return int(ENGINE.fewest_breaking(geometry(board), masks_of(board), placed, lits))


def first_forcing(board: Board, sets: list[list[tuple[int, int]]]) -> int | None:
    """Static forcing chains where no branch breaks: the index of the first of
    ``sets`` (candidates one of which holds, as :func:`forcing._branches` gives
    them) whose branches, each followed by singles, all remove some candidate
    of an open cell (-1: none); None without the engine, or past 16x16 (each
    branch's candidates are kept while the sets are asked)."""
    if not compiled() or board.size > 16:
        return None
    shape = geometry(board)
    n = board.size
    options = [c * n + v for options in sets for c, v in options]
    bounds = [0]
    for options_of in sets:
        bounds.append(bounds[-1] + len(options_of))
    return int(ENGINE.first_forcing(shape, masks_of(board), options, bounds))


class Searched(NamedTuple):
    """What :func:`search` found."""

    solutions: list[tuple[int, ...]]
    """Grids, in the order the search met them."""
    settled: bool
    """False: the budget ran out first (then ``solutions`` are those found)."""


Cage = tuple[tuple[int, ...], tuple[int, ...]]
"""A killer cage as the search takes it: its cells, and the digit sets (masks)
its values may make: those of its sum's size, or one set of every value for a
cage whose digits only differ."""


def search(
    shape: Board,
    masks: Sequence[int],
    avoid: list[int],
    limit: int,
    budget: int,
    cages: Sequence[Cage] = (),
) -> Searched | None:
    """Up to ``limit`` solutions of a board of ``shape``'s houses whose cells may
    hold ``masks`` (a cell of one value holds it: its peers lose it) that do not
    hold every literal of ``avoid`` (:func:`sudosat.sat.cnf.literal`'s numbering;
    empty: any) and whose ``cages`` each hold one of their digit sets, by the
    engine's complete search: singles and the cages' sets, then a branch on an
    open cell with fewest candidates, its values in ascending order, within
    ``budget`` branches. None without the engine (or past 64 values): ask SAT."""
    if not compiled() or shape.size > 64:
        return None
    packed = _packed(cages) if cages else ()
    found, settled, _ = ENGINE.search(
        geometry(shape), array("Q", masks).tobytes(), avoid, limit, budget, *packed
    )
    return Searched([tuple(grid) for grid in found], bool(settled))


def _packed(cages: Sequence[Cage]) -> tuple[bytes, bytes]:
    """The cages as the engine reads them: int32 words (how many, where each one's
    cells and sets start, the cells) and the sets as uint64 words."""
    starts, sets_at = [0], [0]
    cells: list[int] = []
    sets: list[int] = []
    for cage_cells, cage_sets in cages:
        cells += cage_cells
        sets += cage_sets
        starts.append(len(cells))
        sets_at.append(len(sets))
    words = array("i", [len(cages), *starts, *sets_at, *cells])
    return words.tobytes(), array("Q", sets).tobytes()
