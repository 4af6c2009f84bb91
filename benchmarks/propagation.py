"""Issue 36: what unit propagation over sudosat's CNF derives on a killer, against
an exact handler of each cage (the logical path's rule steps, to a fixpoint with
singles) and each cage with its houses, on the same partial grids.

Each puzzle is solved, then shown with 0, 8, 16 and 24 of its solution's cells
given (chosen at random, seed 1); each row counts the candidates left:

* ``UP``: plain unit propagation over ``encode(puzzle)``'s clauses (what a CDCL
  solver derives before it decides anything);
* ``cages``: naked and hidden singles and each cage's exact combinations (no
  assignment of the cage's cells from their candidates keeps the value);
* ``cages+houses``: also locked candidates, cages with their units, and each
  house with the cages in it (innies and outies).

    python benchmarks/propagation.py [FILE] [COUNT]
"""

from __future__ import annotations

import random
import statistics
import sys
from dataclasses import replace
from itertools import islice
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from sudosat import solve  # noqa: E402
from sudosat.core.puzzle import Puzzle  # noqa: E402
from sudosat.logic.path import Pathfinder  # noqa: E402
from sudosat.reading.inputs import read_puzzles  # noqa: E402
from sudosat.sat.cnf import Encoding  # noqa: E402
from sudosat.sat.encoding import encode  # noqa: E402

MATHEMAGIC = ROOT.parent / "shared" / "puzzles" / "iss" / "mathemagic_killers.links"
REVEALED = (0, 8, 16, 24)


def propagated(clauses: list[list[int]]) -> dict[int, bool] | None:
    """Unit propagation to a fixpoint (repeated passes); None: a conflict."""
    value: dict[int, bool] = {}
    changed = True
    while changed:
        changed = False
        for clause in clauses:
            free, count = 0, 0
            for lit in clause:
                held = value.get(abs(lit))
                if held is None:
                    free, count = lit, count + 1
                    if count > 1:
                        break
                elif held == (lit > 0):
                    count = 2  # satisfied
                    break
            if count == 1:
                value[abs(free)] = free > 0
                changed = True
            elif count == 0:
                return None
    return value


def left_by_propagation(puzzle: Puzzle) -> int:
    n = puzzle.size
    value = propagated(encode(puzzle, Encoding(reduced=False)).clauses)
    if value is None:
        return 0
    return n**3 - sum(1 for v, held in value.items() if v <= n**3 and not held)


def left_by_path(puzzle: Puzzle, levels: tuple[str, ...]) -> int:
    with Pathfinder(puzzle, levels=levels) as finder:
        found = finder.path(None)
    return sum(mask.bit_count() for mask in found.board.masks)


def main() -> None:
    path = Path(sys.argv[1]) if len(sys.argv) > 1 else MATHEMAGIC
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 6
    rng = random.Random(1)
    rows: dict[int, list[tuple[int, int, int]]] = {k: [] for k in REVEALED}
    for puzzle in islice(read_puzzles(str(path)), count):
        assert isinstance(puzzle, Puzzle)
        solution = solve(puzzle).solutions[0]
        for k in REVEALED:
            cells = list(puzzle.cells)
            for cell in rng.sample(range(puzzle.size**2), k):
                cells[cell] = solution[cell]
            shown = replace(puzzle, cells=tuple(cells))
            rows[k].append(
                (
                    left_by_propagation(shown),
                    left_by_path(shown, ("simple", "easy")),
                    left_by_path(shown, ("simple", "easy", "intermediate")),
                )
            )
    print(f"{path.name}, {count} puzzles: mean candidates left")
    print("revealed | UP | cages | cages+houses")
    for k, found in rows.items():
        means = [statistics.mean(r[i] for r in found) for i in range(3)]
        print(f"{k} | {means[0]:.1f} | {means[1]:.1f} | {means[2]:.1f}")


if __name__ == "__main__":
    main()
