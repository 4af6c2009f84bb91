"""Chains written out, as solvers write them (a forcing chain's links traced by
:mod:`trace`).

An alternating inference chain is written in Eureka notation, as HoDoKu and
Sudoku Explainer print it: ``(1)r2c3=(1)r5c3-(1)r5c8=(4)r5c8``, ``=`` a strong
link, ``-`` a weak one, then what it removes (``=> r6c3<>1``). A forcing chain's
branch is written fact by fact from its assumption: ``r4c4=3 -> r4c5<>3 ->
r4c5=7 -> ...``, each fact following from the assumption and the facts before
it by one link (a peer or the cell, a naked or hidden single, locked
candidates), the facts no link of the conclusion needs left out.

The search for a step (:mod:`techniques`) runs on masks without tracing; a step
found is traced again (:class:`trace.Trace`), once, to write it out.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import cast

from pysat.solvers import Minicard

from sudosat.core.puzzle import Puzzle, cell_name
from sudosat.logic.board import Board, Candidate, Chain, Fact, Step
from sudosat.logic.trace import RuleParts, Trace


def alternating(path: Sequence[Candidate]) -> Chain:
    """The chain of an AIC's path: its first candidate assumed false, then strong
    and weak links in turn, its last candidate proved true."""
    facts = tuple((c, v, i % 2 == 1) for i, (c, v) in enumerate(path))
    links = tuple("strong" if i % 2 == 0 else "weak" for i in range(len(path) - 1))
    return Chain(facts, links, premises=tuple((i,) for i in range(len(path) - 1)))


def eureka(puzzle: Puzzle, chain: Chain) -> str:
    """An alternating chain in Eureka notation: ``(1)r2c3=(1)r5c3-(1)r5c8``."""
    n = puzzle.size
    said = [f"({puzzle.symbol(v)}){cell_name(n, c)}" for c, v, _ in chain.facts]
    marks = ["=" if link == "strong" else "-" for link in chain.links]
    return "".join(node + mark for node, mark in zip(said, [*marks, ""], strict=True))


def fact_text(puzzle: Puzzle, fact: Fact) -> str:
    cell, value, holds = fact
    return f"{cell_name(puzzle.size, cell)}{'=' if holds else '<>'}{puzzle.symbol(value)}"


SHOWN_ALWAYS = frozenset({"peer", "cell", "assumed"})
"""Links whose removal a reader sees from the placement before it: the short text
leaves those removals out (the detail keeps them)."""


def written(puzzle: Puzzle, chain: Chain, detail: bool = False) -> str:
    """A chain in words: Eureka for an alternating one; a forcing chain's branch
    on one line, from its assumption through each placement (and each removal
    no placement shows: a rule's, locked candidates', an inner chain's) to what
    it proves, or to the contradiction, named. ``detail``: every fact, each
    link's premises where they are more than the fact before it."""
    if set(chain.links) <= {"strong", "weak"}:
        return eureka(puzzle, chain)
    if detail:
        return _in_detail(puzzle, chain)
    last = len(chain.facts) - 1
    words = [fact_text(puzzle, chain.facts[0])]
    shown = [
        (fact, _short(link))
        for index, (fact, link) in enumerate(zip(chain.facts[1:], chain.links, strict=False), 1)
        if fact[2]
        or link not in SHOWN_ALWAYS
        or index in chain.proves
        or (index == last and not chain.broken)
    ]
    for (cell, value, holds), short in shown:  # removals of one value by one link: together
        ending_alike = f"<>{puzzle.symbol(value)} ({short})"
        if not holds and short and words[-1].endswith(ending_alike):
            head, _, tail = words[-1].partition("<>")
            words[-1] = f"{head},{cell_name(puzzle.size, cell)}<>{tail}"
        else:
            said = fact_text(puzzle, (cell, value, holds))
            words.append(f"{said} ({short})" if short else said)
    if len(chain.links) == len(chain.facts):
        words.append(ending(chain))
    return " -> ".join(words)


def ending(chain: Chain) -> str:
    """How a chain that breaks the grid ends, named where it knows how."""
    return f"contradiction: {chain.broken}" if chain.broken else chain.links[-1]


HOUSE_SHORT = (("row ", "r"), ("column ", "c"), ("box ", "b"))
SHORT_LINKS = (
    ("hidden single in ", ""),
    ("locked candidates, ", "locked "),
    ("naked pair, ", "pair "),
    ("hidden pair, ", "hidden pair "),
)


def _short(link: str) -> str:
    """A link as the short line says it: a naked single not at all (a placement
    with no link is its cell's last candidate), a hidden single by its house
    (``c3``: the value's last place in column 3), a classic house as Eureka
    writes it (``r4``, ``c3``, ``b8``)."""
    if link == "naked single":
        return ""
    if link == "contradiction chain inside":
        return "inner chain"
    for long, short in SHORT_LINKS:
        if link.startswith(long):
            link = short + link.removeprefix(long)
            break
    for house, letter in HOUSE_SHORT:
        head, _, number = link.rpartition(house)
        if number.isdigit() and (not head or head.endswith(" ")):
            return f"{head}{letter}{number}"
    return link


def _in_detail(puzzle: Puzzle, chain: Chain) -> str:
    words = [fact_text(puzzle, chain.facts[0])]
    premises = chain.premises or tuple((i,) for i in range(len(chain.links)))
    for index, (link, given) in enumerate(zip(chain.links, premises, strict=False), 1):
        said = link if index < len(chain.facts) else ending(chain)
        if tuple(given) != (index - 1,) and given:
            said += ": " + ", ".join(fact_text(puzzle, chain.facts[i]) for i in given)
        if index < len(chain.facts):
            words.append(f"{fact_text(puzzle, chain.facts[index])} ({said})")
        else:
            words.append(said)
    return " -> ".join(words)


def broken_chain(
    board: Board,
    cell: int,
    value: int,
    locked: bool = False,
    rules: Minicard | None = None,
    parts: RuleParts | None = None,
    pairs: bool = False,
) -> Chain:
    """How ``cell`` holding ``value`` breaks the grid (it must, by singles, and
    ``locked`` candidates, and ``rules``, and ``pairs``)."""
    trace = Trace(board, locked, rules, parts, pairs=pairs)
    trace.follow(cell, value)
    return trace.chain(title=fact_text(board.puzzle, (cell, value, True)))


def branch_chains(
    board: Board,
    options: Sequence[Candidate],
    removed: Candidate | Sequence[Candidate],
    locked: bool = False,
    rules: Minicard | None = None,
    parts: RuleParts | None = None,
) -> tuple[Chain, ...]:
    """How each of ``options`` (one of which holds) removes ``removed`` (a candidate,
    or each of some: every removal the step makes, each branch's one net)."""
    many = [removed] if isinstance(removed[0], int) else removed
    targets = [(c, v, False) for c, v in cast(Sequence[Candidate], many)]
    found = []
    for cell, value in options:
        trace = Trace(board, locked, rules, parts)
        trace.follow(cell, value, until=targets)
        reached = [f for f in targets if f in trace.why]
        found.append(trace.chain(reached, fact_text(board.puzzle, (cell, value, True))))
    return tuple(found)


def chains_of(
    board: Board, step: Step, rules: Minicard | None = None, parts: RuleParts | None = None
) -> tuple[Chain, ...]:
    """The chains ``step`` follows on ``board`` (the board it was found on), written
    out: its alternating chain, or each branch of its forcing chain traced to its
    first removal (a contradiction chain's one branch to the contradiction).
    ``rules``, ``parts``: a variant's (see :class:`Trace`)."""
    if step.chains or not step.branches:
        return step.chains
    if step.inside:
        return nested_chains(board, step.branches[0], step.inside, rules, parts, step.deeper)
    if step.branches == step.eliminations:  # refuted: it breaks the grid
        ((cell, value),) = step.branches
        return (broken_chain(board, cell, value, step.dynamic, rules, parts, step.pairs),)
    return branch_chains(board, step.branches, step.eliminations, step.dynamic, rules, parts)


def nested_chains(
    board: Board,
    assumed: Candidate,
    inside: Sequence[Candidate],
    rules: Minicard | None = None,
    parts: RuleParts | None = None,
    deeper: Sequence[Sequence[Candidate]] = (),
) -> tuple[Chain, ...]:
    """A nested chain written out: the branch of ``assumed`` to its contradiction,
    with each inner assumption's removal a link (``contradiction chain inside``),
    then each inner chain in the branch, titled with both assumptions; at depth
    three (``deeper``: each inner assumption's own), each inner chain's own inner
    chains after it, titled with all three."""
    outer = Trace(board, rules=rules, parts=parts)
    outer.follow(*assumed)
    inner_chains = _refuted_inside(outer, (assumed,), inside, deeper)
    if outer.broken is None:
        return ()
    title = fact_text(board.puzzle, (*assumed, True))
    return (outer.chain(title=title), *inner_chains)


def _refuted_inside(
    trace: Trace,
    assumed: tuple[Candidate, ...],
    inside: Sequence[Candidate],
    deeper: Sequence[Sequence[Candidate]],
) -> list[Chain]:
    """The chains that refute each of ``inside`` in ``trace``'s branch (which
    ``assumed`` made), each then removed there; as many as hold."""
    written: list[Chain] = []
    for i, (cell, value) in enumerate(inside):
        if trace.broken is not None:
            break
        inner = trace.copy()
        inner.follow(cell, value)
        below = _refuted_inside(inner, (*assumed, (cell, value)), deeper[i] if deeper else (), ())
        if inner.broken is None:
            break  # (the solver's singles saw more: left unwritten)
        puzzle = trace.board.puzzle
        title = ", ".join(fact_text(puzzle, (*x, True)) for x in (*assumed, (cell, value)))
        written += [replace(inner.chain(title=title), inside=len(assumed)), *below]
        trace.refuted(inner, cell, value)
    return written
