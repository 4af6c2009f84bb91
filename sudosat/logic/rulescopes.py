"""A variant's rules in scopes, each with its own small solver: a rule alone, two
rules that share a cell, a rule with its units, a house with its rules (see
:mod:`rulesteps`). The first of the four jobs of the rule steps: what is asked
of which clauses. :mod:`rulequestions` asks; :mod:`ruleshrink` takes a step
apart to its smallest scope; :mod:`rulewords` says it."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations

from pysat.solvers import Minicard

from sudosat.core.masks import bit
from sudosat.core.puzzle import Constraint, Layout, Puzzle
from sudosat.logic.board import Board, Candidate, Step
from sudosat.logic.rulelocks import Holding
from sudosat.sat.cnf import cell_value, is_candidate, literal, lookup, ruled_out
from sudosat.sat.encoding import explaining
from sudosat.solving.fast import exactly_one


@dataclass(frozen=True)
class Scope:
    """What one question switches on, and the cells it asks about."""

    rules: tuple[int, ...]
    units: tuple[int, ...]
    cells: tuple[int, ...]


class RuleScopes:
    """The scopes of one puzzle's rules and a Minicard for each, made once asked."""

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
