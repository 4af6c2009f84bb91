"""Issue 36's targets on the hard variant collections, whole process.

Each file is solved by one ``sudosat solve FILE -f jsonl -q -j 1`` (proof of
uniqueness, one puzzle after another in one process, the way a CI batch runs),
and measured three ways:

* the CPU seconds of the whole process (the child's user + system time, as
  the operating system counts it: start-up and reading included);
* the records' time (the sum of each record's ``time``: what the puzzles cost
  once the process is warm);
* each puzzle's record time, against the per-puzzle target where there is one;
* cold: the CPU of a fresh process for each puzzle (the link on stdin), summed,
  as ISS's figures for the hard renban are taken (issue 50).

Every answer is checked: unique, and the solution the collection gives (the iss
files' .tsv) where it gives one. The iss collections are read from
../shared/puzzles/iss (skipped where absent); the 16x16 killers are puzzles/'s.

    python benchmarks/hard_variants.py [--skip mathemagic]
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import resource
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))
from common import SHARED  # noqa: E402

# (name, file, solutions .tsv or None, total CPU target, records' time target, each target)
# The ISS figures of issue 50: hard renban 2.62 s cold; Mathemagic 41 s warm.
COLLECTIONS = [
    ("hard renban", SHARED / "iss" / "hard_renban.links", "hard_renban.tsv", 2.62, None, None),
    (
        "mathemagic",
        SHARED / "iss" / "mathemagic_killers.links",
        "mathemagic_killers.tsv",
        41.0,
        None,
        None,
    ),
    ("killer 16x16", ROOT / "puzzles" / "killer-16x16.links", None, None, None, 2.0),
]


def child_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run(path: Path | str, stdin: str | None = None) -> tuple[float, list[dict[str, object]]]:
    """The CPU seconds of one ``solve`` of ``path`` (``-``: ``stdin``) and its records."""
    before = child_cpu()
    done = subprocess.run(
        [sys.executable, "-m", "sudosat", "solve", str(path), "-f", "jsonl", "-q", "-j", "1"],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        check=False,
    )
    cpu = child_cpu() - before
    records = [json.loads(line) for line in done.stdout.splitlines() if line.strip()]
    return cpu, records


def solutions(path: Path, tsv: str | None) -> list[str] | None:
    if tsv is None or not (path.parent / tsv).exists():
        return None
    with open(path.parent / tsv, newline="") as handle:
        return [row["solution"] for row in csv.DictReader(handle, delimiter="\t")]


def measure(name: str, path: Path, tsv: str | None, *targets: float | None) -> None:
    total_target, records_target, each_target = targets
    if not path.exists():
        print(f"{name}: {path} absent, skipped")
        return
    cpu, records = run(path)
    times = [float(r["time"]) for r in records]  # type: ignore[arg-type]
    wrong = [i for i, r in enumerate(records) if r["status"] != "unique"]
    known = solutions(path, tsv)
    if known is not None:
        wrong += [i for i, r in enumerate(records) if r["solution"] != known[i]]
    print(f"{name}: {len(records)} puzzles, answers {wrong if wrong else 'all right'}")
    print(
        f"  whole process CPU {cpu:.2f} s"
        + (f" (target <= {total_target:g} s)" if total_target else "")
    )
    line = f"  records' time {sum(times):.2f} s"
    print(line + (f" (target <= {records_target:g} s)" if records_target else ""))
    each = " ".join(f"{t:.2f}" for t in times)
    over = sum(1 for t in times if each_target and t > each_target)
    print(f"  each: {each}" + (f" ({over} over {each_target:g} s)" if each_target else ""))
    links = [line for line in path.read_text().splitlines() if line.startswith("http")]
    if links:
        cold = [run("-", link + "\n")[0] for link in links]
        print(
            f"  cold (a process a puzzle) CPU {sum(cold):.2f} s: "
            + " ".join(f"{c:.2f}" for c in cold)
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--skip", default="", help="comma-separated names to skip")
    args = parser.parse_args()
    skip = set(filter(None, args.skip.split(",")))
    for name, path, tsv, *targets in COLLECTIONS:
        if name.split()[0] not in skip and name not in skip:
            measure(name, path, tsv, *targets)


if __name__ == "__main__":
    main()
