"""The compiled reasoning engine (sudosat/logic/_engine.c through
sudosat.logic.bitboard) held to its reference, a Minicard of the board's
"exactly one" constraints (:func:`nested.classic_solver`), on random boards of
every size from 4x4 to 25x25, with a variant's extra houses too; and the
logical path the same with the engine and without it."""

from __future__ import annotations

import importlib
import os
import random
import re
import subprocess
import sys
from collections.abc import Callable
from functools import partial
from pathlib import Path

import pytest
from pysat.solvers import Minicard

from sudosat import parse, solve
from sudosat.core.masks import values as bits
from sudosat.core.puzzle import Puzzle
from sudosat.logic import bitboard
from sudosat.logic.alternating import chain
from sudosat.logic.board import Board, board_of
from sudosat.logic.branches import Branches
from sudosat.logic.forcing import Propagation, _branches, fewest_breaking
from sudosat.logic.intermediate import empty_rectangle, finned_fish, unique_rectangle
from sudosat.logic.nested import _shortest_broken, classic_solver
from sudosat.logic.path import Pathfinder, logical_path, truth_of
from sudosat.logic.rating import path_rating
from sudosat.logic.solve_path import easiest_single
from sudosat.logic.techniques import (
    fish,
    hidden_single,
    hidden_subset,
    locked_candidates,
    naked_single,
    naked_subset,
)
from sudosat.making.generator import Asked, generate
from sudosat.making.variant_generator import make_variant
from sudosat.sat.cnf import literal
from sudosat.sat.solvers.native import propagator
from tests.conftest import PUZZLES

if bitboard.ENGINE is None:  # (no C compiler at install): CI has one, and fails without it
    assert not os.environ.get("CI"), f"the compiled engine is not built: {bitboard.WHY_NOT}"
    pytest.skip(f"the compiled engine is not built: {bitboard.WHY_NOT}", allow_module_level=True)


def settled_board(
    rank: int, seed: int, diagonals: bool = False, removing: float = 0.1
) -> tuple[Board, tuple[int, ...]]:
    """A random board of a ``rank`` grid: some givens of a solution, some false
    candidates taken away, then singles to their end (as a path's boards are when
    branches are followed); and the solution."""
    rng = random.Random(seed)
    n = rank * rank
    rows = [" ".join(["0"] * n) if n > 9 else "." * n for _ in range(n)]
    blank = parse("\n".join(["diagonals" if diagonals else "", f"size {n}", *rows]) + "\n")
    solution = solve(blank).solutions[0]
    names = list(range(1, n + 1))
    rng.shuffle(names)
    grid = tuple(names[v - 1] for v in solution)  # (a renamed solution is one)
    cells = [c if rng.random() < 0.15 else 0 for c in grid]
    puzzle = Puzzle(rank=rank, cells=tuple(cells))
    houses = []
    if diagonals:
        houses = [
            (tuple(i * n + i for i in range(n)), "the main diagonal"),
            (tuple(i * n + n - 1 - i for i in range(n)), "the anti-diagonal"),
        ]
    board = board_of(puzzle, houses)
    for cell in range(n * n):
        for value in bits(board.masks[cell]):
            if value != grid[cell] and rng.random() < removing:
                board.masks[cell] &= ~(1 << (value - 1))
    run = Propagation(board)
    run.dirty = set(range(len(board.houses)))
    for cell, mask in enumerate(board.masks):
        if mask and not mask & (mask - 1) and not board.placed[cell]:
            run.todo.append((cell, mask.bit_length()))
    assert run.singles()  # (the solution keeps every house)
    board.masks, board.placed = list(run.masks), list(run.placed)
    return board, grid


def open_literals(board: Board) -> list[int]:
    n = board.size
    return [literal(n, c, v) for c, m in enumerate(board.masks) if m & (m - 1) for v in bits(m)]


def both_ways(
    rank: int, seed: int, diagonals: bool = False
) -> tuple[bitboard.Branching, Minicard, Callable[[list[int]], tuple[bool, list[int]]], list[int]]:
    """A random board's branches through the engine and through its reference (a
    Minicard of the board's houses, deleted by the caller), and its open literals."""
    board, _ = settled_board(rank, seed, diagonals)
    engine = bitboard.propagator(board)
    assert engine is not None
    solver = classic_solver(board)
    return engine, solver, propagator(solver), open_literals(board)


