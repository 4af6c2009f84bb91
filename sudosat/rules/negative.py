"""Negative constraints: every mark is given, so two touching cells with no mark
between them are not in its relation.

* ``nonconsecutive`` (f-puzzles' flag; with kropki dots, "all white dots are
  given"): touching cells without a dot do not differ by 1.
* ``negative: ratio``: touching cells without a dot are in none of the ratios
  the black dots use (1:2 when there are none).

A pair with a dot of either colour is exempt from both: a 1 and a 2 may carry
either dot (the usual convention).
* ``negative: xv``: touching cells without an X or a V add up to neither 10 nor 5.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from sudosat.core.puzzle import Layout, cell_name
from sudosat.rules.base import Rule, rule
from sudosat.rules.kinds import FlagRule
from sudosat.rules.kropki import Difference, Ratio
from sudosat.rules.where import ORTHOGONAL, Where, adjacent_pairs, neighbours
from sudosat.rules.xv import XV
from sudosat.sat.builder import Builder, Lit


def marked(others: Iterable[Rule], *kinds: type[Rule]) -> frozenset[tuple[int, int]]:
    """The pairs of cells a mark of ``kinds`` lies between, each in both orders. A
    pair with any kropki dot is exempt from both kropki negatives: a 1 and a 2
    may carry either dot, and need not carry both."""
    pairs = set()
    for other in others:
        if isinstance(other, kinds):
            a, c = other.cells()
            pairs |= {(a, c), (c, a)}
    return frozenset(pairs)


def marks_of(
    selectors: Sequence[tuple[Rule, int]], kinds: tuple[type[Rule], ...]
) -> dict[tuple[int, int], list[int]]:
    """Explain's :func:`marked`: each pair with the selectors of the marks on it."""
    found: dict[tuple[int, int], list[int]] = {}
    for other, selector in selectors:
        if isinstance(other, kinds):
            a, c = other.cells()
            found.setdefault((a, c), []).append(selector)
            found.setdefault((c, a), []).append(selector)
    return found


Related = Callable[[int, int], bool]


@dataclass(frozen=True)
class NegativeRule(FlagRule):
    exempt: frozenset[tuple[int, int]] = frozenset()
    """Pairs that carry a mark (settled from the puzzle's other rules)."""
    relations: tuple[int, ...] = ()
    relative: ClassVar[bool] = True
    marks: ClassVar[tuple[type[Rule], ...]] = ()
    """The marks whose pairs are exempt."""

    def settle(self, others: Sequence[Rule]) -> Rule:
        return replace(self, exempt=marked(others, *self.marks))

    def pairs(self, size: int) -> Iterable[tuple[int, int]]:
        return (p for p in adjacent_pairs(size) if p not in self.exempt)

    def related(self, a: int, b: int) -> bool:
        raise NotImplementedError

    def sees(self, layout: Layout, cell: int, value: int) -> Iterable[tuple[int, int]]:
        n = layout.size
        for other in neighbours(cell, n, ORTHOGONAL):
            if (min(cell, other), max(cell, other)) not in self.exempt:
                yield from ((other, v) for v in range(1, n + 1) if self.related(value, v))

    def clause_estimate(self, size: int) -> int:
        return 2 * size * size * size * size  # every touching pair, every related pair of values

    def encode(self, b: Builder) -> None:
        for x, y in self.pairs(b.size):
            unrelated(b, x, y, self.related)

    def encode_among(self, b: Builder, selectors: Sequence[tuple[Rule, int]]) -> None:
        """Every touching pair, each unless a mark on it is there: taking a mark away
        puts its pair under the rule."""
        marks = marks_of(selectors, self.marks)
        for x, y in adjacent_pairs(b.size):
            with b.unless(marks.get((x, y), ())):
                unrelated(b, x, y, self.related)

    def broken(self, grid: Sequence[int], layout: Layout) -> str | None:
        for x, y in self.pairs(layout.size):
            if self.related(grid[x], grid[y]):
                n = layout.size
                return f"{cell_name(n, x)} and {cell_name(n, y)} hold {grid[x]} and {grid[y]}"
        return None


def unrelated(b: Builder, x: int, y: int, related: Related, when: Sequence[Lit] = ()) -> None:
    """Cells ``x`` and ``y`` hold no two related values (while ``when`` holds)."""
    for v in b.candidates(x):
        for w in b.candidates(y):
            if related(v, w):
                b.implies([b.lit(x, v), b.lit(y, w), *when], [])


@rule
@dataclass(frozen=True)
class Nonconsecutive(NegativeRule):
    title: ClassVar[str] = "nonconsecutive"
    example: ClassVar[str] = "nonconsecutive"
    technique: ClassVar[str] = "nonconsecutive neighbours"
    meaning: ClassVar[str] = (
        "Orthogonally touching cells do not hold consecutive digits, except a pair with a kropki "
        "dot (of either colour) between them. Also written `negative: difference`: all white dots "
        "are given."
    )
    field: ClassVar[str] = "nonconsecutive"
    words: ClassVar[tuple[str, ...]] = ("nonconsecutive", "non-consecutive")
    family: ClassVar[str] = "nonconsecutive: touching cells not consecutive"
    marks: ClassVar[tuple[type[Rule], ...]] = (Difference, Ratio)

    def related(self, a: int, b: int) -> bool:
        return abs(a - b) == 1


