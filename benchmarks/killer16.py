"""Where the time of a slow 16x16 killer goes (issue 20's 2 s target), in process.

Each puzzle of puzzles/killer-16x16.links is deduced and encoded as the
engine does, then measured on CaDiCaL 1.9.5 as the engine configures it:

1. phases: the quick Minicard search (out of budget on the slow ones), loading
   CaDiCaL, the first solution, the uniqueness proof;
2. seeds: CaDiCaL's random seed 0-7 (does luck decide?);
3. given cells: conflicts to a first solution with k cells of the solution
   given (is it search, or a proof every branch pays for?);
4. cubes: each candidate of one cell as a cube (what cube-and-conquer over
   two cores could gain);
5. a user propagator that does nothing (IPASIR-UP through PySAT's
   ``connect_propagator``), observing the cell variables: its callbacks'
   cost before any propagation is done.

Conflicts are deterministic, so they compare designs on a noisy machine;
seconds show what a user waits.

    python benchmarks/killer16.py [--puzzles 1,3] [--skip cubes,seeds]
"""

from __future__ import annotations

import argparse
import random
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

from pysat.engines import Propagator
from pysat.solvers import Solver

from sudosat import Encoding, read_puzzles
from sudosat.sat.cnf import Cnf
from sudosat.sat.encoding import encode
from sudosat.sat.solvers.pysat_backend import TUNING
from sudosat.solving.deduce import deduce
from sudosat.solving.engine import QUICK_BUDGET
from sudosat.solving.fast import holding

PUZZLES = Path(__file__).resolve().parents[1] / "puzzles" / "killer-16x16.links"
SOLVER = "cadical195"


def engine_cnf(puzzle: Any) -> Cnf:
    """The CNF the general engine hands its solver (singles first, compact)."""
    deduced = deduce(puzzle)
    target = replace(puzzle, cells=deduced.grid)
    return encode(target, Encoding(), compact=True, masks=deduced.masks)


def cadical(clauses: list[list[int]], **options: int) -> Solver:
    solver = Solver(SOLVER, bootstrap_with=clauses)
    solver.solver.configure({**TUNING[SOLVER], **options})
    return solver


def both(cnf: Cnf, solver: Solver) -> tuple[float, float]:
    """Seconds to the first solution, then to the proof that it is the only one."""
    start = time.perf_counter()
    assert solver.solve()
    first = time.perf_counter() - start
    solver.add_clause(cnf.blocking_clause(cnf.decode(solver.get_model())))
    assert not solver.solve()
    return first, time.perf_counter() - start - first


def phases(cnf: Cnf, clauses: list[list[int]]) -> str:
    start = time.perf_counter()
    quick = holding(cnf)
    quick.conf_budget(QUICK_BUDGET)
    settled = quick.solve_limited() is not None
    quick.delete()
    took_quick = time.perf_counter() - start
    start = time.perf_counter()
    solver = cadical(clauses)
    load = time.perf_counter() - start
    first, second = both(cnf, solver)
    conflicts = solver.accum_stats()["conflicts"]
    solver.delete()
    verdict = "settled" if settled else "out of budget"
    return (
        f"quick {took_quick:.2f} s ({verdict}), load {load:.2f} s, first {first:.2f} s, "
        f"unique {second:.2f} s, {conflicts} conflicts"
    )


def seeds(cnf: Cnf, clauses: list[list[int]]) -> str:
    times = []
    for seed in range(8):
        solver = cadical(clauses, seed=seed)
        times.append(sum(both(cnf, solver)))
        solver.delete()
    return "seeds 0-7: " + " ".join(f"{t:.2f}" for t in times) + " s"


def given_cells(cnf: Cnf, clauses: list[list[int]]) -> str:
    solver = cadical(clauses)
    solver.solve()
    cells = sum(len(values) for _, values in cnf.open_cells)
    true = [lit for lit in solver.get_model() or [] if 0 < lit <= cells]
    solver.delete()
    found = []
    for k in (0, 4, 8, 16, 32):
        conflicts = []
        for rep in range(3):
            given = random.Random(rep).sample(true, k)
            solver = cadical(clauses + [[lit] for lit in given])
            solver.solve()
            conflicts.append(solver.accum_stats()["conflicts"])
            solver.delete()
        found.append(f"{k}: {'/'.join(map(str, conflicts))}")
    return "conflicts to a first solution with k cells given: " + ", ".join(found)


def cubes(cnf: Cnf, clauses: list[list[int]]) -> str:
    first = cnf.first_variables()[0]
    _, values = cnf.open_cells[0]
    times = []
    for index in range(len(values)):
        solver = cadical([*clauses, [first + index]])
        start = time.perf_counter()
        while solver.solve():
            solver.add_clause(cnf.blocking_clause(cnf.decode(solver.get_model())))
        times.append(time.perf_counter() - start)
        solver.delete()
    return (
        f"cubes on the first open cell's {len(values)} candidates: "
        f"{min(times):.2f}-{max(times):.2f} s each, {sum(times):.1f} s in all"
    )


class Idle(Propagator):
    """Observes, counts, propagates nothing: the floor of any Python propagator."""

    def __init__(self) -> None:
        super().__init__()
        self.calls = 0

    def on_assignment(self, lit: int, fixed: bool = False) -> None:
        self.calls += 1

    def on_new_level(self) -> None:
        pass

    def on_backtrack(self, to: int) -> None:
        pass

    def check_model(self, model: list[int]) -> bool:
        return True

    def decide(self) -> int:
        return 0

    def propagate(self) -> list[int]:
        return []

    def provide_reason(self, lit: int) -> list[int]:
        return []

    def add_clause(self) -> list[int]:
        return []

    def has_clause(self) -> bool:
        return False


def propagator(cnf: Cnf, clauses: list[list[int]]) -> str:
    bare = cadical(clauses)
    without = sum(both(cnf, bare))
    bare.delete()
    solver = cadical(clauses)
    idle = Idle()
    solver.connect_propagator(idle)
    for variable in range(1, sum(len(values) for _, values in cnf.open_cells) + 1):
        solver.observe(variable)
    with_idle = sum(both(cnf, solver))
    solver.delete()
    return f"idle propagator: {without:.2f} -> {with_idle:.2f} s, {idle.calls} callbacks"


PARTS = {
    "phases": phases,
    "seeds": seeds,
    "given": given_cells,
    "cubes": cubes,
    "propagator": propagator,
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--puzzles", default="1,3", help="line numbers among the puzzles")
    parser.add_argument("--skip", default="", help=f"parts to leave out, of {','.join(PARTS)}")
    args = parser.parse_args()
    puzzles = list(read_puzzles(str(PUZZLES)))
    skip = set(filter(None, args.skip.split(",")))
    for number in map(int, args.puzzles.split(",")):
        cnf = engine_cnf(puzzles[number - 1])
        clauses = list(cnf.iter_clauses())
        print(f"16x16 killer {number} of {PUZZLES.name}: {len(clauses)} clauses")
        for name, part in PARTS.items():
            if name not in skip:
                print(f"   {name}: {part(cnf, clauses)}", flush=True)


if __name__ == "__main__":
    main()
