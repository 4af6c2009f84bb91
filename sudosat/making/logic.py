"""Reasoning a person does on candidates, by level: what a variant is rated by.

A variant's candidates start from the singles over rows, columns and regions
(:func:`deduce`, with each rule's own cell restrictions). Then, from the
weakest:

* ``singles``: naked and hidden singles over every house: rows, columns,
  regions and the houses rules add (diagonals, extra regions, disjoint groups);
* ``locked``: a value whose places in one house all lie where it meets another
  house is in neither's other cells (pointing and claiming, for any two houses);
* ``rules``: what each rule says given the candidates: unit propagation over
  the puzzle's clauses (a cage's combinations, a thermometer's order, ...),
  with the candidates ruled out so far as assumptions.

``easy`` is singles alone; ``intermediate`` all three, to a fixpoint. Every
step is sound (each follows from the rules), so a puzzle whose cells they all
settle has that one solution, reached without search.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from itertools import combinations

from pysat.solvers import Minicard

from sudosat.core.masks import values as values_of
from sudosat.core.puzzle import Puzzle
from sudosat.sat.cnf import Encoding, cell_value, is_candidate, literal
from sudosat.sat.encoding import encode
from sudosat.solving.deduce import deduce
from sudosat.solving.fast import holding

TECHNIQUES = {"easy": ("singles",), "intermediate": ("singles", "locked", "rules")}
"""What each level's reasoning may use."""


def houses(puzzle: Puzzle) -> list[tuple[int, ...]]:
    """Groups of N cells that hold every value once: the layout's units and the
    rules' own (a rule says which, through ``houses``)."""
    found = list(puzzle.layout.units)
    for rule in puzzle.rules.constraints if puzzle.rules else ():
        found += [house for house in rule.houses(puzzle.layout) if house not in found]
    return found


class Reasoner:
    """The techniques of a level over one puzzle's rules. The clauses are loaded
    once: the givens and the candidates come as assumptions, so a generator may
    ask about one puzzle after another of the same rules."""

    def __init__(self, puzzle: Puzzle, level: str) -> None:
        self.rules_of = puzzle
        self.n = puzzle.size
        self.techniques = TECHNIQUES[level]
        self.houses = houses(puzzle)
        sets = [frozenset(house) for house in self.houses]
        meeting = ((a, b, sets[a] & sets[b]) for a, b in combinations(range(len(sets)), 2))
        self.meets = [(a, b, common) for a, b, common in meeting if len(common) >= 2]
        self._solver: Minicard | None = None
        constraints = puzzle.rules.constraints if puzzle.rules else ()
        self.said_by_houses = all(rule.houses(puzzle.layout) for rule in constraints)
        """Every rule is houses (a jigsaw, diagonals): its propagation is the singles'."""

    def close(self) -> None:
        if self._solver is not None:
            self._solver.delete()
            self._solver = None

    def __enter__(self) -> Reasoner:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def open_cells(self, puzzle: Puzzle) -> list[int]:
        """The cells the level's reasoning leaves open in ``puzzle`` (these rules,
        its givens); none: it settles the puzzle. A contradiction leaves every
        cell open."""
        values = self.candidates(puzzle)
        return [cell for cell, held in enumerate(values) if len(held) != 1]

    def candidates(self, puzzle: Puzzle) -> list[set[int]]:
        """Each cell's candidates once the level's reasoning is done (empty sets
        everywhere: a contradiction)."""
        start = deduce(puzzle)
        if start.contradiction:
            return [set() for _ in range(self.n**2)]
        values = [
            set(values_of(start.masks[c])) if c in start.masks else {start.grid[c]}
            for c in range(self.n**2)
        ]
        changed = True
        while changed:
            changed = self._singles(values)
            if "locked" in self.techniques:
                changed = self._locked(values) or changed
            if "rules" in self.techniques and not changed and not self.said_by_houses:
                changed = self._rules(values)
            if any(not held for held in values):
                return [set() for _ in values]
        return values

    def _singles(self, values: list[set[int]]) -> bool:
        """Naked and hidden singles over every house, to a fixpoint."""
        changed, again = False, True
        while again:
            again = False
            for house in self.houses:
                placed = {next(iter(values[c])) for c in house if len(values[c]) == 1}
                for cell in house:
                    if len(values[cell]) > 1 and values[cell] & placed:
                        values[cell] -= placed
                        again = True
                for value in set(range(1, self.n + 1)) - placed:
                    places = [c for c in house if value in values[c]]
                    if len(places) == 1 and len(values[places[0]]) > 1:
                        values[places[0]] = {value}
                        again = True
                    elif not places:
                        values[house[0]] = set()  # a house without a value: no solution
                        return True
            changed = changed or again
        return changed

    def _locked(self, values: list[set[int]]) -> bool:
        """Pointing and claiming, for every two houses that meet in two cells or more."""
        n = self.n
        places = [
            [frozenset(c for c in house if value in values[c]) for value in range(n + 1)]
            for house in self.houses
        ]
        changed = False
        for a, b, common in self.meets:
            for one, other in ((a, b), (b, a)):
                for value in range(1, n + 1):
                    here = places[one][value]
                    if len(here) < 2 or not here <= common:
                        continue
                    for cell in places[other][value] - common:
                        if value in values[cell]:
                            values[cell].discard(value)
                            changed = True
        return changed

    def _rules(self, values: Sequence[set[int]]) -> bool:
        """Unit propagation over every rule's clauses, the candidates assumed."""
        n = self.n
        solver = self._load()
        assumptions = [
            -literal(n, cell, v)
            for cell, held in enumerate(values)
            for v in range(1, n + 1)
            if v not in held
        ]
        ok, implied = solver.propagate(assumptions=assumptions)
        if not ok:
            for held in values:
                held.clear()
            return True
        changed = False
        for lit in implied:
            if not is_candidate(n, lit):
                continue
            cell, value = cell_value(n, lit)
            if value not in values[cell]:
                continue
            if lit > 0 and len(values[cell]) > 1:
                values[cell].intersection_update({value})
                changed = True
            elif lit < 0:
                values[cell].discard(value)
                changed = True
        return changed

    def _load(self) -> Minicard:
        if self._solver is None:
            empty = replace(self.rules_of, cells=(0,) * self.n**2)  # givens: assumed
            cnf = encode(empty, Encoding(reduced=False))
            self._solver = holding(cnf)
        return self._solver


def level_settles(puzzle: Puzzle, level: str) -> bool:
    """Whether ``level``'s reasoning settles every cell of ``puzzle``."""
    with Reasoner(puzzle, level) as reasoner:
        return not reasoner.open_cells(puzzle)
