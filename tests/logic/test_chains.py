"""Chains written out (sudosat.logic.chains): every link of every chain a path
prints holds on the candidates of the board it was found on."""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from collections.abc import Sequence
from itertools import islice, pairwise, product

import pytest
from pysat.solvers import Minicard

from sudosat import parse
from sudosat.core.masks import bit
from sudosat.core.masks import values as bits
from sudosat.core.puzzle import Layout, Puzzle
from sudosat.logic.board import Board, Chain, Fact, Step
from sudosat.logic.chains import branch_chains, chains_of, eureka, fact_text, written
from sudosat.logic.forcing import (
    DYNAMIC_PLUS,
    PLUS_NAME,
    Propagation,
    Settled,
    closure,
    forcing,
    plus_forcing,
)
from sudosat.logic.nested import classic_solver, nested
from sudosat.logic.path import FORCING_KINDS, Pathfinder, logical_path, truth_of
from sudosat.logic.rulelocks import CANNOT, HOLDS, UNFILLED
from sudosat.logic.rulesteps import RuleSteps
from sudosat.logic.solve_path import technique_of
from sudosat.logic.techniques import CLASSIC
from sudosat.logic.trace import Trace
from sudosat.making.shapes import random_grid
from sudosat.reading.inputs import read_puzzles
from sudosat.sat.cnf import literal
from sudosat.showing.pictures import picture
from tests.conftest import PUZZLES, Run, shared


def strong(board: Board, a: Fact, b: Fact) -> bool:
    """One of the two is true: the only two values of a cell, or the only two
    places of a value in a house."""
    (ca, va, _), (cb, vb, _) = a, b
    if ca == cb:
        return va != vb and board.masks[ca] == bit(va) | bit(vb)
    return va == vb and any(
        sorted(c for c in house if not board.placed[c] and board.masks[c] & bit(va))
        == sorted((ca, cb))
        for house in board.houses
    )


def weak(board: Board, a: Fact, b: Fact) -> bool:
    """Not both: two values of a cell, or one value in two cells that see each other."""
    (ca, va, _), (cb, vb, _) = a, b
    return (ca == cb and va != vb) or (va == vb and cb in board.peers[ca])


def check_alternating(board: Board, chain: Chain, step: Step) -> None:
    facts = chain.facts
    loop = facts[0][:2] == facts[-1][:2]
    assert not facts[0][2] and len(chain.links) == len(facts) - 1
    assert facts[-1][2] or loop, "an open chain ends on a candidate proved true"
    candidates = {(c, v) for c, v, _ in facts[: -1 if loop else None]}
    assert len(candidates) == len(facts) - loop, "a candidate passed twice"
    for (a, b), link in zip(pairwise(facts), chain.links, strict=True):
        assert (strong if link == "strong" else weak)(board, a, b), (a, b, link)
    if loop and chain.links[-1] == "strong":  # discontinuous: the start, false, is true
        assert step.placements == (facts[0][:2],) and not step.eliminations
        return
    # "either end is true" (a continuous loop: either end of each weak link): each
    # removal is one of the two's cell's others, or the same value seeing both
    linked = zip(pairwise(facts), chain.links, strict=True)
    ends = [(a[:2], b[:2]) for (a, b), k in linked if k == "weak"]
    pairs = ends if loop else [(facts[0][:2], facts[-1][:2])]
    for cell, value in step.eliminations:
        assert any(
            all(
                (cell == c and value != v) or (value == v and cell in board.peers[c])
                for c, v in pair
            )
            for pair in pairs
        ), (cell, value)


def by_rules(board: Board, masks: list[int], known: set[Fact], rules: Minicard) -> set[int] | None:
    """What unit propagation over a variant's rules implies from the candidates
    (``masks``) and the placements known (None: a conflict)."""
    n = board.size
    assumed = [-literal(n, c, v) for c, m in enumerate(masks) for v in bits(board.full & ~m)]
    assumed += [literal(n, c, v) for c, v, holds in known if holds]
    ok, implied = rules.propagate(assumptions=assumed)
    return set(implied or ()) if ok else None


def by_part(
    board: Board, masks: list[int], known: set[Fact], parts: RuleSteps, name: str
) -> set[int] | None:
    """What unit propagation over the one small part of the rules named ``name``
    (a rule, or a rule with one house) implies (None: a conflict)."""
    (scope,) = [scope for scope, said in parts.small_scopes() if said == name]
    n = board.size
    assumed = [-literal(n, c, v) for c, m in enumerate(masks) for v in bits(board.full & ~m)]
    assumed += [literal(n, c, v) for c, v, holds in known if holds]
    known = parts.variables(scope)
    ok, implied = parts.propagate_in(scope, [x for x in assumed if abs(x) in known])
    return set(implied) if ok else None


