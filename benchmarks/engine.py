"""How the batch engine's parts were chosen: solver work only, in one process.

On the first SAMPLE puzzles of tdoku's three sets of the batch issue:

1. the probe: which rules, in which solver, make PySAT's ``propagate()`` with
   the givens cheapest, and how many puzzles it settles (every variable
   assigned: the unique solution without search);
2. the rest, per puzzle that propagation does not settle (both solves of the
   uniqueness check, building the formula included):
   * the default: a fresh Minicard over the groups with open candidates;
   * the same without some of the redundant groups;
   * one reused Minicard holding the whole rules, the givens as assumptions,
     the blocking clause behind an activation literal, rebuilt every 50
     puzzles;
   * a shallow search by ``propagate()`` alone (branch on the cell with the
     fewest candidates) that hands over to the default after BUDGET calls.

    python benchmarks/engine.py            # 2,000 puzzles of each set
    python benchmarks/engine.py 500
"""

from __future__ import annotations

import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pysolvers
from pysat.solvers import Minicard, Solver

from sudosat.core.puzzle import Puzzle
from sudosat.sat.cnf import Encoding
from sudosat.sat.encoding import augmented, encode, groups, triad_clauses
from sudosat.solving.fast import FastSolver

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import load

SETS = {
    "17-clue": "tdoku/puzzles2_17_clue",
    "magictour": "tdoku/puzzles3_magictour_top1465",
    "forum hardest": "tdoku/puzzles5_forum_hardest_1905_11+",
}
SAMPLE = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
BUDGET = 8
N, CUBE = 9, 729


def givens(puzzle: Puzzle) -> list[int]:
    return [cell * N + v for cell, v in enumerate(puzzle.cells) if v]


def every_group() -> list[list[int]]:
    cells, unit_values = groups(3)
    return cells + unit_values


def old_box_lines() -> list[list[int]]:
    """The box-line clauses used before the triads: triads defined over the
    extended rules, without "at most one" inside a triad (which the rules give)."""
    clauses, _ = triad_clauses(3, CUBE)
    return [c for c in clauses if not (len(c) == 2 and max(c) < 0 and -min(c) <= CUBE)]


def probes() -> dict[str, Callable[[], Solver]]:
    extended = encode(Puzzle(3, (0,) * 81), Encoding("extended", "pairwise", reduced=False))
    rules, _ = augmented(3)

    def native() -> Solver:
        solver = Solver(name="minicard")
        for group in every_group():
            solver.add_clause(group)
            solver.add_atmost(group, 1)
        for clause in old_box_lines():
            solver.add_clause(clause)
        return solver

    return {
        "extended (no triads), minisat22": lambda: Solver("minisat22", extended.clauses),
        "extended + box-line triads, minisat22": lambda: Solver(
            "minisat22", extended.clauses + old_box_lines()
        ),
        "extended + box-line triads, minicard native AMO": native,
        "cells + triads, minisat22": lambda: Solver("minisat22", rules),
        "cells + triads, glucose4 (default)": lambda: Solver("glucose4", rules),
        "cells + triads, maplesat": lambda: Solver("maplesat", rules),
    }


def probe_figures(puzzles: list[Puzzle]) -> None:
    assumptions = [givens(p) for p in puzzles]
    for name, make in probes().items():
        solver = make()
        top = solver.nof_vars()
        start = time.perf_counter()
        sizes = [len(solver.propagate(assumptions=a)[1]) for a in assumptions]
        took = time.perf_counter() - start
        settled = sum(size == top for size in sizes)
        print(
            f"  probe {name:<48}{took / len(puzzles) * 1e6:7.0f} us"
            f"  settles {settled / len(puzzles):6.1%}"
        )
        solver.delete()


def open_groups(engine: FastSolver, implied: list[int]) -> list[list[int]]:
    open_vars = sorted(engine.cube.difference(map(abs, implied)))
    groups: list[list[int]] = [[] for _ in range(engine.group_count)]
    for v in open_vars:
        for index in engine.groups_of[v]:
            groups[index].append(v)
    return groups