CASES = [
    (rank, seed, diagonals)
    for rank in (2, 3, 4, 5)
    for seed in range(3)
    for diagonals in (False, True)
]


@pytest.mark.slow
@pytest.mark.parametrize(("rank", "seed", "diagonals"), CASES)
def test_a_branch_sets_what_minicards_propagation_sets(
    rank: int, seed: int, diagonals: bool
) -> None:
    engine, solver, reference, lits = both_ways(rank, seed, diagonals)
    rng = random.Random(seed)
    broke = held = 0
    for _ in range(300):
        assumed = [
            x if rng.random() < 0.5 else -x
            for x in rng.sample(lits, min(len(lits), rng.randint(1, 4)))
        ]
        ok, implied = reference(assumed)
        mine_ok, mine = engine.propagate(assumed)
        assert mine_ok == ok, assumed
        assert engine.breaks(assumed) == (not ok)
        if ok:
            assert set(mine) == set(implied), assumed
            held += 1
        else:
            broke += 1
    solver.delete()
    assert held and (broke or rank in (2, 5))  # both outcomes asked (a 25x25 rarely breaks)


@pytest.mark.parametrize(("rank", "seed"), [(3, 0), (3, 1), (4, 0)])
def test_a_round_of_removals_finds_the_first_branch_that_breaks(rank: int, seed: int) -> None:
    """``first_break``: the branch followed once, then each y it leaves open in turn:
    the first y that breaks it, as the solver finds it one y at a time."""
    engine, solver, reference, lits = both_ways(rank, seed)
    rng = random.Random(seed)
    for _ in range(100):
        assumed = [rng.choice(lits), -rng.choice(lits)]
        ok, implied = reference(assumed)
        ys = rng.sample(lits, min(len(lits), 30))
        start = rng.randint(0, 5)
        found, tested = engine.first_break(assumed, ys, start)
        if not ok:
            assert found == -2
            continue
        known = set(implied)
        expected, followed = -1, 0
        for i in range(start, len(ys)):
            y = ys[i]
            if y in known or -y in known:
                continue
            followed += 1
            if not reference([*assumed, y])[0]:
                expected = i
                break
        assert (found, tested) == (expected, followed)
    solver.delete()


@pytest.mark.slow
def test_the_path_is_the_same_with_the_engine_and_without(monkeypatch: pytest.MonkeyPatch) -> None:
    """AI Escargot's path needs a nested chain: every step the same both ways."""
    puzzle = parse((PUZZLES / "ai-escargot.txt").read_text())

    def steps() -> list[tuple[object, ...]]:
        path = logical_path(puzzle)
        assert path.end == "solved"
        return [(s.name, s.placements, s.eliminations, s.technique) for s in path.steps]

    with_engine = steps()
    assert any("nested" in step[0] for step in with_engine)  # type: ignore[operator]
    monkeypatch.setattr(bitboard, "ENGINE", None)
    assert steps() == with_engine


@pytest.mark.slow
def test_without_the_engine_verbose_says_so_once(tmp_path: object) -> None:
    """The engine hidden (its import fails): the path runs on Python and Minicard,
    ``--verbose`` says so once; a classic solve never imports the engine."""
    hide = (
        "import sys, builtins; real = builtins.__import__\n"
        "def fake(name, globals=None, locals=None, fromlist=(), level=0):\n"
        "    if fromlist and '_engine' in fromlist: raise ImportError('hidden by the test')\n"
        "    return real(name, globals, locals, fromlist, level)\n"
        "builtins.__import__ = fake\n"
        "from sudosat.__main__ import main\n"
        "sys.argv = ['sudosat', '--verbose', 'steps', sys.argv[1], sys.argv[2]]\n"
        "main()\n"
    )
    escargot = str(PUZZLES / "ai-escargot.txt")
    many = str(PUZZLES / "royle17-25.txt")  # (25 paths, then a 4x4's: quick on Python)
    done = subprocess.run(
        [sys.executable, "-c", hide, many, str(PUZZLES / "rank2-4x4.txt")],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    said = [line for line in done.stderr.splitlines() if "compiled reasoning engine" in line]
    assert len(said) == 1 and "hidden by the test" in said[0]
    quiet = subprocess.run(
        [sys.executable, "-m", "sudosat", "steps", escargot], capture_output=True, text=True
    )
    assert "compiled" not in quiet.stderr
    imported = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys; from sudosat.cli import run_command; "
            "sys.argv = ['sudosat', 'solve', sys.argv[1]]; run_command(); "
            "print(sorted(m for m in sys.modules if m.startswith('sudosat.logic')))",
            escargot,
        ],
        capture_output=True,
        text=True,
    )
    assert imported.returncode == 0, imported.stderr
    assert "bitboard" not in imported.stdout and "_engine" not in imported.stdout


