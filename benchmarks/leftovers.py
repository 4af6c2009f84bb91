"""The law of leftovers (sudosat/sat/leftovers.py): jigsaws whose regions decide
the answer, beside a baseline command in the same run.

Each case is `solve` of one file, through the installed command and through
``--vs`` (another sudosat command line, e.g. a checkout before the change:
``--vs "env PYTHONPATH=/work/base python -m sudosat"``, run from outside the
checkout), each given ``--limit`` seconds (a baseline past it prints
"> limit"). The cases:

1. blank 25x25 and 36x36 grids of boxes whose boxes trade two cells of a row
   (``tests/conftest.py``'s ``traded_jigsaw``) or of a column: no solution;
2. the same grids with the trade across two rows of a band (a solution; the
   leftovers tie the two traded cells);
3. the bundled jigsaws (puzzles/jigsaw.txt, 9x9 with leftovers;
   puzzles/jigsaw-36x36.links, none within reach), which must not get slower.

    python benchmarks/leftovers.py --vs "COMMAND" [--limit 120] [--runs 3]
"""

from __future__ import annotations

import argparse
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SUDOSAT = str(Path(sys.executable).with_name("sudosat"))
LABELS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"


def traded(n: int, rank: int, a: tuple[int, int], b: tuple[int, int]) -> str:
    """A blank n x n grid of boxes with the regions of cells ``a`` and ``b`` swapped."""
    regions = [[LABELS[(r // rank) * rank + c // rank] for c in range(n)] for r in range(n)]
    (ra, ca), (rb, cb) = a, b
    regions[ra][ca], regions[rb][cb] = regions[rb][cb], regions[ra][ca]
    rows = "\n".join("." * n for _ in range(n))
    return f"size {n}\n{rows}\nregions:\n" + "\n".join("".join(r) for r in regions) + "\n"


def cases(folder: Path) -> dict[str, str]:
    made = {}
    for n, rank in ((25, 5), (36, 6)):
        for name, a, b in (
            ("row trade", (0, rank - 1), (0, rank)),
            ("column trade", (rank - 1, 3), (rank, 3)),
            ("band trade", (2, rank - 1), (4, rank)),
        ):
            path = folder / f"{n}-{name.replace(' ', '-')}.txt"
            path.write_text(traded(n, rank, a, b))
            made[f"{n}x{n} {name}"] = str(path)
    made["9x9 jigsaw (bundled)"] = str(ROOT / "puzzles" / "jigsaw.txt")
    made["36x36 jigsaw (bundled)"] = str(ROOT / "puzzles" / "jigsaw-36x36.links")
    return made


def timed(command: list[str], limit: float) -> tuple[float | None, str]:
    start = time.perf_counter()
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=limit)
    except subprocess.TimeoutExpired:
        return None, ""
    said = (done.stdout + done.stderr).strip().splitlines()
    return time.perf_counter() - start, said[-1][:40] if said else ""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--vs", required=True, help="the baseline's sudosat command line")
    parser.add_argument("--limit", type=float, default=120.0)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    baseline = shlex.split(args.vs)
    with tempfile.TemporaryDirectory() as scratch:
        for name, path in cases(Path(scratch)).items():
            figures = []
            for command in ([SUDOSAT], baseline):
                times, said = [], ""
                for _ in range(args.runs):
                    seconds, said = timed([*command, "solve", path], args.limit)
                    times.append(seconds)
                    if seconds is None:
                        break
                known = [t for t in times if t is not None]
                median = statistics.median(known) if len(known) == len(times) else None
                figures.append((median, said))
            (now, said), (before, _) = figures
            show = [f"{t:.2f} s" if t is not None else f"> {args.limit:g} s" for t in (now, before)]
            ratio = f"{now / before:.3f}" if now is not None and before is not None else "-"
            print(f"{name:26} now {show[0]:>9}  baseline {show[1]:>9}  ratio {ratio:>6}  {said}")


if __name__ == "__main__":
    main()