def follows(
    board: Board,
    masks: list[int],
    known: set[Fact],
    fact: Fact,
    link: str,
    rules: Minicard | None = None,
    parts: RuleSteps | None = None,
) -> bool:
    """Whether ``fact`` follows by ``link`` from the facts known (``masks``: the
    board's candidates with them made); a link named by a part of the rules
    follows by that part alone."""
    cell, value, true = fact
    placed = {(c, v) for c, v, holds in known if holds}
    lit = literal(board.size, cell, value)
    if link == "the rules":
        assert rules is not None
        implied = by_rules(board, masks, known, rules)
        return implied is not None and (lit if true else -lit) in implied
    if parts is not None and link in {name for _, name in parts.small_scopes()}:
        implied = by_part(board, masks, known, parts, link)
        return implied is not None and (lit if true else -lit) in implied
    if parts is not None and (HOLDS in link or CANNOT in link):
        return held_alone(board, masks, parts, link, fact)
    if link.startswith(("naked pair, ", "hidden pair, ")):
        return not true and pair_makes(board, masks, link, cell, value)
    if link == "cell":
        return any(c == cell and v != value for c, v in placed)
    if link == "peer":
        return any(v == value and c in board.peers[cell] for c, v in placed)
    if link == "naked single":
        return masks[cell] == bit(value)
    if link.startswith(("hidden single in ", "locked candidates, ")):
        name = link.split(" in ", 1)[1] if link.startswith("hidden") else link.split(", ", 1)[1]
        house = board.houses[board.house_names.index(name)]
        places = {c for c in house if masks[c] & bit(value)}
        if link.startswith("hidden"):
            return places == {cell}
        return cell not in house and any(
            places <= set(other) and cell in other for other in board.houses
        )
    raise AssertionError(f"unknown link {link!r}")


def pair_makes(board: Board, masks: list[int], link: str, cell: int, value: int) -> bool:
    """Whether the pair a link names removes ``value`` from ``cell``: two other cells
    of the house with the same two values, ``value`` one of them (naked); or two
    other values whose only places in the house are ``cell`` and one more (hidden)."""
    kind, name = link.split(", ", 1)
    house = board.houses[board.house_names.index(name)]
    if cell not in house:
        return False
    if kind == "naked pair":
        twos = [masks[c] for c in house if c != cell and masks[c].bit_count() == 2]
        return any(m & bit(value) and twos.count(m) >= 2 for m in twos)
    places = {
        v: frozenset(c for c in house if masks[c] & bit(v)) for v in bits(board.full) if v != value
    }
    pairs = [p for p in places.values() if len(p) == 2 and cell in p]
    return any(pairs.count(p) >= 2 for p in pairs)


def held_alone(board: Board, masks: list[int], parts: RuleSteps, link: str, fact: Fact) -> bool:
    """Whether the rule a link names, alone with the candidates, makes ``fact``:
    ``<rule> holds d`` (every filling puts d where the fact's cell sees it) or
    ``<rule> cannot hold d`` (no filling puts d in the fact's cell, one of its own);
    a rule with no filling left (``fact`` None) breaks the grid."""
    name = link.split(HOLDS)[0] if HOLDS in link else link.split(CANNOT)[0]
    (rule,) = [r for r in parts.holding() if r.name == name.removesuffix(UNFILLED)]
    n = board.size
    assumed = [-literal(n, c, v) for c in rule.cells for v in bits(board.full & ~masks[c])]
    if UNFILLED in link:
        return not rule.solver.solve(assumptions=assumed)
    cell, value, true = fact
    if true:
        return False
    if CANNOT in link:
        return cell in rule.cells and not rule.solver.solve(
            assumptions=[*assumed, literal(n, cell, value)]
        )
    places = [c for c in rule.cells if masks[c] & bit(value)]
    away = [-literal(n, c, value) for c in places]
    sees = cell not in rule.cells and all(c in board.peers[cell] for c in places)
    return sees and not rule.solver.solve(assumptions=[*assumed, *away])


def broken(board: Board, masks: list[int], known: set[Fact]) -> bool:
    placed = {(c, v) for c, v, holds in known if holds}
    if len({c for c, _ in placed}) < len(placed) or any(not m for m in masks):
        return True
    return any(
        not any(masks[c] & bit(v) for c in house)
        for house in board.houses
        for v in bits(board.full)
    )


