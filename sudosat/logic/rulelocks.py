"""A rule step over one rule and its houses, said as a setter says it.

Most of what a rule and its houses rule out together follows from two facts,
each checked on its own:

* a house **needs** a digit on the rule: the house's candidates for it all lie
  on the rule's cells (``row 2 needs its 7 on the renban``);
* the rule **holds** a digit in a house: every filling of the rule alone, with
  the digits its houses need, puts it in the rule's cells of that house (or of
  houses that all meet one cell), so it leaves the rest of the house (``the
  renban holds 4 in row 2 or box 2: 4 leaves r2c4``); and what no such filling
  allows leaves the rule's own cells.

:func:`locked_chain` tries these facts, round after round on the candidates
left by the round before, until they account for every removal of the step:
then the step is named ``<rule> in its house`` (or ``in N houses``) and its
reason is the chain of facts; a step they do not account for keeps its generic
name. Each question is a small Minicard of the rule alone (its clauses, its
cells' "exactly one", and an "at least one" for each digit a house needs).

The same facts are links of a chain (:func:`held`): when a rule step is said
as a contradiction for each removal (:class:`chains.Trace`), what a rule alone
holds is asked once singles, locked candidates and unit propagation over the
rules have run out: ``r8c6<>2 (renban r8c9 to r7c4 holds 2)``."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from pysat.solvers import Minicard

from sudosat.core.masks import bit
from sudosat.core.masks import values as bits
from sudosat.core.puzzle import Layout
from sudosat.logic.board import Board, Candidate
from sudosat.logic.spare import without_spare
from sudosat.sat.cnf import literal, ruled_out

ROUNDS = 4
"""Rounds of facts a chain may take before the step is left generic."""


@dataclass(frozen=True)
class Need:
    """A house's every candidate for ``digit`` lies on the rule: ``cells``."""

    unit: int
    digit: int
    cells: tuple[int, ...]


@dataclass(frozen=True)
class RuleView:
    """What a chain needs of one rule: its words, its cells and a solver of it alone."""

    name: str
    cells: tuple[int, ...]
    alone: Callable[[Sequence[Need]], Minicard]
    """A fresh solver of the rule alone with an "at least one" of each need."""


def locked_chain(
    board: Board,
    layout: Layout,
    rules: Sequence[RuleView],
    units: Sequence[int],
    removed: Sequence[Candidate],
) -> str | None:
    """The facts, round by round, that rule out every candidate of ``removed``
    (rules each alone, with the houses ``units``), as words; None when they do not
    account for every removal."""
    masks = list(board.masks)
    todo = set(removed)
    said: list[str] = []
    for _ in range(ROUNDS):
        found: set[Candidate] = set()
        for rule in rules:
            words, gone = _round(board, layout, rule, units, masks, todo - found)
            said += words
            found |= gone
        if not found:
            return None
        for cell, digit in found:
            masks[cell] &= ~bit(digit)
        todo -= found
        if not todo:
            return "; ".join(said)
    return None


def _round(
    board: Board,
    layout: Layout,
    rule: RuleView,
    units: Sequence[int],
    masks: list[int],
    todo: set[Candidate],
) -> tuple[list[str], set[Candidate]]:
    """What one rule alone rules out of ``todo`` with the needs of ``units`` now,
    and the words for it (the needs said only when they are used)."""
    on = set(rule.cells)
    needs = [
        Need(u, d, tuple(cells))
        for u in units
        for d in range(1, board.size + 1)
        if (cells := [c for c in layout.units[u] if masks[c] & bit(d)])
        and set(cells) <= on
        and not (len(cells) == 1 and masks[cells[0]] == bit(d))
    ]
    plain = _ruled_out(board, layout, rule, (), units, masks, todo)
    if len(plain) < len(todo) and needs:
        more = _ruled_out(board, layout, rule, needs, units, masks, todo)
        if len(more) > len(plain):
            needs = _fewest(board, layout, rule, needs, units, masks, set(more))
            said = [_need_words(board, layout, rule, need) for need in needs]
            return [*said, _holds_words(board, rule, more)], set(more)
    if plain:
        return [_holds_words(board, rule, plain)], set(plain)
    return [], set()


