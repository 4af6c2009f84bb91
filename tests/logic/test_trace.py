"""One propagation: a chain written out (``trace.Trace``) walks the rounds of
singles that the forcing chains walk (``forcing.Propagation``, the compiled
engine's reference), so a branch's length, which picks the shortest chain, is
counted in the order its chain is written."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any, TypeVar

import pytest

from sudosat.core.masks import values as bits
from sudosat.logic.board import Board
from sudosat.logic.forcing import Propagation
from sudosat.logic.trace import Trace
from tests.logic.test_bitboard import settled_board

Rounds = list[list[tuple[int, int, int]]]
T = TypeVar("T")


def rounds_of(monkeypatch: pytest.MonkeyPatch, walk: Callable[[], T]) -> tuple[Rounds, T]:
    """Each round of singles ``walk()`` asks the board for, with what it found; and
    what the walk returns."""
    found: Rounds = []
    singles_in = Board.singles_in

    def recorded(board: Board, *args: Any, **kwargs: Any) -> list[tuple[int, int, int]]:
        found.append(singles_in(board, *args, **kwargs))
        return found[-1]

    with monkeypatch.context() as patched:
        patched.setattr(Board, "singles_in", recorded)
        answer = walk()
    return found, answer


CASES = [(2, 0, 0.3), (3, 0, 0.2), (3, 1, 0.45), (3, 2, 0.45), (4, 0, 0.45)]
"""Boards (rank, seed, the share of false candidates taken) with branches that
break and branches that hold."""


@pytest.mark.slow
@pytest.mark.parametrize(("rank", "seed", "removing"), CASES)
def test_a_written_chain_walks_the_forcing_chains_rounds(
    monkeypatch: pytest.MonkeyPatch, rank: int, seed: int, removing: float
) -> None:
    board, _ = settled_board(rank, seed, removing=removing)
    broke = held = 0
    branches = [(c, v) for c in board.open_cells() for v in bits(board.masks[c])]
    for cell, value in branches[:300]:
        run = Propagation.start(board, cell, value, (False, False))
        run.shape = None  # (the Python reference, step for step the engine)
        theirs, kept = rounds_of(monkeypatch, run.settle)
        trace = Trace(board)
        ours, _ = rounds_of(monkeypatch, partial(trace.follow, cell, value))
        assert ours == theirs, (cell, value)
        assert (trace.broken is None) == (kept is not None)
        if kept is None:
            broke += 1
        else:  # the same placements, and the same candidates left
            held += 1
            placed = {(c, v) for c, v in enumerate(run.placed) if v and not board.placed[c]}
            assert {(c, v) for c, v, holds in trace.why if holds} == placed
            assert trace.masks == kept
    assert held and broke
