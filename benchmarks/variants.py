"""Variant Sudoku against its targets, each beside a classic baseline of the same run.

1. Every 9x9 variant sample (f-puzzles JSON and links, rule statements):
   ``sudosat solve FILE``, the whole process (start-up included), median of 5,
   beside ``sudosat solve puzzles/ai-escargot.txt``; target <= 0.3 s.
2. 9x9 killers, cages only, no givens: KILLERS puzzles made unique by
   construction (:func:`sudosat.making.variant_generator.unique_killer`, seeds 0..KILLERS-1) into
   a links file, then ``sudosat solve FILE --format jsonl`` on one worker and
   on all; every answer must be unique; target >= 200 puzzles/s.
3. 16x16 and 25x25 killers made the same way (puzzles/killer-16x16.links,
   puzzles/killer-25x25.links): ``sudosat solve`` of each, whole process;
   targets 2 s and 30 s.
4. A 36x36 jigsaw (puzzles/jigsaw-36x36.links) against a classic 36x36 made
   the same way (a random grid, random givens, more where a second solution
   differs: puzzles/classic-36x36.links) and the bundled classic
   (puzzles/rank6-36x36.txt), median of 3 each, in turn; target within 1.5x.

    python benchmarks/variants.py [--killers N]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from sudosat.core.puzzle import Layout
from sudosat.making.variant_generator import unique_killer
from sudosat.reading.fpuzzles import link

ROOT = Path(__file__).resolve().parents[1]
PUZZLES = ROOT / "puzzles"
SUDOSAT = str(Path(sys.executable).with_name("sudosat"))
SAMPLES = ["killer.txt", "jigsaw.txt", "thermo-arrow.json", "variants.links", "kropki-6x6.txt"]
CLASSIC = str(PUZZLES / "ai-escargot.txt")


def run(*args: str) -> tuple[float, str]:
    """Wall seconds of one whole ``sudosat`` process, and what it printed."""
    start = time.perf_counter()
    done = subprocess.run([SUDOSAT, *args], capture_output=True, text=True, check=False)
    took = time.perf_counter() - start
    if done.returncode not in (0, 1):
        raise SystemExit(f"sudosat {' '.join(args)}: exit {done.returncode}: {done.stderr}")
    return took, done.stdout


def paired(a: list[str], b: list[str], runs: int) -> tuple[float, float]:
    """Medians of ``a`` and ``b`` run in turn (a warm-up each first)."""
    run(*a), run(*b)
    times_a, times_b = [], []
    for _ in range(runs):
        times_a.append(run(*a)[0])
        times_b.append(run(*b)[0])
    return statistics.median(times_a), statistics.median(times_b)


def samples() -> None:
    print("1. 9x9 variant samples, whole process (target <= 0.3 s)")
    for name in SAMPLES:
        path = str(PUZZLES / name)
        mine, classic = paired(["solve", path], ["solve", CLASSIC], 5)
        ratio = mine / classic
        print(f"   {name:20} {mine:6.3f} s   classic {classic:6.3f} s   ratio {ratio:5.2f}")


def killer_links(size: int, count: int, largest: int = 4) -> Path:
    """``count`` unique cages-only killers, seeds 0..count-1, as a links file."""
    layout = Layout.boxes(size)
    handle, name = tempfile.mkstemp(suffix=".links", prefix=f"killers-{size}-")
    start = time.perf_counter()
    with os.fdopen(handle, "w") as out:
        for seed in range(count):
            puzzle, _ = unique_killer(layout, random.Random(seed), largest)
            out.write(link(puzzle) + "\n")
    print(f"   made {count} in {time.perf_counter() - start:.1f} s")
    return Path(name)


def statuses(text: str) -> dict[str, int]:
    found: dict[str, int] = {}
    for line in text.splitlines():
        status = json.loads(line)["status"]
        found[status] = found.get(status, 0) + 1
    return found


def killer_batch(count: int) -> None:
    print(f"2. 9x9 killers, cages only, a batch of {count} (target >= 200/s)")
    path = killer_links(9, count)
    try:
        for jobs in ("1", str(os.cpu_count() or 1)):
            took, out = run("solve", "--format", "jsonl", "--jobs", jobs, str(path))
            took2, _ = run("solve", "--format", "jsonl", "--jobs", jobs, str(path))
            best = min(took, took2)
            print(f"   --jobs {jobs}: {count / best:7.1f} puzzles/s ({best:.2f} s) {statuses(out)}")
    finally:
        path.unlink()


def large_killers() -> None:
    for size, target in ((16, 2), (25, 30)):
        path = PUZZLES / f"killer-{size}x{size}.links"
        print(f"3. {size}x{size} killers, cages only, whole process (target <= {target} s)")
        for number, line in enumerate(path.read_text().splitlines(), 1):
            if line.startswith("#") or not line.strip():
                continue
            took, out = _solve_text(line)
            print(f"   line {number}: {took:6.2f} s {statuses(out)}")


def _solve_text(line: str) -> tuple[float, str]:
    with tempfile.NamedTemporaryFile("w", suffix=".links") as one:
        one.write(line + "\n")
        one.flush()
        return run("solve", "--format", "jsonl", one.name)


def jigsaw_36() -> None:
    print("4. 36x36 jigsaw against classic 36x36s, in turn (target within 1.5x)")
    jigsaw = str(PUZZLES / "jigsaw-36x36.links")
    for name in ("classic-36x36.links", "rank6-36x36.txt"):
        mine, theirs = paired(["solve", jigsaw], ["solve", str(PUZZLES / name)], 3)
        print(f"   jigsaw {mine:.2f} s   {name} {theirs:.2f} s   ratio {mine / theirs:.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--killers", type=int, default=1000)
    args = parser.parse_args()
    samples()
    killer_batch(args.killers)
    large_killers()
    jigsaw_36()


if __name__ == "__main__":
    main()
