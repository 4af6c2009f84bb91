"""Shared paths and small helpers for the tests."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PUZZLES = ROOT / "puzzles"
SHARED = Path(os.environ.get("SUDOSAT_SHARED", ROOT.parent / "shared")) / "puzzles"

REXL_FIRST = "....2..7.....34...358......5.48........1...89..2.....624....7...9...52......671.."
GENERAL = "cadical195"
"""A solver name: the general engine (a CNF on a fresh solver), not the batch engine."""
ESCARGOT = "1....7.9..3..2...8..96..5....53..9...1..8...26....4...3......1..4......7..7...3.."


def shared(relative: str) -> Path:
    """A file of ../shared/puzzles; the test is skipped where shared/ is absent."""
    path = SHARED / relative
    if not path.exists():
        pytest.skip(f"{path} is not here")
    return path
