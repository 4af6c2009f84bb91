"""Large grids end to end through the CLI: wall time and peak memory per run.

Each run is `sudosat solve FILE --format jsonl --stats` (the default solver,
the uniqueness check) in a fresh process, measured with wait4 (peak RSS of
that process). The baseline, measured in the same run, is `sudosat --version`:
the start-up every run pays. Puzzles come from ../shared/puzzles/large
(skipped when absent).

    python benchmarks/large.py [--hard]

`--hard` adds rkkautsar 225-1 (no known solver settles it) under a 120 s timeout.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LARGE = ROOT.parent / "shared" / "puzzles" / "large"
SUDOSAT = str(Path(sys.executable).with_name("sudosat"))
TARGETS = {
    "100-1": "0.3 s",
    "144-1": "0.6 s, 300 MB",
    "144-2": "0.6 s, 300 MB",
    "225-2": "1.5 s, 400 MB",
    "400-1": "30 s, 1 GB",
    "64-1": "settled, 10 s",
}


def measured(args: list[str]) -> tuple[float, float, str]:
    """Wall seconds, peak MB and standard output of one run."""
    start = time.perf_counter()
    process = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    assert process.stdout is not None
    out = process.stdout.read().decode()
    _, _, usage = os.wait4(process.pid, 0)
    process.returncode = 0
    return time.perf_counter() - start, usage.ru_maxrss / 1024, out


def main() -> None:
    if not LARGE.is_dir():
        print(f"{LARGE} not found: nothing to measure")
        return
    base, base_mb, _ = measured([SUDOSAT, "--version"])
    print(f"baseline `sudosat --version`: {base:.2f} s, {base_mb:.0f} MB")
    names = list(TARGETS) + (["225-1"] if "--hard" in sys.argv[1:] else [])
    for name in names:
        path = LARGE / "rkkautsar" / f"sudoku-{name}.ints.txt"
        extra = ["--timeout", "120"] if name == "225-1" else []
        wall, mb, out = measured(
            [SUDOSAT, "solve", str(path), "--format", "jsonl", "--stats", *extra]
        )
        record = json.loads(out.splitlines()[0])
        stats = record["stats"]
        print(
            f"rkkautsar {name}: {wall:.2f} s ({wall / base:.1f}x start-up), {mb:.0f} MB, "
            f"{record['status']}, {record['solver']}, singles placed {stats['deduced']}, "
            f"{stats['variables']} variables, {stats['clauses']} clauses "
            f"(target {TARGETS.get(name, 'settled')})"
        )
    gecode = LARGE / "gecode" / "gecode_25x25.ints.txt"
    wall, mb, out = measured([SUDOSAT, "solve", str(gecode), "--format", "jsonl", "--stats"])
    records = [json.loads(line) for line in out.splitlines()]
    times = [r["stats"]["time"] for r in records]
    statuses = {r["status"] for r in records}
    print(
        f"Gecode 25x25 ({len(records)}, {statuses}): all {wall:.1f} s, slowest "
        f"{max(times):.1f} s, over 5 s: {sum(t > 5 for t in times)}, {mb:.0f} MB "
        f"(targets: each 5 s, all 30 s)"
    )
    wall, mb, _ = measured([SUDOSAT, "cnf", "--rank", "6", "--out", os.devnull])
    print(f"cnf --rank 6: {wall:.2f} s, {mb:.0f} MB (target 2 s)")


if __name__ == "__main__":
    main()
