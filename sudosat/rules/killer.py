"""Killer cages: digits in a cage do not repeat and, when the cage has a sum,
add up to it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from math import comb
from typing import TYPE_CHECKING, ClassVar

from sudosat.core.masks import from_values, has
from sudosat.core.puzzle import Layout
from sudosat.rules.base import Rule, rule
from sudosat.rules.diagonals import repeated
from sudosat.rules.kinds import GroupRule
from sudosat.rules.where import Where, cell_list
from sudosat.sat.arith import (
    cell_int,
    complement,
    digit_sets,
    distinct,
    distinct_sum,
    holdable,
    reachable,
    sum_equals,
    sum_to,
)
from sudosat.sat.builder import Builder

if TYPE_CHECKING:
    from sudosat.core.pen import Pen


@rule
@dataclass(frozen=True)
class KillerCage(GroupRule):
    def relabels(self) -> bool:  # a cage without a sum keeps its digits apart, as any
        return self.value is None

    title: ClassVar[str] = "killer cage"
    example: ClassVar[str] = "cage 15: r2c2 r2c3 r3c2"
    technique: ClassVar[str] = "cage combinations"
    meaning: ClassVar[str] = (
        "Digits in the cage do not repeat and add up to its number; without a number, they only do"
        " not repeat."
    )
    takes: ClassVar[str] = "the sum (none: distinct digits only)"
    field: ClassVar[str] = "killercage"
    words: ClassVar[tuple[str, ...]] = ("cage", "killer", "killer-cage")
    family: ClassVar[str] = "killer cages: distinct digits, sums"
    valued: ClassVar[bool] = True

    @classmethod
    def made(cls, cells: tuple[int, ...], value: int | None, where: Where) -> GroupRule:
        n = where.size
        if len(cells) > n:
            raise where.error(f"a cage of {len(cells)} cells cannot hold distinct digits 1..{n}")
        if value is not None and not reachable(n, len(cells), value):
            raise where.error(
                f"no {len(cells)} distinct digits 1..{n} add up to {value} "
                f"(cage {cell_list(cells, n)})"
            )
        return super().made(cells, value, where)

    def allowed(self, size: int) -> dict[int, int]:
        if self.value is None:
            return {}
        sets = digit_sets(size, len(self.group), self.value) if len(self.group) <= 8 else ()
        if not sets:
            return {}
        return dict.fromkeys(self.group, from_values(d for digits in sets for d in digits))

    @classmethod
    def search_cages(
        cls, rules: Sequence[Rule], layout: Layout
    ) -> list[tuple[tuple[int, ...], tuple[int, ...]]] | None:
        """Each cage by its sum's digit sets (without a sum: its digits differ), and
        the innies of each row, column and region, whose digits differ too; None
        when a cage could make too many (SEARCH_SETS_MOST)."""
        return _search_cages(tuple(r for r in rules if isinstance(r, KillerCage)), layout)

    def deduction(self, size: int, candidates: Sequence[int]) -> str:
        """``16 in two cells: 7+9``: the digit sets the cage's candidates still fit."""
        if self.value is None or len(self.group) > 8:
            return ""
        fits = [d for d in digit_sets(size, len(self.group), self.value) if _fits(d, candidates)]
        if not fits:
            return ""
        count = len(self.group)
        cells = f"{COUNTS.get(count, count)} cell{'s' if count > 1 else ''}"
        said = " or ".join("+".join(map(str, sorted(d))) for d in sorted(fits, key=sorted))
        return f"{self.value} in {cells}: {said}"

    def encode(self, b: Builder) -> None:
        distinct(b, self.group)
        if self.value is not None:
            distinct_sum(b, self.group, self.value)

    @classmethod
    def encode_all(cls, rules: Sequence[Rule], b: Builder) -> None:
        """Every cage, and what the cages imply with the rows, columns and
        regions: each adds up to N(N+1)/2 (45 on a 9x9), so the cells a unit
        keeps beside the cages inside it (innies), and the cells the cages over
        it stick out with (outies), add up to what is left. Implied, so sound;
        but they let propagation do the arithmetic killer solvers do."""
        super().encode_all(rules, b)
        cages = [r for r in rules if isinstance(r, KillerCage)]
        if b.size < INNIES_FROM or overlap(cages):
            return  # (the sums below take each cell once)
        if b.size >= APART_FROM:
            apart_in_units(cages, b)
        if b.size >= POINTING_FROM:
            for cage in rules:
                if isinstance(cage, KillerCage) and cage.value is not None:
                    cage.point(b)
        implied = implied_sums(rules, b.cnf.puzzle.layout, b.size >= IMPLIED_FROM)
        for cells, value, apart in implied:
            if apart:
                distinct_sum(b, cells, value)
            elif len(cells) <= OUTIES:
                sum_equals(b, cells, value)
        if b.size >= SIGNED_FROM:
            written = {cells for cells, _, _ in implied}
            signed = signed_sums(cages, b.cnf.puzzle.layout, SIGNED_CELLS)
            for (added, taken), value in signed.items():
                if taken or added not in written:
                    terms = [cell_int(b, c) for c in added] + [complement(b, c) for c in taken]
                    sum_to(b, terms, value + (b.size + 1) * len(taken))

    def point(self, b: Builder) -> None:
        """A digit the cage holds is in no other cell of a unit the cage lies in:
        at once for a digit in every set that makes the sum, else as soon as
        the cage is known to hold it (sudoku's pointing, for cages)."""
        assert self.value is not None
        possible = holdable(b, self.group)
        sets = [s for s in digit_sets(b.size, len(self.group), self.value) if s <= possible]
        if not sets or len(self.group) > 8:
            return
        every, some = frozenset.intersection(*sets), frozenset.union(*sets)
        mine = set(self.group)
        for unit in b.cnf.puzzle.layout.units:
            if not mine <= set(unit):
                continue
            others = [c for c in unit if c not in mine]
            for digit in sorted(some):
                held = [] if digit in every else [b.some(self.group, digit)]
                for other in others:
                    b.implies([*held, b.lit(other, digit)], [])

    def broken(self, grid: Sequence[int], layout: Layout) -> str | None:
        why = repeated(grid, self.group)
        if why is None and self.value is not None:
            found = sum(grid[c] for c in self.group)
            why = f"adds up to {found}" if found != self.value else None
        return why

    def describe(self, size: int) -> str:
        total = "" if self.value is None else f" sum {self.value}"
        return f"cage {cell_list(sorted(self.group), size)}{total}"

    def draw(self, pen: Pen) -> None:
        pen.cage(self.group, "" if self.value is None else str(self.value))


