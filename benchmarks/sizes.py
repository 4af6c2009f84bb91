"""Wall time and peak memory of `sudosat solve` end to end, one puzzle of each rank.

Each puzzle runs through the installed command three times (median wall time,
peak resident memory of the child). The baseline in the same run is the same
command with `--full` (the seeds' encoding: every rule and given as clauses).

    python benchmarks/sizes.py
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SUDOSAT = str(Path(sys.executable).with_name("sudosat"))
PUZZLES = ["ai-escargot.txt", "hex-16x16.txt", "rank5-25x25.txt", "rank6-36x36.txt"]


def measure(args: list[str]) -> tuple[float, float]:
    """Median wall seconds over 3 runs, and the largest peak RSS of the child in MiB."""
    walls, peaks = [], []
    for _ in range(3):
        start = time.perf_counter()
        child = subprocess.Popen(
            [SUDOSAT, *args], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
        )
        _, status, usage = os.wait4(child.pid, 0)
        walls.append(time.perf_counter() - start)
        child.returncode = os.waitstatus_to_exitcode(status)
        assert child.returncode == 0, child.stderr.read() if child.stderr else ""
        peaks.append(usage.ru_maxrss / 1024)
    return statistics.median(walls), max(peaks)


def main() -> None:
    print("| puzzle | sudosat solve | peak RSS | --full (baseline) | peak RSS | speed-up |")
    print("|---|---:|---:|---:|---:|---:|")
    for name in PUZZLES:
        path = str(ROOT / "puzzles" / name)
        wall, rss = measure(["solve", "--format", "line", path])
        full_wall, full_rss = measure(["solve", "--format", "line", "--full", path])
        print(
            f"| {name} | {wall:.2f} s | {rss:.0f} MiB | {full_wall:.2f} s | {full_rss:.0f} MiB "
            f"| {full_wall / wall:.1f}x |",
            flush=True,
        )


if __name__ == "__main__":
    main()
