"""A variant's rules as steps of a logical solve, by one generic mechanism.

"This rule alone, given the current candidates of its cells, rules out d in c"
is an exact question for a SAT solver: the rule's clauses, each cell holding
one value, and the candidates ruled out so far as assumptions. d goes when no
assignment of the rule's cells from their candidates keeps d in c and the rule.
The same question is asked, in order, of:

* ``rule``: each rule alone (a cage's combinations, a thermometer's order);
* ``rule pair``: two rules that share a cell, together;
* ``rule and units``: a rule with the rows, columns and regions its cells lie in
  (a cage inside a box); a whole-grid rule (anti-knight, nonconsecutive) with
  each band of rows or stack of columns a box high or wide, near it (the cells
  the rule ties to it; the grid past them left free): with every unit at once
  it would be the whole puzzle, a search and not a step;
* ``house and rules``: a row, column or region, or a band or stack a box high
  or wide, with every rule that has a cell in it (innies and outies).

Each question has a small Minicard of its own: its rules' clauses (as
``explain`` separates them, each behind its selector), its units' and its
cells' "exactly one"; the candidates ruled out come as assumptions. A model
found answers for every candidate it holds at once (its witnesses are kept
and reused while they fit the candidates); only the candidates no model has
shown are asked about one by one, each within a conflict budget. Answers are
kept by the candidates of the cells assumed, so an unchanged question is not
asked again. A variant's forcing chains follow one solver of every rule and
unit (:meth:`RuleSteps.propagate`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from functools import partial
from itertools import combinations

from pysat.solvers import Minicard

from sudosat.core.masks import bit
from sudosat.core.masks import values as bits
from sudosat.core.puzzle import Constraint, Layout, Puzzle
from sudosat.logic.board import Board, Candidate, Chain, Step, Technique
from sudosat.logic.causes import causes as named_causes
from sudosat.logic.chains import Trace, fact_text
from sudosat.logic.forcing import Propagation, contradiction_chain
from sudosat.logic.levels import Family, Level
from sudosat.logic.rulelocks import Holding, Need, RuleView, held, locked_chain
from sudosat.logic.ruleweights import (
    CAGES,
    RULE,
    RULE_WEIGHT,
    WIDE,
    cages_name,
    scope_technique,
)
from sudosat.sat.cnf import cell_value, is_candidate, literal, lookup, ruled_out
from sudosat.sat.encoding import explaining
from sudosat.solving.fast import exactly_one

MOST_REMOVALS = 20
"""The most removals a step whose causes are placed digits makes at once (a pair
rule's): its first causes' removals, the rest in the steps after it."""


@dataclass(frozen=True)
class Scope:
    """What one question switches on, and the cells it asks about."""

    rules: tuple[int, ...]
    units: tuple[int, ...]
    cells: tuple[int, ...]


class RuleSteps:
    """The generic rule steps of one puzzle (keep one per path)."""

    def __init__(self, puzzle: Puzzle) -> None:
        self.puzzle = puzzle
        n = self.n = puzzle.size
        constraints = puzzle.constraints
        layout = puzzle.layout
        self.rules: list[Constraint] = list(constraints)
        groups, clauses, selectors, _ = explaining(puzzle, among=False)  # every rule is there
        self.cell_groups = groups[: n * n]
        self.unit_groups = [groups[n * n + u * n : n * n + (u + 1) * n] for u in range(3 * n)]
        rule_of = {-guard: index for index, guard in enumerate(selectors)}
        self.rule_clauses: list[list[list[int]]] = [[] for _ in selectors]
        self.always: list[list[int]] = []
        """Clauses that only define helper literals (order literals): in every solver."""
        for clause in clauses:
            index = next((rule_of[lit] for lit in clause if lit in rule_of), None)
            if index is None:
                self.always.append(clause)
            else:
                self.rule_clauses[index].append([lit for lit in clause if lit not in rule_of])
        self.solvers: dict[Scope, Minicard] = {}
        self._everything: Minicard | None = None
        everywhere = tuple(range(n * n))
        self.clause_cells = _clause_cells(n, self.rule_clauses, self.always)
        """The cells each clause of each rule speaks of."""
        spoken = [tuple(sorted(set().union(*cells))) for cells in self.clause_cells]
        self.rule_cells = [  # (a clue outside the grid names no cell: its clauses do)
            everywhere if rule.flag else tuple(rule.cells()) or cells or everywhere
            for rule, cells in zip(self.rules, spoken, strict=True)
        ]
        self.asked = [not rule.houses(layout) for rule in self.rules]
        self.whole = [rule.flag for rule in self.rules]
        """The rules of the whole grid (anti-knight, nonconsecutive)."""
        self._near: dict[int, list[set[int]]] = {}
        cells, values = lookup(n)
        self.by_variable = (cells, [bit(v) if v else 0 for v in values])
        """Each candidate's variable's cell and value's mask (read by table)."""
        """Houses-only rules (a jigsaw's regions, diagonals) speak through singles."""
        self.units_of = [
            tuple(sorted({u for c in cells for u in _units_of(layout, c)}))
            for cells in self.rule_cells
        ]
        self.cache: dict[tuple[Scope, tuple[int, ...]], tuple[Candidate, ...] | None] = {}
        self._shrinkers: dict[Scope, _Shrinker] = {}
        self.witnesses: dict[Scope, list[tuple[int, ...]]] = {}
        """Each question's solutions found, as the mask of each assumed cell's value."""
        self._assumed: dict[Scope, tuple[int, ...]] = {}
        self._variables: dict[Scope, frozenset[int]] = {}
        """Each scope's candidates' variables (what :meth:`propagate_in` passes on)."""
        self._holding: list[Holding] | None = None
        self._wide: set[Step] = set()
        """The rule steps found of :data:`WIDE` parts or more, named by their parts."""
        self._unsaid: dict[Step, tuple[Scope, str]] = {}
        """The rule steps found on the board now that :meth:`said` may say better."""
        self.past: Callable[[], bool] = lambda: False
        """Whether the path's time is up: the questions then stop, finding nothing."""
        self._scopes: dict[str, list[tuple[Scope, str]]] = {}
        self._small: list[tuple[Scope, str]] | None = None

    def close(self) -> None:
        for shrinker in self._shrinkers.values():
            shrinker.delete()
        self._shrinkers.clear()
        for solver in [*self.solvers.values(), self._everything]:
            if solver is not None:
                solver.delete()
        self.solvers.clear()
        self._everything = None

    def solver_for(self, scope: Scope) -> Minicard:
        """A small solver of one question's own rules, units and cells: its models
        are found in microseconds, where one over the whole puzzle takes a millisecond."""
        found = self.solvers.get(scope)
        if found is None:
            groups = [self.cell_groups[c] for c in self.assumed(scope)]
            groups += [g for u in scope.units for g in self.unit_groups[u]]
            found = self.solvers[scope] = self._solver(groups, scope.rules)
        return found

    def _solver(self, groups: list[list[int]], rules: Iterable[int]) -> Minicard:
        """A new solver of "exactly one" of each group and the clauses of ``rules``
        (with the helper literals' definitions every solver has)."""
        solver = exactly_one(groups)
        for clause in self.always:
            solver.add_clause(clause)
        for index in rules:
            for clause in self.rule_clauses[index]:
                solver.add_clause(clause)
        return solver

    def everything(self) -> Minicard:
        """A solver of every rule and unit: what forcing chains follow."""
        if self._everything is None:
            self._everything = self.fresh()
        return self._everything

    def fresh(self, board: Board | None = None) -> Minicard:
        """A new solver of every rule and unit (the caller deletes it), with the
        candidates ``board`` has ruled out as unit clauses."""
        groups = self.cell_groups + [g for unit in self.unit_groups for g in unit]
        solver = self._solver(groups, range(len(self.rule_clauses)))
        if board is not None:
            for lit in ruled_out(board.size, board.masks):
                solver.add_clause([lit])
        return solver

    def scopes(self, tier: str) -> list[tuple[Scope, str]]:
        """The questions of a tier, each with the words that name it (made once)."""
        found = self._scopes.get(tier)
        if found is None:
            found = self._scopes[tier] = self._scopes_of(tier)
        return found

    def _scopes_of(self, tier: str) -> list[tuple[Scope, str]]:
        found: list[tuple[Scope, str]] = []
        indices = [i for i, asked in enumerate(self.asked) if asked]
        if tier == "rule":
            for i in indices:
                found.append((Scope((i,), (), self.rule_cells[i]), self._name(i)))
        elif tier == "rule pair":
            for i, j in combinations(indices, 2):
                if set(self.rule_cells[i]) & set(self.rule_cells[j]):
                    cells = tuple(sorted(set(self.rule_cells[i]) | set(self.rule_cells[j])))
                    if self.whole[i] != self.whole[j]:  # a whole-grid rule near the other
                        whole, other = (i, j) if self.whole[i] else (j, i)
                        cells = self.near(whole, set(self.rule_cells[other]))
                    named = f"{self._name(i)} with {self._name(j)}"
                    found.append((Scope((i, j), (), cells), named))
        elif tier == "house and rules":
            found = self._houses_and_rules(indices)
        else:
            units = self.puzzle.layout.units
            for i in indices:
                if self.whole[i]:  # a whole-grid rule: band by band, near it
                    houses = self._houses()
                    bands = [h for h in houses if len(h[0]) > 1] or houses
                    for chosen, house in bands:
                        inside = {c for u in chosen for c in units[u]}
                        named = f"{self._name(i)} in {house}"
                        found.append((Scope((i,), chosen, self.near(i, inside)), named))
                    continue
                cells = tuple(sorted({c for u in self.units_of[i] for c in units[u]}))
                named = f"{self._name(i)} in its units"
                found.append((Scope((i,), self.units_of[i], cells), named))
        return found

    def _houses_and_rules(self, indices: Sequence[int]) -> list[tuple[Scope, str]]:
        """Each unit, and each band of rows and stack of columns a box high or wide
        (with the boxes in it), with every rule that has a cell in it (whole-grid
        rules left out): the innies and outies of the cages a house holds."""
        n, units = self.n, self.puzzle.layout.units
        found = []
        for chosen, named in self._houses():
            cells = {c for u in chosen for c in units[u]}
            rules = tuple(
                i
                for i in indices
                if len(self.rule_cells[i]) < n * n and cells & set(self.rule_cells[i])
            )
            if not rules:
                continue
            found.append((Scope(rules, chosen, tuple(sorted(cells))), f"{named} with its rules"))
        return found

    def _houses(self) -> list[tuple[tuple[int, ...], str]]:
        """Each unit, then each band of rows and stack of columns a box high or wide
        with the boxes in it: the houses a question is asked in, with their names."""
        layout = self.puzzle.layout
        n, units = self.n, layout.units
        groups: list[tuple[tuple[int, ...], str]] = [
            ((u,), layout.unit_name(u)) for u in range(len(units))
        ]
        if layout.box is not None:
            high, wide = layout.box
            regions = layout.unit_index[2]
            for first, size, kind in ((0, high, "rows"), (n, wide, "columns")):
                for start in range(0, n, size):
                    lines = tuple(range(first + start, first + start + size))
                    cells = {c for u in lines for c in units[u]}
                    inside = {2 * n + regions[c] for c in cells}
                    inside = {u for u in inside if set(units[u]) <= cells}
                    named = f"{kind} {start + 1}-{start + size}"
                    groups.append((tuple(sorted(set(lines) | inside)), named))
        return groups

    def near(self, index: int, cells: set[int]) -> tuple[int, ...]:
        """``cells`` and the cells a clause of rule ``index`` ties to one of them: what
        a question of a whole-grid rule in a house assumes. The cells past them are
        left free (their "exactly one" is not asked), so it is the exact question
        of a part of the grid, which holds wherever the whole does."""
        ties = self._near.get(index)
        if ties is None:
            n = self.n
            ties = self._near[index] = [set() for _ in range(n * n)]
            for tied in self.clause_cells[index]:
                for c in tied:
                    ties[c] |= tied
        return tuple(sorted(cells.union(*(ties[c] for c in cells))))

    def _name(self, index: int) -> str:
        return self.rules[index].describe(self.n)

    def small_scopes(self) -> list[tuple[Scope, str]]:
        """Each rule alone, then each with one of its rows, columns or regions: the
        parts a chain's links through the rules are made of (:class:`chains.Trace`)."""
        if self._small is None:
            layout = self.puzzle.layout
            asked = [i for i in range(len(self.rules)) if self.asked[i]]
            self._small = [(Scope((i,), (), ()), self._name(i)) for i in asked]
            self._small += [
                (Scope((i,), (u,), ()), f"{self._name(i)} in {layout.unit_name(u)}")
                for i in asked
                for u in self.units_of[i]
            ]
        return self._small

    def variables(self, scope: Scope) -> frozenset[int]:
        """The variables of the candidates a scope's solver knows (made once)."""
        found = self._variables.get(scope)
        if found is None:
            n = self.n
            cells = self.assumed(scope)
            found = frozenset(literal(n, c, v) for c in cells for v in range(1, n + 1))
            self._variables[scope] = found
        return found

    def propagate_in(self, scope: Scope, assumptions: list[int]) -> tuple[bool, list[int]]:
        """Unit propagation of ``assumptions`` (literals of the scope's own candidates,
        :meth:`variables`: the caller keeps to them) over the scope's rules and units,
        each of its cells one value."""
        ok, implied = self.solver_for(scope).propagate(assumptions=assumptions)
        return bool(ok), list(implied or ())

    def step(self, board: Board, tier: Technique) -> Step | None:
        """The first question of ``tier`` that removes a candidate, as a step: for a
        question of several rules or houses, the smallest part of it that does
        the work (see :meth:`smallest`), named by it, with the removals it alone
        implies."""
        for scope, name in self.scopes(tier.name):
            if self.past():
                return None
            removed = self.removes(board, scope)
            if removed is None:
                return Step(
                    tier.name,
                    technique=tier,
                    eliminations=(),
                    cells=scope.cells,
                    houses=(name,),
                    reason=f"{name} cannot hold with these candidates",
                )
            if removed and tier != RULE:
                found = self._smallest_step(board, scope, removed)
                if found is not None:
                    return found
                continue  # the rows, columns and regions alone do it: the classic techniques'
            if removed:
                return self._rule_step(board, scope, name, removed)
        return None

    def _rule_step(
        self, board: Board, scope: Scope, name: str, removed: tuple[Candidate, ...]
    ) -> Step:
        """A rule alone removes ``removed``: named by its cause where placed digits
        account for every removal (a pair rule's "r5c3=1 rules out 1 in r3c2"), else
        by the rule's own words; its removals are always listed."""
        rule = self.rules[scope.rules[0]]
        causes, by, covered = named_causes(board, rule, removed, MOST_REMOVALS)
        if causes:  # the first causes' removals: the rest are the next step's
            removed = tuple(sorted(covered))
        touched = sorted({c for c, _ in removed})
        shown = scope.cells if len(scope.cells) < self.n * self.n else tuple(touched)
        said = causes or self._deduction(board, rule, removed)
        technique = Technique(rule.technique, Family.RULE, RULE_WEIGHT, Level.EASY)
        return Step(
            technique.name,
            eliminations=removed,
            cells=tuple(c for c in (*by, *shown) if not board.placed[c] or c in touched or c in by),
            houses=(name,),
            values=tuple(sorted({v for _, v in removed})),
            reason=f"{name}: {said}" if said else name,
            tells_what_is_left=bool(causes),  # the causes list every removal
            technique=technique,
        )

    def _deduction(self, board: Board, rule: Constraint, removed: Sequence[Candidate]) -> str:
        """The rule's own words for what it says once ``removed`` is gone."""
        cells = rule.cells()
        if not cells:
            return rule.deduction(self.n, ())
        after = [board.masks[c] & ~_lost(removed, c) for c in cells]
        return rule.deduction(self.n, after)

    def _smallest_step(
        self, board: Board, scope: Scope, removed: Sequence[Candidate]
    ) -> Step | None:
        """The step of the smallest part of ``scope`` that rules out a removal (None:
        no rule is needed for any: a classic deduction, for the classic techniques)."""
        for candidate in removed:
            smallest = self.smallest(board, scope, candidate)
            if smallest is None:
                continue
            part, cells = smallest
            implied = tuple(  # (the budget may leave another answer unknown: never this one)
                r for r in removed if r == candidate or self._implies(board, scope, part, cells, r)
            )
            return self._named(board, part, cells, implied)
        return None

    def smallest(
        self, board: Board, scope: Scope, candidate: Candidate
    ) -> tuple[Scope, tuple[int, ...]] | None:
        """The smallest part of ``scope`` that still rules out ``candidate`` with the
        current candidates: its houses dropped first, then its rules, then its
        cells (a cell's candidates as they are now and, for a rule of the whole
        grid, the rule around it), each for as long as what is left still implies
        the removal; the solver's core drops at once what an answer did not need.
        The part, and the cells it needs; None when it needs no rule (the rows,
        columns and regions alone do it: the classic techniques' to find)."""
        shrinker = self.shrinker(scope)
        cells = self.assumed(scope)
        pieces = {c: shrinker.cell_pieces(board, c) for c in cells}
        parts = _Parts(list(scope.units), list(scope.rules), [c for c in cells if pieces[c]])
        ask = partial(shrinker.ask, pieces, literal(self.n, *candidate))
        core = ask(parts)
        if core is None:
            return None  # it holds, or is not known within the budget
        parts = parts.within(core, shrinker)
        for kind in ("units", "rules", "cells"):
            for item in list(getattr(parts, kind)):
                if item not in getattr(parts, kind):
                    continue  # (an earlier answer's core dropped it already)
                trial = parts.without(kind, item)
                found = ask(trial)
                if found is not None:
                    parts = trial.within(found, shrinker)
            if kind == "rules" and not parts.rules:
                return None
        kept = tuple(parts.cells)
        part = Scope(tuple(parts.rules), tuple(parts.units), tuple(sorted({*kept, candidate[0]})))
        return part, kept

    def _implies(
        self, board: Board, scope: Scope, part: Scope, cells: Sequence[int], candidate: Candidate
    ) -> bool:
        """Whether ``part`` of ``scope``, with ``cells``, rules out ``candidate``."""
        shrinker = self.shrinker(scope)
        pieces = {c: shrinker.cell_pieces(board, c) for c in cells}
        parts = _Parts(list(part.units), list(part.rules), list(cells))
        return shrinker.ask(pieces, literal(self.n, *candidate), parts) is not None

    def shrinker(self, key: Scope) -> _Shrinker:
        """The solver that takes a question apart (made once per question)."""
        found = self._shrinkers.get(key)
        if found is None:
            found = self._shrinkers[key] = _Shrinker(self, key)
        return found

    def _named(
        self, board: Board, part: Scope, cells: Sequence[int], removed: Sequence[Candidate]
    ) -> Step:
        """A step named by what does the work: the rules of ``part``, in its houses."""
        layout = self.puzzle.layout
        rules = " and ".join(self._name(i) for i in part.rules)
        houses = [layout.unit_name(u) for u in part.units]
        name = f"{rules} in {' and '.join(houses)}" if houses else rules
        held = ", ".join(f"{board.name(c)} {{{board.symbols(board.masks[c])}}}" for c in cells)
        said = f"{name}: {held}" if cells and len(cells) <= SAID_CELLS else name
        technique = scope_technique(len(part.rules), len(part.units))
        cages = part.units and all(self.rules[i].technique == CAGES for i in part.rules)
        if cages:
            technique = replace(technique, name=cages_name(len(part.rules), len(part.units)))
            if said == name:
                said = f"{name}: {self._cages_say(board, part)}".removesuffix(": ")
        step = Step(
            technique.name,
            eliminations=tuple(removed),
            cells=tuple(cells),
            houses=tuple(self._name(i) for i in part.rules) + tuple(houses),
            values=tuple(sorted({v for _, v in removed})),
            reason=said,
            technique=technique,
        )
        if not cages and self._titled(part):
            self._unsaid[step] = (part, name)
        if not cages and len(part.rules) + len(part.units) >= WIDE:
            self._wide.add(step)
        return step

    def _cages_say(self, board: Board, part: Scope) -> str:
        """Why cages in houses remove what they do: one cage, its digit sets; more
        (the 45 rule), what the houses add up to less the cages inside, left to
        the innies (less the outies, the cages' cells outside)."""
        cages = [self.rules[i] for i in part.rules]
        if len(cages) == 1:
            return cages[0].deduction(self.n, [board.masks[c] for c in cages[0].cells()])
        units = [self.puzzle.layout.units[u] for u in part.units]
        inside = {c for unit in units for c in unit}
        sums = [getattr(cage, "value", None) for cage in cages]
        if len(inside) != sum(map(len, units)) or None in sums:
            return ""  # (houses that overlap: no one sum)
        total = len(units) * self.n * (self.n + 1) // 2
        caged = {c for cage in cages for c in cage.cells()}
        innies = sorted(inside - caged)
        outies = sorted(caged - inside)
        left = total - sum(v for v in sums if v is not None)
        said = f"the houses add up to {total}, the cages to {total - left}, so "
        ins, outs = (" + ".join(map(board.name, cells)) for cells in (innies, outies))
        if innies and outies:
            return f"{said}{ins} less {outs} is {left}"
        return f"{said}{ins} is {left}" if innies else f"{said}{outs} is {-left}"

    def said(self, board: Board, step: Step) -> Step:
        """``step`` (found on ``board``) said as a setter says it, when it is a rule
        step over rules and houses that needs and holds (:mod:`rulelocks`) account
        for, or else one whose removals (some of them, then: the step keeps those)
        each break the grid by a chain: named by its rules (``renban line in 2
        houses``). Asked of the step the path takes only (a step a lighter one
        replaces is never said)."""
        found = self._unsaid.pop(step, None)
        self._unsaid.clear()
        if found is None:
            return step
        part, name = found
        removed = step.eliminations
        technique = replace(step.technique or RULE, name=self._in_houses(part))
        if (chain := self._locked(board, part, removed)) is not None:
            reason = f"{name}: {chain}"
            return replace(step, name=technique.name, technique=technique, reason=reason)
        broken, local = self._broken(board, removed, part)
        if not broken:
            return step
        reason = f"{name}: each removal, assumed, breaks the grid"
        if local:  # (the removals its own rules and houses explain: the rest are later steps')
            broken = {x: chain for x, chain in broken.items() if x in local}
        else:  # no reason of its own: a chain through other rules, named and weighed so
            longest = max(len(chain.facts) for chain in broken.values())
            technique = contradiction_chain(longest)
            reason = f"{name}: each removal, assumed, breaks the grid through other rules"
        return replace(
            step,
            name=technique.name,
            technique=technique,
            reason=reason,
            eliminations=tuple(broken),
            values=tuple(sorted({v for _, v in broken})),
            chains=tuple(broken.values()),
        )

    def last_resort(self, step: Step) -> bool:
        """Whether ``step`` is a question of :data:`WIDE` parts or more named by its
        parts alone (``3 rules and 5 units``): :meth:`said` leaves it so when no
        chain says it."""
        return step in self._wide

    def _broken(
        self, board: Board, removed: Sequence[Candidate], part: Scope
    ) -> tuple[dict[Candidate, Chain], set[Candidate]]:
        """Each of the first :data:`MOST_TRACED` of ``removed``, assumed, traced to a
        contradiction (:class:`chains.Trace`): through ``part``'s own rules and
        houses alone where they break the grid (the short reason the step's name
        promises), else through singles, locked candidates and every rule (unit
        propagation, then what each rule alone holds). The step keeps those
        removals (its part implies each of the others too: they are the next
        steps' to say). And those that broke it locally."""
        holding = self.holding()
        layout = self.puzzle.layout
        rules = {self._name(i) for i in part.rules}
        houses = {layout.unit_name(u) for u in part.units}
        own = _Within(self, rules | {f"{r} in {h}" for r in rules for h in houses})
        within = frozenset(i for i, name in enumerate(board.house_names) if name in houses)
        alone = [h for h in holding if h.name in rules]
        found, local = {}, set()
        for cell, value in removed[:MOST_TRACED]:
            trace = Trace(board, True, None, own, partial(held, board, alone), within=within)
            trace.follow(cell, value)
            if trace.broken is not None:
                local.add((cell, value))
            else:
                trace = Trace(board, True, self.everything(), self, partial(held, board, holding))
                trace.follow(cell, value)
            if trace.broken is not None:
                found[cell, value] = trace.chain(title=fact_text(board.puzzle, (cell, value, True)))
        return found, local

    def holding(self) -> list[Holding]:
        """Each rule with setters' name but of the whole grid, alone: what a rule
        step's chains ask once propagation has run out (:func:`rulelocks.held`)."""
        if self._holding is None:
            self._holding = [
                Holding(self._name(i), cells, self.solver_for(Scope((i,), (), cells)))
                for i, cells in enumerate(self.rule_cells)
                if self.asked[i] and self.rules[i].title and not self.whole[i]
            ]
        return self._holding

    def _locked(self, board: Board, part: Scope, removed: Sequence[Candidate]) -> str | None:
        """The chain of needs and holds of each rule of ``part`` alone that rules out
        ``removed`` (:mod:`rulelocks`), if there is one (not for a rule of the whole
        grid: it holds every digit everywhere)."""
        if any(self.whole[i] for i in part.rules):
            return None
        alone = len(part.rules) == 1  # (then its name is said once, before the chain)
        views = [
            RuleView(
                f"the {self.rules[i].title}" if alone else self._name(i),
                self.rule_cells[i],
                partial(self._alone, i),
            )
            for i in part.rules
        ]
        return locked_chain(board, self.puzzle.layout, views, part.units, removed)

    def _alone(self, index: int, needs: Sequence[Need]) -> Minicard:
        """A fresh solver of rule ``index`` alone, with an "at least one" of each need."""
        solver = self._solver([self.cell_groups[c] for c in self.rule_cells[index]], (index,))
        for need in needs:
            solver.add_clause([literal(self.n, c, need.digit) for c in need.cells])
        return solver

    def _titled(self, part: Scope) -> bool:
        """Whether ``part`` has houses, or rules together, all with setters' names."""
        together = bool(part.units) or len(part.rules) > 1
        return together and all(self.rules[i].title for i in part.rules)

    def _in_houses(self, part: Scope) -> str:
        """``renban line in its house``, ``renban line in 2 houses``, ``2 renban lines
        and thermometer in 3 houses``, ``arrow and killer cage together``: the
        technique of a step said by its rules."""
        many = Counter(self.rules[i].title for i in part.rules)
        titles = " and ".join(f"{k} {t}s" if k > 1 else t for t, k in sorted(many.items()))
        houses = len(part.units)
        its = "its" if len(part.rules) == 1 else "their"
        if not houses:
            return f"{titles} together"
        return f"{titles} in {its} house" if houses == 1 else f"{titles} in {houses} houses"

    def removes(self, board: Board, scope: Scope) -> tuple[Candidate, ...] | None:
        """The candidates of the scope's cells it rules out (None: it cannot hold).

        Solutions of the scope found before (its witnesses) that still fit the
        candidates show their values possible at no cost; only the candidates
        none of them holds are asked about."""
        n = self.n
        cells = self.assumed(scope)
        masks = [board.masks[c] for c in cells]
        key = (scope, tuple(masks))
        if key in self.cache:
            return self.cache[key]
        witnesses = [w for w in self.witnesses.get(scope, []) if _fits(masks, w)]
        solver = self.solver_for(scope)
        assumptions = ruled_out(n, masks, cells)
        found: tuple[Candidate, ...] | None = ()
        if not witnesses:
            answer = _ask(solver, assumptions)
            if answer:
                witnesses.append(self._model(solver, cells))
            elif answer is None:
                found = ()
            else:
                found = None
        if found is not None and witnesses:
            shown = [0] * len(cells)
            for w in witnesses:
                shown = [s | b for s, b in zip(shown, w, strict=True)]
            asked = set(scope.cells)
            removed = []
            phases: _Phases | None = None
            for i, c in enumerate(cells):
                if self.past():
                    return ()  # (not kept: the question was not answered)
                if c not in asked:
                    continue
                for v in bits(masks[i] & ~shown[i]):
                    if shown[i] & bit(v):
                        continue
                    if phases is None:
                        phases = _Phases(n, cells, masks, shown)
                    # MiniSat's phase saving overwrites polarities: point it again each call
                    solver.set_phases(phases.literals)
                    answer = _ask(solver, [*assumptions, literal(n, c, v)])
                    if answer:
                        w = self._model(solver, cells)
                        witnesses.append(w)
                        phases.shown(shown, w)
                        shown = [s | b for s, b in zip(shown, w, strict=True)]
                    elif answer is not None:  # proved: not over the budget
                        removed.append((c, v))
            found = tuple(removed)
        self.witnesses[scope] = witnesses[-WITNESSES:]
        self.cache[key] = found
        return found

    def propagate(
        self, board: Board, cell: int, value: int, locked: bool = False
    ) -> list[int] | None:
        """The candidates once ``cell`` holds ``value`` and unit propagation over every
        rule and unit (singles included) has run out, with ``locked`` candidates
        between rounds; None: a contradiction. What a variant's forcing chains follow."""
        n, top = self.n, self.n**3
        cell_of, value_of = self.by_variable
        solver = self.everything()
        run = Propagation(board)
        masks = run.masks
        masks[cell] = bit(value)
        while True:
            assumptions = ruled_out(n, masks)
            ok, implied = solver.propagate(assumptions=assumptions)
            if not ok:
                return None
            for lit in implied:  # (by table: the hot loop of a variant's forcing chains)
                if lit > 0:
                    if lit <= top:
                        masks[cell_of[lit]] &= value_of[lit]
                elif -lit <= top:
                    masks[cell_of[-lit]] &= ~value_of[-lit]
            if not all(masks):
                return None
            for c, m in enumerate(masks):
                if not m & (m - 1) and not run.placed[c]:
                    run.placed[c] = m.bit_length()
            if not locked or not run.locked():
                return masks

    def assumed(self, scope: Scope) -> tuple[int, ...]:
        """The cells whose candidates a question assumes: its own, its rules' and its
        units'."""
        found = self._assumed.get(scope)
        if found is None:
            units = self.puzzle.layout.units
            cells = set(scope.cells)
            for i in scope.rules:  # (a whole-grid rule's question: near its own cells)
                if not (self.whole[i] and scope.cells):
                    cells.update(self.rule_cells[i])
            cells.update(c for u in scope.units for c in units[u])
            found = self._assumed[scope] = tuple(sorted(cells))
        return found

    def _model(self, solver: Minicard, cells: Sequence[int]) -> tuple[int, ...]:
        """The masks of the values the last model of ``solver`` puts in ``cells``."""
        n = self.n
        model = solver.get_model() or []
        return tuple(1 << (max(model[c * n : c * n + n]) - c * n - 1) for c in cells)


class _Phases:
    """The polarities a question's solver is pointed with: each candidate a witness
    has not shown yet true, the rest false, so that a model shows new values."""

    def __init__(
        self, n: int, cells: Sequence[int], masks: Sequence[int], shown: Sequence[int]
    ) -> None:
        self.masks = masks
        self.literals: list[int] = []
        self.start: list[int] = []
        """Where each cell's literals begin in the list (its candidates in order)."""
        for c, m, s in zip(cells, masks, shown, strict=True):
            self.start.append(len(self.literals))
            base = c * n
            self.literals.extend(-(base + v) if s & bit(v) else base + v for v in bits(m))

    def shown(self, shown: Sequence[int], witness: Sequence[int]) -> None:
        """A new witness: the values it shows for the first time now false."""
        for j, (s, w) in enumerate(zip(shown, witness, strict=True)):
            if not s & w:  # (the witness's value is a candidate: below it, how many more)
                k = self.start[j] + (self.masks[j] & (w - 1)).bit_count()
                self.literals[k] = -abs(self.literals[k])


@dataclass
class _Parts:
    """What a question keeps while it is taken apart: units, rules and cells."""

    units: list[int]
    rules: list[int]
    cells: list[int]

    def without(self, kind: str, item: int) -> _Parts:
        kept = {k: list(getattr(self, k)) for k in ("units", "rules", "cells")}
        kept[kind].remove(item)
        return _Parts(**kept)

    def within(self, core: set[int], shrinker: _Shrinker) -> _Parts:
        """Only the parts an answer's core used."""
        return _Parts(
            [u for u in self.units if shrinker.unit_of[u] in core],
            [r for r in self.rules if shrinker.rule_of[r] in core],
            [c for c in self.cells if shrinker.used(c, core)],
        )


class _Shrinker:
    """A solver of one question's cells with each of its units, rules and cells
    behind a selector of its own, to take the question apart. A rule of the whole
    grid is split by cell: each clause holds only while every cell it speaks of
    is kept, so a step names the few cells of it that do the work."""

    def __init__(self, steps: RuleSteps, scope: Scope) -> None:
        self.n = n = steps.n
        cells = steps.assumed(scope)
        self.solver = solver = exactly_one([steps.cell_groups[c] for c in cells])
        for clause in steps.always:
            solver.add_clause(clause)
        rule_literals = (abs(x) for r in scope.rules for c in steps.rule_clauses[r] for x in c)
        self.top = max([n**3, *(abs(x) for c in steps.always for x in c), *rule_literals])
        self.unit_of: dict[int, int] = {}
        for u in scope.units:
            self.unit_of[u] = guard = self._new()
            for group in steps.unit_groups[u]:
                solver.add_clause([-guard, *group])
                for a, b in combinations(group, 2):
                    solver.add_clause([-guard, -a, -b])
        self.rule_of: dict[int, int] = {}
        self.cell_of: dict[int, int] = {}
        for r in scope.rules:
            self.rule_of[r] = guard = self._new()
            whole = steps.whole[r]
            for clause in steps.rule_clauses[r]:
                guards = [-guard]
                if whole:
                    spoken = sorted({cell_value(n, x)[0] for x in clause if is_candidate(n, x)})
                    guards += [-self._cell(c) for c in spoken]
                solver.add_clause([*guards, *clause])

    def _new(self) -> int:
        self.top += 1
        return self.top

    def _cell(self, cell: int) -> int:
        found = self.cell_of.get(cell)
        if found is None:
            found = self.cell_of[cell] = self._new()
        return found

    def cell_pieces(self, board: Board, cell: int) -> list[int]:
        """What keeping a cell assumes: its candidates as they are now, and its
        selector when a rule of the whole grid speaks of it."""
        n = self.n
        found = [-literal(n, cell, v) for v in bits(board.full & ~board.masks[cell])]
        if cell in self.cell_of:
            found.append(self.cell_of[cell])
        return found

    def used(self, cell: int, core: set[int]) -> bool:
        n = self.n
        return self.cell_of.get(cell) in core or any(
            -literal(n, cell, v) in core for v in range(1, n + 1)
        )

    def ask(self, pieces: dict[int, list[int]], target: int, parts: _Parts) -> set[int] | None:
        """The core of "``parts`` rule out ``target``" (None: they do not, or not
        within the budget)."""
        assumptions = [self.unit_of[u] for u in parts.units]
        assumptions += [self.rule_of[r] for r in parts.rules]
        assumptions += [lit for c in parts.cells for lit in pieces.get(c, ())]
        self.solver.conf_budget(QUESTION_BUDGET)
        if self.solver.solve_limited(assumptions=[*assumptions, target]) is not False:
            return None
        return set(self.solver.get_core() or assumptions)

    def delete(self) -> None:
        self.solver.delete()


QUESTION_BUDGET = 2000
"""Conflicts one question may take: past it the candidate stays (a person would not
find that step either), so a hard rule costs no more than this."""


def _ask(solver: Minicard, assumptions: list[int]) -> bool | None:
    """Whether the assumptions hold together (None: not known within the budget)."""
    solver.conf_budget(QUESTION_BUDGET)
    answer: bool | None = solver.solve_limited(assumptions=assumptions)
    return answer


def _fits(masks: Sequence[int], witness: Sequence[int]) -> bool:
    """Whether each cell's mask holds the witness's value (its mask) there."""
    return all(m & w for m, w in zip(masks, witness, strict=True))


MOST_TRACED = 12
"""The most removals a rule step traces to contradictions (one chain each) to show
why they go: a step with more keeps those of them that break the grid, the rest
left to the next steps."""

SAID_CELLS = 4
"""A rule step names what its cells may still hold when it touches this many or fewer."""

WITNESSES = 64
"""Solutions kept for each question, to show values possible without asking again."""


def _lost(removed: Sequence[Candidate], cell: int) -> int:
    mask = 0
    for c, v in removed:
        if c == cell:
            mask |= bit(v)
    return mask


def _clause_cells(
    n: int, rule_clauses: list[list[list[int]]], always: list[list[int]]
) -> list[list[set[int]]]:
    """The cells each clause of each rule speaks of: through its candidates'
    literals, and through the helper literals (a cell's order literals) that
    ``always`` defines from a cell's candidates."""
    helper: dict[int, set[int]] = {}
    for clause in always:
        defined = {cell_value(n, x)[0] for x in clause if is_candidate(n, x)}
        for x in clause:
            if not is_candidate(n, x):
                helper.setdefault(abs(x), set()).update(defined)
    found = []
    for clauses in rule_clauses:
        spoken = []
        for clause in clauses:
            cells: set[int] = set()
            for x in clause:
                if is_candidate(n, x):
                    cells.add(cell_value(n, x)[0])
                else:
                    cells.update(helper.get(abs(x), ()))
            spoken.append(cells)
        found.append(spoken)
    return found


def _units_of(layout: Layout, cell: int) -> tuple[int, ...]:
    """The indices in :attr:`Layout.units` of a cell's row, column and region."""
    rows, cols, regions = layout.unit_index
    n = layout.size
    return (rows[cell], n + cols[cell], 2 * n + regions[cell])


class _Within:
    """A variant's rules in small parts (:class:`RuleSteps`), only the parts named:
    the links a rule step's local chain may take."""

    def __init__(self, parts: RuleSteps, names: set[str]) -> None:
        self.parts = parts
        self.scopes = [(s, n) for s, n in parts.small_scopes() if n in names]

    def small_scopes(self) -> list[tuple[Scope, str]]:
        return self.scopes

    def propagate_in(self, scope: Scope, assumptions: list[int]) -> tuple[bool, list[int]]:
        return self.parts.propagate_in(scope, assumptions)

    def variables(self, scope: Scope) -> frozenset[int]:
        return self.parts.variables(scope)
