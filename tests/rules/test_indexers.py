"""Row, column and box indexers (the 1-5-9 family)."""

from __future__ import annotations

import pytest

from sudosat.core.puzzle import Layout
from sudosat.rules import Rule
from sudosat.rules.indexers import BoxIndexer, ColumnIndexer, Indexer, RowIndexer

from .harness import built, check_rule, solution


@pytest.mark.parametrize("kind", [ColumnIndexer, RowIndexer, BoxIndexer])
def test_indexers_where_the_grid_agrees(kind: type[Indexer]) -> None:
    layout = Layout.boxes(9)
    for seed in range(51, 80):
        grid = solution(layout, seed)
        probe = kind((0,))
        cells = [
            c
            for c in range(81)
            if probe.target(c, grid[c], layout)[1] == grid[probe.target(c, grid[c], layout)[0]]
        ]
        if len(cells) >= 3:
            break
    rules: list[Rule] = [kind(tuple(cells))]
    check_rule(built(layout, grid, rules, 51), grid, (kind,))