IMPLIED_CELLS = 5
"""Innies and outies of at most this many cells are written as sums."""
INNIES_FROM = 9
"""Grid sizes from which the innies of each row, column and region are written."""
APART_FROM = 12
"""Grid sizes from which cages inside one unit share no digit (:func:`apart_in_units`)."""
IMPLIED_FROM = 12
"""Grid sizes from which the bands' sums and the outies are written too: below, the search they
save costs less than writing them (BENCHMARKS.md, Variants)."""
OUTIES = 3
"""Cells, at most, of an implied sum whose digits may repeat (a tree of additions)."""
BAND_WIDTHS = (2, 3)
"""Bands of rows or columns whose implied sums are written (wider ones did not pay);
from IMPLIED_FROM, two boxes side by side are such an area too."""
POINTING_FROM = 20
"""Grid sizes from which cages point (see :meth:`KillerCage.point`): it paid on
25x25 killers, not on 16x16 ones (BENCHMARKS.md, Variants)."""


SIGNED_FROM = 16
"""Grid sizes from which the bands' signed sums are written (:func:`signed_sums`):
16x16 killers 0.6-0.85x; on 9x9 killers they halve a hard one's search but
slow a batch of easy ones by 5-8% (BENCHMARKS.md, issue 36)."""
SIGNED_CELLS = 3
"""Cells, at most, of a signed sum (4 or 5: fewer conflicts, slower)."""


def overlap(cages: Sequence[KillerCage]) -> bool:
    """Whether some cell is in two of ``cages`` (f-puzzles can draw that)."""
    return len({c for cage in cages for c in cage.group}) < sum(len(c.group) for c in cages)


