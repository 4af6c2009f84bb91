"""One difficulty model (issue 77): what rating by the logical path costs a
generator, measured beside another tree in the same run.

For each tree (this one, and ``--before TREE``), in a process of its own:

* rating a generated 9x9: the puzzles of seeds 0..COUNT-1 made first (not
  timed), then each rated by its logical path with its solution known
  (``rate_by_path``), and, where the tree has it, by the old search rater
  (``rating.rate``, the rater before one model): milliseconds a puzzle;
* ``generate(seed, level=L)`` for easy, intermediate and expert, seeds
  0..COUNT/4-1: puzzles a second (the levels by that tree's model; a minimal
  puzzle is rarely simple, so simple is not asked);
* minimal 16x16s, ``generate(seed, rank=4)``, seeds 0..3: seconds each.

    python benchmarks/levels.py [COUNT] [--before TREE]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

MEASURE = r"""
import json, sys, time
sys.path.insert(0, sys.argv[1])
count = int(sys.argv[2])
from sudosat.making.generator import generate
from sudosat.logic import rating
from sudosat.logic.rating import rate_by_path

made = [generate(seed) for seed in range(count)]
found = {}
start = time.perf_counter()
levels = [rate_by_path(g.puzzle, g.solution).level for g in made]
found["path_ms"] = (time.perf_counter() - start) / count * 1000
found["path_levels"] = {str(x): levels.count(x) for x in sorted(set(levels))}
if hasattr(rating, "rater"):  # the old search rater
    start = time.perf_counter()
    [rating.rate(g.puzzle) for g in made]
    found["old_ms"] = (time.perf_counter() - start) / count * 1000
for level in ("easy", "intermediate", "expert"):
    seeds = range(max(1, count // 4))
    start = time.perf_counter()
    for seed in seeds:
        generate(seed, level=level)
    found[level] = len(seeds) / (time.perf_counter() - start)
start = time.perf_counter()
for seed in range(4):
    generate(seed, rank=4)
found["16x16_s"] = (time.perf_counter() - start) / 4
print(json.dumps(found))
"""


def measured(tree: Path, count: int) -> dict[str, object]:
    done = subprocess.run(
        [sys.executable, "-c", MEASURE, str(tree), str(count)],
        capture_output=True,
        text=True,
        check=True,
        cwd=tree,
    )
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("count", nargs="?", type=int, default=100)
    parser.add_argument("--before", type=Path, help="Measure this tree too, in the same run.")
    args = parser.parse_args()
    trees = [args.before, ROOT] if args.before else [ROOT]
    rows = {str(tree): measured(tree, args.count) for tree in trees}
    keys = ["old_ms", "path_ms", "easy", "intermediate", "expert", "16x16_s"]
    print(f"{'tree':40s}" + "".join(f"{k:>14s}" for k in keys))
    for tree, row in rows.items():
        cells = "".join(
            f"{row[k]:14.3f}" if isinstance(row.get(k), float) else f"{'-':>14s}" for k in keys
        )
        print(f"{tree[-40:]:40s}{cells}")
        print(f"{'':40s}levels by path: {row['path_levels']}")
    if args.before:
        before, now = rows[str(args.before)], rows[str(ROOT)]
        for level in ("easy", "intermediate", "expert"):
            ratio = float(now[level]) / float(before[level])  # type: ignore[arg-type]
            print(f"generate --level {level}: {ratio:.2f} of the puzzles a second before")
        print(f"16x16: {float(now['16x16_s']) / float(before['16x16_s']):.2f} of the time before")  # type: ignore[arg-type]
        if "old_ms" in before:
            old = float(before["old_ms"])  # type: ignore[arg-type]
            print(f"rating by path now / the old rater before: {float(now['path_ms']) / old:.2f}")


if __name__ == "__main__":
    main()
