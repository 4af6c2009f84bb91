"""Pictures, links and generated variant puzzles against issue 21's targets.

Whole processes (start-up included), the median of RUNS, each beside a
baseline of the same run:

1. killer 9x9, cages only, unique: ``generate --variant killer --puzzles N -j 1``
   (target >= 20 puzzles/s), beside classic ``generate --puzzles N -j 1``;
2. jigsaw 9x9, minimal givens: ``generate --variant jigsaw --puzzles N -j 1``
   (target >= 50 puzzles/s);
3. the SVG of a 36x36 with its solution: ``solve --format svg --solution``
   of puzzles/jigsaw-36x36.links, beside ``solve --format grid`` of the same
   (target: the picture <= 0.2 s);
4. a PDF of 100 generated 9x9 with their solutions (``generate --puzzles 100
   --format pdf --per-page 6 --solution``), beside ``--format line`` (target
   <= 5 s);
5. 16x16 killers, cages only, seeds 1..KILLERS16 (target <= 5 s each),
   each beside classic 16x16 ``generate`` of the same seed;
6. 16x16 jigsaws, seeds 1..JIGSAWS16, each beside classic 16x16 ``generate``
   of the same seed (issue 37's target: within 5x);
7. variants at each level: ``generate --variant V --level L --puzzles 10``.

    python benchmarks/pictures.py [--count N]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SUDOSAT = str(Path(sys.executable).with_name("sudosat"))
RUNS = 3
KILLERS16 = 8
JIGSAWS16 = 5


def took(*args: str) -> float:
    start = time.perf_counter()
    done = subprocess.run([SUDOSAT, *args], capture_output=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"sudosat {' '.join(args)}: exit {done.returncode}: {done.stderr!r}")
    return time.perf_counter() - start


def paired(a: list[str], b: list[str]) -> tuple[float, float]:
    times_a, times_b = [], []
    for _ in range(RUNS):
        times_a.append(took(*a))
        times_b.append(took(*b))
    return statistics.median(times_a), statistics.median(times_b)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=100)
    args = parser.parse_args()
    n = str(args.count)
    made = ["generate", "--puzzles", n, "--seed", "1", "-j", "1", "-q", "-f", "jsonl"]
    for number, variant, target in ((1, "killer", 20), (2, "jigsaw", 50)):
        mine, theirs = paired([*made, "--variant", variant], made)
        rate = args.count / mine
        print(
            f"{number}. {variant} 9x9: {rate:6.1f} puzzles/s ({mine:.2f} s for {n}); "
            f"classic {args.count / theirs:6.1f}/s; target >= {target}/s"
        )
    jigsaw = str(ROOT / "puzzles" / "jigsaw-36x36.links")
    svg, grid = paired(
        ["solve", "-f", "svg", "--solution", jigsaw], ["solve", "-f", "grid", jigsaw]
    )
    print(
        f"3. 36x36 svg with solution: {svg:.3f} s, grid {grid:.3f} s: "
        f"the picture {svg - grid:.3f} s"
    )
    book = ["generate", "--puzzles", "100", "--seed", "1", "-q", "--per-page", "6", "--solution"]
    pdf, line = paired([*book, "-f", "pdf"], [*book, "-f", "line"])
    print(f"4. pdf of 100 9x9 with solutions: {pdf:.2f} s (the puzzles as lines {line:.2f} s)")
    print(f"5. 16x16 killers, seeds 1..{KILLERS16} (target <= 5 s each):")
    for seed in range(1, KILLERS16 + 1):
        one = ["generate", "--rank", "4", "--seed", str(seed), "-q"]
        killer, classic = took(*one, "--variant", "killer"), took(*one)
        print(f"   seed {seed}: {killer:5.2f} s (classic 16x16 {classic:.2f} s)")
    print(f"6. 16x16 jigsaws, seeds 1..{JIGSAWS16} (target within 5x the classic):")
    for seed in range(1, JIGSAWS16 + 1):
        one = ["generate", "--rank", "4", "--seed", str(seed), "-q"]
        jigsaw16, classic = paired([*one, "--variant", "jigsaw"], one)
        print(
            f"   seed {seed}: {jigsaw16:5.2f} s, classic {classic:.2f} s: {jigsaw16 / classic:.1f}x"
        )
    print("7. 10 variants at each level (whole process):")
    for variant in ("killer", "jigsaw", "x"):
        times = []
        for level in ("easy", "intermediate", "expert"):
            level_args = [
                "generate",
                "--variant",
                variant,
                "--level",
                level,
                "--puzzles",
                "10",
                "-q",
            ]
            times.append(f"{level} {took(*level_args, '--seed', '1'):.2f} s")
        print(f"   {variant:7} " + ", ".join(times))


if __name__ == "__main__":
    main()
