"""The builder a variant rule writes its clauses with (see :mod:`rules`).

Apart from :mod:`encoding`, so that a classic puzzle's run never loads it.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager

from sudosat.sat.cnf import Cnf, at_most_one_part

Lit = int | bool
"""A literal for a rule: a variable (negated: minus), or a constant where the
givens and the singles have decided it."""


class Builder:
    """What a rule writes its clauses with (see :mod:`rules`).

    ``lit(cell, value)`` is the literal "cell holds value": a variable while the
    cell is open, else True or False (the reduced encoding: a given, a value the
    singles placed or ruled out). ``ge(cell, value)`` is "cell holds value or
    more", an order literal made the first time it is asked for (with its
    channelling clauses), so that inequalities along thermometers, whispers and
    kropki dots take a clause per value instead of one per pair of values.
    Clauses are simplified as they come: a true literal drops the clause, a
    false one drops out of it, and an empty clause means no solution."""

    def __init__(self, cnf: Cnf, cell_groups: list[list[int]]) -> None:
        self.cnf = cnf
        self.size = n = cnf.puzzle.size
        self.top = cnf.nv
        self.fixed = cnf.puzzle.cells if cnf.encoding.reduced else (0,) * (n * n)
        self.values: dict[int, dict[int, int]] = {}  # open cell -> value -> variable
        for (cell, values), variables in zip(cnf.open_cells, cell_groups, strict=True):
            self.values[cell] = dict(zip(values, variables, strict=True))
        self.orders: dict[int, dict[int, Lit]] = {}
        self.somes: dict[tuple[tuple[int, ...], int], Lit] = {}
        self.guard: int | None = None
        """A selector that switches the clauses on (explain's), or None: always on."""
        self.exempt: tuple[int, ...] = ()
        """Selectors any of which switches the guarded clauses off (see :meth:`unless`)."""
        self.name = ""
        self.clauses: list[list[int]] = []
        self.exactly: list[list[int]] = []
        self.atmost: list[list[int]] = []

    # --- literals -------------------------------------------------------------

    def lit(self, cell: int, value: int) -> Lit:
        fixed = self.fixed[cell]
        if fixed:
            return fixed == value
        return self.values[cell].get(value, False)

    def by_value(self, cells: Sequence[int]) -> list[list[Lit]]:
        """``[lit(c, v) for c in cells]`` for each value v = 1..N, in one pass."""
        fixed, held = self.fixed, self._held(cells)
        return [
            [
                h.get(value, False) if h is not None else fixed[c] == value
                for c, h in zip(cells, held, strict=True)
            ]
            for value in range(1, self.size + 1)
        ]

    def no_repeats(self, cells: Sequence[int]) -> None:
        """No value twice among ``cells``: for each value 1..N, :meth:`at_most_one`
        of the cells' literals, found in one pass over the cells' candidates (the
        killer batch writes thousands of these)."""
        if self.guard is not None:
            for lits in self.by_value(cells):
                self.at_most_one(lits)
            return
        fixed, values = self.fixed, self.values
        free: dict[int, list[int]] = {}
        placed: dict[int, int] = {}
        for cell in cells:
            if fixed[cell]:
                placed[fixed[cell]] = placed.get(fixed[cell], 0) + 1
                continue
            for value, x in values[cell].items():
                found = free.get(value)
                if found is None:
                    free[value] = [x]
                else:
                    found.append(x)
        for value in range(1, self.size + 1):  # at_most_one's order and its cases
            group = self._settle(free.get(value, []), placed.get(value, 0))
            if group is not None and len(group) > 1:
                self.atmost.append(group)

    def _held(self, cells: Sequence[int]) -> list[dict[int, int] | None]:
        """Each cell's value -> variable map, None for a decided cell (see :meth:`lit`)."""
        return [None if self.fixed[c] else self.values[c] for c in cells]

    def candidates(self, cell: int) -> list[int]:
        """The values a cell may still hold, in order."""
        fixed = self.fixed[cell]
        return [fixed] if fixed else list(self.values[cell])

    def ge(self, cell: int, value: int) -> Lit:
        """The literal "``cell`` holds ``value`` or more"."""
        values = self.candidates(cell)
        if value <= values[0]:
            return True
        if value > values[-1]:
            return False
        order = self.orders.get(cell)
        if order is None:
            order = self.orders[cell] = self._order(cell, values)
        return order[next(v for v in values if v >= value)]

    def _order(self, cell: int, values: list[int]) -> dict[int, Lit]:
        """Order literals o[v] = "cell >= v" for each candidate v but the first,
        channelled to the cell's value literals."""
        order: dict[int, Lit] = {values[0]: True}
        for value in values[1:]:
            order[value] = self.new()
        aboves: list[Lit] = [order[v] for v in values[1:]] + [False]
        guard, self.guard = self.guard, None  # definitions: on whichever rule asked
        for value, above in zip(values, aboves, strict=True):
            here, x = order[value], self.lit(cell, value)
            self.clause([self.neg(above), here])  # cell >= next value: cell >= this one
            self.clause([self.neg(x), here])
            self.clause([self.neg(x), self.neg(above)])
            self.clause([self.neg(here), above, x])  # >= this, not >= the next: this
        self.guard = guard
        return order

    @contextmanager
    def unless(self, selectors: Sequence[int]) -> Iterator[None]:
        """Explain's mode (a guard set): the clauses written inside hold only
        while none of ``selectors`` does, so that taking a rule away can add a
        constraint (a negative constraint's pair once its dot is gone)."""
        assert self.guard is not None or not selectors, "unless: explain's mode only"
        saved = self.exempt
        self.exempt = (*saved, *selectors)
        try:
            yield
        finally:
            self.exempt = saved

    def new(self) -> int:
        self.top += 1
        return self.top

    def some(self, cells: Sequence[int], value: int) -> Lit:
        """The literal "some cell of ``cells`` holds ``value``" (made once per
        group and value; a definition, on whichever rule asked)."""
        return self.present(cells, (value,))[value]

    def present(self, cells: Sequence[int], values: Iterable[int]) -> dict[int, Lit]:
        """:meth:`some` for each of ``values``: a cage's digits, the cells sorted once
        (the killer batch makes hundreds of these a puzzle)."""
        group = tuple(sorted(cells))
        fixed, somes, found = self.fixed, self.somes, {}
        held = self._held(group)
        decided = {fixed[c] for c, h in zip(group, held, strict=True) if h is None}
        opens = [h for h in held if h is not None]
        for value in values:
            lit = somes.get((group, value))
            if lit is None:
                if value in decided:
                    lit = True
                else:  # (a variable is never 0)
                    free = [x for h in opens if (x := h.get(value))]
                    lit = self.new() if free else False
                    if free:
                        self.clauses += [[-x, lit] for x in free]
                        self.clauses.append([-lit, *free])
                somes[(group, value)] = lit
            found[value] = lit
        return found

    @staticmethod
    def neg(lit: Lit) -> Lit:
        return (not lit) if isinstance(lit, bool) else -lit

    # --- clauses and groups ----------------------------------------------------

    def family(self, name: str) -> None:
        if name != self.name:
            self._flush()
            self.name = name

    def clause(self, lits: Iterable[Lit]) -> None:
        """At least one of ``lits`` holds."""
        self.implies((), lits)

    def implies(self, condition: Iterable[Lit], then: Iterable[Lit]) -> None:
        """When every literal of ``condition`` holds, one of ``then`` does."""
        found: list[int] = []  # clause() inlined: the rules call this most
        for lit in condition:
            if lit is False:
                return
            if lit is not True:
                found.append(-lit)
        for lit in then:
            if lit is True:
                return
            if lit is not False:
                found.append(lit)
        if self.guard is not None:
            found.append(-self.guard)
            found.extend(self.exempt)
        self.clauses.append(found)

    def add_free(self, clauses: Iterable[list[int]]) -> None:
        """Clauses of variables only (no constants), added as they are (with the
        guard): what :meth:`implies` would do, without a call per clause."""
        if self.guard is None:
            self.clauses.extend(clauses)
        else:
            self.clauses.extend([*clause, -self.guard, *self.exempt] for clause in clauses)

    def at_most_one(self, lits: Iterable[Lit]) -> None:
        free = self._group(lits)
        if free is None or len(free) < 2:
            return
        if self.guard is None:
            self.atmost.append(free)
        else:  # switched on by a selector: a clause per pair
            for i, x in enumerate(free):
                for y in free[i + 1 :]:
                    self.clause([-x, -y])

    def exactly_one(self, lits: Iterable[Lit]) -> None:
        free = self._group(lits, exact=True)
        if free is None:
            return
        if self.guard is None and len(free) > 1:
            self.exactly.append(free)
        else:
            self.clause(free)
            self.at_most_one(free)

    def _group(self, lits: Iterable[Lit], exact: bool = False) -> list[int] | None:
        """The free literals of a group once its constants are taken into
        account (None: a true one is there, so the rest are false)."""
        free: list[int] = []
        trues = 0
        for lit in lits:
            if lit is True:
                trues += 1
            elif lit is not False:
                free.append(lit)
        return self._settle(free, trues, exact)

    def _settle(self, free: list[int], trues: int, exact: bool = False) -> list[int] | None:
        """:meth:`_group` once its literals are sorted: ``free`` variables and
        ``trues`` constants that hold."""
        if trues > 1:
            self.clause([])
        elif trues == 1:
            for lit in free:
                self.clause([-lit])
            return None
        elif exact and not free:
            self.clause([])
        return free

    def _flush(self) -> None:
        cnf = self.cnf
        if not (self.clauses or self.exactly or self.atmost):
            return
        part: list[list[int]] = [*self.clauses, *self.exactly]
        cnf.extra.extend(self.clauses)
        cnf.groups.extend(self.exactly)
        cnf.atmost.extend(self.atmost)
        cnf.parts.append(part)
        cnf.names.append(self.name)
        pairs, self.top = at_most_one_part(self.exactly + self.atmost, cnf.encoding.amo, self.top)
        cnf.parts.append(pairs)
        cnf.names.append(self.name)
        self.clauses, self.exactly, self.atmost = [], [], []

    def finish(self) -> None:
        self._flush()
        self.cnf.nv = self.top
