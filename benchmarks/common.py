"""Helpers shared by the benchmarks: data paths and a timer."""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from pathlib import Path

from sudosat.core.puzzle import Puzzle
from sudosat.reading.inputs import read_file

ROOT = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("SUDOSAT_SHARED", ROOT.parent / "shared")) / "puzzles"


def load(relative: str, take: int, pick: list[int] | None = None) -> list[Puzzle]:
    """The first ``take`` puzzles (or those at the 0-based indices ``pick``) of a file
    in ../shared/puzzles or in puzzles/; none where the file is absent."""
    path = SHARED / relative if (SHARED / relative).exists() else ROOT / "puzzles" / relative
    if not path.exists():
        return []
    found = [p for p in read_file(str(path)) if isinstance(p, Puzzle)]
    return [found[i] for i in pick] if pick else found[:take]


def timed(work: Callable[[], object]) -> float:
    start = time.perf_counter()
    work()
    return time.perf_counter() - start