def _fewest(
    board: Board,
    layout: Layout,
    rule: RuleView,
    needs: list[Need],
    units: Sequence[int],
    masks: list[int],
    wanted: set[Candidate],
) -> list[Need]:
    """``needs`` with each dropped that ``wanted`` still follows without."""

    def holds(trial: list[Need]) -> bool:  # (more needs rule out more: monotone)
        return len(_ruled_out(board, layout, rule, trial, units, masks, wanted)) == len(wanted)

    return without_spare(needs, holds)


def _ruled_out(
    board: Board,
    layout: Layout,
    rule: RuleView,
    needs: Sequence[Need],
    units: Sequence[int],
    masks: list[int],
    todo: set[Candidate],
) -> dict[Candidate, str]:
    """The candidates of ``todo`` the rule alone with ``needs`` rules out, each with
    why: ``""`` for one of its own cells, or the house it holds the digit in."""
    n = board.size
    solver = rule.alone(needs)
    try:
        assumptions = ruled_out(n, [masks[c] for c in rule.cells], rule.cells)
        found: dict[Candidate, str] = {}
        for cell, digit in sorted(todo):
            if cell in rule.cells:
                if not solver.solve(assumptions=[*assumptions, literal(n, cell, digit)]):
                    found[cell, digit] = ""
                continue
            seen = [u for u in units if cell in layout.units[u]]
            inside = [
                c
                for c in rule.cells
                if masks[c] & bit(digit) and any(c in layout.units[u] for u in seen)
            ]
            away = [-literal(n, c, digit) for c in inside]
            if seen and not solver.solve(assumptions=[*assumptions, *away]):
                used = [u for u in seen if any(c in layout.units[u] for c in inside)]
                found[cell, digit] = " or ".join(layout.unit_name(u) for u in used)
        return found
    finally:
        solver.delete()


def _need_words(board: Board, layout: Layout, rule: RuleView, need: Need) -> str:
    return (
        f"{layout.unit_name(need.unit)} needs its {board.symbol(need.digit)} on "
        f"{rule.name} ({board.names(need.cells)})"
    )


def _holds_words(board: Board, rule: RuleView, found: dict[Candidate, str]) -> str:
    """``the renban line holds 4, 5 in row 2 or box 2: they leave r2c4, r2c5``, then
    ``the renban line cannot put 9 in r3c2``."""
    where: dict[tuple[str, int], int] = {}
    own: dict[int, int] = {}
    for (cell, digit), house in found.items():
        if house:
            where[house, cell] = where.get((house, cell), 0) | bit(digit)
        else:
            own[cell] = own.get(cell, 0) | bit(digit)
    grouped: dict[tuple[str, int], list[int]] = {}
    for (house, cell), mask in sorted(where.items(), key=lambda item: item[0][1]):
        grouped.setdefault((house, mask), []).append(cell)
    parts = []
    for (house, mask), cells in grouped.items():
        digits = board.symbols(mask)
        they = "they leave" if mask & (mask - 1) else f"{digits} leaves"
        parts.append(f"{rule.name} holds {digits} in {house}: {they} {board.names(cells)}")
    kept: dict[int, list[int]] = {}
    for cell, mask in sorted(own.items()):
        kept.setdefault(mask, []).append(cell)
    for mask, cells in kept.items():
        parts.append(f"{rule.name} cannot put {board.symbols(mask)} in {board.names(cells)}")
    return "; ".join(parts)


@dataclass(frozen=True)
class Holding:
    """One rule as a chain's links see it: its words, its cells, and a solver of it
    alone (its clauses and its cells' "exactly one"; kept, asked with assumptions)."""

    name: str
    cells: tuple[int, ...]
    solver: Minicard
    memo: dict[tuple[int, ...], Alone | None] = field(default_factory=dict, compare=False)
    """What it says alone, by its cells' candidates (None: it has no filling)."""


