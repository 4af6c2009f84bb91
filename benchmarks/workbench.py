"""The setter's workbench against issue 35's targets.

Whole processes (start-up included), the median of RUNS, each beside a
baseline measured in the same run: ``sudosat solve`` of the same puzzle (the
uniqueness check a setter runs anyway).

1. true candidates of a 9x9 killer with every other cage removed (2,456
   solutions): target <= 0.5 s;
2. true candidates of the 16x16 hex puzzle with 10 givens removed: <= 3 s;
3. true candidates of the bundled 25x25 with 20 givens removed: <= 30 s;
4. the estimate of a 9x9 with its first band given (about 10^9.8 solutions):
   <= 30 s, and ApproxMC's estimate of the same for comparison (--approxmc);
5. the estimate of the blank 9x9: <= 5 minutes, within the interval it claims
   of the known 6,670,903,752,021,072,936,960;
6. the redundant clues of the bundled 9x9 killer (``explain``, which rates
   it too): <= 1 s.

The package is byte-compiled first and the runs may use the caches, as an
installed sudosat does (``pip install`` compiles it): this machine sets
PYTHONDONTWRITEBYTECODE, under which every start compiles every module again
(``sudosat --version``: 0.36 s against 0.21 s). ``--no-bytecode`` measures that way.

    python benchmarks/workbench.py [--approxmc]
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
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from sudosat import parse  # noqa: E402
from sudosat.core.notation import format_line  # noqa: E402

SUDOSAT = str(Path(sys.executable).with_name("sudosat"))
RUNS = 3
ENV = dict(os.environ)
GRIDS_9X9 = 6_670_903_752_021_072_936_960


def run(*args: str) -> tuple[float, str]:
    start = time.perf_counter()
    done = subprocess.run([SUDOSAT, *args], capture_output=True, text=True, check=False, env=ENV)
    if done.returncode not in (0, 1):
        raise SystemExit(f"sudosat {' '.join(args)}: exit {done.returncode}: {done.stderr!r}")
    return time.perf_counter() - start, done.stdout


def paired(a: list[str], b: list[str], runs: int = RUNS) -> tuple[float, float, str]:
    times_a, times_b, out = [], [], ""
    for _ in range(runs):
        took, out = run(*a)
        times_a.append(took)
        times_b.append(run(*b)[0])
    return statistics.median(times_a), statistics.median(times_b), out


def loosened(path: str, removed: int, alphabet: str | None, folder: Path) -> str:
    """The puzzle of ``path`` with ``removed`` of its givens (chosen by seed 7) left out."""
    puzzle = parse((ROOT / path).read_text(), alphabet=alphabet)
    cells = list(puzzle.cells)
    for cell in random.Random(7).sample([c for c, v in enumerate(cells) if v], removed):
        cells[cell] = 0
    out = folder / f"{Path(path).stem}-{removed}.txt"
    out.write_text(format_line(replace(puzzle, cells=tuple(cells))) + "\n")
    return str(out)


def report(name: str, target: float, took: float, base: float, extra: str = "") -> None:
    verdict = "ok" if took <= target else "MISSED"
    print(
        f"{name:<46} {took:7.2f} s (target {target:g} s: {verdict})   solve: {base:6.2f} s"
        f"   ratio {took / base:5.2f}{extra}",
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--approxmc", action="store_true", help="also time ApproxMC (minutes)")
    parser.add_argument("--no-bytecode", action="store_true", help="compile at every start")
    args = parser.parse_args()
    if not args.no_bytecode:
        ENV.pop("PYTHONDONTWRITEBYTECODE", None)
        compiling = [sys.executable, "-m", "compileall", "-q", str(ROOT / "sudosat")]
        subprocess.run(compiling, check=True, env=ENV, stdout=subprocess.DEVNULL)
    print(f"bytecode caches: {'off' if args.no_bytecode else 'on'}", flush=True)
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        cages = [
            line
            for line in (ROOT / "puzzles/killer.txt").read_text().splitlines()
            if "cage" in line
        ]
        half = folder / "killer-half.txt"
        half.write_text("\n".join(cages[::2]) + "\n")
        hex16 = loosened("puzzles/hex-16x16.txt", 10, "hex", folder)
        big = loosened("puzzles/rank5-25x25.txt", 20, None, folder)
        band = str(ROOT / "puzzles/band-9x9.txt")
        blank = str(ROOT / "puzzles/empty-9x9.txt")
        line = ["-f", "line", "-q"]
        for name, target, path, alphabet in (
            ("candidates: killer, half its cages", 0.5, str(half), []),
            ("candidates: 16x16, 10 givens removed", 3.0, hex16, ["--alphabet", "hex"]),
            ("candidates: 25x25, 20 givens removed", 30.0, big, []),
        ):
            took, base, out = paired(
                ["candidates", path, *alphabet, *line], ["solve", path, *alphabet, *line]
            )
            report(name, target, took, base, f"   ({len(out.split())} cells)")
        for name, target, path, runs in (
            ("estimate: 9x9, first band given", 30.0, band, RUNS),
            ("estimate: blank 9x9", 300.0, blank, 1),
        ):
            took, base, out = paired(
                ["solve", "--estimate", path, "-f", "json", "-q"], ["solve", path, *line], runs
            )
            found = json.loads(out)["estimate"]
            said = f"   {found['estimate']:.4g} in [{found['low']:.4g}, {found['high']:.4g}]"
            if path == blank:
                said += f" holds {GRIDS_9X9:.4g}: {found['low'] <= GRIDS_9X9 <= found['high']}"
            report(name, target, took, base, said + f", {found['samples']} samples")
        killer = str(ROOT / "puzzles/killer.txt")
        took, base, out = paired(["explain", killer, "-f", "json"], ["solve", killer, *line])
        found = json.loads(out)
        extra = f"   {len(found['redundant'])} redundant, minimal {len(found['minimal'])}"
        report("explain (redundant clues): 9x9 killer", 1.0, took, base, extra)
        if args.approxmc:
            took, out = run(
                "solve", "--estimate", "--estimator", "approxmc", "--epsilon", "0.8",
                "--delta", "0.2", band, "-f", "json", "-q",
            )  # fmt: skip
            found = json.loads(out)["estimate"]
            print(
                f"{'approxmc (0.8, 0.2): 9x9, first band given':<46} {took:7.2f} s   "
                f"{found['estimate']:.4g} in [{found['low']:.4g}, {found['high']:.4g}]"
            )


if __name__ == "__main__":
    main()