def check_forcing(
    board: Board,
    chain: Chain,
    refuted: frozenset[Fact] = frozenset(),
    rules: Minicard | None = None,
    parts: RuleSteps | None = None,
) -> None:
    """Each fact is rebuilt from the premises the chain gives for it alone, by its
    link (``refuted``: the removals a nested chain's inner chains prove, each
    checked on its own; an inner chain assumes its second assumption after the
    first's facts; ``rules``: a variant's, for the links through them); so is the
    contradiction it ends in; and every fact is needed by a later one or the end."""
    first = chain.facts[0]
    assert first[2] and chain.title
    assert len(chain.premises) == len(chain.links)
    for index, fact in enumerate(chain.facts):
        if index:
            assert all(i < index for i in chain.premises[index - 1]), (fact, chain)
        link = chain.links[index - 1] if index else ""
        known, masks = premised(board, chain, index)
        if link == "assumed":  # (an inner chain's own assumption, named in its title)
            assert chain.inside and fact_text(board.puzzle, fact) in chain.title.split(", ")
        elif link == "contradiction chain inside":
            assert fact in refuted, (fact, chain)
        elif index:
            assert follows(board, masks, known, fact, link, rules, parts), (fact, link, chain)
        if fact[2]:
            assert board.masks[fact[0]] & bit(fact[1]) or index == 0
    if len(chain.links) == len(chain.facts):
        check_broken(board, chain, rules, parts)
    assert needed(chain) == set(range(len(chain.facts))), ("a fact nothing needs", chain)


def premised(board: Board, chain: Chain, index: int) -> tuple[set[Fact], list[int]]:
    """The facts a chain gives as the premises of its fact ``index`` (``len(facts)``:
    of its contradiction), and the board's candidates with them made (a placement
    rules out its cell's other values and its value in its peers)."""
    given = chain.premises[index - 1] if index else ()
    known = {chain.facts[i] for i in given}
    masks = list(board.masks)
    for cell, value, holds in sorted(known, key=lambda f: not f[2]):  # (placements first)
        if holds:
            for peer in board.peers[cell]:
                masks[peer] &= ~bit(value)
        masks[cell] = bit(value) if holds else masks[cell] & ~bit(value)
    return known, masks


def check_broken(
    board: Board, chain: Chain, rules: Minicard | None, parts: RuleSteps | None
) -> None:
    """The contradiction a chain ends in follows from its premises alone, and is named."""
    known, masks = premised(board, chain, len(chain.facts))
    last = chain.links[-1]
    assert chain.broken and chain.broken_cells, chain
    if last == "contradiction (the rules)":
        assert rules is not None and by_rules(board, masks, known, rules) is None
    elif last.endswith(UNFILLED + ")"):
        assert parts is not None and held_alone(board, masks, parts, last[15:-1], (0, 0, False))
    elif last.startswith("contradiction ("):
        assert parts is not None and by_part(board, masks, known, parts, last[15:-1]) is None
    else:
        assert last == "contradiction" and broken(board, masks, known), chain


def needed(chain: Chain) -> set[int]:
    """The facts the chain's end (its contradiction, or its last fact) needs."""
    broken = len(chain.links) == len(chain.facts)
    ends = chain.premises[-1] if broken else chain.proves or (len(chain.facts) - 1,)
    found = {0}
    todo = list(ends)
    while todo:
        index = todo.pop()
        if index not in found:
            found.add(index)
            todo.extend(chain.premises[index - 1])
    return found


def check_path(text: str | Puzzle) -> int:
    """Every chain of the puzzle's path, checked on the board before its step;
    how many were checked."""
    puzzle = parse(text) if isinstance(text, str) else text
    with Pathfinder(puzzle) as finder:
        path = finder.path(truth_of(puzzle))
        rules = finder.rule_steps.everything() if finder.rule_steps else None
        checked = 0
        for (step, board), (_, chains) in zip(path.boards(), path.written(), strict=True):
            refuted = refuted_inside(step)
            assert len([c for c in chains if c.inside == 1]) == len(step.inside)
            assert len([c for c in chains if c.inside == 2]) == sum(map(len, step.deeper))
            for chain in chains:
                if set(chain.links) <= {"strong", "weak"}:
                    check_alternating(board, chain, step)
                else:
                    check_forcing(board, chain, refuted, rules, finder.rule_steps)
                    if not chain.links[-1].startswith("contradiction"):  # to every removal
                        proved = {chain.facts[i] for i in chain.proves}
                        assert proved == {(c, v, False) for c, v in step.eliminations}
                checked += 1
    return checked