@pytest.mark.slow
@pytest.mark.parametrize(("rank", "seed", "diagonals"), CASES)
def test_the_forcing_chains_singles_are_pythons_step_for_step(
    rank: int, seed: int, diagonals: bool
) -> None:
    """Every branch of the board followed by :class:`Propagation` in Python and in the
    engine (with locked candidates and pairs, which ask the singles again): the
    same outcome, and the same candidates, placements and houses to look at
    again, where the branch breaks too (a chain's length is counted from them)."""
    board, _ = settled_board(rank, seed, diagonals)
    rng = random.Random(seed)
    open_cells = board.open_cells()
    broke = 0
    for c in rng.sample(open_cells, min(len(open_cells), 40)):
        for v in bits(board.masks[c]):
            locked, pairs = rng.random() < 0.5, rng.random() < 0.5
            shut = (rng.random() < 0.5, rng.random() < 0.5)  # (only changed houses looked at)
            runs = [Propagation.start(board, c, v, shut) for _ in range(2)]
            other = rng.choice(open_cells)  # and another placement: more branches break
            placed = (other, rng.choice(bits(board.masks[other])))
            for run in runs:
                run.todo.append(placed)
            runs[0].shape = None  # Python's
            assert runs[1].shape is not None
            outcomes = [run.settle(locked, pairs) is None for run in runs]
            python, engine = runs
            assert outcomes[0] == outcomes[1]
            assert (engine.masks, engine.placed) == (python.masks, python.placed)
            assert (engine.todo, engine.dirty) == (python.todo, python.dirty)
            assert (engine.touched, engine.touched_locked) == (
                python.touched,
                python.touched_locked,
            )
            broke += outcomes[0]
    assert broke or rank in (2, 5)  # (a 25x25 branch rarely breaks)


@pytest.mark.parametrize(("rank", "seed"), [(3, 0), (3, 1), (4, 0)])
def test_a_branch_carried_to_a_later_board_is_pythons(rank: int, seed: int) -> None:
    """A branch settled on a board, carried to a later one (some of its false
    candidates gone) and settled there (:meth:`Propagation.went_on`): the engine's
    outcome, candidates and houses to look at again are Python's."""
    board, grid = settled_board(rank, seed)
    rng = random.Random(seed)
    later = board.copy()
    for cell in later.open_cells():
        for value in bits(later.masks[cell]):
            if value != grid[cell] and rng.random() < 0.15:
                later.masks[cell] &= ~(1 << (value - 1))
    carried = 0
    for c in rng.sample(board.open_cells(), min(len(board.open_cells()), 30)):
        for v in bits(board.masks[c]):
            locked, pairs = rng.random() < 0.5, rng.random() < 0.5
            before = Propagation.start(board, c, v, (True, True))
            if before.settle(locked, pairs) is None:
                continue
            python = Propagation(before.board)
            python.masks, python.placed = before.masks, before.placed
            python.shape = None  # Python's within and settle
            runs = [python.went_on(later, locked, pairs), before.went_on(later, locked, pairs)]
            assert (runs[0] is None) == (runs[1] is None)
            if runs[0] is not None and runs[1] is not None:
                assert (runs[1].masks, runs[1].placed) == (runs[0].masks, runs[0].placed)
                assert (runs[1].touched, runs[1].touched_locked) == (
                    runs[0].touched,
                    runs[0].touched_locked,
                )
                carried += 1
    assert carried


