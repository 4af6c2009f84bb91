"""The compiled engines (``_engine.c``, ``_explainer.c``) given hostile inputs: every
entry point, with values past the board, lengths that do not fit, offsets that go
back, forged prepared boards, negative counts and starts. Each call raises an
exception (ValueError, TypeError, OverflowError) or answers; none crashes the
interpreter, and out of memory is a MemoryError, never a wrong answer. The calls
run in a child Python with faulthandler on, so a crash fails the test with the
stack where it happened."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from sudosat.logic.bitboard import ENGINE
from sudosat.logic.explainer import SEARCH
from tests.conftest import ESCARGOT, PATIENCE

pytestmark = pytest.mark.skipif(
    ENGINE is None or SEARCH is None, reason="the compiled engines are not built here"
)

HOSTILE = r"""
import array, json, math, struct, sys
from sudosat import parse
from sudosat.logic import _engine as E, _explainer as X
from sudosat.logic.board import board_of
from sudosat.logic.bitboard import geometry, meetings, masks_of

ESCARGOT = sys.argv[1]
board = board_of(parse(ESCARGOT))
geo, meet, masks = geometry(board), meetings(board), masks_of(board)
placed = list(board.placed)
marks = list(board.masks)
words = list(array.array("i", geo))
mwords = list(array.array("i", meet))
prepared = E.prepare(geo, masks)

def packed(changed):
    return array.array("i", changed).tobytes()

def geo_with(index, value):
    changed = list(words)
    changed[index] = value
    return packed(changed)

def meet_with(index, value):
    changed = list(mwords)
    changed[index] = value
    return packed(changed)

n, cells, nh, K, P = words[:5]
houses_at, cell_houses_at = 5, 5 + nh * n
peers_at = cell_houses_at + cells * K
bad_geometries = [
    b"", geo[:-4], geo + b"\x00", geo_with(0, 0), geo_with(0, 65), geo_with(1, -1),
    geo_with(3, -3), geo_with(4, -20), geo_with(houses_at, cells), geo_with(houses_at, -2),
    geo_with(cell_houses_at, nh), geo_with(cell_houses_at, -7), geo_with(peers_at, 99999),
    geo_with(peers_at + 3, -2),
]
count, hs = mwords[0], mwords[1]
data_at = 2 + count + 1 + hs + 1
bad_meetings = [
    b"", meet[:-4], meet_with(0, -1), meet_with(0, 10**8), meet_with(1, nh + 1),
    meet_with(3, 0), meet_with(2, 5), meet_with(data_at, 1000), meet_with(data_at + 1, cells),
    meet_with(len(mwords) - 1, count), meet_with(len(mwords) - 1, -1),
]
wide = struct.pack(f"{cells}Q", *([1 << 63] + [0x1ff] * (cells - 1)))
forged = bytearray(prepared)
forged[8 + cells * 8] = 200  # a placement past the board's values
forged_held = bytearray(prepared)
forged_held[8 + cells * 9: 8 + cells * 9 + 8] = struct.pack("Q", 1 << 40)
bad_masks = [b"", masks[:-8], wide, bytes(forged), bytes(forged_held)]
bad_literals = [[0], [-(2**63)], [2**63], [cells * n + 1], [-cells * n - 1], ["1"], [1.5], [2**40]]
bad_placed = [placed[:-1], [10] + placed[1:], [-1] + placed[1:], [300] + placed[1:]]
bad_marks = [marks[:-1], [-1] + marks[1:], [1 << 70] + marks[1:], [1 << 40] + marks[1:]]

calls = []
def call(name, *args):
    calls.append((name, args))

for g in bad_geometries:
    call("prepare", g, masks)
    call("propagate", g, masks, [1])
    call("breaks", g, masks, [1])
    call("first_break", g, masks, [], [1, 2], 0)
    call("shortest_broken", g, masks, [1], [2], 1, lambda: False)
    call("first_forcing", g, masks, [1, 2], [0, 2])
    call("fewest_breaking", g, masks, bytes(placed), [1, 2])
    call("path_singles", g, marks, placed, 0, 9)
    call("als", g, marks, placed, 0)
    call("finds", g, meet, marks, placed, 0, 0)
    call("settle", g, meet, list(marks), list(placed), [], set(), None, None, True, True, None)
    call("search", g, masks, [1], 2, 1000)
for m in bad_meetings:
    call("finds", geo, m, marks, placed, 0, 0)
    call("settle", geo, m, list(marks), list(placed), [], set(), None, None, True, True, None)