def refuted_inside(step: Step) -> frozenset[Fact]:
    """The removals a nested step's chains inside prove (at depth three, theirs too)."""
    deeper = [x for inner in step.deeper for x in inner]
    return frozenset((c, v, False) for c, v in (*step.inside, *deeper))


@pytest.mark.slow
def test_ai_escargot_s_chains_hold_link_by_link() -> None:
    assert check_path((PUZZLES / "ai-escargot.txt").read_text()) >= 20


@pytest.mark.slow
def test_hard_puzzles_chains_hold_link_by_link() -> None:
    read = islice(read_puzzles(str(PUZZLES / "tdoku-magictour-25.txt")), 8)
    found = [p for p in read if isinstance(p, Puzzle)]
    assert sum(check_path("".join(str(v or ".") for v in p.cells)) for p in found) > 0


@pytest.mark.slow
def test_an_aic_is_written_in_eureka_notation() -> None:
    path = logical_path(parse((PUZZLES / "ai-escargot.txt").read_text()))
    aic = next(s for s in path.steps if s.name in ("AIC", "X-chain", "XY-chain"))
    (chain,) = aic.chains
    assert aic.reason.startswith("(") and "=" in aic.reason and "-(" in aic.reason
    assert aic.reason.count("(") == len(chain.facts)


@pytest.mark.slow
def test_steps_json_carries_each_chain_as_data(run: Run) -> None:
    code, out, err = run("steps", str(PUZZLES / "tdoku-magictour-25.txt"), "-f", "json")
    assert code == 0, err
    found = {"steps": [s for record in json.loads(out) for s in record["steps"]]}
    chains = [c for step in found["steps"] for c in step.get("chains", [])]
    assert chains
    for chain in chains:
        assert len(chain["links"]) in (len(chain["facts"]) - 1, len(chain["facts"]))
        assert {"cell", "value", "holds"} == set(chain["facts"][0]) and chain["text"]
    kinds = ("cell forcing chains", "house forcing chains")  # (nested chains: not yet)
    branches = [s for s in found["steps"] if s["technique"].endswith(kinds)]
    assert branches
    assert all(len(s["chains"]) >= 2 and all(c["title"] for c in s["chains"]) for s in branches)


def grids_of(board: Board) -> list[tuple[int, ...]]:
    """Every filling of the board's houses that keeps each cell to its candidates."""
    n = board.size
    found: list[tuple[int, ...]] = []
    grid = [0] * (n * n)

    def fill(cell: int) -> None:
        if cell == n * n:
            found.append(tuple(grid))
            return
        for value in bits(board.masks[cell]):
            if all(grid[p] != value for p in board.peers[cell]):
                grid[cell] = value
                fill(cell + 1)
                grid[cell] = 0

    fill(0)
    return found


def holds(grid: tuple[int, ...], fact: Fact) -> bool:
    cell, value, true = fact
    return (grid[cell] == value) == true


def random_board(seed: int, size: int = 4, keep: float = 0.6) -> Board:
    """A random candidate state: a random grid's values, each other value kept
    with chance ``keep`` (three times in five)."""
    rng = random.Random(seed)
    solution = random_grid(Layout.boxes(size), rng)
    with Pathfinder(parse("." * size**2)) as finder:
        board = finder.board()
    for cell in range(size**2):
        kept = bit(solution[cell]) | sum(bit(v) for v in range(1, size + 1) if rng.random() < keep)
        board.masks[cell] &= kept
    board.changed()
    return board


@pytest.mark.slow
def test_a_branch_through_pairs_breaks_as_its_written_chain_does() -> None:
    """The forcing chains (+) find a broken branch by fast propagation and write it
    out by a trace: on random 4x4 and 9x9 candidate states and on the boards where AI
    Escargot's path asks for chains, each candidate's branch through singles,
    locked candidates and pairs (and, as the dynamic forcing chains, without the
    pairs) breaks in one exactly when it breaks in the other (a chain the finder
    found is always written out), pairs met on the way."""
    boards = [random_board(seed) for seed in range(30)]
    boards += [random_board(seed, 9, keep) for seed in range(6) for keep in (0.3, 0.45)]
    path = logical_path(parse((PUZZLES / "ai-escargot.txt").read_text()))
    boards += [b.copy() for s, b in path.boards() if technique_of(s).weight >= 8.5]
    links: Counter[str] = Counter()
    for board in boards:
        for cell in board.open_cells():
            for value, pairs in product(bits(board.masks[cell]), (False, True)):
                run = Propagation(board)
                run.todo.append((cell, value))
                trace = Trace(board, locked=True, pairs=pairs)
                trace.follow(cell, value)
                assert (run.settle(True, pairs) is None) == (trace.broken is not None)
                links.update(link.split(",")[0] for link, _ in trace.why.values())
    assert links["naked pair"] and links["hidden pair"], links


