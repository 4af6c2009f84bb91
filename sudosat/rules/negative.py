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

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from sudosat.core.puzzle import Layout, cell_name
from sudosat.rules.base import FlagRule, Rule, Where, adjacent_pairs, rule
from sudosat.rules.kropki import Difference, Ratio
from sudosat.rules.xv import XV
from sudosat.sat.builder import Builder


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


@dataclass(frozen=True)
class NegativeRule(FlagRule):
    exempt: frozenset[tuple[int, int]] = frozenset()
    """Pairs that carry a mark (settled from the puzzle's other rules)."""
    relations: tuple[int, ...] = ()

    def pairs(self, size: int) -> Iterable[tuple[int, int]]:
        return (p for p in adjacent_pairs(size) if p not in self.exempt)

    def related(self, a: int, b: int) -> bool:
        raise NotImplementedError

    def clause_estimate(self, size: int) -> int:
        return 2 * size * size * size * size  # every touching pair, every related pair of values

    def encode(self, b: Builder) -> None:
        for x, y in self.pairs(b.size):
            for v in b.candidates(x):
                for w in b.candidates(y):
                    if self.related(v, w):
                        b.implies([b.lit(x, v), b.lit(y, w)], [])

    def broken(self, grid: Sequence[int], layout: Layout) -> str | None:
        for x, y in self.pairs(layout.size):
            if self.related(grid[x], grid[y]):
                n = layout.size
                return f"{cell_name(n, x)} and {cell_name(n, y)} hold {grid[x]} and {grid[y]}"
        return None


@rule
@dataclass(frozen=True)
class Nonconsecutive(NegativeRule):
    title: ClassVar[str] = "nonconsecutive"
    meaning: ClassVar[str] = (
        "Orthogonally touching cells do not hold consecutive digits, except a pair with a kropki "
        "dot (of either colour) between them. Also written `negative: difference`: all white dots "
        "are given."
    )
    field: ClassVar[str] = "nonconsecutive"
    words: ClassVar[tuple[str, ...]] = ("nonconsecutive", "non-consecutive")
    family: ClassVar[str] = "nonconsecutive: touching cells not consecutive"

    def settle(self, others: Sequence[Rule]) -> Rule:
        return replace(self, exempt=marked(others, Difference, Ratio))

    def related(self, a: int, b: int) -> bool:
        return abs(a - b) == 1


@dataclass(frozen=True)
class NegativeRatio(NegativeRule):
    family: ClassVar[str] = "negative ratio: no black dot, no ratio"

    def settle(self, others: Sequence[Rule]) -> Rule:
        ratios = {o.factor() for o in others if isinstance(o, Ratio)} or {2}
        return replace(
            self, exempt=marked(others, Difference, Ratio), relations=tuple(sorted(ratios))
        )

    def related(self, a: int, b: int) -> bool:
        return any(a == k * b or b == k * a for k in self.relations or (2,))

    def describe(self, size: int) -> str:
        return "negative ratio"

    def text(self, size: int) -> str:
        return "negative: ratio"

    def to_fpuzzles(self, size: int) -> tuple[str, Any]:
        return "negative", ["ratio"]


@dataclass(frozen=True)
class NegativeXV(NegativeRule):
    family: ClassVar[str] = "negative XV: no mark, no sum of 10 or 5"

    def settle(self, others: Sequence[Rule]) -> Rule:
        return replace(self, exempt=marked(others, XV))

    def related(self, a: int, b: int) -> bool:
        return a + b in (5, 10)

    def describe(self, size: int) -> str:
        return "negative XV"

    def text(self, size: int) -> str:
        return "negative: xv"

    def to_fpuzzles(self, size: int) -> tuple[str, Any]:
        return "negative", ["xv"]


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
