"""The logical path on the hardest public lists (issue 48): time per puzzle, the
share solved by logic, and the ratings' spread.

1. the forum's hardest of 2011 (tdoku's puzzles6, 375; every STEP-th): target
   every one solved by logic, median <= 10 s, worst <= 60 s;
2. the forum's hardest 1905 11+ (tdoku's puzzles5, 48,766; COUNT evenly spread):
   the same targets;
3. the famous hardest by name (AI Escargot, Golden Nugget, Platinum Blonde,
   Everest, ...), with their ratings;
4. magictour's top1465 (the first TOP): worst <= 1 s.

Each time is beside the puzzle's ``solve`` in the same run (the machine is shared).

    python benchmarks/hardest.py [STEP] [COUNT] [TOP]
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from sudosat import parse, solve  # noqa: E402
from sudosat.logic.rating import rate_by_path  # noqa: E402

TDOKU = ROOT.parent / "shared" / "puzzles" / "tdoku"
FAMOUS = ROOT.parent / "shared" / "puzzles" / "famous" / "famous.tsv"


def lines_of(path: Path) -> list[str]:
    return [line[:81] for line in path.read_text().splitlines() if line and line[0] != "#"]


def report(label: str, lines: list[str], median_target: float, worst_target: float) -> None:
    times, ratios, ratings, solved = [], [], [], 0
    for line in lines:
        puzzle = parse(line)
        start = time.perf_counter()
        solve(puzzle)
        solved_in = time.perf_counter() - start
        start = time.perf_counter()
        rating = rate_by_path(puzzle)
        times.append(time.perf_counter() - start)
        ratios.append(times[-1] / solved_in)
        ratings.append(rating.rating)
        solved += rating.technique != "search"
    median, worst = statistics.median(times), max(times)
    met = "met" if median <= median_target and worst <= worst_target else "NOT met"
    print(
        f"{label}: {len(lines)} puzzles, solved by logic {solved}/{len(lines)}; path median "
        f"{median:.2f} s, worst {worst:.2f} s (targets {median_target:g} s / {worst_target:g} s:"
        f" {met}); median path / solve {statistics.median(ratios):.0f}x; ratings "
        f"{min(ratings):.1f}-{max(ratings):.1f}, median {statistics.median(ratings):.2f}",
        flush=True,
    )


def main() -> None:
    step = int(sys.argv[1]) if len(sys.argv) > 1 else 8
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 40
    top = int(sys.argv[3]) if len(sys.argv) > 3 else 1465
    if not TDOKU.exists():
        print("../shared/puzzles is not here: nothing to measure")
        return
    report("1. forum hardest 2011", lines_of(TDOKU / "puzzles6_forum_hardest_1106")[::step], 10, 60)
    big = lines_of(TDOKU / "puzzles5_forum_hardest_1905_11+")
    report("2. forum hardest 1905 11+", big[:: len(big) // count][:count], 10, 60)
    for row in FAMOUS.read_text().splitlines()[1:]:
        name, puzzle, _ = row.split("\t")
        start = time.perf_counter()
        rating = rate_by_path(parse(puzzle))
        print(
            f"3. {name[:60]}: {rating.rating} ({rating.technique}), "
            f"{time.perf_counter() - start:.2f} s"
        )
    report("4. top1465", lines_of(TDOKU / "puzzles3_magictour_top1465")[:top], 1, 1)


if __name__ == "__main__":
    main()
