"""A rule step's cause, named: the placed digits that remove its candidates
through one rule alone (a pair rule's ``r5c3=1 rules out 1 in r4c4, r6c4``:
anti-king, anti-knight, the negative constraints; see :meth:`Rule.sees`), then
the cells whose every candidate removes the same ones (``r4c5 {46} rules out
5 in r3c5``: whichever it holds)."""

from __future__ import annotations

from collections.abc import Sequence

from sudosat.core.masks import bit, values
from sudosat.core.puzzle import Constraint
from sudosat.logic.board import Board, Candidate


def causes(
    board: Board, rule: Constraint, removed: Sequence[Candidate], most: int | None = None
) -> tuple[str, tuple[int, ...], tuple[Candidate, ...]]:
    """The placed digits that remove ``removed`` through ``rule`` alone, then the
    cells whose every candidate removes the same, each with what it rules out,
    their cells, and the removals they account for: those they reach (with
    ``most``: those of the first causes that stay within ``most``), the rest
    left to a next step; nothing when they reach none."""
    left = set(removed)
    layout = board.puzzle.layout
    said: list[str] = []
    cells: list[int] = []
    covered: list[Candidate] = []
    placed = [c for c, v in enumerate(board.placed) if v]
    pencilled = [c for c, v in enumerate(board.placed) if not v]
    for cell in placed + pencilled:
        if not left:
            break
        value = board.placed[cell]
        seen: set[Candidate] = set()
        for i, v in enumerate((value,) if value else values(board.masks[cell])):
            ruled = left.intersection(rule.sees(layout, cell, v))
            seen = ruled if i == 0 else seen & ruled
            if not seen:
                break
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
        mask = board.masks[cell]
        held = f"={board.symbols(bit(value))}" if value else f" {{{board.symbols(mask)}}}"
        said.append(f"{board.name(cell)}{held} rules out {out}")
    if not said:
        return "", (), ()
    return "; ".join(said), tuple(cells), tuple(covered)
