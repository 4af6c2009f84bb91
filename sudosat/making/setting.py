"""A setter's session: a puzzle built up from a blank grid, one part at a time."""

from __future__ import annotations

from dataclasses import replace

from sudosat.core.puzzle import Puzzle, Rules


def from_blank(puzzle: Puzzle) -> list[Puzzle]:
    """The states a setter passes through to set ``puzzle`` from a blank grid: its
    rules added one at a time in reading order of their first cell (cages row
    by row), then its givens row by row; a state after each part."""
    rules = sorted(
        puzzle.constraints,
        key=lambda rule: min(rule.cells(), default=0),
    )
    cells = [0] * len(puzzle.cells)
    blank = replace(puzzle, cells=tuple(cells))
    states = [
        replace(blank, rules=Rules.of(puzzle.layout, rules[:count]))
        for count in range(1, len(rules) + 1)
    ]
    for cell, value in puzzle.givens:
        cells[cell] = value
        states.append(replace(puzzle, cells=tuple(cells)))
    return states