@dataclass(frozen=True)
class Alone:
    """What a rule alone says of its cells' candidates: the values no filling puts
    in a cell of its own, and each digit every filling holds, with its places."""

    cannot: tuple[Candidate, ...]
    holds: tuple[tuple[int, tuple[int, ...]], ...]


Said = tuple[Candidate, str, tuple[int, ...]]
"""A removal a rule alone makes: the candidate, the link, the rule's cells."""

HOLDS = " holds "
"""A chain's link through what a rule alone must hold: ``renban r7c4 to r8c9 holds 2``."""
CANNOT = " cannot hold "
"""A chain's link through what a rule alone cannot put in a cell of its own."""
UNFILLED = " has no filling"
"""A chain's end where a rule alone has no filling left."""
MEMO = 4096
"""What a rule alone says is kept for this many states of its cells at most."""


def held(
    board: Board, rules: Sequence[Holding], masks: Sequence[int]
) -> tuple[list[Said], tuple[str, tuple[int, ...]] | None]:
    """What the rules alone say of ``masks`` past unit propagation: the candidates
    they remove, each with its link and the rule's cells (whose candidates it
    follows from): a digit each filling of a rule holds leaves a cell that sees
    every place of it on the rule (``<rule> holds 2``); a value no filling puts in
    one of its cells leaves it (``<rule> cannot hold 9``). Or the rule that has no
    filling left. The first rule that says something is the one said."""
    for rule in rules:
        own = tuple(masks[c] for c in rule.cells)
        if own in rule.memo:
            alone = rule.memo[own]
        else:
            if len(rule.memo) >= MEMO:
                rule.memo.clear()
            alone = rule.memo[own] = _alone(board.size, rule, own)
        if alone is None:
            return [], (rule.name + UNFILLED, rule.cells)
        found: list[Said] = [
            ((cell, digit), f"{rule.name}{CANNOT}{board.symbol(digit)}", rule.cells)
            for cell, digit in alone.cannot
        ]
        for digit, places in alone.holds:
            common = frozenset.intersection(*(board.peers[p] for p in places))
            seeing = sorted(c for c in common if masks[c] & bit(digit) and c not in rule.cells)
            link = f"{rule.name}{HOLDS}{board.symbol(digit)}"
            found += [((c, digit), link, rule.cells) for c in seeing]
        if found:
            return found, None
    return [], None


def _alone(n: int, rule: Holding, own: Sequence[int]) -> Alone | None:
    """What ``rule`` alone says of its cells' candidates ``own`` (None: no filling)."""
    solver = rule.solver
    assumptions = ruled_out(n, own, rule.cells)
    if not solver.solve(assumptions=assumptions):
        return None
    shown = _shown(n, solver, rule.cells)
    cannot = []
    for cell, mask in zip(rule.cells, own, strict=True):
        for digit in bits(mask & ~shown[cell]):
            if solver.solve(assumptions=[*assumptions, literal(n, cell, digit)]):
                for c, v in _shown(n, solver, rule.cells).items():
                    shown[c] |= v
            else:
                cannot.append((cell, digit))
    holds = []
    for digit in range(1, n + 1):
        places = tuple(c for c, m in zip(rule.cells, own, strict=True) if m & bit(digit))
        away = [-literal(n, c, digit) for c in places]
        if places and not solver.solve(assumptions=[*assumptions, *away]):
            holds.append((digit, places))
    return Alone(tuple(cannot), tuple(holds))


def _shown(n: int, solver: Minicard, cells: Sequence[int]) -> dict[int, int]:
    """The value the solver's last model puts in each of ``cells``, as a mask."""
    model = solver.get_model() or []
    return {
        c: sum(bit(v) for v in range(1, n + 1) if model[literal(n, c, v) - 1] > 0) for c in cells
    }
