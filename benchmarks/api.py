"""The library route against the CLI: `solve_many` runs at the batch engine's speed.

On tdoku's 17-clue set (49,158 puzzles), one process each, in one run so that
the ratios share the machine's load:

* `sudosat solve --format jsonl -j 1 --quiet FILE > /dev/null`: the CLI's batch run;
* `solve_many(read_puzzles(FILE))`: the library, parsing included, outcomes kept;
* `solve(puzzle, solver="cadical195")` on the first SAMPLE puzzles: the general
  engine, which `sudosat.solve()` used to give library users.

    python benchmarks/api.py           # the whole set
    python benchmarks/api.py --quick   # its first 5,000 puzzles
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import time
from itertools import islice
from pathlib import Path

from sudosat import Puzzle, read_puzzles, solve, solve_many

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))
from common import SHARED  # noqa: E402

SUDOSAT = str(Path(sys.executable).with_name("sudosat"))
SAMPLE = 1000


def cli_rate(path: Path, count: int) -> float:
    start = time.perf_counter()
    subprocess.run(
        [SUDOSAT, "solve", "--format", "jsonl", "-j", "1", "--quiet", str(path)],
        stdout=subprocess.DEVNULL,
        check=False,
    )
    return count / (time.perf_counter() - start)


def library_rate(path: Path) -> tuple[float, int]:
    start = time.perf_counter()
    outcomes = list(solve_many(read_puzzles(str(path))))
    seconds = time.perf_counter() - start
    assert all(o.status == "unique" for o in outcomes)
    return len(outcomes) / seconds, len(outcomes)


def general_rate(path: Path) -> float:
    puzzles = [p for p in islice(read_puzzles(str(path)), SAMPLE) if isinstance(p, Puzzle)]
    start = time.perf_counter()
    for puzzle in puzzles:
        solve(puzzle, solver="cadical195")
    return len(puzzles) / (time.perf_counter() - start)


def main() -> None:
    source = SHARED / "tdoku/puzzles2_17_clue"
    if not source.exists():
        print(f"{source} is not here: nothing to measure")
        return
    with tempfile.TemporaryDirectory() as folder:
        path = source
        if "--quick" in sys.argv[1:]:
            path = Path(folder) / "quick.txt"
            lines = [x for x in source.read_text().splitlines() if x and not x.startswith("#")]
            path.write_text("\n".join(lines[:5000]) + "\n")
        library, count = library_rate(path)
        cli = cli_rate(path, count)
        library_again, _ = library_rate(path)
        general = general_rate(path)
    best = max(library, library_again)
    print(f"17-clue, {count:,} puzzles, one process, uniqueness checked (puzzles/s)")
    print(f"  sudosat solve -f jsonl -j 1          {cli:9,.0f}")
    print(f"  solve_many(read_puzzles(FILE))       {library:9,.0f} / {library_again:,.0f}")
    print(f"  solve(p, solver='cadical195'), {SAMPLE:,}  {general:9,.0f}")
    print(f"  solve_many / CLI: {best / cli:.2f}x")
    print(f"  solve_many / general engine: {best / general:.1f}x")


if __name__ == "__main__":
    main()