def singles_board(rank: int, seed: int, diagonals: bool, broken: bool) -> Board:
    """A random board with singles to take: some givens of a solution placed,
    some false candidates gone (and, ``broken``, a few true ones: a contradiction
    may follow)."""
    board, grid = settled_board(rank, seed, diagonals)
    rng = random.Random(seed + 1)
    given = (0.15, 0.35, 0.6, 0.8)[seed % 4]  # (the more, the likelier a walk ends solved)
    fresh = board_of(Puzzle(rank=rank, cells=tuple(v if rng.random() < given else 0 for v in grid)))
    board.masks, board.placed = fresh.masks, fresh.placed  # (the houses: settled_board's)
    for cell in range(len(grid)):
        for value in bits(board.masks[cell]):
            true = value == grid[cell]
            if rng.random() < (0.02 if broken and true else 0.0 if true else 0.3):
                board.masks[cell] &= ~(1 << (value - 1))
    board.changed()
    return board


def python_singles(board: Board) -> tuple[int, int, int, int, int]:
    """The reference: the path's own singles, one step at a time."""
    end = naked = hidden = first = heaviest = 0
    while True:
        if board.contradiction():
            end = 2
            break
        if board.solved:
            end = 1
            break
        step = naked_single(board) or hidden_single(board)
        if step is None:
            break
        weight = round(easiest_single(board) * 10)
        first = first if naked or hidden else weight
        heaviest = max(heaviest, weight)
        naked, hidden = (naked + 1, hidden) if step.name == "naked single" else (naked, hidden + 1)
        board.apply(step)
    return end, naked, hidden, first, heaviest


@pytest.mark.slow
@pytest.mark.parametrize("rank", [2, 3, 4])
@pytest.mark.parametrize("diagonals", [False, True])
def test_a_paths_singles_in_the_engine_are_pythons_one_by_one(rank: int, diagonals: bool) -> None:
    ends = set()
    for seed in range(40 if rank < 4 else 12):
        board = singles_board(rank, seed, diagonals, broken=seed % 3 == 0)
        reference = board.copy()
        expected = python_singles(reference)
        found = bitboard.walk_singles(bitboard.geometry(board), board)
        assert found == expected, seed
        assert (board.masks, board.placed) == (reference.masks, reference.placed), seed
        ends.add(found[0])
    assert ends >= {1, 2} and (0 in ends or rank == 2)  # each way a walk ends was met
    # (a 4x4's singles rarely stall)


@pytest.mark.slow
def test_a_rating_with_the_engines_singles_is_the_paths() -> None:
    # generated classic puzzles of three sizes, variants whose rules are houses,
    # and the hardest bundled ones: the rating read off the engine's runs of
    # singles equals the one read off the path's steps
    puzzles = [generate(seed, rank=rank).puzzle for rank in (2, 3) for seed in range(6)]
    puzzles += [generate(seed, rank=4).puzzle for seed in (2, 4)]  # (the quicker 16x16s)
    puzzles += [make_variant(s, Asked(variant=v)).puzzle for v in ("x", "jigsaw") for s in (1, 2)]
    puzzles += [
        parse((PUZZLES / name).read_text()) for name in ("ai-escargot.txt", "hex-16x16.txt")
    ]
    for puzzle in puzzles:
        truth = truth_of(puzzle)
        with Pathfinder(puzzle) as finder:
            quick = finder.rated(truth)
        with Pathfinder(puzzle) as finder:
            full = finder.path(truth)
        assert quick is not None and path_rating(quick) == path_rating(full), puzzle.cells
        assert quick.board.masks == full.board.masks


SCREENED: list[tuple[str, bitboard.Screen, int, Callable[[Board], object]]] = [
    ("locked candidates", bitboard.Screen.LOCKED, 0, locked_candidates),
    *((f"naked {k}", bitboard.Screen.NAKED, k, naked_subset(k)) for k in (2, 3, 4)),
    *((f"hidden {k}", bitboard.Screen.HIDDEN, k, hidden_subset(k)) for k in (2, 3, 4)),
    *((f"fish {k}", bitboard.Screen.FISH, k, fish(k)) for k in (2, 3, 4)),
    ("X-chain", bitboard.Screen.X_CHAIN, 0, chain("X-chain")),
    ("XY-chain", bitboard.Screen.XY_CHAIN, 0, chain("XY-chain")),
    ("AIC", bitboard.Screen.AIC, 0, chain("AIC")),
    *((f"finned {k}", bitboard.Screen.FINNED, k, finned_fish(k)) for k in (2, 3)),
    ("empty rectangle", bitboard.Screen.EMPTY_RECTANGLE, 0, empty_rectangle),
    ("unique rectangle", bitboard.Screen.UNIQUE_RECTANGLE, 0, unique_rectangle),
]


