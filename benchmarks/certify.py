"""Certificates (issue 49): proof size, and the time to certify and to verify,
beside `solve` of the same puzzle in the same run.

Targets: on 9x9 and 16x16, certify at most 3x solve and verify at most 10x; a
36x36 certified within a minute. Verify is timed with dratify's Rust engine
(the default) and its pure-Python one (dratify-python; not on the 36x36, whose
3.3-million-line proof takes it past ten minutes).

    python benchmarks/certify.py [ROYLE]
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from sudosat import parse, solve  # noqa: E402
from sudosat.core.puzzle import Puzzle  # noqa: E402
from sudosat.reading.inputs import read_puzzles  # noqa: E402
from sudosat.solving.certificate import certify, write  # noqa: E402
from sudosat.solving.checking import check  # noqa: E402

SHARED = ROOT.parent / "shared" / "puzzles"
PUZZLES = ROOT / "puzzles"


def measured(
    puzzle: Puzzle, folder: Path, python: bool = True
) -> tuple[float, float, float, float, int, int, str]:
    """Seconds of solve, of certify (and writing), of verify (Rust, Python); proof
    lines and bytes."""
    start = time.perf_counter()
    solve(puzzle)
    solved = time.perf_counter() - start
    start = time.perf_counter()
    found = certify(puzzle)
    write(found, folder)
    certified = time.perf_counter() - start
    verdict = check(folder)
    assert verdict.valid and "Rust" in verdict.proven, verdict.problems
    by_python = check(folder, "dratify-python").seconds if python else float("nan")
    size = (folder / "claim.drup").stat().st_size if found.proof else 0
    return solved, certified, verdict.seconds, by_python, len(found.proof), size, found.status


def report(label: str, puzzles: list[Puzzle], python: bool = True) -> None:
    rows = []
    with tempfile.TemporaryDirectory() as scratch:
        for index, puzzle in enumerate(puzzles):
            rows.append(measured(puzzle, Path(scratch) / str(index), python))
    solved, certified, verified, by_python, lines, size, status = zip(*rows, strict=True)
    cert = statistics.median(c / s for c, s in zip(certified, solved, strict=True))
    ver = statistics.median(v / s for v, s in zip(verified, solved, strict=True))
    ver_py = statistics.median(v / s for v, s in zip(by_python, solved, strict=True))
    print(
        f"{label}: {len(rows)} puzzles ({', '.join(sorted(set(status)))}); solve median "
        f"{statistics.median(solved) * 1000:.1f} ms; certify median "
        f"{statistics.median(certified) * 1000:.1f} ms ({cert:.1f}x solve), worst "
        f"{max(certified):.2f} s; verify median {statistics.median(verified) * 1000:.1f} ms "
        f"({ver:.1f}x solve), worst {max(verified):.2f} s; "
        + (f"pure Python {ver_py:.1f}x solve, worst {max(by_python):.2f} s; " if python else "")
        + f"proof median "
        f"{statistics.median(lines):.0f} lines, {statistics.median(size) / 1024:.1f} KiB, "
        f"largest {max(size) / 1024:.0f} KiB",
        flush=True,
    )


def of(path: Path, count: int | None = None) -> list[Puzzle]:
    found = [p for p in read_puzzles(str(path)) if isinstance(p, Puzzle)]
    return found[:count] if count else found


def main() -> None:
    royle = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    report("AI Escargot", of(PUZZLES / "ai-escargot.txt"))
    royle_file = SHARED / "royle17" / "sudoku17_royle49151.txt"
    report(f"Royle 17-clue, first {royle}", of(royle_file, royle))
    report("16x16 (hex-16x16.txt)", of(PUZZLES / "hex-16x16.txt"))
    report("25x25 (rank5-25x25.txt)", of(PUZZLES / "rank5-25x25.txt", 1))
    report("36x36 (rank6-36x36.txt)", of(PUZZLES / "rank6-36x36.txt", 1), python=False)
    report("9x9 killer (killer.txt)", [parse((PUZZLES / "killer.txt").read_text())])
    for name in ("hard_renban", "mathemagic_killers"):
        links = SHARED / "iss" / f"{name}.links"
        if links.exists():
            report(f"ISS {name}", of(links))


if __name__ == "__main__":
    main()
