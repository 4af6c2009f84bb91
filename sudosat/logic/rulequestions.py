"""The SAT questions a rule step asks of its scope: which candidates no filling of
the scope keeps (each model found answers for every candidate it holds, its
witnesses kept; the rest asked one by one within a conflict budget), what the
rules alone hold, and unit propagation over every rule for the forcing chains."""

from __future__ import annotations

from collections.abc import Sequence

from pysat.solvers import Minicard

from sudosat.core.masks import bit
from sudosat.core.masks import values as bits
from sudosat.logic.board import Board, Candidate
from sudosat.logic.forcing import Propagation
from sudosat.logic.rulelocks import Holding, Need
from sudosat.logic.rulescopes import RuleScopes, Scope
from sudosat.sat.cnf import literal, ruled_out

QUESTION_BUDGET = 2000
"""Conflicts one question may take: past it the candidate stays (a person would not
find that step either), so a hard rule costs no more than this."""


WITNESSES = 64
"""Solutions kept for each question, to show values possible without asking again."""


class RuleQuestions(RuleScopes):
    """The questions asked of the scopes of one puzzle's rules."""

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

    def _model(self, solver: Minicard, cells: Sequence[int]) -> tuple[int, ...]:
        """The masks of the values the last model of ``solver`` puts in ``cells``."""
        n = self.n
        model = solver.get_model() or []
        return tuple(1 << (max(model[c * n : c * n + n]) - c * n - 1) for c in cells)

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

    def _alone(self, index: int, needs: Sequence[Need]) -> Minicard:
        """A fresh solver of rule ``index`` alone, with an "at least one" of each need."""
        solver = self._solver([self.cell_groups[c] for c in self.rule_cells[index]], (index,))
        for need in needs:
            solver.add_clause([literal(self.n, c, need.digit) for c in need.cells])
        return solver


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


def _ask(solver: Minicard, assumptions: list[int]) -> bool | None:
    """Whether the assumptions hold together (None: not known within the budget)."""
    solver.conf_budget(QUESTION_BUDGET)
    answer: bool | None = solver.solve_limited(assumptions=assumptions)
    return answer


def _fits(masks: Sequence[int], witness: Sequence[int]) -> bool:
    """Whether each cell's mask holds the witness's value (its mask) there."""
    return all(m & w for m, w in zip(masks, witness, strict=True))
