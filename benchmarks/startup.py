"""Start-up (issue 50): whole-process wall time of short commands, beside
``python -c pass`` timed in the same run, medians of interleaved runs.

Targets: ``sudosat --version`` at most 40 ms; ``solve puzzles/ai-escargot.txt -f
line`` at most 70 ms; a 9x9 killer link at most 120 ms. With ``--before TREE``
the same commands of another checkout (run as ``PYTHONPATH=TREE python -m
sudosat``, as this tree is) are timed in turn, and the ratios printed.

    python benchmarks/startup.py [--runs 20] [--before TREE]
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
PUZZLES = ROOT / "puzzles"
KILLER = (PUZZLES / "variants.links").read_text().splitlines()[4].strip()  # the killer
COMMANDS = {
    "sudosat --version": (["--version"], None, 0.040),
    "solve ai-escargot.txt -f line": (
        ["solve", str(PUZZLES / "ai-escargot.txt"), "-f", "line"],
        None,
        0.070,
    ),
    "a 9x9 killer link -f line": (["solve", "-f", "line", "-"], KILLER, 0.120),
}


def timed(argv: list[str], stdin: str | None, tree: Path | None) -> float:
    env = {**os.environ, "PYTHONPATH": str(tree)} if tree else None
    start = time.perf_counter()
    done = subprocess.run(argv, input=stdin, capture_output=True, text=True, env=env, cwd="/")
    took = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(argv)}: exit {done.returncode}: {done.stderr}")
    return took


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--before", type=Path, help="another checkout to time beside this one")
    args = parser.parse_args()
    trees = {"this tree": ROOT} | ({"before": args.before} if args.before else {})
    python = [sys.executable]
    times: dict[tuple[str, str], list[float]] = {}
    for _ in range(args.runs):
        times.setdefault(("python -c pass", ""), []).append(
            timed([*python, "-c", "pass"], None, None)
        )
        for name, (argv, stdin, _) in COMMANDS.items():
            for label, tree in trees.items():
                took = timed([*python, "-m", "sudosat", *argv], stdin, tree)
                times.setdefault((name, label), []).append(took)
    base = statistics.median(times[("python -c pass", "")])
    print(f"python -c pass: {base * 1000:.1f} ms")
    for name, (_, _, target) in COMMANDS.items():
        mine = statistics.median(times[(name, "this tree")])
        line = f"{name}: {mine * 1000:.1f} ms (target {target * 1000:.0f} ms)"
        if args.before:
            before = statistics.median(times[(name, "before")])
            line += f"; before {before * 1000:.1f} ms, ratio {mine / before:.2f}"
        print(line)


if __name__ == "__main__":
    main()
