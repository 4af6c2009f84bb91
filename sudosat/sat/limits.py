"""How big a grid this machine can take: an estimate made before any work.

The estimate is linear in what the givens leave open, so it is cheap: each
blank cell's candidates are one bit mask (:attr:`Puzzle.masks`, which the
singles then start from).
Solving holds, per open candidate, its place in four groups and the solver's
variable; per pairwise clause, the solver's copy of it. Writing a CNF streams
its clauses, so only the groups are held, and the file needs its own size on
disk. The constants are measured (benchmarks/large.py: a 144x144 with 51
thousand candidates and 918 thousand clauses peaks at 150 MB under CaDiCaL).
"""

from __future__ import annotations

import os
import shutil

from sudosat.core.errors import InputError
from sudosat.core.puzzle import Puzzle

BYTES_PER_CANDIDATE = 250
BYTES_PER_CLAUSE = 120
BYTES_PER_CLAUSE_WRITTEN = 16
"""A pairwise clause as DIMACS text (two literals of up to 8 digits)."""


class TooBig(InputError):
    """A grid that would need more memory (or disk) than this machine has."""


SPARE = "this machine can spare (3/4 of its free memory)"
MEMORY_MARGIN = 0.75
"""The share of the memory this machine has free that a run may plan to take:
the estimate is a rough one, and the machine has other work."""


def size(puzzle: Puzzle, reduced: bool) -> tuple[int, int]:
    """Candidates, and about how many clauses the CNF has: a cell with k
    candidates gives about four groups of k (its own, and one per unit for each
    of its values), each with k(k-1)/2 pairwise clauses; and each variant rule
    its own estimate (:meth:`rules.Rule.clause_estimate`). Not ``reduced``:
    every cell has all N values."""
    if reduced:
        counts = [mask.bit_count() for mask in puzzle.masks.values()]
    else:
        counts = [puzzle.size] * len(puzzle.cells)
    return sum(counts), sum(2 * k * (k - 1) + 4 for k in counts) + rule_clauses(puzzle)


def rule_clauses(puzzle: Puzzle) -> int:
    """About how many clauses a variant's rules write (held in memory whole, even
    where the rows', columns' and regions' are streamed)."""
    constraints = puzzle.constraints
    return sum(rule.clause_estimate(puzzle.size) for rule in constraints)


def available_memory() -> int:
    """Bytes of memory this process could still take (Linux: MemAvailable)."""
    return _meminfo("MemAvailable:", "SC_AVPHYS_PAGES")


def total_memory() -> int:
    """Bytes of memory this machine has (Linux: MemTotal)."""
    return _meminfo("MemTotal:", "SC_PHYS_PAGES")


def _meminfo(key: str, pages: str) -> int:
    """A line of /proc/meminfo in bytes; else ``sysconf``'s pages of that kind."""
    try:
        with open("/proc/meminfo", encoding="ascii") as meminfo:
            for line in meminfo:
                if line.startswith(key):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return os.sysconf(pages) * os.sysconf("SC_PAGE_SIZE")


def human(count: float) -> str:
    for unit in ("B", "KB", "MB", "GB", "TB"):
        if count < 1024 or unit == "TB":
            return f"{count:.0f} {unit}" if unit == "B" else f"{count:.1f} {unit}"
        count /= 1024
    raise AssertionError


def _refuse(puzzle: Puzzle, what: str, needed: int, have: int, where: str) -> TooBig:
    n = puzzle.size
    return TooBig(
        puzzle.source,
        puzzle.line,
        1,
        f"a {n}x{n} grid {what} needs about {human(needed)}; {where} {human(have)}",
    )


def check_solvable(puzzle: Puzzle, reduced: bool, copies: int = 1, why: str = "") -> None:
    """Raises TooBig when solving ``puzzle`` would not fit in memory; ``copies``:
    how many solvers hold its CNF at once, ``why`` what for (rating, explaining)."""
    candidates, clauses = size(puzzle, reduced)
    needed = copies * (candidates * BYTES_PER_CANDIDATE + clauses * BYTES_PER_CLAUSE)
    have = int(available_memory() * MEMORY_MARGIN)
    if needed > have:
        what = f"with {candidates:,} open candidates and about {clauses:,} clauses"
        raise _refuse(puzzle, what + why, needed, have, SPARE)


def check_writable(puzzle: Puzzle, reduced: bool, out: str) -> None:
    """Raises TooBig when ``puzzle``'s CNF cannot be held or written to ``out``."""
    candidates, clauses = size(puzzle, reduced)
    needed = candidates * BYTES_PER_CANDIDATE + rule_clauses(puzzle) * BYTES_PER_CLAUSE
    have = int(available_memory() * MEMORY_MARGIN)
    what = f"CNF with {candidates:,} candidates and {clauses:,} clauses"
    if needed > have:
        raise _refuse(puzzle, what, needed, have, SPARE)
    if out != "-":
        directory = os.path.dirname(os.path.abspath(out))
        free = shutil.disk_usage(directory).free if os.path.isdir(directory) else None
        written = clauses * BYTES_PER_CLAUSE_WRITTEN
        if free is not None and written > free:
            raise _refuse(puzzle, what + " as a file", written, free, f"{directory} has")
