"""A rule step in words, as a setter says it: the rule and its houses named, what
its cells may still hold, a cage's digit sets, what the rule alone holds, or
each removal's short chain to a contradiction through the step's own rule and
houses alone (a local trace); with none, a contradiction chain named as such."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import replace
from functools import partial

from sudosat.core.masks import bit
from sudosat.core.puzzle import Constraint
from sudosat.logic.board import Board, Candidate, Chain, Step
from sudosat.logic.chains import fact_text
from sudosat.logic.forcing import contradiction_chain
from sudosat.logic.rulelocks import RuleView, held, locked_chain
from sudosat.logic.rulescopes import RuleScopes, Scope
from sudosat.logic.ruleshrink import RuleShrinking
from sudosat.logic.ruleweights import CAGES, RULE, WIDE, cages_name, scope_technique
from sudosat.logic.trace import Trace

MOST_TRACED = 12
"""The most removals a rule step traces to contradictions (one chain each) to show
why they go: a step with more keeps those of them that break the grid, the rest
left to the next steps."""


SAID_CELLS = 4
"""A rule step names what its cells may still hold when it touches this many or fewer."""


class RuleWording(RuleShrinking):
    """Rule steps said: their names and their reasons."""

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

    def _deduction(self, board: Board, rule: Constraint, removed: Sequence[Candidate]) -> str:
        """The rule's own words for what it says once ``removed`` is gone."""
        cells = rule.cells()
        if not cells:
            return rule.deduction(self.n, ())
        after = [board.masks[c] & ~_lost(removed, c) for c in cells]
        return rule.deduction(self.n, after)


class _Within:
    """A variant's rules in small parts (:class:`RuleScopes`), only the parts named:
    the links a rule step's local chain may take."""

    def __init__(self, parts: RuleScopes, names: set[str]) -> None:
        self.parts = parts
        self.scopes = [(s, n) for s, n in parts.small_scopes() if n in names]

    def small_scopes(self) -> list[tuple[Scope, str]]:
        return self.scopes

    def propagate_in(self, scope: Scope, assumptions: list[int]) -> tuple[bool, list[int]]:
        return self.parts.propagate_in(scope, assumptions)

    def variables(self, scope: Scope) -> frozenset[int]:
        return self.parts.variables(scope)


def _lost(removed: Sequence[Candidate], cell: int) -> int:
    mask = 0
    for c, v in removed:
        if c == cell:
            mask |= bit(v)
    return mask