for m in bad_masks:
    call("prepare", geo, m)
    call("propagate", geo, m, [1])
    call("breaks", geo, m, [1])
    call("first_break", geo, m, [], [1], 0)
    call("shortest_broken", geo, m, [1], [2], 1, lambda: False)
    call("first_forcing", geo, m, [1], [0, 1])
    call("fewest_breaking", geo, m, bytes(placed), [1])
    call("search", geo, m, [], 2, 1000)
for lits in bad_literals:
    call("search", geo, masks, lits, 2, 1000)
    call("propagate", geo, prepared, lits)
    call("breaks", geo, prepared, lits)
    call("first_break", geo, prepared, lits, lits, 0)
    call("first_break", geo, prepared, [], lits, 0)
    call("shortest_broken", geo, prepared, lits, lits, 1, lambda: False)
    call("first_forcing", geo, masks, lits, [0, len(lits)])
    call("fewest_breaking", geo, masks, bytes(placed), lits)
call("search", geo, masks, [-1], 2, 1000)
for limit, budget in ((0, 10), (-5, 10), (2, -1), (2**62, 2**62 + 1)):
    call("search", geo, masks, [], limit, budget)
call("first_break", geo, prepared, [], [1, 2], -1)
call("first_break", geo, prepared, [], [1, 2], -(2**62))
call("first_forcing", geo, masks, [1, 2], [0, 5])
call("first_forcing", geo, masks, [1, 2], [2, 0])
call("first_forcing", geo, masks, [1, 2], [-1, 1])
call("fewest_breaking", geo, masks, bytes([200] + placed[1:]), [1])
call("fewest_breaking", geo, masks, bytes(placed[:-1]), [1])
for p in bad_placed:
    call("path_singles", geo, list(marks), p, 0, 9)
    call("als", geo, list(marks), p, 0)
    call("finds", geo, meet, list(marks), p, 1, 2)
    call("settle", geo, meet, list(marks), list(p), [], set(), None, None, True, True, None)
for m in bad_marks:
    call("path_singles", geo, list(m), list(placed), 0, 9)
    call("als", geo, list(m), list(placed), 1)
    call("finds", geo, meet, list(m), list(placed), 3, 2)
    call("settle", geo, meet, list(m), list(placed), [], set(), None, None, True, True, None)
for todo in ([(cells, 1)], [(0, 0)], [(0, n + 1)], [(-1, 1)], [("a", 1)], [(0,)]):
    call("settle", geo, meet, list(marks), list(placed), todo, set(), None, None, True, True, None)
for houses in ({nh}, {-1}, {2**70}):
    call("settle", geo, meet, list(marks), list(placed), [], houses, None, None, True, True, None)
    call("settle", geo, meet, list(marks), list(placed), [], set(), houses, None, True, True, None)
short = [1] * (cells - 1)
call("settle", geo, meet, list(marks), list(placed), [], set(), None, None, True, True, short)
for kind, size in ((-1, 0), (10, 0), (1, 0), (1, 99), (7, 9), (2**31 - 1, 2)):
    call("finds", geo, meet, list(marks), list(placed), kind, size)

cells9 = bytes(parse(ESCARGOT).cells)
givens = [b"", cells9[:-1], bytes([33]) + cells9[1:], bytes([255]) + cells9[1:], "x" * 81]
for g in givens:
    call("X.rate", g)
for args in ((5, 5, None, -1.0), (-1,), (0, 9), (0, -1), (0, 5, bytes(81)),
             (0, 5, bytes([10]) * 81), (0, 5, None, float("nan")), (0, 5, b"\x01" * 80)):
    call("X.rate", cells9, *args)

seen = {}
for name, args in calls:
    function = getattr(X, name[2:]) if name.startswith("X.") else getattr(E, name)
    try:
        function(*args)
        outcome = "answered"
    except (ValueError, TypeError, OverflowError, MemoryError, IndexError) as err:
        outcome = type(err).__name__
    seen[outcome] = seen.get(outcome, 0) + 1
print(json.dumps({"calls": len(calls), "seen": seen}))
"""


def test_every_entry_point_refuses_hostile_input_and_never_crashes() -> None:
    done = subprocess.run(
        [sys.executable, "-X", "faulthandler", "-c", HOSTILE, ESCARGOT],
        capture_output=True,
        text=True,
        timeout=PATIENCE,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    found = json.loads(done.stdout)
    assert found["calls"] > 250
    refused = sum(n for outcome, n in found["seen"].items() if outcome != "answered")
    assert refused >= 0.9 * found["calls"], found  # nearly all are refused outright
