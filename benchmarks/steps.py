"""Logical solve paths against issue 38's targets, in process.

Each puzzle's path (``logical_path``: its true candidates, then the steps, each
checked against them) is timed beside a baseline measured in the same run on
the same puzzle: ``solve`` (the uniqueness check a setter runs anyway).

1. the paths of tdoku's top1465 (the first COUNT): target <= 1 s each;
2. the paths of 9x9 variants (the Miracle Sudoku, the bundled killer, the
   thermometer-and-arrow puzzle, the 6x6 kropki; then 8 generated killers,
   cages only): <= 2 s each;
3. the paths of 16x16 classic puzzles (Gecode's 55 where ../shared is here, else
   the bundled hex puzzle): <= 5 s each.

    python benchmarks/steps.py [COUNT]
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from itertools import islice
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from sudosat import parse, solve  # noqa: E402
from sudosat.core.puzzle import Layout, Puzzle  # noqa: E402
from sudosat.logic.path import logical_path  # noqa: E402
from sudosat.making.variant_generator import unique_killer  # noqa: E402
from sudosat.reading.inputs import read_puzzles  # noqa: E402

SHARED = ROOT.parent / "shared" / "puzzles"
PUZZLES = ROOT / "puzzles"


def timed(puzzles: list[Puzzle]) -> tuple[list[float], list[float], dict[str, int]]:
    """Seconds of each path, of each solve, and how the paths ended."""
    paths, solves, ends = [], [], {}
    for puzzle in puzzles:
        start = time.perf_counter()
        solve(puzzle)
        solves.append(time.perf_counter() - start)
        start = time.perf_counter()
        found = logical_path(puzzle)
        paths.append(time.perf_counter() - start)
        ends[found.end] = ends.get(found.end, 0) + 1
    return paths, solves, ends


def report(label: str, puzzles: list[Puzzle], target: float) -> None:
    paths, solves, ends = timed(puzzles)
    worst = max(paths)
    ratio = statistics.median(p / s for p, s in zip(paths, solves, strict=True))
    verdict = "met" if worst <= target else "NOT met"
    print(
        f"{label}: {len(puzzles)} paths, median {statistics.median(paths):.3f} s, worst "
        f"{worst:.3f} s (target <= {target:g} s: {verdict}); median path / solve "
        f"{ratio:.0f}x; ends {ends}"
    )


def puzzles_of(path: Path, count: int) -> list[Puzzle]:
    return [p for p in islice(read_puzzles(str(path)), count) if isinstance(p, Puzzle)]


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    top = SHARED / "tdoku" / "puzzles3_magictour_top1465"
    hard = (
        puzzles_of(top, count)
        if top.exists()
        else puzzles_of(PUZZLES / "tdoku-magictour-25.txt", count)
    )
    report("1. top1465", hard, 1.0)
    variants = [
        parse((PUZZLES / name).read_text(), source=name)
        for name in ("miracle.txt", "killer.txt", "kropki-6x6.txt")
    ] + puzzles_of(PUZZLES / "thermo-arrow.json", 1)
    report("2. 9x9 variants", variants, 2.0)
    killers = [unique_killer(Layout.boxes(9), random.Random(s), 4)[0] for s in range(8)]
    report("2b. generated 9x9 killers (cages only, seeds 0-7)", killers, 2.0)
    gecode = SHARED / "large" / "gecode" / "gecode_16x16.chars.txt"
    big = puzzles_of(gecode, 55) if gecode.exists() else puzzles_of(PUZZLES / "hex-16x16.txt", 5)
    report("3. 16x16 classic", big, 5.0)


if __name__ == "__main__":
    main()
