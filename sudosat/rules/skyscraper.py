"""Skyscrapers: a clue beside a row or column says how many of its digits can be
seen from there, a digit hiding every smaller one behind it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from pysat.card import CardEnc, EncType

from sudosat.core.puzzle import Layout
from sudosat.rules.base import page_part, rule
from sudosat.rules.kinds import OutsideRule
from sudosat.sat.arith import Int, cell_int, less
from sudosat.sat.builder import Builder


@rule
@dataclass(frozen=True)
class Skyscraper(OutsideRule):
    title: ClassVar[str] = "skyscraper"
    example: ClassVar[str] = "skyscraper 3: r0c2"
    technique: ClassVar[str] = "skyscraper view"
    meaning: ClassVar[str] = (
        "Seen from the clue along its row or column, each digit hides every smaller one behind it;"
        " the clue counts the digits seen (the first always is)."
    )
    takes: ClassVar[str] = "the digits seen"
    field: ClassVar[str] = "skyscraper"
    words: ClassVar[tuple[str, ...]] = ("skyscraper",)
    page = (page_part("skyscraper", "Skyscraper", "outside"),)
    family: ClassVar[str] = "skyscrapers: digits seen"

    def relation(self, size: int) -> str:
        return f"{self.value} digits are seen past the taller ones before them"

    @classmethod
    def possible(cls, size: int) -> frozenset[int]:
        return frozenset(range(1, size + 1))

    def encode(self, b: Builder) -> None:
        line = self.line(b.size)
        tallest = cell_int(b, line[0])  # the first is always seen
        seen: list[int] = []
        for cell in line[1:]:
            here = cell_int(b, cell)
            visible = b.new()
            less(b, tallest, here, when=[visible])  # taller than all before it
            less(b, here, tallest, when=[-visible])
            seen.append(visible)
            tallest = higher(b, tallest, here)
        if not 1 <= self.value <= len(line):
            b.clause([])
            return
        counted = CardEnc.equals(seen, self.value - 1, top_id=b.top, encoding=EncType.seqcounter)
        b.top = max(b.top, counted.nv)
        for clause in counted.clauses:
            b.clause(clause)

    def broken(self, grid: Sequence[int], layout: Layout) -> str | None:
        found, tallest = 0, 0
        for cell in self.line(layout.size):
            if grid[cell] > tallest:
                found, tallest = found + 1, grid[cell]
        return None if found == self.value else f"{found} can be seen"


def higher(b: Builder, x: Int, y: Int) -> Int:
    """max(x, y), with its own order literals."""
    lo, hi = max(x.lo, y.lo), max(x.hi, y.hi)
    lits = {t: b.new() for t in range(lo + 1, hi + 1)}
    z = Int(lo, hi, lits.__getitem__)
    for t in range(lo + 1, hi + 1):
        b.implies([x.ge(t)], [z.ge(t)])
        b.implies([y.ge(t)], [z.ge(t)])
        b.implies([z.ge(t)], [x.ge(t), y.ge(t)])
    return z
