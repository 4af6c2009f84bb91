"""A rule step's cause, named: the placed digits that remove its candidates
through one rule alone (a pair rule's ``r5c3=1 rules out 1 in r4c4, r6c4``:
anti-king, anti-knight, the negative constraints; see :meth:`Rule.sees`)."""

from __future__ import annotations

from collections.abc import Sequence

from sudosat.core.masks import bit
from sudosat.core.puzzle import Constraint
from sudosat.making.board import Board, Candidate


def causes(
    board: Board, rule: Constraint, removed: Sequence[Candidate], most: int | None = None
) -> tuple[str, tuple[int, ...], tuple[Candidate, ...]]:
    """The placed digits that remove ``removed`` through ``rule`` alone, each with
    what it rules out, their cells, and the removals they account for: every one,
    or (with ``most``) those of the first causes that stay within ``most``, the
    rest left to a next step; nothing when the causes do not account for them."""
    left = set(removed)
    said: list[str] = []
    cells: list[int] = []
    covered: list[Candidate] = []
    for cell, value in enumerate(board.placed):
        if not value or not left:
            continue
        seen = left.intersection(rule.sees(board.puzzle.layout, cell, value))
        if not seen:
            continue
        if most is not None and covered and len(covered) + len(seen) > most:
            left.clear()  # enough for one step: the next step takes the rest
            break
        left -= seen
        cells.append(cell)
        covered += sorted(seen)
        out = "; ".join(
            f"{board.symbols(bit(v))} in {board.names(sorted(c for c, w in seen if w == v))}"
            for v in sorted({v for _, v in seen})
        )
        said.append(f"{board.name(cell)}={board.symbols(bit(value))} rules out {out}")
    if not said or left:
        return "", (), ()
    return "; ".join(said), tuple(cells), tuple(covered)