@pytest.mark.slow
@pytest.mark.parametrize("rank", [2, 3, 4])
@pytest.mark.parametrize("diagonals", [False, True])
def test_the_engines_screens_say_what_the_python_finders_find(
    rank: int, diagonals: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    # on random settled boards, the engine says a technique finds a step exactly
    # where its Python finder (the reference, the engine switched off) finds one
    seeds = range(30 if rank < 4 else 8)
    boards = [settled_board(rank, s, diagonals, r)[0] for s in seeds for r in (0.02, 0.1, 0.3)]
    screened = {
        name: [bool(bitboard.finds(b, kind, size)) for b in boards]
        for name, kind, size, _ in SCREENED[1:]
    }
    screened["locked candidates"] = [bitboard.locked_at(b) is not None for b in boards]
    located = [bitboard.locked_at(b) for b in boards]
    with_engine = [locked_candidates(b) for b in boards]
    monkeypatch.setattr(bitboard, "ENGINE", None)
    hits = 0
    for name, _, _, find in SCREENED:
        reference = [find(b) is not None for b in boards]
        assert screened[name] == reference, name
        hits += sum(reference)
    assert with_engine == [locked_candidates(b) for b in boards]  # the same first step
    assert hits and any(located)  # (the screens are asked where something is found)


def all_remove(board: Board, options: list[tuple[int, int]]) -> bool:
    """Whether the branches of ``options``, each followed by singles, all remove
    some candidate of an open cell (the forcing chains' own way)."""
    runs = [Propagation.start(board, c, v, (False, False)) for c, v in options]
    live = [m for m in (run.settle() for run in runs) if m is not None]
    union = [0] * len(board.masks)
    for masks in live:
        union = [a | b for a, b in zip(union, masks, strict=True)]
    return any(board.masks[c] & ~union[c] for c in board.open_cells())


@pytest.mark.slow
@pytest.mark.parametrize("rank", [2, 3, 4])
@pytest.mark.parametrize("diagonals", [False, True])
def test_the_shortest_contradiction_is_the_one_removing_fewest_both_ways(
    rank: int, diagonals: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    # of the candidates whose branch singles break, the first of those that removed
    # fewest candidates on the way: the engine's answer, and the Python
    # reference's (the engine switched off), each against every branch followed
    boards = [
        settled_board(rank, seed, diagonals, r)[0]
        for seed in range(12 if rank < 4 else 4)
        for r in (0.02, 0.1, 0.4)
    ]
    orders = [
        [(c, v, cells) for _, options, cells, _ in _branches(board) for c, v in options]
        for board in boards
    ]
    engine = [bitboard.fewest_breaking(b, order) for b, order in zip(boards, orders, strict=True)]
    monkeypatch.setattr(bitboard, "ENGINE", None)
    assert bitboard.fewest_breaking(boards[0], orders[0]) is None
    reference = [fewest_breaking(b, order) for b, order in zip(boards, orders, strict=True)]
    assert engine == reference
    broke = 0
    for board, order, found in zip(boards, orders, reference, strict=True):
        removed = []
        for c, v, _ in order:
            run = Propagation.start(board, c, v, (False, False))
            removed.append(run.removed() if run.settle() is None else None)
        breaking = [r for r in removed if r is not None]
        if found < 0:
            assert not breaking
            continue
        broke += 1
        assert removed[found] == min(breaking)
        assert min(breaking) not in removed[:found]  # (the first of the fewest)
    assert broke


@pytest.mark.slow
@pytest.mark.parametrize("rank", [2, 3, 4])
@pytest.mark.parametrize("diagonals", [False, True])
def test_the_static_forcing_sets_are_pythons(
    rank: int, diagonals: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the first set of candidates (one of which holds) whose branches, each
    # followed by Python's singles (the engine switched off), all remove
    # something: the engine's answer
    boards = [
        settled_board(rank, seed, diagonals, 0.02 + 0.1 * (seed % 3))[0]
        for seed in range(20 if rank < 4 else 6)
    ]
    sets = [[options for _, options, _, _ in _branches(board)] for board in boards]
    engine = [bitboard.first_forcing(board, each) for board, each in zip(boards, sets, strict=True)]
    monkeypatch.setattr(bitboard, "ENGINE", None)
    reference = [
        next((i for i, options in enumerate(each) if all_remove(board, options)), -1)
        for board, each in zip(boards, sets, strict=True)
    ]
    assert engine == reference
    assert len(set(reference)) > 1  # (boards with a step, at various sets)


@pytest.mark.parametrize("rank", [2, 3, 4])
@pytest.mark.parametrize("diagonals", [False, True])
def test_the_nested_search_in_the_engine_is_the_reference(rank: int, diagonals: bool) -> None:
    # every candidate's branch followed in step, one removal at a time, until the
    # branches taken apart have broken: the engine's, in one call, against the
    # reference's (Minicard's propagation, a removal at a time in Python)
    found = 0
    for seed in range(6 if rank < 4 else 2):
        board, _ = settled_board(rank, seed, diagonals, 0.3)
        with_engine = Branches(board, partial(classic_solver, board)).compiled()
        reference = Branches(board, partial(classic_solver, board))
        xs = list(reference.candidates)
        assert with_engine.shortest is not None and reference.shortest is None
        expected = _shortest_broken(reference, xs)
        assert _shortest_broken(with_engine, xs) == expected, seed
        found += len(expected or [])
        with_engine.delete()
        reference.delete()
    assert found  # (branches broke)


@pytest.mark.parametrize("rank", [2, 3])
def test_the_engines_shortest_chain_is_the_python_search_s(
    rank: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the engine names the shortest chain's first start; the Python search over
    # every start (the engine switched off) takes the same chain
    boards = [settled_board(rank, s, False, r)[0] for s in range(20) for r in (0.02, 0.1, 0.3)]
    finders = [chain(kind) for kind in ("X-chain", "XY-chain", "AIC")]
    with_engine = [[find(b) for find in finders] for b in boards]
    monkeypatch.setattr(bitboard, "ENGINE", None)
    found = 0
    for board, steps in zip(boards, with_engine, strict=True):
        for find, step in zip(finders, steps, strict=True):
            alone = find(board)
            assert (step is None) == (alone is None)
            if step is not None and alone is not None:
                assert step.chains == alone.chains and step.eliminations == alone.eliminations
                found += 1
    assert found


@pytest.mark.slow
@pytest.mark.parametrize("rank", [2, 3])
@pytest.mark.parametrize("wing", [False, True])
def test_the_engines_almost_locked_sets_are_the_python_search_s(
    rank: int, wing: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the engine's first ALS-XZ (ALS-XY-wing) is the Python search's, set for set
    from sudosat.logic.intermediate import _first_wing, _first_xz, almost_locked_sets

    boards = [
        settled_board(rank, s, d, r)[0]
        for s in range(25)
        for d in (False, True)
        for r in (0.02, 0.1, 0.3)
    ]
    found = 0
    for board in boards:
        engine = bitboard.als(board, wing)
        sets = almost_locked_sets(board)
        alone = (_first_wing if wing else _first_xz)(board, sets)
        assert engine == alone, (board.masks, engine, alone)
        found += alone is not None
    assert found


def cited_names() -> list[tuple[str, str]]:
    """The Python names the C engines cite as their references: ``module.name``
    (a module of sudosat.logic, with or without its package) and ``Board.name``."""
    logic = Path(bitboard.__file__).parent
    modules = {p.stem for p in logic.glob("*.py") if not p.stem.startswith("_")}
    cited = []
    for source in sorted(logic.glob("_*.c")):
        for found in re.finditer(
            r"\b(?:sudosat\.logic\.)?([A-Za-z_]+)\.([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)",
            source.read_text(),
        ):
            module, name = found[1], found[2]
            if module == "Board":
                cited.append(("board", f"Board.{name}"))
            elif module in modules and name != "py":
                cited.append((module, name))
    return sorted(set(cited))


def test_every_python_name_the_c_engines_cite_exists() -> None:
    """Each routine of _engine.c and _explainer.c names the Python it mirrors;
    a name that moved or went would send a reader nowhere."""
    cited = cited_names()
    assert len(cited) > 20
    missing = []
    for module, name in cited:
        found: object = importlib.import_module(f"sudosat.logic.{module}")
        for part in name.split("."):
            if not hasattr(found, part):
                missing.append(f"{module}.{name}")
                break
            found = getattr(found, part)
    assert missing == []
