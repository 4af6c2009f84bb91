"""A puzzle's parts, its clues and a variant's rules, as SAT questions: a minimal
set that cannot all hold (:func:`minimal_conflict`, a MUS), and which of them a
unique puzzle needs (:func:`needed_parts`). ``explain`` answers with them, and
the candidates of a puzzle without a solution name its conflict."""

from __future__ import annotations

from collections.abc import Sequence

from sudosat.core.puzzle import Constraint, Grid, Puzzle
from sudosat.sat.cnf import cell_value, literal
from sudosat.sat.deadline import solve_by
from sudosat.sat.encoding import explaining
from sudosat.solving.fast import exactly_one

Clue = tuple[int, int]
"""(cell, value)."""
Part = Clue | Constraint
"""What a conflict is made of: clues, and a variant's rules."""


class _Parts:
    """One Minicard holding the layout's groups and a variant's rules each behind
    its selector (see :func:`encoding.explaining`), and the parts a question
    keeps: the givens' literals and the rules' selectors. A part left out is
    away: its selector assumed false, so that a rule whose absence constrains
    (a dot under a negative constraint) constrains."""

    def __init__(self, puzzle: Puzzle) -> None:
        n = puzzle.size
        groups, rule_clauses, selectors, _ = explaining(puzzle)
        constraints = puzzle.constraints
        self.puzzle = puzzle
        self.rule_of = dict(zip(selectors, constraints, strict=True))
        self.sat = exactly_one(groups)
        for clause in rule_clauses:
            self.sat.add_clause(clause)
        if puzzle.layout.box is None:  # what a jigsaw's regions imply, which it cannot see fast
            from sudosat.sat.leftovers import layout_clauses

            for clause in layout_clauses(puzzle.layout):
                self.sat.add_clause(clause)
        self.all = [literal(n, cell, v) for cell, v in puzzle.givens] + selectors
        self.relative = puzzle.rules is not None and puzzle.rules.relative
        """Whether leaving a rule out can constrain more: then a part once needed
        may be needed no more, and deletion goes round until nothing changes."""

    def unsat(self, kept: Sequence[int], deadline: float | None) -> bool:
        """Whether no solution keeps the parts ``kept`` (with the rest away)."""
        return not solve_by(self.sat, deadline, self.assumptions(kept))

    def assumptions(self, kept: Sequence[int]) -> list[int]:
        held = set(kept)
        return [*kept, *(-s for s in self.rule_of if s not in held)]

    def core(self, kept: Sequence[int]) -> list[int]:
        """After :meth:`unsat`: the parts of ``kept`` the answer needed."""
        found = set(self.sat.get_core() or kept)
        return [x for x in kept if x in found]

    def grid_holds(self, kept: Sequence[int], grid: Grid) -> bool:
        """Whether ``grid`` keeps the rules of ``kept`` alone (its givens it keeps):
        taking a rule away can break it only when the rules are relative."""
        rules = self.puzzle.rules
        if rules is None or not self.relative:
            return True
        held = set(kept)
        away = [rule for s, rule in self.rule_of.items() if s not in held]
        return not rules.without(away).violations(grid)

    def part(self, lit: int) -> Part:
        n = self.puzzle.size
        return self.rule_of[lit] if lit in self.rule_of else cell_value(n, lit)

    def delete(self) -> None:
        self.sat.delete()


def minimal_conflict(puzzle: Puzzle, deadline: float | None = None) -> list[Part]:
    """A minimal set of clues, and of a variant's rules, that cannot all hold with
    the rows, columns and regions (a MUS over the givens and one selector per rule:
    the puzzle of these parts alone has no solution, and it has one without any
    of them)."""
    parts = _Parts(puzzle)
    try:
        if not parts.unsat(parts.all, deadline):
            return []
        kept = parts.core(parts.all)
        changed = True
        while changed:  # once, unless leaving a rule out can constrain more
            changed = False
            for lit in list(kept):  # deletion: drop every part the rest conflict without
                trial = _without(kept, lit)
                if lit in kept and parts.unsat(trial, deadline):
                    kept, changed = parts.core(trial), parts.relative
    finally:
        parts.delete()
    return [parts.part(lit) for lit in kept]


def needed_parts(
    puzzle: Puzzle, solution: Grid, deadline: float | None = None
) -> tuple[list[Part], list[Part]]:
    """For a unique ``puzzle``: the clues and rules whose removal alone keeps it
    unique (redundant), and one minimal set of them that keeps it unique (givens
    dropped before rules). Each question: does ``solution`` keep the parts left
    (by the rules' own checks; it may not once a dot under a negative
    constraint is gone), and is there a solution other than it (UNSAT: still
    unique; its core says which parts were needed, so the rest go at once)."""
    parts = _Parts(puzzle)
    try:
        n = puzzle.size
        parts.sat.add_clause([-literal(n, cell, value) for cell, value in enumerate(solution)])

        def unique(kept: list[int]) -> bool:
            return parts.grid_holds(kept, solution) and parts.unsat(kept, deadline)

        if not unique(parts.all):
            raise ValueError("needed_parts: the puzzle is not unique")
        redundant = [lit for lit in parts.all if unique(_without(parts.all, lit))]
        kept = parts.all
        changed = True
        while changed:  # once, unless leaving a rule out can constrain more
            changed = False
            for lit in list(kept):
                if lit in kept and unique(trial := _without(kept, lit)):
                    kept, changed = trial, parts.relative
                    shrunk = parts.core(trial)
                    if shrunk != trial and parts.grid_holds(shrunk, solution):
                        kept = shrunk  # every part the answer did not need, at once
    finally:
        parts.delete()
    return [parts.part(x) for x in redundant], [parts.part(x) for x in kept]


def _without(parts: list[int], lit: int) -> list[int]:
    return [x for x in parts if x != lit]
