"""A rule step's cause, named: the placed digits that remove its candidates
through one rule alone (a pair rule's ``r5c3=1 rules out 1 in r4c4, r6c4``:
anti-king, anti-knight, the negative constraints; see :meth:`Rule.sees`)."""

from __future__ import annotations

from collections.abc import Sequence

from sudosat.core.masks import bit
from sudosat.core.puzzle import Constraint
from sudosat.making.board import Board, Candidate


def causes(
    board: Board, rule: Constraint, removed: Sequence[Candidate]
) -> tuple[str, tuple[int, ...]]:
    """The placed digits that remove ``removed`` through ``rule`` alone, each with
    what it rules out, and their cells; nothing unless they account for every
    removal."""
    left = set(removed)
    said: list[str] = []
    cells: list[int] = []
    for cell, value in enumerate(board.placed):
        if not value or not left:
            continue
        seen = left.intersection(rule.sees(board.puzzle.layout, cell, value))
        if not seen:
            continue
        left -= seen
        cells.append(cell)
        out = "; ".join(
            f"{board.symbols(bit(v))} in {board.names(sorted(c for c, w in seen if w == v))}"
            for v in sorted({v for _, v in seen})
        )
        said.append(f"{board.name(cell)}={board.symbols(bit(value))} rules out {out}")
    return ("; ".join(said), tuple(cells)) if said and not left else ("", ())
