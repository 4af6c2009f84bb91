"""How fast every command stops when told, and what explain holds in memory.

1. Stop latency: each long run is started through the installed command,
   signalled with SIGTERM once it has used 1.5 s of CPU (so it is at work),
   and timed from the signal to its exit, three times each; the target is 2 s.
2. `sudosat explain --timeout 60` of rkkautsar's 64-1 (several solutions, a
   hard search): wall time, which parts ran out, and the peak memory of the
   whole run (every process of it: the wrapper reads RUSAGE_CHILDREN after
   waiting); the target is 1 GB.

    python benchmarks/stopping.py

Rate of Gecode's 25x25 set needs ../shared (skipped when absent).
"""

from __future__ import annotations

import json
import os
import signal
import statistics
import subprocess
import sys
import time
from pathlib import Path

from sudosat.system.spent import tree_seconds

ROOT = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("SUDOSAT_SHARED", ROOT.parent / "shared")) / "puzzles"
SUDOSAT = str(Path(sys.executable).with_name("sudosat"))
BIG = str(ROOT / "puzzles" / "rkkautsar-64-1.txt")
RUNS = {
    "generate --rank 6 (Minicard, in process)": ["generate", "--rank", "6", "--seed", "1"],
    "explain 64-1": ["explain", BIG],
    "rate 64-1": ["rate", BIG],
    "solve --solver glucose4 64-1": ["solve", "--solver", "glucose4", BIG],
    "solve --solver cadical195 --jobs 1 64-1": ["solve", "--solver", "cadical195", BIG],
}
GECODE = SHARED / "large" / "gecode" / "gecode_25x25.chars.txt"
if GECODE.exists():
    RUNS["rate Gecode 25x25, --jobs 1"] = ["rate", "--jobs", "1", str(GECODE)]


def stop_latency(args: list[str]) -> tuple[float, int]:
    process = subprocess.Popen(
        [SUDOSAT, *args], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    while (tree_seconds(process.pid) or 0.0) < 1.5 and process.poll() is None:
        time.sleep(0.02)
    start = time.perf_counter()
    process.send_signal(signal.SIGTERM)
    process.wait()
    return time.perf_counter() - start, process.returncode


def explain_memory() -> tuple[float, float, list[str]]:
    code = (
        "import json, resource, subprocess, sys, time\n"
        "start = time.perf_counter()\n"
        "done = subprocess.run(sys.argv[1:], capture_output=True, text=True)\n"
        "peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024\n"
        "print(json.dumps([time.perf_counter() - start, peak, json.loads(done.stdout)]))\n"
    )
    args = [SUDOSAT, "explain", "--format", "json", "--timeout", "60", BIG]
    done = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True)
    seconds, peak, found = json.loads(done.stdout)
    return seconds, peak, found["timed_out"]


def main() -> None:
    print("Stop latency after SIGTERM (three runs each; target 2 s)")
    for name, args in RUNS.items():
        runs = [stop_latency(args) for _ in range(3)]
        seconds = [s for s, _ in runs]
        codes = sorted({c for _, c in runs})
        print(
            f"  {name:<45} median {statistics.median(seconds):.2f} s, "
            f"max {max(seconds):.2f} s, exit {codes}"
        )
    seconds, peak, timed_out = explain_memory()
    print(
        f"explain --timeout 60 of 64-1: {seconds:.1f} s, peak {peak:.0f} MB "
        f"(target 1 GB), ran out: {', '.join(timed_out) or 'nothing'}"
    )


if __name__ == "__main__":
    main()
