"""Which encoding and which PySAT solver make `solve` (with the uniqueness check) fastest?

Every variant solves the same puzzles in the same run; times are reported as
ratios against the baseline (extended, pairwise, full CNF: the seeds' encoding).

    python benchmarks/encodings.py [--quick]
"""

from __future__ import annotations

import sys
from collections.abc import Callable

from common import load, timed

from sudosat.core.puzzle import Puzzle
from sudosat.sat.cnf import Encoding
from sudosat.solving.engine import solve

QUICK = "--quick" in sys.argv
SETS = {
    "17-clue": load("tdoku/puzzles2_17_clue", 100 if QUICK else 300),
    "forum-hardest": load("tdoku/puzzles5_forum_hardest_1905_11+", 100 if QUICK else 300),
    "16x16 gecode": load("large/gecode/gecode_16x16.chars.txt", 10 if QUICK else 30),
    "25x25": load("rank5-25x25.txt", 1),
    "25x25 hard": load("large/gecode/gecode_25x25.chars.txt", 0, pick=[0, 2, 3, 5, 6]),
    "36x36": load("rank6-36x36.txt", 1),
}
BASELINE = Encoding("extended", "pairwise", reduced=False)
VARIANTS = [
    BASELINE,
    Encoding("minimal", "pairwise", reduced=False),
    Encoding("efficient", "pairwise", reduced=False),
    Encoding("extended", "seqcounter", reduced=False),
    Encoding("extended", "bitwise", reduced=False),
    Encoding("minimal", "pairwise", reduced=True),
    Encoding("efficient", "pairwise", reduced=True),
    Encoding("extended", "pairwise", reduced=True),
    Encoding("extended", "seqcounter", reduced=True),
    Encoding("extended", "ladder", reduced=True),
]
SOLVERS = ["cadical195", "glucose4", "minisat22", "maplechrono", "lingeling"]


LIMIT = 20.0
"""Seconds a 25x25 or 36x36 puzzle may take before the variant is marked too slow."""


def run(puzzles: list[Puzzle], encoding: Encoding, solver: str = "cadical195") -> float | None:
    """Seconds for the set, or None when a large puzzle hit LIMIT."""
    big = puzzles[0].rank >= 5
    statuses = []

    def work() -> None:
        for puzzle in puzzles:
            outcome = solve(
                puzzle, encoding=encoding, solver=solver, timeout=LIMIT if big else None
            )
            statuses.append(outcome.status)

    seconds = timed(work)
    if "timeout" in statuses:
        return None
    assert set(statuses) == {"unique"}, statuses
    return seconds


def cell(seconds: float | None, base: float | None) -> str:
    if seconds is None:
        return f"> {LIMIT:.0f} s"
    ratio = f" ({base / seconds:.1f}x)" if base else ""
    return f"{seconds:.2f} s{ratio}"


def table(rows: list[tuple[str, Callable[[list[Puzzle]], float | None]]]) -> None:
    """One row per variant; the first row is the baseline the ratios divide."""
    print(f"| variant | {' | '.join(SETS)} |")
    print("|---|" + "---:|" * len(SETS))
    base: dict[str, float | None] = {}
    for index, (label, measure) in enumerate(rows):
        cells = []
        for name, puzzles in SETS.items():
            if not puzzles:
                cells.append("-")
                continue
            seconds = measure(puzzles)
            if index == 0:
                base[name] = seconds
            cells.append(cell(seconds, base[name]))
        print(f"| {label} | {' | '.join(cells)} |", flush=True)


def main() -> None:
    print("## Encodings (cadical195; whole set; ratio = baseline time / variant time)")
    table([(e.describe(), lambda p, e=e: run(p, e)) for e in VARIANTS])
    default = Encoding()
    print(f"\n## Solvers ({default.describe()}; ratio = cadical195 time / solver time)")
    table([(s, lambda p, s=s: run(p, default, s)) for s in SOLVERS])


if __name__ == "__main__":
    main()
