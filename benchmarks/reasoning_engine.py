"""The compiled reasoning engine (issue 77): which technology, and what it gives.

1. A branch through singles, on the boards of eleven's hardest (the first
   BOARDS puzzles of ``../shared/puzzles/se-rated/eleven_dev.tsv``, their givens'
   singles run): every open candidate assumed in turn, each way measured on the
   same branches in the same run, microseconds a branch:
   * Python: :class:`sudosat.logic.forcing.Propagation`'s singles in Python (the
     forcing chains' own before the engine, and its reference);
   * Minicard: PySAT's ``propagate`` of the board's "exactly one" constraints
     (what the nested chains used);
   * C: the compiled engine (``sudosat/logic/_engine.c``), a call a branch;
   * numba: the same algorithm in numba (``@njit``), where numba is installed
     (``pip install numba``; it is not a dependency): its first call's compile
     time too, and a second process's (its cache).
   Every way must agree on which branches break.
2. The logical path on PATHS of eleven's hardest, with the engine and without
   (``bitboard.ENGINE`` set to None: the Python and Minicard forms), in the
   same run: seconds each, the ratio, and whether the paths are the same.

    python benchmarks/reasoning_engine.py [BOARDS] [PATHS]
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from sudosat import parse  # noqa: E402
from sudosat.logic import bitboard  # noqa: E402
from sudosat.logic.board import Board, board_of  # noqa: E402
from sudosat.logic.forcing import Propagation  # noqa: E402
from sudosat.logic.nested import classic_solver  # noqa: E402
from sudosat.logic.path import logical_path  # noqa: E402
from sudosat.sat.cnf import literal  # noqa: E402
from sudosat.sat.solvers.native import propagator  # noqa: E402

ELEVEN = ROOT.parent / "shared" / "puzzles" / "se-rated" / "eleven_dev.tsv"

NUMBA = """
import numpy as np
from numba import njit

@njit(cache=True)
def value_of(single):
    w = 1
    while single >> np.uint64(w):
        w += 1
    return w

@njit(cache=True)
def singles(n, houses, cell_houses, peers, m, placed, todo, nt, dirty):
    full = np.uint64((1 << n) - 1)
    one = np.uint64(1)
    while True:
        while nt > 0:
            nt -= 2
            c = todo[nt]
            v = todo[nt + 1]
            if placed[c]:
                if placed[c] != v:
                    return False
                continue
            b = one << np.uint64(v - 1)
            if not (m[c] & b):
                return False
            placed[c] = v
            m[c] = b
            for h in cell_houses[c]:
                if h >= 0:
                    dirty[h] = 1
            for p in peers[c]:
                if p < 0 or not (m[p] & b):
                    continue
                m[p] &= ~b
                x = m[p]
                if x == 0:
                    return False
                for h in cell_houses[p]:
                    if h >= 0:
                        dirty[h] = 1
                if not placed[p] and not (x & (x - one)):
                    todo[nt] = p
                    todo[nt + 1] = value_of(x)
                    nt += 2
        looked = False
        for h in range(houses.shape[0]):
            if not dirty[h]:
                continue
            dirty[h] = 0
            looked = True
            seen = np.uint64(0)
            once = np.uint64(0)
            for c in houses[h]:
                x = m[c]
                once = (once & ~x) | (x & ~seen)
                seen |= x
            if seen != full:
                return False
            for c in houses[h]:
                hit = m[c] & once
                if hit and not placed[c]:
                    if hit & (hit - one):
                        return False
                    todo[nt] = c
                    todo[nt + 1] = value_of(hit)
                    nt += 2
        if not looked and nt == 0:
            return True

@njit(cache=True)
def breaks_all(n, houses, cell_houses, peers, m0, p0, branches):
    out = np.zeros(branches.shape[0], np.uint8)
    todo = np.zeros(1 << 16, np.int64)
    dirty = np.zeros(houses.shape[0], np.uint8)
    for i in range(branches.shape[0]):
        m = m0.copy()
        placed = p0.copy()
        dirty[:] = 0
        todo[0] = branches[i, 0]
        todo[1] = branches[i, 1]
        out[i] = not singles(n, houses, cell_houses, peers, m, placed, todo, 2, dirty)
    return out
"""


def boards(count: int) -> list[Board]:
    lines = [line.split("\t")[0] for line in ELEVEN.read_text().splitlines()]
    found = []
    for line in [line for line in lines if line and not line.startswith("#")][:count]:
        board = board_of(parse(line + "\n"))
        run = Propagation(board)
        run.dirty = set(range(len(board.houses)))
        assert run.singles()
        board.masks, board.placed = list(run.masks), list(run.placed)
        found.append(board)
    return found


def branches(board: Board) -> list[tuple[int, int]]:
    return [
        (c, v)
        for c in board.open_cells()
        for v in range(1, board.size + 1)
        if board.masks[c] >> (v - 1) & 1
    ]


def timed(ways: dict[str, Any], all_boards: list[Board]) -> dict[str, tuple[float, list[bool]]]:
    """Each way's microseconds a branch (best of three) and its answers."""
    total = sum(len(branches(b)) for b in all_boards)
    found = {}
    for name, way in ways.items():
        best, answers = float("inf"), []
        for _ in range(3):
            start = time.perf_counter()
            answers = [broke for board in all_boards for broke in way(board)]
            best = min(best, time.perf_counter() - start)
        found[name] = (best / total * 1e6, answers)
    return found


