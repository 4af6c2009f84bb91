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

from collections.abc import Sequence

from sudosat.logic.board import Board, Candidate, Step, Technique
from sudosat.logic.causes import causes as named_causes
from sudosat.logic.levels import Family, Level
from sudosat.logic.rulescopes import Scope
from sudosat.logic.ruleweights import RULE, RULE_WEIGHT
from sudosat.logic.rulewords import RuleWording

MOST_REMOVALS = 20
"""The most removals a step whose causes are placed digits makes at once (a pair
rule's): its first causes' removals, the rest in the steps after it."""


class RuleSteps(RuleWording):
    """The generic rule steps of one puzzle (keep one per path): the scopes and their
    solvers (:mod:`rulescopes`), the questions (:mod:`rulequestions`), a step shrunk
    to its smallest scope (:mod:`ruleshrink`) and said (:mod:`rulewords`)."""

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

    def last_resort(self, step: Step) -> bool:
        """Whether ``step`` is a question of :data:`WIDE` parts or more named by its
        parts alone (``3 rules and 5 units``): :meth:`said` leaves it so when no
        chain says it."""
        return step in self._wide


__all__ = ["MOST_REMOVALS", "RuleSteps", "Scope"]
