"""Making and explaining puzzles against qqwing, measured in one run.

* minimal 9x9, one process: `qqwing --generate N --one-line` against the
  library's `generate(seed, rated=False)` for the same N (qqwing's puzzles are
  minimal too, and unrated), then the same rated by their paths;
* minimal 16x16: seconds each over 20 seeds (mean, median, slowest), unrated
  and rated;
* explain on seed 002's broken puzzle (puzzles/rexl-partial.txt);
* with `--big`: one minimal 25x25 (minutes, see BENCHMARKS.md).

    python benchmarks/generate.py [--big]
"""

from __future__ import annotations

import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

from sudosat import parse
from sudosat.core.notation import BASE36, DIGITS, HEX
from sudosat.making.explain import explain
from sudosat.making.generator import generate, generator

ROOT = Path(__file__).resolve().parents[1]
COUNT = 300


def per_second(work: object, count: int) -> float:
    start = time.perf_counter()
    work()  # type: ignore[operator]
    return count / (time.perf_counter() - start)


def main() -> None:
    generate(0, alphabet=DIGITS)  # the solvers built once, as in a long run
    before = generator(3).solves
    # unrated, as `generate -f line` makes them (qqwing's --one-line rates none either)
    ours = per_second(
        lambda: [generate(s, alphabet=DIGITS, rated=False) for s in range(COUNT)], COUNT
    )
    solves = (generator(3).solves - before) / COUNT
    rated = per_second(lambda: [generate(s, alphabet=DIGITS) for s in range(COUNT)], COUNT)
    print(f"minimal 9x9 rated by their paths (jsonl, csv, rich): {rated:.0f}/s")
    if shutil.which("qqwing"):
        command = ["qqwing", "--generate", str(COUNT), "--one-line"]
        theirs = per_second(lambda: subprocess.run(command, capture_output=True), COUNT)
        print(
            f"minimal 9x9, one process: sudosat {ours:.0f}/s ({solves:.1f} solves each), "
            f"qqwing {theirs:.0f}/s, ratio {ours / theirs:.2f}x (target 2x)"
        )
    else:
        print(f"minimal 9x9, one process: sudosat {ours:.0f}/s (qqwing not installed)")
    generate(0, rank=4, alphabet=HEX)
    for rated in (False, True):
        times = []
        for seed in range(1, 21):
            start = time.perf_counter()
            generate(seed, rank=4, alphabet=HEX, rated=rated)
            times.append(time.perf_counter() - start)
        print(
            f"minimal 16x16, 20 seeds, {'rated' if rated else 'unrated'}: mean "
            f"{statistics.mean(times):.3f} s, median {statistics.median(times):.3f} s, "
            f"slowest {max(times):.3f} s (target 0.2 s)"
        )
    puzzle = parse((ROOT / "puzzles" / "rexl-partial.txt").read_text())
    start = time.perf_counter()
    found = explain(puzzle)
    print(f"explain rexl-partial: {time.perf_counter() - start:.3f} s, best fill {found.filled}")
    if "--big" in sys.argv[1:]:
        start = time.perf_counter()
        made = generate(1, rank=5, alphabet=BASE36)
        print(f"minimal 25x25: {time.perf_counter() - start:.0f} s, {made.clues} clues")


if __name__ == "__main__":
    main()
