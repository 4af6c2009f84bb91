"""The law of leftovers: clauses a jigsaw's regions imply, which clause learning
finds only slowly.

Take k whole rows (or columns) and k regions. Each holds every value once, so
the cells of the rows outside the regions hold the same values, counted with
their repeats, as the cells of the regions outside the rows: the rest of each
side is the same k copies of 1..N. Setters call it the law of leftovers. When
the regions that lie mostly in a band of rows leave few cells over, those
leftovers tie small sets of cells together ("the cell that sticks out of this
band holds what the cell poking into it holds"), a counting argument that a
CDCL solver can only learn one value at a time. A value on one side goes to a
cell of the other side that does not see it, so where none is left the value
is out at once: a 36x36 jigsaw whose boxes trade two cells of a row has no
solution, which these clauses show by propagation and a solver without them
did not find in 15 minutes.

Only the fact that a value on one side is on the other is written (a clause per
cell and value), which is all there is to say when a side has one cell. The
clauses hold in every solution: they never change an answer, a count or a
set of candidates; they only cut the search.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from functools import cache
from typing import NamedTuple

from sudosat.core.puzzle import Layout, cell_name
from sudosat.sat.cnf import literal

LARGEST = 3
"""Cells on a side of the leftovers written: past this, the clauses (a value on
one side is somewhere on the other) say little and cost a clause per cell and
value."""


class Leftovers(NamedTuple):
    """A band's leftovers: its cells outside the regions that lie most in it, and
    those regions' cells outside it, which hold the same values."""

    out: tuple[int, ...]
    into: tuple[int, ...]
    band: str
    """The band, named: ``rows 1-5``, ``column 7``."""


@cache
def leftovers(grid: Layout) -> tuple[Leftovers, ...]:
    """Each band of consecutive rows, and of columns, with the regions that lie
    most in it, as the two sides of its leftovers (the band's cells outside those
    regions, the regions' cells outside the band) where they have 1..LARGEST cells;
    none for a layout of boxes, whose bands of boxes leave none over."""
    if grid.box is not None:
        return ()
    n = grid.size
    found: dict[tuple[tuple[int, ...], tuple[int, ...]], Leftovers] = {}
    for kind in ("row", "column"):
        line_of = [cell // n if kind == "row" else cell % n for cell in range(n * n)]
        upto = [_running(region, line_of, n) for region in grid.regions]
        for first in range(n):
            for last in range(first, n - 1):  # a band and its complement leave the same over
                lines = last - first + 1
                by_count = sorted(range(n), key=lambda r: upto[r][first] - upto[r][last + 1])
                inside = by_count[:lines]
                left = lines * n - sum(upto[r][last + 1] - upto[r][first] for r in inside)
                if not 0 < left <= LARGEST:
                    continue
                covered = {cell for r in inside for cell in grid.regions[r]}
                band = {c for c in range(n * n) if first <= line_of[c] <= last}
                sides = tuple(sorted(band - covered)), tuple(sorted(covered - band))
                name = f"{kind} {first + 1}" if lines == 1 else f"{kind}s {first + 1}-{last + 1}"
                found.setdefault(sides, Leftovers(*sides, name))  # (named by its first band)
    return tuple(found.values())


def _running(region: tuple[int, ...], line_of: list[int], n: int) -> list[int]:
    """The region's cells in lines 0..k-1, for every k (a band's count is a difference)."""
    per_line = [0] * n
    for cell in region:
        per_line[line_of[cell]] += 1
    running = [0]
    for count in per_line:
        running.append(running[-1] + count)
    return running


def _apart(grid: Layout) -> Iterator[tuple[Leftovers, int, list[int]]]:
    """Each leftover, a cell of one side, and the cells of the other side that do
    not see it (a row, column or region apart): where its value must go."""
    for left in leftovers(grid):
        for side, far in ((left.out, left.into), (left.into, left.out)):
            for cell in side:
                yield left, cell, [c for c in far if not _sees(grid, cell, c)]


def _sees(grid: Layout, a: int, b: int) -> bool:
    """Whether cells ``a`` and ``b`` share a row, a column or a region."""
    return any(unit[a] == unit[b] for unit in grid.unit_index)


def leftover_cells(grid: Layout) -> set[int]:
    """The cells the leftovers' clauses name."""
    return {cell for left in leftovers(grid) for cell in (*left.out, *left.into)}


def leftover_clauses(
    grid: Layout, literal_of: Mapping[tuple[int, int], int], given: Mapping[int, int]
) -> list[list[int]]:
    """For each side of each leftover and each value: a cell of it holding the value
    puts the value on the other side, in a cell that does not see it.
    ``literal_of``: the variable of each open candidate (of the cells
    :func:`leftover_cells` gives, at least); ``given``: the value of each cell
    that has one (a value no cell can hold drops out; a clause a given meets is
    left out, and one left with nothing is the empty clause: no solution)."""
    clauses: list[list[int]] = []
    for _, cell, apart in _apart(grid):
        for value in range(1, grid.size + 1):
            if any(given.get(c) == value for c in apart):
                continue
            tail = [lit for c in apart if (lit := literal_of.get((c, value)))]
            head = literal_of.get((cell, value))
            if head is not None:
                clauses.append([-head, *tail])
            elif given.get(cell) == value:
                clauses.append(tail)
    return clauses


def layout_clauses(grid: Layout) -> list[list[int]]:
    """:func:`leftover_clauses` over the cells' own variables (the full numbering,
    givens left to assumptions): for a solver that holds the layout alone."""
    n = grid.size
    every = {(c, v): literal(n, c, v) for c in leftover_cells(grid) for v in range(1, n + 1)}
    return leftover_clauses(grid, every, {})


ALONE = "the rows, columns and regions alone have no solution"
"""What a grid whose layout alone has no solution is told (explain, the plugin)."""


def no_solution(grid: Layout) -> str | None:
    """Why the layout alone has no solution, where its leftovers show it outright:
    a cell on one side that sees every cell of the other side (its value has
    nowhere to go there). None where they do not."""
    n = grid.size
    for left, cell, apart in _apart(grid):
        if not apart:
            outside = ", ".join(cell_name(n, c) for c in left.out)
            inside = ", ".join(cell_name(n, c) for c in left.into)
            them = "them" if left.band.split()[0].endswith("s") else "it"
            return (
                f"the law of leftovers in {left.band}: its cells outside the regions "
                f"that lie most in {them} ({outside}) hold the same values as those "
                f"regions' cells outside {them} ({inside}), but {cell_name(n, cell)} "
                "sees every cell on the other side"
            )
    return None