def apart_in_units(cages: Sequence[KillerCage], b: Builder) -> None:
    """Of the cages inside one row, column or region, at most one holds each
    digit: an "at most one" over their "holds d" literals, so that a digit one
    cage must hold leaves the others' digit sets at once."""
    for unit in b.cnf.puzzle.layout.units:
        cells = set(unit)
        inside = [cage for cage in cages if cells.issuperset(cage.group)]
        if len(inside) < 2:
            continue
        for digit in range(1, b.size + 1):
            b.at_most_one([b.some(cage.group, digit) for cage in inside])


def _neighbour_boxes(layout: Layout) -> list[tuple[frozenset[int], frozenset[int]]]:
    """Pairs of boxes side by side or one above the other."""
    assert layout.box is not None
    rows, cols = layout.box
    n = layout.size
    boxes = {
        (cells[0] // n // rows, cells[0] % n // cols): frozenset(cells)
        for cells in layout.units[2 * n :]
    }
    return [
        (box, boxes[(r + dr, c + dc)])
        for (r, c), box in boxes.items()
        for dr, dc in ((0, 1), (1, 0))
        if (r + dr, c + dc) in boxes
    ]


def implied_sums(
    rules: Sequence[Rule], layout: Layout, wide: bool = True
) -> list[tuple[tuple[int, ...], int, bool]]:
    """The sums the 45 rule gives: (cells, their sum, whether their digits are
    distinct), over each row, column and region (their innies), and with
    ``wide`` over each band of BAND_WIDTHS rows or columns too, outies as well.
    Each cell is taken once: for cages that do not overlap (see :func:`overlap`)."""
    cages = [r for r in rules if isinstance(r, KillerCage) and r.value is not None]
    cage_of = {cell: cage for cage in cages for cell in cage.group}
    n = layout.size
    total = n * (n + 1) // 2
    areas = [(frozenset(unit), 1, True) for unit in layout.units]
    for width in BAND_WIDTHS if wide else ():
        for start in range(n - width + 1):
            rows = frozenset(r * n + c for r in range(start, start + width) for c in range(n))
            cols = frozenset(r * n + c for r in range(n) for c in range(start, start + width))
            areas += [(rows, width, False), (cols, width, False)]
    if wide and layout.box is not None:
        areas += [(a | b, 2, False) for a, b in _neighbour_boxes(layout)]
    found: dict[tuple[int, ...], tuple[int, bool]] = {}
    for area, units, apart in areas:
        inside = {cage for cell in area if (cage := cage_of.get(cell)) and set(cage.group) <= area}
        rest = tuple(sorted(area - {c for cage in inside for c in cage.group}))
        if 0 < len(rest) <= IMPLIED_CELLS:
            found[rest] = (units * total - sum(c.value or 0 for c in inside), apart)
        over = {cage_of.get(cell) for cell in area}
        if wide and None not in over:  # every cell of the area is in a cage with a sum
            out = tuple(sorted({c for cage in over if cage for c in cage.group} - area))
            if 0 < len(out) <= IMPLIED_CELLS:
                value = sum(cage.value or 0 for cage in over if cage) - units * total
                found[out] = (value, False)
    return [(cells, value, apart) for cells, (value, apart) in found.items()]


def signed_sums(
    cages: Sequence[KillerCage], layout: Layout, most: int
) -> dict[tuple[tuple[int, ...], tuple[int, ...]], int]:
    """The 45 rule over every band of consecutive rows, of columns or of regions
    (any width), with each cage over the band counted inside (its cells in the
    band, added) or outside (its sum, less its cells out of the band, taken
    away), whichever leaves fewer cells: (added, taken away) -> what the added
    less the taken away make, for at most ``most`` cells. A band is grown a unit
    at a time, each cage's cells inside it counted as it goes, so a 36x36 costs
    a pass over each band's cells; only short sums are spelt out.
    Cages that do not overlap (see :func:`overlap`); cages without a sum are
    cells like any other."""
    n = layout.size
    full = n * (n + 1) // 2
    cage_of = {cell: cage for cage in cages if cage.value is not None for cell in cage.group}
    found: dict[tuple[int, int, int], tuple[tuple[int, ...], tuple[int, ...], int]] = {}
    # (family, width, start) -> (added, taken away, value)
    for kind, family in enumerate(
        (layout.units[:n], layout.units[n : 2 * n], layout.units[2 * n :])
    ):
        for start in range(n):
            inside: dict[KillerCage, int] = {}
            cost = 0  # cells the sum would have: free cells, and each cage's fewer side
            for width, unit in enumerate(family[start:], 1):
                for cell in unit:
                    cage = cage_of.get(cell)
                    if cage is None:
                        cost += 1
                        continue
                    size, was = len(cage.group), inside.get(cage, 0)
                    inside[cage] = was + 1
                    cost += _side(was + 1, size) - _side(was, size)
                if 0 < cost <= most:
                    area = frozenset().union(*family[start : start + width])
                    found[kind, width, start] = signed_sum(area, inside, cage_of, width * full)
    # narrow bands first, as measured (the search is sensitive to clause order)
    return {(added, taken): value for _, (added, taken, value) in sorted(found.items())}


def _counted_out(inside: int, size: int) -> bool:
    """Whether a cage with ``inside`` of its ``size`` cells in a band is taken away
    (its sum less the cells outside) rather than its cells inside added: fewer cells."""
    return size - inside < inside


def _side(inside: int, size: int) -> int:
    """The cells a cage brings to a signed sum."""
    return size - inside if _counted_out(inside, size) else inside


def signed_sum(
    area: frozenset[int], inside: dict[KillerCage, int], cage_of: dict[int, KillerCage], value: int
) -> tuple[tuple[int, ...], tuple[int, ...], int]:
    """An area's 45-rule sum with the cages over it (``inside``: cage -> its cells in
    the area) each added or taken away (see :func:`signed_sums`): (added, taken
    away, what they make), ``value`` being the area's whole total."""
    added = [c for c in area if c not in cage_of]
    taken: list[int] = []
    for cage, count in inside.items():
        if _counted_out(count, len(cage.group)):
            value -= cage.value or 0
            taken += [c for c in cage.group if c not in area]
        else:
            added += [c for c in cage.group if c in area]
    return tuple(sorted(added)), tuple(sorted(taken)), value


COUNTS: dict[int, str | int] = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five"}


def _fits(digits: frozenset[int], candidates: Sequence[int]) -> bool:
    """Whether the cells can hold ``digits``, one each, from their candidates."""

    def place(index: int, left: frozenset[int]) -> bool:
        if index == len(candidates):
            return True
        mask = candidates[index]
        return any(has(mask, d) and place(index + 1, left - {d}) for d in left)

    return place(0, digits)


SEARCH_SETS_MOST = 12_870
"""Digit sets a cage's size may make on its grid (C(size, cells)) for the compiled
engine's search to keep it by them: every cage of a 16x16 (C(16, 8)); past it the
search leaves the cage to the check (listing the sets would cost more)."""


@lru_cache(maxsize=64)  # a setter's edits ask of the same cages again and again
def _search_cages(
    cages: tuple[KillerCage, ...], layout: Layout
) -> list[tuple[tuple[int, ...], tuple[int, ...]]] | None:
    n = layout.size
    found = [(c.group, _set_masks(n, len(c.group), c.value)) for c in cages]
    if not all(sets for _, sets in found):
        return None
    if not overlap(cages):
        for cells, value, apart in implied_sums(cages, layout, wide=False):
            if apart and (sets := _set_masks(n, len(cells), value)):
                found.append((cells, sets))
    return found


@cache
def _set_masks(size: int, count: int, value: int | None) -> tuple[int, ...]:
    """The digit sets of a cage of ``count`` cells adding up to ``value``, as masks
    (no sum: every value, one set); none past SEARCH_SETS_MOST."""
    if value is None:
        return ((1 << size) - 1,)
    if comb(size, count) > SEARCH_SETS_MOST:
        return ()
    return tuple(from_values(digits) for digits in digit_sets(size, count, value))
