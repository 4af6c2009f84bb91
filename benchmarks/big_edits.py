"""Givens typed on a blank big grid, in the library (issue 76): the work of each
edit's true candidates without the page and the server around it.

The blank grid's candidates, then the first ``--edits`` givens of the bundled
puzzle (``puzzles/rank6-36x36.txt`` or ``rank5-25x25.txt``) added one at a
time in reading order, each asked as the server asks it
(``candidates(puzzle, solver="auto", maybe=...)``, starting from the last four
answers' first 64 witnesses). Reported: the blank grid's time, the median and
worst time a given, the median solves a given; each tree in a process of its
own (``--before TREE``: the same on another tree, in the same run).

    python benchmarks/big_edits.py [--rank 6] [--edits 20] [--before TREE]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BUNDLED = {5: "rank5-25x25.txt", 6: "rank6-36x36.txt"}
RECENT, KEPT = 4, 64
"""The server's WITNESSED and plugin_answers.WITNESSES."""


def measure(rank: int, edits: int) -> str:
    """One row: run in the tree this process imports sudosat from."""
    from sudosat import Puzzle, candidates, parse

    n = rank * rank
    text = (ROOT / "puzzles" / BUNDLED[rank]).read_text()
    givens = [(cell, value) for cell, value in enumerate(parse(text).cells) if value][:edits]
    start = time.perf_counter()
    recent = [candidates(Puzzle.empty(rank), solver="auto").found[:KEPT]]
    blank = time.perf_counter() - start
    cells, times, solves = [0] * (n * n), [], []
    for cell, value in givens:
        cells[cell] = value
        maybe = {grid: None for found in reversed(recent[-RECENT:]) for grid in found}
        start = time.perf_counter()
        found = candidates(Puzzle(rank, tuple(cells)), solver="auto", maybe=tuple(maybe))
        times.append(time.perf_counter() - start)
        recent.append(found.found[:KEPT])
        solves.append(found.outcome.stats.solves)
    return (
        f"{blank:.2f} s | {statistics.median(times):.2f} / {max(times):.2f} s "
        f"| {statistics.median(solves):.0f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rank", type=int, choices=sorted(BUNDLED), default=6)
    parser.add_argument("--edits", type=int, default=20)
    parser.add_argument("--before", type=Path, help="The same on this tree too.")
    parser.add_argument("--measure", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.measure:  # a child: sudosat from the tree on its PYTHONPATH
        print(measure(args.rank, args.edits))
        return
    n = args.rank * args.rank
    print(f"| {n}x{n}, {args.edits} givens | blank | per given, median / worst | solves a given |")
    print("|---|---:|---:|---:|")
    for tree in [args.before, ROOT] if args.before else [ROOT]:
        command = [sys.executable, __file__, "--measure", "--rank", str(args.rank)]
        command += ["--edits", str(args.edits)]
        env = dict(os.environ, PYTHONPATH=str(tree))
        done = subprocess.run(command, env=env, cwd=tree, capture_output=True, text=True)
        row = done.stdout.strip() or done.stderr.strip().splitlines()[-1]
        print(f"| {'today' if tree == ROOT else tree} | {row} |", flush=True)


if __name__ == "__main__":
    main()