def python_way(board: Board) -> list[bool]:
    found = []
    for c, v in branches(board):
        run = Propagation(board)
        run.shape = None  # the Python singles, not the engine's
        run.todo.append((c, v))
        found.append(run.settle() is None)
    return found


def minicard_way(board: Board) -> list[bool]:
    solver = classic_solver(board)
    follow = propagator(solver)
    n = board.size
    found = [not follow([literal(n, c, v)])[0] for c, v in branches(board)]
    solver.delete()
    return found


def compiled_way(board: Board) -> list[bool]:
    engine = bitboard.propagator(board)
    assert engine is not None
    n = board.size
    return [engine.breaks([literal(n, c, v)]) for c, v in branches(board)]


def numba_way(cold: bool = True) -> tuple[Any, float]:
    """The numba kernel (written to a file for its cache) and its first call's time
    (``cold``: its cache emptied first, so it compiles)."""
    import importlib
    import shutil
    import tempfile

    import numpy as np

    folder = Path(tempfile.gettempdir()) / "sudosat-numba"
    if cold:
        shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(exist_ok=True)
    where = folder / "sudosat_numba_kernel.py"
    if not where.exists() or where.read_text() != NUMBA:
        where.write_text(NUMBA)
    sys.path.insert(0, str(folder))
    kernel = importlib.import_module("sudosat_numba_kernel")

    def arrays(board: Board) -> tuple[Any, ...]:
        k = max(map(len, board.cell_houses))
        p = max(map(len, board.peers))
        houses = np.array(board.houses, np.int64)
        mine = np.array([[*h, *[-1] * (k - len(h))] for h in board.cell_houses], np.int64)
        near = np.array([[*sorted(x), *[-1] * (p - len(x))] for x in board.peers], np.int64)
        return houses, mine, near

    def way(board: Board) -> list[bool]:
        houses, mine, near = arrays(board)
        asked = np.array(branches(board), np.int64)
        masks = np.array(board.masks, np.uint64)
        placed = np.array(board.placed, np.int64)
        out = kernel.breaks_all(board.size, houses, mine, near, masks, placed, asked)
        return [bool(x) for x in out]

    start = time.perf_counter()
    way(boards(1)[0])
    return way, time.perf_counter() - start


def paths(count: int) -> None:
    lines = [line.split("\t")[0] for line in ELEVEN.read_text().splitlines()]
    puzzles = [parse(line + "\n") for line in lines if line and not line.startswith("#")]
    engine = bitboard.ENGINE
    ratios, same = [], True
    print("\n| puzzle | without the engine | with it | ratio |\n|---|---:|---:|---:|")
    for i, puzzle in enumerate(puzzles[:count]):
        runs = {}
        for label, use in (("without", None), ("with", engine)):
            bitboard.ENGINE = use
            start = time.perf_counter()
            path = logical_path(puzzle)
            took = time.perf_counter() - start
            runs[label] = (took, [(s.name, s.eliminations, s.technique) for s in path.steps])
        bitboard.ENGINE = engine
        same &= runs["with"][1] == runs["without"][1]
        ratio = runs["with"][0] / runs["without"][0]
        ratios.append(ratio)
        print(f"| {i + 1} | {runs['without'][0]:.2f} s | {runs['with'][0]:.2f} s | {ratio:.2f} |")
    print(f"\nmedian ratio {statistics.median(ratios):.2f}; the same paths: {same}")


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    path_count = int(sys.argv[2]) if len(sys.argv) > 2 else 10
    if not ELEVEN.exists():
        print(f"{ELEVEN} is not here")
        return
    if bitboard.ENGINE is None:
        print(f"the compiled engine is not built: {bitboard.WHY_NOT}")
        return
    all_boards = boards(count)
    ways: dict[str, Any] = {"Python": python_way, "Minicard": minicard_way, "C": compiled_way}
    compile_note = "numba is not installed"
    try:
        numba_kernel, first = numba_way()
        ways["numba"] = numba_kernel
        again = subprocess.run(
            [sys.executable, __file__, "--numba-start"], capture_output=True, text=True
        ).stdout.strip()
        compile_note = f"numba's first call {first:.2f} s in this process, {again} in the next"
    except ImportError:
        pass
    found = timed(ways, all_boards)
    reference = found["Python"][1]
    branches_in_all = sum(len(branches(b)) for b in all_boards)
    print(f"{branches_in_all} branches on {count} boards of eleven's hardest; {compile_note}")
    print("| way | us a branch | against Python | the same answers |\n|---|---:|---:|---|")
    for name, (each, answers) in found.items():
        ratio = each / found["Python"][0]
        print(f"| {name} | {each:.2f} | {ratio:.3f} | {answers == reference} |")
    if path_count:
        paths(path_count)


if __name__ == "__main__":
    if sys.argv[1:] == ["--numba-start"]:
        print(f"{numba_way(cold=False)[1]:.2f} s")
    else:
        main()