@pytest.mark.slow
def test_the_chains_plus_going_on_from_the_dynamic_ones_find_what_they_find_alone() -> None:
    """On the boards where AI Escargot's path asks for the forcing chains (+), the
    finder going on from the branches the dynamic forcing chains kept (and looking
    for pairs only where a branch changed the board) takes the same step as one
    that follows every branch from the start; and every branch, through locked
    candidates (and pairs) looked for only in the houses it changed, ends where
    one that looks in every house each round ends."""
    puzzle = parse((PUZZLES / "ai-escargot.txt").read_text())
    truth = truth_of(puzzle)
    path = logical_path(puzzle)
    boards = [b.copy() for s, b in path.boards() if s.name == PLUS_NAME]
    assert boards
    for board in boards:
        settled = Settled()
        assert forcing(True, settled=settled)(board) is None  # (what made it ask)
        assert settled.of(board)
        went_on = plus_forcing(lambda: truth, settled)(board)
        alone = plus_forcing(lambda: truth)(board)
        assert went_on is not None and went_on == alone
        shut = closure(board)
        assert shut == (True, True)
        for cell in board.open_cells():
            for value, pairs in product(bits(board.masks[cell]), (False, True)):
                everywhere = Propagation(board)  # (looks in every house each round)
                everywhere.todo.append((cell, value))
                nearby = Propagation.start(board, cell, value, shut)
                assert everywhere.settle(True, pairs) == nearby.settle(True, pairs)


@pytest.mark.slow
def test_a_branch_carried_from_an_earlier_board_ends_where_one_started_afresh_ends() -> None:
    """The dynamic forcing chains and the chains (+) carry each branch that did not
    break on an earlier board of the path to the next (``Propagation.within``): on
    AI Escargot's path, from each board where they were asked to the next, every
    branch settled there and carried on ends where one followed from the start
    on the later board ends (the same candidates, or broken both); and on each of
    those boards the finders that start afresh take the path's step (or none,
    where it took a later technique)."""
    puzzle = parse((PUZZLES / "ai-escargot.txt").read_text())
    truth = truth_of(puzzle)
    asked = [
        (s, b.copy())
        for s, b in logical_path(puzzle).boards()
        if s.name.startswith(("dynamic", "nested"))
    ]
    assert len(asked) > 10
    carried = 0
    for (_, earlier), (_, board) in pairwise(asked):
        for cell in board.open_cells():
            for value, pairs in product(bits(board.masks[cell]), (False, True)):
                before = Propagation(earlier)
                before.todo.append((cell, value))
                if before.settle(True, pairs) is None:
                    continue
                went_on = before.within(board)
                afresh = Propagation(board)
                afresh.todo.append((cell, value))
                ends = None if went_on is None else went_on.settle(True, pairs)
                assert ends == afresh.settle(True, pairs)
                carried += 1
    assert carried > 1000
    for step, board in asked:
        dynamic = forcing(True)(board)
        plus = plus_forcing(lambda: truth)(board)
        if step.name.startswith("nested"):
            assert dynamic is None and plus is None
        elif step.name == PLUS_NAME:
            assert dynamic is None and plus == step
        else:
            assert dynamic == step


@pytest.mark.slow
def test_each_chain_s_facts_hold_in_every_grid_its_assumption_allows() -> None:
    """On random 4x4 candidate states, every step a chain finder takes, written
    out: an alternating chain's ends are never both false and each removal is in
    no grid; a contradiction chain's assumption is in no grid; and each cell's
    branches traced to a removal they share: every fact of a branch holds in
    every grid where its assumption does. The grids are every filling of the
    candidates, by backtracking."""
    kinds: Counter[str] = Counter()
    for seed in range(60):
        board = random_board(seed)
        grids = grids_of(board)
        for technique, find in [*CLASSIC, (DYNAMIC_PLUS, plus_forcing(lambda: None))]:
            step = find(board) if technique.family in ("chains", "forcing") else None
            if step is None:
                continue
            for cell, value in step.eliminations:
                assert not any(g[cell] == value for g in grids), (step.name, cell, value)
            for cell, value in step.placements:
                assert all(g[cell] == value for g in grids), (step.name, cell, value)
            for chain in chains_of(board, step):
                first, last = chain.facts[0], chain.facts[-1]
                kinds[step.name] += 1
                if set(chain.links) <= {"strong", "weak"}:
                    assert all(holds(g, (*first[:2], True)) or holds(g, last) for g in grids)
                    assert step.reason == eureka(board.puzzle, chain)
                    check_alternating(board, chain, step)
                    continue
                allowed = [g for g in grids if holds(g, first)]
                assert chain.links[-1] != "contradiction" or not allowed, chain
                check_forcing(board, chain)
                for fact in chain.facts:
                    assert all(holds(g, fact) for g in allowed), (fact, chain)
        kinds["branch"] += check_branches(board, grids)
    every = ("AIC", "XY-chain", "continuous loop", "contradiction chain", "branch", PLUS_NAME)
    assert all(kinds[k] for k in every), kinds


