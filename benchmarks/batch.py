"""Batch throughput: `sudosat solve --format jsonl` end to end on tdoku's sets.

For each set, in one run so that the ratios share the machine's load:

* sudosat with all cores, and with `--jobs 1`: the whole file through the
  installed command (parsing, the uniqueness check, verification, JSONL to
  /dev/null), wall time, puzzles per second; and with `--jobs 1
  --no-front-end`, the engine without the numpy front end;
* the naive baseline the seeds suggest, on the first BASELINE puzzles of the
  set: for each puzzle build the full extended pairwise CNF in Python, load it
  with the givens into a fresh minisat22, solve, block the solution, solve again;
* the general engine (`--solver minisat22`, `--solver cadical195`: a reduced
  CNF on a fresh solver per puzzle) on the same sample, to show why the batch
  engine is the default.

    python benchmarks/batch.py            # the three sets of the issue
    python benchmarks/batch.py --quick    # 2,000 puzzles of each
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import time
from pathlib import Path

from pysat.solvers import Solver

from sudosat.core.puzzle import Puzzle
from sudosat.reading.inputs import read_file
from sudosat.sat.cnf import Encoding
from sudosat.sat.encoding import encode

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))
from common import SHARED  # noqa: E402

SUDOSAT = str(Path(sys.executable).with_name("sudosat"))
SETS = {
    "17-clue": ("tdoku/puzzles2_17_clue", 15000, 45),
    "magictour top1465": ("tdoku/puzzles3_magictour_top1465", 6000, 0),
    "forum hardest 1905": ("tdoku/puzzles5_forum_hardest_1905_11+", 2000, 7),
}
"""Each set, its all-cores target in puzzles per second, and the target for one
worker against the naive baseline (0: none)."""
BASELINE = 1000


def naive(puzzles: list[Puzzle]) -> float:
    """Puzzles per second of the seeds' way, with the uniqueness check."""
    full = Encoding("extended", "pairwise", reduced=False)
    start = time.perf_counter()
    for puzzle in puzzles:
        cnf = encode(puzzle, full)
        solver = Solver(name="minisat22", bootstrap_with=cnf.clauses)
        if solver.solve():
            grid = cnf.decode(solver.get_model())
            solver.add_clause(cnf.blocking_clause(grid))
            solver.solve()
        solver.delete()
    return len(puzzles) / (time.perf_counter() - start)


def command(path: Path, *options: str) -> float:
    """Puzzles per second of `sudosat solve --format jsonl` on the file."""
    count = sum(1 for line in path.open() if line.strip() and not line.startswith("#"))
    start = time.perf_counter()
    done = subprocess.run(
        [SUDOSAT, "solve", "--format", "jsonl", "--quiet", *options, str(path)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    elapsed = time.perf_counter() - start
    assert done.returncode in (0, 1, 3), done.stderr
    return count / elapsed


def main() -> None:
    quick = "--quick" in sys.argv
    print("puzzles per second, `sudosat solve --format jsonl FILE > /dev/null`, uniqueness checked")
    header = f"{'set':<20}{'puzzles':>8}{'all cores':>11}{'target':>8}{'--jobs 1':>10}"
    print(
        header
        + f"{'no front':>10}{'naive':>8}{'-j1/naive':>11}{'target':>8}{'all/naive':>11}"
        + f"{'minisat22':>11}{'cadical195':>11}"
    )
    for label, (relative, target, ratio) in SETS.items():
        source = SHARED / relative
        if not source.exists():
            print(f"{label:<20} (not here: {source})")
            continue
        with tempfile.TemporaryDirectory() as scratch:
            path = source
            if quick:
                path = Path(scratch) / "sample.txt"
                lines = [x for x in source.open() if x.strip() and not x.startswith("#")]
                path.write_text("".join(lines[:2000]))
            sample = Path(scratch) / "baseline.txt"
            lines = [x for x in source.open() if x.strip() and not x.startswith("#")]
            sample.write_text("".join(lines[:BASELINE]))
            count = sum(1 for x in path.open() if x.strip() and not x.startswith("#"))
            every = command(path)
            one = command(path, "--jobs", "1")
            without = command(path, "--jobs", "1", "--no-front-end")
            puzzles = [p for p in read_file(str(sample)) if isinstance(p, Puzzle)]
            baseline = naive(puzzles)
            general = [
                command(sample, "--jobs", "1", "--solver", s) for s in ("minisat22", "cadical195")
            ]
        wanted = f"{ratio}x" if ratio else "-"
        print(
            f"{label:<20}{count:>8}{every:>11,.0f}{target:>8,}{one:>10,.0f}{without:>10,.0f}"
            f"{baseline:>8,.0f}{one / baseline:>10.1f}x{wanted:>8}{every / baseline:>10.1f}x"
            f"{general[0]:>11,.0f}{general[1]:>11,.0f}"
        )
    print(f"naive, minisat22, cadical195: the first {BASELINE} puzzles of each set, one process")
    print("no front: --jobs 1 --no-front-end, the engine alone")


if __name__ == "__main__":
    main()
