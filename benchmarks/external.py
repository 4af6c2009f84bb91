"""`sudosat solve` through each solver program against the in-process default.

AI Escargot and the bundled 25x25, end to end through the installed command
(reading, encoding, solving twice for the uniqueness check, verifying,
printing). Two figures per cell: the command's wall time, and the solve time
it reports in JSON (encoding + both solves + verification, without Python's
start-up; for a program that includes writing the CNF and starting the
process twice). Medians of 7 rounds; each round runs every solver once, in
turn, so the ratios against the default share the machine's load. Programs
not on PATH are listed as missing.

    python benchmarks/external.py
"""

from __future__ import annotations

import json
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

from sudosat.sat.solvers import DEFAULT_SOLVER
from sudosat.sat.solvers.programs import PROGRAMS

ROOT = Path(__file__).resolve().parents[1]
SUDOSAT = str(Path(sys.executable).with_name("sudosat"))
PUZZLES = ["ai-escargot.txt", "rank5-25x25.txt"]
ROUNDS = 7


def once(solver: str, puzzle: str) -> tuple[float, float]:
    """Wall seconds of one run and the solve time the run reports."""
    start = time.perf_counter()
    done = subprocess.run(
        [SUDOSAT, "solve", "--solver", solver, "--format", "json", str(ROOT / "puzzles" / puzzle)],
        capture_output=True,
        text=True,
    )
    elapsed = time.perf_counter() - start
    record = json.loads(done.stdout)
    assert done.returncode == 0 and record["status"] == "unique", done.stderr
    return elapsed, record["time"]


def main() -> None:
    solvers = [DEFAULT_SOLVER] + [
        name for name, program in PROGRAMS.items() if shutil.which(program.argv[0])
    ]
    missing = [name for name in PROGRAMS if name not in solvers]
    runs: dict[tuple[str, str], list[tuple[float, float]]] = {}
    for puzzle in PUZZLES:
        once(DEFAULT_SOLVER, puzzle)  # warm the file cache
        for _ in range(ROUNDS):
            for solver in solvers:
                runs.setdefault((solver, puzzle), []).append(once(solver, puzzle))

    def median(solver: str, puzzle: str, index: int) -> float:
        return statistics.median(run[index] for run in runs[solver, puzzle])

    print(f"`sudosat solve --solver NAME PUZZLE`, uniqueness checked; medians of {ROUNDS} rounds")
    print("wall = whole command; solve = encode + solves + verify (reported in JSON)")
    for puzzle in PUZZLES:
        print(f"\n{puzzle}")
        print(f"{'solver':<24}{'wall':>10}{'ratio':>8}{'solve':>11}{'ratio':>8}")
        for solver in solvers:
            wall, work = median(solver, puzzle, 0), median(solver, puzzle, 1)
            base_wall, base_work = (
                median(DEFAULT_SOLVER, puzzle, 0),
                median(DEFAULT_SOLVER, puzzle, 1),
            )
            label = solver + (" (in process)" if solver == DEFAULT_SOLVER else "")
            print(
                f"{label:<24}{wall:>8.3f} s{wall / base_wall:>7.2f}x"
                f"{work * 1000:>8.1f} ms{work / base_work:>7.2f}x"
            )
    if missing:
        print(f"\nnot on PATH: {', '.join(missing)}")


if __name__ == "__main__":
    main()
