"""A rule step taken apart to the smallest scope that still makes it: its units,
rules and cells dropped one at a time while the removal still follows (an
assumption-based core shrunk by deletion), which names and weighs the step."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial
from itertools import combinations

from sudosat.core.masks import values as bits
from sudosat.core.puzzle import Puzzle
from sudosat.logic.board import Board, Candidate
from sudosat.logic.rulequestions import QUESTION_BUDGET, RuleQuestions
from sudosat.logic.rulescopes import Scope
from sudosat.sat.cnf import cell_value, is_candidate, literal
from sudosat.solving.fast import exactly_one


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


class RuleShrinking(RuleQuestions):
    """Rule steps shrunk to the smallest part of their scope that makes them."""

    def __init__(self, puzzle: Puzzle) -> None:
        super().__init__(puzzle)
        self._shrinkers: dict[Scope, _Shrinker] = {}

    def close(self) -> None:
        for shrinker in self._shrinkers.values():
            shrinker.delete()
        self._shrinkers.clear()
        super().close()

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


class _Shrinker:
    """A solver of one question's cells with each of its units, rules and cells
    behind a selector of its own, to take the question apart. A rule of the whole
    grid is split by cell: each clause holds only while every cell it speaks of
    is kept, so a step names the few cells of it that do the work."""

    def __init__(self, steps: RuleQuestions, scope: Scope) -> None:
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
