"""True candidates by the engine's search first (sudosat.logic.outright) against
SAT alone (sudosat.solving.candidates), the same states in the same run.

Each puzzle is set from a blank grid as a setter sets it
(:func:`sudosat.making.setting.from_blank`: its cages or givens one at a time),
and each state's true candidates are asked for both ways, counted up to
``--count`` as the plugin's cap asks (cap 8: 7), in process. Reported: per
puzzle, the edits the search answered, and the median, worst and total time of
each way, with the total's ratio (engine first / SAT). Every answer is compared:
the same candidates and counts.

    python benchmarks/outright.py [--count 7] [--killers 8]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import load

from sudosat.core.puzzle import Layout, Puzzle
from sudosat.logic import outright
from sudosat.making.setting import from_blank
from sudosat.making.variant_generator import unique_killer
from sudosat.solving.candidates import candidates


def measured(puzzle: Puzzle, count: int | None) -> tuple[list[float], list[float], int]:
    """Each state's time by SAT and by the engine first, and how many the search answered."""
    sat, first, answered = [], [], 0
    for state in from_blank(puzzle):
        start = time.perf_counter()
        expected = candidates(state, count_each=count)
        sat.append(time.perf_counter() - start)
        start = time.perf_counter()
        found = outright.candidates(state, count_each=count)
        first.append(time.perf_counter() - start)
        answered += found.outcome.solver == outright.SOLVER
        assert found.marks == expected.marks and found.counts == expected.counts, state
    return sat, first, answered


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=7, help="count each up to (0: none)")
    parser.add_argument("--killers", type=int, default=8, help="generated 9x9 killers")
    args = parser.parse_args()
    count = args.count or None
    puzzles = [
        ("puzzles/killer.txt", load("killer.txt", 1)),
        ("puzzles/jigsaw.txt", load("jigsaw.txt", 1)),
        ("puzzles/published-killer.txt", load("published-killer.txt", 1)),
        ("royle17 #1 (givens)", load("royle17-25.txt", 1)),
        (
            f"{args.killers} generated 9x9 killers (seeds 0-{args.killers - 1})",
            [
                unique_killer(Layout.boxes(9), random.Random(seed))[0]
                for seed in range(args.killers)
            ],
        ),
    ]
    print(
        f"{'puzzles':44} {'edits':>6} {'outright':>8}  "
        "SAT median/worst/total   engine first        ratio"
    )
    for name, found in puzzles:
        if not found:
            continue
        sat: list[float] = []
        first: list[float] = []
        answered = 0
        for puzzle in found:
            s, f, a = measured(puzzle, count)
            sat += s
            first += f
            answered += a
        print(
            f"{name:44} {len(sat):6} {answered:8}  "
            f"{statistics.median(sat) * 1000:5.1f}/{max(sat) * 1000:6.1f}/{sum(sat):6.3f} s  "
            f"{statistics.median(first) * 1000:5.1f}/{max(first) * 1000:6.1f}/{sum(first):6.3f} s  "
            f"{sum(first) / sum(sat):.2f}"
        )


if __name__ == "__main__":
    main()