def test_a_depth_three_step_removes_what_no_grid_holds_and_its_chains_hold() -> None:
    """On random 4x4 candidate states with one filling, the depth-three finder's
    step removes a value no filling holds, each chain written out holds link by
    link, and the chains inside are as many as the step names (a 4x4 breaks
    by singles: a step there is a contradiction chain)."""
    found = Counter[int]()
    for seed in range(80):
        board = random_board(seed)
        grids = grids_of(board)
        if len(grids) != 1:
            continue
        truth = [bit(v) for v in grids[0]]
        step = nested(classic_solver, lambda truth=truth: truth, depth=3)(board)
        if step is None:
            continue
        for cell, value in step.eliminations:
            assert not any(g[cell] == value for g in grids), (step.reason, cell, value)
        chains = chains_of(board, step)
        assert len([c for c in chains if c.inside == 1]) == len(step.inside)
        assert len([c for c in chains if c.inside == 2]) == sum(map(len, step.deeper))
        for chain in chains:
            check_forcing(board, chain, refuted_inside(step))
            found[chain.inside] += 1
    assert found[0], found


@pytest.mark.slow
def test_depth_three_chains_hold_three_levels_deep_on_ai_escargot() -> None:
    """Asked where AI Escargot's path first needs nested chains, the depth-three
    finder's step removes a value the solution does not hold, its chains inside
    have chains of their own, and every chain written out, three levels deep,
    holds link by link."""
    puzzle = parse((PUZZLES / "ai-escargot.txt").read_text())
    truth = truth_of(puzzle)
    assert truth is not None
    path = logical_path(puzzle)
    board = next(board for step, board in path.boards() if step.inside)
    step = nested(classic_solver, lambda: truth, depth=3)(board)
    assert step is not None and any(step.deeper)
    assert all(not truth[c] & bit(v) for c, v in step.eliminations)
    chains = chains_of(board, step)
    assert len([c for c in chains if c.inside == 1]) == len(step.inside)
    assert len([c for c in chains if c.inside == 2]) == sum(map(len, step.deeper))
    for chain in chains:
        check_forcing(board, chain, refuted_inside(step))


@pytest.mark.slow
def test_a_te3_puzzle_is_solved_by_logic_its_chains_three_deep() -> None:
    """The first puzzle of mith's T&E(3) list (SE's ER 11.7) is solved by logic:
    nested chains of depth three, whose chains inside nested chains hold link by
    link, rated above 11 on SE's scale."""
    lines = shared("se-rated/monhard_te3_dev.tsv").read_text().splitlines()
    puzzle = next(line.split("\t")[0] for line in lines if not line.startswith("#"))
    path = logical_path(parse(puzzle))
    assert path.end == "solved"
    deep = [s for s in path.steps if s.deeper]
    assert deep and any(any(inner) for s in deep for inner in s.deeper)
    explainer = path.explainer()
    assert explainer is not None and explainer[0] >= 11.0
    assert check_path(puzzle) > len(deep)


def check_branches(board: Board, grids: list[tuple[int, ...]]) -> int:
    """Each cell's candidates followed: where every branch removes the same
    candidate, each branch's chain to it holds in every grid its assumption allows."""
    checked = 0
    for cell in board.open_cells():
        options = [(cell, v) for v in bits(board.masks[cell])]
        traces = [Trace(board) for _ in options]
        for trace, (c, v) in zip(traces, options, strict=True):
            trace.follow(c, v)
        if len(options) < 2 or any(t.broken for t in traces):
            continue
        common = set.intersection(*({f for f in t.why if not f[2]} for t in traces))
        for target in sorted(common)[:2]:
            for chain in branch_chains(board, options, target[:2]):
                assert chain.facts[-1] == target and chain.title
                allowed = [g for g in grids if holds(g, chain.facts[0])]
                for fact in chain.facts:
                    assert all(holds(g, fact) for g in allowed), (fact, chain)
                checked += 1
    return checked


