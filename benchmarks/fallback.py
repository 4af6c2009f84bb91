"""What running without a C compiler costs: ``sudosat steps`` with the compiled
engine and without it (SUDOSAT_ENGINE=python: the code a machine with no
compiler runs), each puzzle both ways in turn in the same run, as whole
processes: CPU seconds each and the ratio. The classics (the first five of
tdoku's top1465, AI Escargot), X-sudoku and jigsaws (``generate --variant``,
seeds 1 to 3), and the bundled killer.

    python benchmarks/fallback.py [--cap SECONDS]

A run past the cap (default 300 s) is stopped and its ratio given as at least.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SUDOSAT = str(Path(sys.executable).with_name("sudosat"))
PUZZLES = ROOT / "puzzles"


def generated(variant: str, seed: int) -> str:
    asked = ["--variant", variant, "--level", "expert", "--seed", str(seed), "-f", "line"]
    made = subprocess.run(
        [SUDOSAT, "generate", *asked],
        capture_output=True,
        text=True,
        check=True,
    )
    return made.stdout.strip()


def cpu(args: list[str], python: bool, cap: float) -> tuple[float, bool]:
    """CPU seconds of one run of ``sudosat steps``, and whether it finished."""
    env = {**os.environ, "SUDOSAT_ENGINE": "python"} if python else dict(os.environ)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    try:
        subprocess.run(
            [SUDOSAT, "steps", "-f", "line", *args],
            env=env,
            capture_output=True,
            timeout=cap,
            check=True,
        )
        finished = True
    except subprocess.TimeoutExpired:
        finished = False
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    seconds = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return (seconds if finished else cap), finished


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--cap", type=float, default=300.0)
    cap = parser.parse_args().cap
    lines = [
        line
        for line in (PUZZLES / "tdoku-magictour-25.txt").read_text().splitlines()
        if len(line) == 81
    ]
    cases = [(f"top1465 #{i + 1}", "classic", line) for i, line in enumerate(lines[:5])]
    cases.append(("AI Escargot", "classic", str(PUZZLES / "ai-escargot.txt")))
    cases.append(("bundled killer", "killer", str(PUZZLES / "killer.txt")))
    for variant in ("x", "jigsaw"):
        cases += [(f"{variant} seed {s}", variant, generated(variant, s)) for s in (1, 2, 3)]
    print(f"{'puzzle':16} {'kind':8} {'compiled s':>10} {'python s':>9} {'ratio':>7}")
    ratios: dict[str, list[float]] = {}
    for name, kind, puzzle in cases:
        compiled, _ = cpu([puzzle], False, cap)
        python, finished = cpu([puzzle], True, cap)
        ratio = python / compiled
        ratios.setdefault(kind, []).append(ratio)
        said = f"{ratio:7.1f}" if finished else f">{ratio:6.1f}"
        print(f"{name:16} {kind:8} {compiled:10.2f} {python:9.2f} {said}", flush=True)
    for kind, found in ratios.items():
        median, low, high = statistics.median(found), min(found), max(found)
        print(f"{kind}: ratio median {median:.1f}, {low:.1f} to {high:.1f}")


if __name__ == "__main__":
    main()
