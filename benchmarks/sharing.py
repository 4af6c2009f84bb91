"""Work shared by its cost: does a batch sorted easy to hard keep both cores busy?

`sudosat rate -j 2` of a list whose hard end is last (as an SE-rated list sorted
by rating is): tdoku's unbiased puzzles (each rated in milliseconds), then the
first hard puzzles of Berthier's eleven list (ER 10.6 and up, seconds each).
For each command, the wall time, the CPU time of it and its workers, and their
ratio to an even share: wall / (CPU / jobs). 1.0 is both cores busy to the end;
2.0 is one core idle for all of it.

    python benchmarks/sharing.py                      # the installed sudosat
    python benchmarks/sharing.py --easy 400 --hard 12
    python benchmarks/sharing.py --vs "env PYTHONPATH=../base python -m sudosat"

With --vs, the other command runs the same list in the same run (alternating, so
the ratios share the machine's load).
"""

from __future__ import annotations

import argparse
import os
import resource
import shlex
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))
from common import SHARED  # noqa: E402

SUDOSAT = [str(Path(sys.executable).with_name("sudosat"))]
EASY = SHARED / "tdoku" / "puzzles1_unbiased.first1000"
HARD = SHARED / "se-rated" / "eleven_dev.tsv"


def puzzle_lines(path: Path, take: int) -> list[str]:
    """The first ``take`` puzzles of a tdoku file or an SE-rated list, one a line."""
    found = []
    for line in path.read_text().splitlines():
        text = line.split("\t")[0].strip()
        if len(text) == 81:
            found.append(text)
        if len(found) == take:
            break
    return found


def run(command: list[str], path: str, jobs: int) -> tuple[float, float]:
    """Wall seconds and CPU seconds (it and every worker) of one rate run."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(
        [*command, "rate", "-j", str(jobs), "-f", "jsonl", path],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        cwd=os.path.dirname(path),  # python -m looks in its folder first: not this checkout
    )
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"sharing: {shlex.join(command)} failed: {done.stderr.strip()}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--easy", type=int, default=400, help="easy puzzles first")
    parser.add_argument("--hard", type=int, default=12, help="hard puzzles last")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--vs", help="a second command to run the same list (a baseline)")
    args = parser.parse_args()
    if not (EASY.exists() and HARD.exists()):
        raise SystemExit(f"sharing: needs {EASY} and {HARD} (../shared)")
    lines = puzzle_lines(EASY, args.easy) + puzzle_lines(HARD, args.hard)
    commands = {"sudosat": SUDOSAT}
    if args.vs:
        commands["vs"] = shlex.split(args.vs)
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "sorted.txt")
        Path(path).write_text("\n".join(lines) + "\n")
        print(f"rate -j {args.jobs}: {args.easy} easy then {args.hard} hard puzzles")
        print(f"{'command':<10} {'wall s':>8} {'CPU s':>8} {'wall/(CPU/jobs)':>16}")
        for _ in range(args.runs):
            for name, command in commands.items():
                wall, cpu = run(command, path, args.jobs)
                print(f"{name:<10} {wall:8.1f} {cpu:8.1f} {wall / (cpu / args.jobs):16.2f}")


if __name__ == "__main__":
    main()
