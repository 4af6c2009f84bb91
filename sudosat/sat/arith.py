"""Arithmetic over cells, for the rules: comparisons, sums and equalities.

An :class:`Int` is an integer in the order encoding: a literal "x >= t" for
each threshold t of its domain. A cell is one (its order literals, see
:meth:`builder.Builder.ge`), a pill's tens digit is a cell scaled by ten, a
sum of two is made with the support clauses of Tamura et al. ("Compiling
finite linear CSP into SAT"): for each a and b, x >= a and y >= b give
x + y >= a + b, and x <= a and y <= b give x + y <= a + b. Longer sums are
a balanced tree of such additions (a totalizer over integers), so every step
propagates bounds.

Sums of distinct digits (a killer cage, the digits between a sandwich's
crusts) are written as the sets of digits that can make them, one selector
per set, when there are few such sets: the digits a cage can hold, and those
it must hold, then propagate at once. Never as ordered tuples: those grow as
N!/(N-k)!.

Every constraint may be put under conditions (``when``): its clauses then
hold only when all the conditions do.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import combinations

from sudosat.sat.builder import Builder, Lit

COMBINATION_LIMIT = 64
"""Digit sets above which a sum of distinct digits is written as a layered graph."""
LAYERED_LIMIT = 12
"""Cells above which a sum of distinct digits is a tree of additions instead."""


@dataclass(frozen=True)
class Int:
    """An integer in [lo, hi] with a literal "x >= t" for every t."""

    lo: int
    hi: int
    at_least: Callable[[int], Lit]

    def ge(self, t: int) -> Lit:
        if t <= self.lo:
            return True
        if t > self.hi:
            return False
        return self.at_least(t)

    def le(self, t: int) -> Lit:
        """The literal "x <= t"."""
        lit = self.ge(t + 1)
        return (not lit) if isinstance(lit, bool) else -lit


def constant(value: int) -> Int:
    return Int(value, value, lambda t: t <= value)


def cell_int(b: Builder, cell: int) -> Int:
    values = b.candidates(cell)
    return Int(values[0], values[-1], lambda t: b.ge(cell, t))


def scaled(x: Int, factor: int) -> Int:
    """``factor * x`` for a positive factor (a pill's tens digit)."""
    return Int(x.lo * factor, x.hi * factor, lambda t: x.ge(-(-t // factor)))


def add(b: Builder, x: Int, y: Int, cap: int | None = None) -> Int:
    """``x + y``, with its own order literals and the support clauses; with
    ``cap``, ``min(x + y, cap)``: a sum compared with a constant below ``cap``
    needs no literal above it, so its clauses stay (cap x range) however long
    the line."""
    lo, hi = x.lo + y.lo, x.hi + y.hi
    if cap is not None:
        lo, hi = min(lo, cap), min(hi, cap)
    lits: dict[int, Lit] = {t: b.new() for t in range(lo + 1, hi + 1)}
    z = Int(lo, hi, lits.__getitem__)
    for t in range(lo + 2, hi + 1):
        b.implies([z.ge(t)], [z.ge(t - 1)])
    for a in range(x.lo, x.hi + 1):
        for c in range(y.lo, y.hi + 1):
            if a + c > hi and a > x.lo and c > y.lo:  # z >= hi follows from smaller a or c
                continue
            b.implies([x.ge(a), y.ge(c)], [z.ge(min(a + c, hi))])
            if a + c < hi:
                b.implies([x.le(a), y.le(c)], [z.le(a + c)])
    return z


def masked(b: Builder, cell: int, counts: Lit) -> Int:
    """The cell's digit where ``counts`` holds, else 0: an order literal a value,
    "counts and the digit is t or more"."""
    values = b.candidates(cell)
    lits: dict[int, Lit] = {}
    for t in range(1, values[-1] + 1):
        ge = b.ge(cell, t)
        if counts is False or ge is False:
            lits[t] = False
        elif counts is True or ge is True:
            lits[t] = ge if counts is True else counts
        if t in lits:
            continue
        lit = lits[t] = b.new()
        b.implies([lit], [counts])
        b.implies([lit], [ge])
        b.implies([counts, ge], [lit])
    return Int(0, values[-1], lits.__getitem__)


def masked_sum(b: Builder, cells: Sequence[int], counting: Sequence[Lit], value: int) -> None:
    """The digits of the cells whose ``counting`` literal holds add up to ``value``
    (a sandwich's filling, an X-sum's first X): a running sum capped just above
    ``value``, so that a 36x36's line costs (value x N) clauses a cell, not the
    sets or tuples of digits that could make it."""
    cap = value + 1
    running: Int | None = None
    for cell, counts in zip(cells, counting, strict=True):
        if counts is False:
            continue
        term = masked(b, cell, counts)
        running = term if running is None else add(b, running, term, cap)
    equals_constant(b, running if running is not None else constant(0), value)


def total(b: Builder, terms: Sequence[Int]) -> Int:
    """The sum of ``terms``, as a balanced tree of additions."""
    if not terms:
        return constant(0)
    if len(terms) == 1:
        return terms[0]
    half = len(terms) // 2
    return add(b, total(b, terms[:half]), total(b, terms[half:]))


def complement(b: Builder, cell: int) -> Int:
    """N + 1 less the cell's digit, on the cell's own order literals: a digit
    taken away in a sum becomes a term added."""
    x, top = cell_int(b, cell), b.size + 1
    return Int(top - x.hi, top - x.lo, lambda t: x.le(top - t))


def sum_to(b: Builder, terms: Sequence[Int], value: int) -> None:
    """``terms`` add up to ``value``: the totals of the two halves tied by a clause
    a value each way (the first half >= t: the second <= value - t; <= t: >=
    value - t), so that the whole sum needs no literals of its own."""
    if len(terms) == 1:
        equals_constant(b, terms[0], value)
        return
    half = len(terms) // 2
    x, y = total(b, terms[:half]), total(b, terms[half:])
    for t in range(x.lo, x.hi + 1):
        b.implies([x.ge(t)], [y.le(value - t)])
        b.implies([x.le(t)], [y.ge(value - t)])


def equal(b: Builder, x: Int, y: Int, when: Iterable[Lit] = ()) -> None:
    """``x == y`` (under ``when``)."""
    when = list(when)
    for t in range(min(x.lo, y.lo), max(x.hi, y.hi) + 2):
        b.implies([*when, x.ge(t)], [y.ge(t)])
        b.implies([*when, y.ge(t)], [x.ge(t)])


def less(b: Builder, x: Int, y: Int, strict: bool = True, when: Iterable[Lit] = ()) -> None:
    """``x < y`` (``strict``) or ``x <= y``, under ``when``: a clause per value."""
    when, gap = list(when), int(strict)
    for t in range(min(x.lo, y.lo - gap), max(x.hi, y.hi) + 1):
        b.implies([*when, x.ge(t)], [y.ge(t + gap)])


def apart(b: Builder, x: int, y: int, gap: int) -> None:
    """The digits of cells ``x`` and ``y`` differ by at least ``gap``: a clause per
    value (x = v: y <= v - gap or y >= v + gap), through the order literals."""
    for a, c in ((x, y), (y, x)):
        for v in b.candidates(a):
            b.implies([b.lit(a, v)], [b.neg(b.ge(c, v - gap + 1)), b.ge(c, v + gap)])


def equals_constant(b: Builder, x: Int, value: int, when: Iterable[Lit] = ()) -> None:
    when = list(when)
    b.implies(when, [x.ge(value)])
    b.implies(when, [x.le(value)])


def sum_equals(b: Builder, cells: Sequence[int], value: int, when: Iterable[Lit] = ()) -> None:
    """The digits of ``cells`` (repeats allowed) add up to ``value``."""
    equals_constant(b, total(b, [cell_int(b, c) for c in cells]), value, when)


@cache
def digit_sets(size: int, count: int, value: int) -> tuple[frozenset[int], ...]:
    """The sets of ``count`` distinct digits 1..size that add up to ``value``."""
    if count == 0:
        return (frozenset(),) if value == 0 else ()
    if not reachable(size, count, value):
        return ()
    return tuple(
        frozenset(digits)
        for digits in combinations(range(1, size + 1), count)
        if sum(digits) == value
    )


@cache
def subset_sums(digits: tuple[int, ...], count: int | None = None) -> frozenset[int]:
    """What distinct ``digits`` can add up to: any number of them, or ``count``."""
    sums: dict[int, set[int]] = {0: {0}}  # how many taken -> their sums
    for digit in digits:
        for taken in sorted(sums, reverse=True):
            if count is None or taken < count:
                sums.setdefault(taken + 1, set()).update(s + digit for s in sums[taken])
    if count is None:
        return frozenset(set().union(*sums.values()))
    return frozenset(sums.get(count, set()))


def reachable(size: int, count: int, value: int) -> bool:
    """Whether ``count`` distinct digits 1..size can add up to ``value``."""
    low = count * (count + 1) // 2
    high = count * (2 * size - count + 1) // 2
    return count <= size and low <= value <= high


def distinct_sum(
    b: Builder,
    cells: Sequence[int],
    value: int,
    when: Iterable[Lit] = (),
    digits: range | None = None,
) -> None:
    """The digits of ``cells``, which are distinct (the caller sees to that), add
    up to ``value``: as the digit sets that can (see the module), or as a tree
    of additions when they are many. ``digits``: the digits they may hold, when
    fewer than 1..N (a sandwich's filling holds neither 1 nor N)."""
    when = list(when)
    size, count = b.size, len(cells)
    if count == 2 and digits is None:  # the other cell holds what is left: arc consistent
        for x, y in (cells, cells[::-1]):
            for v in b.candidates(x):
                b.implies([*when, b.lit(x, v)], [b.lit(y, value - v)])
        return
    possible = holdable(b, cells, digits)
    sets = [s for s in _sets(size, count, value) if s <= possible]
    if len(sets) > COMBINATION_LIMIT:
        if count > LAYERED_LIMIT:
            sum_equals(b, cells, value, when)
        else:
            layered_sum(b, cells, value, when, sorted(possible))
        return
    one_of_sets(b, cells, sets, when)


def one_of_sets(
    b: Builder, cells: Sequence[int], sets: Sequence[frozenset[int]], when: Iterable[Lit] = ()
) -> None:
    """The digits of ``cells`` (distinct, the caller sees to that) are exactly one of
    ``sets``, each of len(cells) digits: a digit in every set is on some cell, a
    digit in none on no cell, and one selector per set fixes which of the others
    are there (a killer cage's sums, a renban line's runs)."""
    when = list(when)
    if not sets:
        b.implies(when, [])
        return
    every, some = frozenset.intersection(*sets), frozenset.union(*sets)
    for digit in sorted(every):  # in every set: some cell holds it
        b.implies(when, [b.lit(c, digit) for c in cells])
    for cell in cells:  # in no set: no cell holds it
        for digit in b.candidates(cell):
            if digit not in some:
                b.implies([*when, b.lit(cell, digit)], [])
    if len(sets) == 1:
        return
    # whether some cell holds the digit: a selector speaks of it once, not per cell
    present = b.present(cells, sorted(some - every))
    selectors = [b.new() for _ in sets]
    b.implies(when, selectors)
    # decided already: a set without a digit held, or with one ruled out, is out
    held = {d for d, p in present.items() if p is True}
    absent = {d for d, p in present.items() if p is False}
    free = [(d, p) for d, p in present.items() if not isinstance(p, bool)]
    for selector, chosen in zip(selectors, sets, strict=True):
        if not held <= chosen or not absent.isdisjoint(chosen):
            b.implies([selector], [])
    b.add_free(
        [-selector, p if digit in chosen else -p]
        for selector, chosen in zip(selectors, sets, strict=True)
        for digit, p in free
    )


def holdable(b: Builder, cells: Sequence[int], digits: Iterable[int] | None = None) -> set[int]:
    """The digits some cell of ``cells`` may hold (of ``digits``, when given)."""
    possible = set().union(*(b.candidates(c) for c in cells)) if cells else set()
    return possible if digits is None else possible & set(digits)


def layered_sum(
    b: Builder, cells: Sequence[int], value: int, when: list[Lit], digits: Sequence[int]
) -> None:
    """The digits present in ``cells`` (distinct, one a cell) add up to ``value``:
    a path through layers, one a digit, each node a (digits taken, their sum)
    that can still reach (len(cells), value); the clauses of a layered graph
    (an edge: its node, its label and its child; a node: an edge in and out),
    so that unit propagation keeps every digit's presence arc consistent."""
    count = len(cells)
    reach = [{(0, 0)}]
    for digit in digits:
        last = reach[-1]
        reach.append({(k + t, s + digit * t) for k, s in last for t in (0, 1) if k + t <= count})
    alive = [set[tuple[int, int]]() for _ in reach]
    alive[-1] = reach[-1] & {(count, value)}
    for i in range(len(digits) - 1, -1, -1):
        alive[i] = {(k, s) for k, s in reach[i] if {(k, s), (k + 1, s + digits[i])} & alive[i + 1]}
    if not alive[0]:
        b.implies(when, [])
        return
    node = [{state: b.new() for state in layer} for layer in alive]
    b.implies(when, [node[0][(0, 0)]])
    for i, digit in enumerate(digits):
        present = b.some(cells, digit)
        into: dict[tuple[int, int], list[Lit]] = {}
        by_label: dict[bool, list[Lit]] = {True: [], False: []}
        for (k, s), here in node[i].items():
            for taken, state in ((True, (k + 1, s + digit)), (False, (k, s))):
                label = present if taken else b.neg(present)
                child = node[i + 1].get(state)
                if child is None:
                    b.implies([here, label], [])
                    continue
                edge = b.new()
                b.implies([edge], [here])
                b.implies([edge], [label])
                b.implies([edge], [child])
                b.implies([here, label], [edge])
                into.setdefault(state, []).append(edge)
                by_label[taken].append(edge)
        for state, child in node[i + 1].items():
            b.implies([child], into.get(state, []))
        b.implies([*when, present], by_label[True])
        b.implies([*when, b.neg(present)], by_label[False])


def _sets(size: int, count: int, value: int) -> tuple[frozenset[int], ...]:
    """:func:`digit_sets`, bounded: past a limit of sets, a longer tuple tells the
    caller there are too many (without listing C(36, 18) of them)."""
    if count > 8 and size > 16:
        return (frozenset(),) * (COMBINATION_LIMIT + 1)
    return digit_sets(size, count, value)


def distinct(b: Builder, cells: Sequence[int], when: Iterable[Lit] = ()) -> None:
    """No digit twice among ``cells`` (under ``when``: pairwise clauses; else one
    "at most one" group per digit, native for Minicard)."""
    when = list(when)
    if not when:
        b.no_repeats(cells)
        return
    for lits in b.by_value(cells):
        for i, x in enumerate(lits):
            for y in lits[i + 1 :]:
                b.implies([*when, x, y], [])