@dataclass(frozen=True)
class NegativeRatio(NegativeRule):
    technique: ClassVar[str] = "no black dot"
    family: ClassVar[str] = "negative ratio: no black dot, no ratio"
    marks: ClassVar[tuple[type[Rule], ...]] = (Difference, Ratio)

    def settle(self, others: Sequence[Rule]) -> Rule:
        ratios = {o.factor() for o in others if isinstance(o, Ratio)} or {2}
        settled = replace(self, relations=tuple(sorted(ratios)))
        return super(NegativeRatio, settled).settle(others)

    def related(self, a: int, b: int) -> bool:
        return any(ratio(k)(a, b) for k in self.relations or (2,))

    def encode_among(self, b: Builder, selectors: Sequence[tuple[Rule, int]]) -> None:
        """As for every negative, and the ratios too are the black dots' that are
        there: each ratio's clauses hold while a dot of it is (1:2 also while none
        is), through a literal that each such dot switches on."""
        by_ratio: dict[int, list[int]] = {2: []}
        for other, selector in selectors:
            if isinstance(other, Ratio):
                by_ratio.setdefault(other.factor(), []).append(selector)
        used = {k: b.new() for k in by_ratio}
        for k, dots in by_ratio.items():
            for dot in dots:
                b.implies([dot], [used[k]])
        b.clause([used[2], *(s for dots in by_ratio.values() for s in dots)])  # no dot: 1:2
        marks = marks_of(selectors, self.marks)
        for x, y in adjacent_pairs(b.size):
            with b.unless(marks.get((x, y), ())):
                for k, lit in used.items():
                    unrelated(b, x, y, ratio(k), [lit])

    def describe(self, size: int) -> str:
        return "negative ratio"

    def text(self, size: int) -> str:
        return "negative: ratio"

    def to_fpuzzles(self, size: int) -> tuple[str, Any]:
        return "negative", ["ratio"]


@dataclass(frozen=True)
class NegativeXV(NegativeRule):
    technique: ClassVar[str] = "no X or V"
    family: ClassVar[str] = "negative XV: no mark, no sum of 10 or 5"
    marks: ClassVar[tuple[type[Rule], ...]] = (XV,)

    def related(self, a: int, b: int) -> bool:
        return a + b in (5, 10)

    def describe(self, size: int) -> str:
        return "negative XV"

    def text(self, size: int) -> str:
        return "negative: xv"

    def to_fpuzzles(self, size: int) -> tuple[str, Any]:
        return "negative", ["xv"]


def ratio(k: int) -> Related:
    """Whether one of two values is ``k`` times the other."""
    return lambda a, b: a == k * b or b == k * a


KINDS: dict[str, type[NegativeRule]] = {
    "ratio": NegativeRatio,
    "xv": NegativeXV,
    "difference": Nonconsecutive,  # "all white dots are given": f-puzzles' flag
}


@rule
@dataclass(frozen=True)
class Negative(FlagRule):
    """f-puzzles' ``negative`` list (``["ratio", "xv"]``), and ``negative: ratio, xv``."""

    title: ClassVar[str] = "negative constraint"
    example: ClassVar[str] = "negative: ratio"
    technique: ClassVar[str] = "negative constraint"
    meaning: ClassVar[str] = (
        "Every such mark is given: `difference`, touching cells without a dot are not consecutive "
        "(as nonconsecutive); `ratio`, touching cells without a dot are in none of the black dots'"
        " ratios (1:2 when there are none); `xv`, touching cells without an X or a V add up to "
        "neither 10 nor 5. A pair with a dot of either colour is exempt from both kropki negatives"
        " (a 1 and a 2 may carry either dot)."
    )
    takes: ClassVar[str] = "difference, ratio, xv"
    field: ClassVar[str] = "negative"
    words: ClassVar[tuple[str, ...]] = ("negative",)

    @classmethod
    def from_fpuzzles(cls, value: Any, where: Where) -> list[Rule]:
        if not isinstance(value, list):
            raise where.error('expected a list such as ["ratio", "xv"]')
        return [cls.kind(str(name), where)() for name in value]

    @classmethod
    def from_text(cls, word: str, value: str, cells: str, where: Where) -> list[Rule]:
        names = (value + " " + cells).replace(",", " ").split()
        if not names:
            raise where.error("negative: name difference, ratio, xv or more")
        return [cls.kind(name, where)() for name in names]

    @staticmethod
    def kind(name: str, where: Where) -> type[NegativeRule]:
        found = KINDS.get(name.strip().lower())
        if found is None:
            raise where.error(
                f"unknown negative constraint {name[:20]!r}: expected difference, ratio or xv"
            )
        return found
