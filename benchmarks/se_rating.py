"""The ratings' targets (issues 59 and 77): ER, EP and ED against Sudoku
Explainer's, twice: the logical path's own (what ``steps`` prints) and the
rating's (what ``rate`` prints: SE's own search sets the ER from 9.0 up,
sudosat/logic/explainer.py); and the T&E(3) puzzles solved by logic.

1. eleven's hardest (``se-rated/eleven_dev.tsv``, ER 10.6-11.9): PER puzzles of
   each ER, drawn with SEED. Spearman's rank correlation of each ER with SE's
   (target >= 0.85), the mean error per 0.5 band of SE's ER (target within
   0.2), EP and ED agreement, path CPU (target: median 0.15 s, worst 1.5 s) and
   the search's CPU.
2. mith's T&E(3) list (``se-rated/monhard_te3_dev.tsv``): TE3 puzzles drawn
   with SEED; the share solved by logic (target: all), their ER, the CPU.

The paths run in JOBS processes; each time is the path's own CPU (the true
candidates included), the search's its own.

    python benchmarks/se_rating.py [--per 8] [--te3 20] [--seed 7] [--jobs 2]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections import defaultdict
from multiprocessing import Pool
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))
from common import SHARED  # noqa: E402

from sudosat import parse  # noqa: E402
from sudosat.logic.explainer import explainer_rating  # noqa: E402
from sudosat.logic.path import logical_path, truth_of  # noqa: E402
from sudosat.logic.rating import solution_of  # noqa: E402

RATED = SHARED / "se-rated"

Row = tuple[str, float, float, float]
"""A puzzle and SE's ER, EP, ED."""


def rows(name: str) -> list[Row]:
    found = []
    for line in (RATED / name).read_text().splitlines():
        if line and not line.startswith("#"):
            puzzle, er, ep, ed = line.split("\t")[:4]
            found.append((puzzle, float(er), float(ep), float(ed)))
    return found


def spread(found: list[Row], per: int, seed: int) -> list[Row]:
    """``per`` puzzles of each ER (fewer where the list has fewer)."""
    by_er: dict[float, list[Row]] = defaultdict(list)
    for row in found:
        by_er[row[1]].append(row)
    chosen = random.Random(seed)
    return [r for er in sorted(by_er) for r in chosen.sample(by_er[er], min(per, len(by_er[er])))]


Explained = tuple[float, float, float] | None
Rated = tuple[Row, str, Explained, float, Explained, float]
"""A puzzle, its path's end, the path's ER, EP, ED and CPU, the rating's and the
search's CPU."""


def rate(row: Row) -> Rated:
    puzzle = parse(row[0])
    start = time.process_time()
    path = logical_path(puzzle)
    by_path = path.explainer()
    path_cpu = time.process_time() - start
    if by_path is None:
        return row, path.end, None, path_cpu, None, 0.0
    solution = solution_of(truth_of(puzzle))
    start = time.process_time()
    rated = explainer_rating(puzzle, by_path, solution)
    return row, path.end, by_path, path_cpu, rated, time.process_time() - start


def ranks(values: list[float]) -> list[float]:
    """Average ranks (ties share the mean of their places)."""
    order = sorted(range(len(values)), key=values.__getitem__)
    found = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            found[order[k]] = (i + j) / 2
        i = j + 1
    return found


def spearman(a: list[float], b: list[float]) -> float:
    return statistics.correlation(ranks(a), ranks(b))


def band(er: float) -> str:
    low = int(er * 2) / 2
    return f"{low:.1f}-{low + 0.4:.1f}"


def report(label: str, results: list[Rated]) -> None:
    paths = [(row, ours, cpu) for row, _, ours, cpu, _, _ in results if ours is not None]
    cpus = [found[3] for found in results]
    print(
        f"{label}: {len(results)} puzzles, solved by logic {len(paths)}/{len(results)}; "
        f"path CPU median {statistics.median(cpus):.2f} s, worst {max(cpus):.2f} s, "
        f"over 10 s: {sum(c > 10 for c in cpus)}"
    )
    slowest = max(results, key=lambda found: found[3])
    print(f"  slowest path: {slowest[0][0]} ({slowest[3]:.2f} s, {slowest[1]})")
    searches = [found[5] for found in results if found[4] is not None]
    if searches:
        print(
            f"  SE's search: CPU median {statistics.median(searches):.2f} s, "
            f"worst {max(searches):.2f} s"
        )
    compare("the path's (steps)", paths)
    compare("the rating's (rate)", [(r[0], r[4], r[5]) for r in results if r[4] is not None])


def compare(label: str, solved: list[tuple[Row, tuple[float, float, float], float]]) -> None:
    print(f"  {label}:")
    if len(solved) < 3:
        return
    for i, name in enumerate(("ER", "EP", "ED")):
        theirs = [row[1 + i] for row, _, _ in solved]
        ours = [o[i] for _, o, _ in solved]
        if len(set(theirs)) > 1 and len(set(ours)) > 1:
            rho = f"rank correlation {spearman(ours, theirs):.3f}, "
        else:
            rho = ""
        pairs = list(zip(ours, theirs, strict=True))
        exact = sum(abs(a - b) < 0.05 for a, b in pairs)
        error = statistics.mean(a - b for a, b in pairs)
        near = sum(abs(a - b) < 0.15 for a, b in pairs)
        print(
            f"    {name}: {rho}mean error {error:+.2f}, equal {exact}/{len(solved)}, "
            f"within 0.1 {near}/{len(solved)}"
        )
    errors: dict[str, list[float]] = defaultdict(list)
    for row, ours, _ in solved:
        errors[band(row[1])].append(ours[0] - row[1])
    for name in sorted(errors):
        found = errors[name]
        print(f"    ER {name}: {len(found)} puzzles, ER {statistics.mean(found):+.2f} on average")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--per", type=int, default=8, help="puzzles of each ER")
    parser.add_argument("--te3", type=int, default=20, help="T&E(3) puzzles (0: none)")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    if not RATED.exists():
        print(f"{RATED} is not here: nothing to measure")
        return
    eleven = spread(rows("eleven_dev.tsv"), args.per, args.seed)
    te3 = random.Random(args.seed).sample(rows("monhard_te3_dev.tsv"), args.te3)
    with Pool(args.jobs) as pool:
        report("1. eleven's hardest, ER 10.6-11.8", pool.map(rate, eleven, chunksize=1))
        if te3:  # (--te3 0: eleven's list alone)
            report("2. T&E(3)", pool.map(rate, te3, chunksize=1))


if __name__ == "__main__":
    main()