def test_a_variant_s_forcing_chain_is_written_through_its_rules() -> None:
    """r1c3 pencilled {1,5} beside a cage of 3 in r1c1-r1c2: r1c3=1 leaves the cage
    no 1, which its rules do not allow. The chain ends in a contradiction of the
    rules, each link checked by unit propagation over them."""
    puzzle = parse("cage 3: r1c1 r1c2\n" + "." * 81)
    with Pathfinder(puzzle) as finder:
        board = finder.board()
        board.masks[2] = 0b10001
        board.changed()
        find = next(find for t, find in finder.order if t in FORCING_KINDS)
        step = find(board)
        assert step is not None and finder.rule_steps is not None
        rules = finder.rule_steps.everything()
        (chain,) = chains_of(board, step, rules, finder.rule_steps)
        check_forcing(board, chain, rules=rules, parts=finder.rule_steps)
    said = written(puzzle, chain)
    assert said.startswith("r1c3=1 -> ")
    assert " -> contradiction: cage r1c1-r1c2 sum 3 cannot be kept on " in said
    assert chain.broken_cells and set(chain.broken_cells) <= {0, 1, 2}


@pytest.mark.soak
def test_a_published_variant_s_nested_chains_hold_through_its_rules() -> None:
    """ISS's third hard renban puzzle, solved by nested chains through its rules:
    every link of every chain checked, the rules' by unit propagation over them
    (soak: its path alone takes half a minute; the suite checks a variant's
    forcing chains through its rules on a small case, above)."""
    source = shared("iss/hard_renban.links")
    puzzle = [p for p in read_puzzles(str(source)) if isinstance(p, Puzzle)][2]
    assert check_path(puzzle) >= 8


def test_a_step_s_picture_draws_its_chain_strong_links_solid_weak_dashed() -> None:
    puzzle = parse("." * 16)
    pencil = [(1, 2, 3, 4)] * 16
    links = [((0, 1), (0, 2), True), ((0, 2), (5, 2), False)]
    svg = picture(puzzle, pencil=pencil, links=links)
    drawn = re.findall(r"<[^>]*stroke=\"#7b2cbf\"[^>]*>", svg)
    assert len(drawn) == 2
    assert sum('stroke-dasharray="none"' not in line for line in drawn) == 1


# --- every bundled chain rebuilt from the premises its JSON gives -----------------

BUNDLED_PATHS = [
    "ai-escargot.txt",
    "explainer.txt",
    "hodoku.txt",
    "variants.links",
    "killer.txt",
    "published-killer.txt",
    "miracle.txt",
    "thermo-arrow.json",
    "kropki-6x6.txt",
    "jigsaw.txt",
]


WITHOUT_CHAINS = ("killer.txt", "published-killer.txt", "kropki-6x6.txt", "jigsaw.txt")
"""Bundled puzzles whose paths need no chain."""


def chain_from_json(puzzle: Puzzle, data: dict) -> Chain:  # type: ignore[type-arg]
    """A chain as ``steps -f json`` gives it, read back: its facts, each fact's link
    and premises, how it breaks the grid and where."""
    n = puzzle.size
    values = {puzzle.symbol(v): v for v in range(1, n + 1)}

    def cell(name: str) -> int:
        row, col = re.fullmatch(r"r(\d+)c(\d+)", name).groups()  # type: ignore[union-attr]
        return (int(row) - 1) * n + int(col) - 1

    facts = tuple((cell(f["cell"]), values[f["value"]], f["holds"]) for f in data["facts"])
    links = [f["link"] for f in data["facts"][1:]]
    premises = [tuple(f["premises"]) for f in data["facts"][1:]]
    said, cells = "", ()
    if "contradiction" in data:
        broken = data["contradiction"]
        links.append(broken["link"])
        premises.append(tuple(broken["premises"]))
        said, cells = broken["text"], tuple(cell(c) for c in broken["cells"])
    inside = data.get("depth", 2) - 1 if data.get("inside") else 0
    proves = tuple(data.get("proves", ()))
    return Chain(
        facts, tuple(links), data.get("title", ""), tuple(premises), said, cells, proves, inside
    )


