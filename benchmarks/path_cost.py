"""The logical path's cost on its own, for farm-bench to time against another
tree (``PYTHONPATH=<checkout>``): the paths of magictour's first COUNT
(``--set mid``) or of eleven's hardest, two of each ER drawn with seed 7
(``--set hard``), one process; prints the CPU seconds and a digest of the
paths' ratings (the same digest: the same paths' ratings).

    farm-bench -n 5 --vs "env PYTHONPATH=../old python benchmarks/path_cost.py" \\
        -- python benchmarks/path_cost.py
"""

from __future__ import annotations

import argparse
import hashlib
import random
import sys
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.append(str(ROOT))  # (after PYTHONPATH: another tree may be timed)
sys.path.append(str(ROOT / "benchmarks"))
from common import SHARED  # noqa: E402

from sudosat import parse  # noqa: E402
from sudosat.logic.path import logical_path  # noqa: E402


def grids(which: str, count: int) -> list[str]:
    if which == "mid":
        lines = (SHARED / "tdoku" / "puzzles3_magictour_top1465").read_text().splitlines()
        return [line.split()[0] for line in lines if line and not line.startswith("#")][:count]
    by_er: dict[str, list[str]] = defaultdict(list)
    for line in (SHARED / "se-rated" / "eleven_dev.tsv").read_text().splitlines():
        if line and not line.startswith("#"):
            grid, er = line.split("\t")[:2]
            by_er[er].append(grid)
    chosen = random.Random(7)
    return [g for er in sorted(by_er) for g in chosen.sample(by_er[er], 2)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--set", choices=("mid", "hard"), default="mid")
    parser.add_argument("--count", type=int, default=300)
    args = parser.parse_args()
    puzzles = [parse(g) for g in grids(args.set, args.count)]
    start = time.process_time()
    ratings = [logical_path(p).explainer() for p in puzzles]
    digest = hashlib.md5(str(ratings).encode()).hexdigest()[:12]
    print(f"{time.process_time() - start:.2f} s CPU, {len(puzzles)} paths, ratings {digest}")


if __name__ == "__main__":
    main()