def fresh(groups: list[list[int]], cells: bool = True, units: bool = True) -> int:
    """Both solves on a fresh Minicard; ``cells``/``units``: also "at most one" per
    cell / "at least one" per unit and value (redundant, for propagation)."""
    solver = Minicard()
    handle = solver.minicard
    for index, group in enumerate(groups):
        if not group:
            continue
        is_cell = index < N * N
        if is_cell or units:
            pysolvers.minicard_add_cl(handle, group)
        if cells or not is_cell:
            pysolvers.minicard_add_am(handle, group, 1)
    in_formula = {v for group in groups for v in group}
    found = 0
    while found < 2 and solver.solve():
        solver.add_clause([-lit for lit in solver.get_model() if lit in in_formula])
        found += 1
    solver.delete()
    return found


class Reused:
    """One Minicard with the whole rules, rebuilt every ``every`` puzzles."""

    def __init__(self, every: int = 50) -> None:
        self.every, self.done, self.solver = every, 0, Minicard()
        self.top = CUBE

    def solve(self, assumptions: list[int]) -> int:
        if self.done % self.every == 0:
            self.solver.delete()
            self.solver = Minicard()
            for group in every_group():
                self.solver.add_clause(group)
                self.solver.add_atmost(group, 1)
            self.top = CUBE
        self.done += 1
        found = 0
        if self.solver.solve(assumptions=assumptions):
            found = 1
            self.top += 1
            model = [lit for lit in self.solver.get_model() if 0 < lit <= CUBE]
            self.solver.add_clause([-self.top] + [-lit for lit in model])
            found += self.solver.solve(assumptions=[*assumptions, self.top])
            self.solver.add_clause([-self.top])
        return found


class TooDeep(Exception):
    pass


def shallow(
    engine: FastSolver, assumptions: list[int], implied: list[int], budget: list[int]
) -> int:
    """Solutions (up to 2) by branching on ``propagate()`` alone."""
    open_vars = sorted(engine.cube.difference(map(abs, implied)))
    per_cell = Counter(engine.cell_of[v] for v in open_vars)
    cell = min(per_cell, key=per_cell.__getitem__)
    found = 0
    for lit in [v for v in open_vars if engine.cell_of[v] == cell]:
        budget[0] -= 1
        if budget[0] < 0:
            raise TooDeep
        ok, below = engine.probe.propagate(assumptions=[*assumptions, lit])
        if ok:
            full = len(below) == engine.top
            found += 1 if full else shallow(engine, [*assumptions, lit], below, budget)
        if found >= 2:
            break
    return found


def search_figures(puzzles: list[Puzzle]) -> None:
    engine = FastSolver(3)
    rest = []
    for puzzle in puzzles:
        assumptions = givens(puzzle)
        ok, implied = engine.probe.propagate(assumptions=assumptions)
        if ok and len(implied) != engine.top:
            rest.append((assumptions, implied))
    if not rest:
        return

    def with_shallow(assumptions: list[int], implied: list[int]) -> int:
        try:
            return shallow(engine, assumptions, implied, [BUDGET])
        except TooDeep:
            return fresh(open_groups(engine, implied))

    reused = Reused()
    ways: dict[str, Callable[[list[int], list[int]], int]] = {
        "fresh Minicard, open groups (default)": lambda a, i: fresh(open_groups(engine, i)),
        "  without at-most-one per cell": lambda a, i: fresh(open_groups(engine, i), cells=False),
        "  without at-least-one per unit": lambda a, i: fresh(open_groups(engine, i), units=False),
        "reused Minicard, rebuilt every 50": lambda a, i: reused.solve(a),
        f"shallow propagate() search, budget {BUDGET}": with_shallow,
    }
    for name, way in ways.items():
        start = time.perf_counter()
        counts = Counter(way(a, i) for a, i in rest)
        took = time.perf_counter() - start
        assert set(counts) == {1}, counts  # tdoku's sets: every puzzle unique
        print(f"  search {name:<47}{took / len(rest) * 1e6:7.0f} us  ({len(rest)} puzzles)")


def main() -> None:
    print(f"solver work per puzzle, first {SAMPLE} puzzles of each set, one process")
    for label, path in SETS.items():
        puzzles = load(path, SAMPLE)
        if not puzzles:
            print(f"{label}: {path} not found, skipped")
            continue
        print(label)
        probe_figures(puzzles)
        search_figures(puzzles)


if __name__ == "__main__":
    main()