@pytest.mark.slow
@pytest.mark.parametrize("name", BUNDLED_PATHS)
def test_every_bundled_chain_rebuilds_from_the_premises_its_json_gives(name: str) -> None:
    """Each chain of each bundled puzzle's path, read back from the JSON ``steps``
    prints: every fact follows by its link from the premises listed for it alone,
    the contradiction (named) from its own, and no fact is left that nothing
    after it needs."""
    from sudosat.running.paths import step_record

    checked = 0
    for puzzle in read_puzzles([str(PUZZLES / name)]):
        assert isinstance(puzzle, Puzzle)
        with Pathfinder(puzzle) as finder:
            path = finder.path(truth_of(puzzle))
            rules = finder.rule_steps.everything() if finder.rule_steps else None
            for (step, board), (_, chains) in zip(path.boards(), path.written(), strict=True):
                record = json.loads(json.dumps(step_record(puzzle, step, chains)))
                for data in record.get("chains", []):
                    chain = chain_from_json(puzzle, data)
                    assert all("premises" in f for f in data["facts"][1:])
                    if set(chain.links) <= {"strong", "weak"}:
                        check_alternating(board, chain, step)
                    else:
                        check_forcing(board, chain, refuted_inside(step), rules, finder.rule_steps)
                    checked += 1
    assert checked or name in WITHOUT_CHAINS


# --- the shortest alternating chain, by its name --------------------------------------


def alternating_steps() -> list[tuple[Board, Step]]:
    """Each alternating chain step of the bundled magictour puzzles' paths, with the
    board it was found on."""
    found = []
    for puzzle in read_puzzles([str(PUZZLES / "tdoku-magictour-25.txt")]):
        assert isinstance(puzzle, Puzzle)
        path = logical_path(puzzle)
        for step, board in path.boards():
            if step.chains and set(step.chains[0].links) <= {"strong", "weak"}:
                found.append((board.copy(), step))
    return found


def searched(path: Sequence[object]) -> int:
    """The links of an alternating chain as it was searched: a loop's closing links
    (a continuous loop's one weak link back to its start, a discontinuous loop's
    weak and strong links) are not searched for but seen."""
    if path[0] != path[-1]:
        return len(path) - 1
    return len(path) - 2 if len(path) % 2 == 1 else len(path) - 3


@pytest.mark.slow
def test_an_alternating_chain_is_the_shortest_of_all_starts_on_either_engine() -> None:
    """Each start's own shortest chain, every start asked (the Python search, no
    engine): none is shorter than the one the path took (which the engine's hint
    found), and the first start of that length is the one taken."""
    from sudosat.logic.alternating import CHAIN_LINKS, _chain_from, _links

    checked = 0
    for board, step in alternating_steps():
        kind = technique_of(step).name.replace("turbot fish", "X-chain")
        strong, weak = _links(board, kind)
        lengths = {}
        for start in sorted(strong):
            found = _chain_from(board, start, strong, weak, CHAIN_LINKS)
            if found is not None:
                lengths[start] = searched(found[0])
        (chain,) = step.chains
        shortest = min(lengths.values())
        assert searched(chain.facts) == shortest, (step.name, step.reason)
        first = next(s for s in sorted(lengths) if lengths[s] == shortest)
        assert chain.facts[0][:2] == first
        checked += 1
    assert checked >= 20


def house_kind(board: Board, cells: set[int], value: int, strong: bool) -> set[str]:
    """The kinds of house holding ``cells`` (for a strong link: as ``value``'s only
    places there)."""
    kinds = set()
    for index, house in enumerate(board.houses):
        places = {c for c in house if board.masks[c] & bit(value) and not board.placed[c]}
        if cells <= set(house) and (not strong or places == cells):
            kinds.add(board.house_names[index].split()[0])
    return kinds


@pytest.mark.slow
def test_four_candidate_x_chains_go_by_their_names() -> None:
    """A skyscraper's strong links lie in two rows (or two columns) and its weak link
    in a column (a row); a 2-string kite's in a row and a column, its weak link in
    a box; any other X-chain of four candidates is a turbot fish."""
    names = Counter()
    for board, step in alternating_steps():
        (chain,) = step.chains
        if technique_of(step).name not in ("X-chain", "turbot fish"):
            continue
        names[step.name] += 1
        if len(chain.facts) != 4:
            assert step.name == "X-chain"
            continue
        (a, v, _), (b, _, _), (c, _, _), (d, _, _) = chain.facts
        first, second = house_kind(board, {a, b}, v, True), house_kind(board, {c, d}, v, True)
        middle = house_kind(board, {b, c}, v, False)
        skyscraper = any(
            k in first and k in second and ({"row", "column"} - {k}) & middle
            for k in ("row", "column")
        )
        kite = ("row" in first and "column" in second) or ("column" in first and "row" in second)
        if skyscraper:
            assert step.name == "skyscraper", step.reason
        elif kite and "box" in middle:
            assert step.name == "2-string kite", step.reason
        else:
            assert step.name == "turbot fish", step.reason
    assert sum(names[k] for k in ("skyscraper", "2-string kite", "turbot fish")) >= 3, names
