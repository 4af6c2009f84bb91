"""`sudosat candidates`."""

from __future__ import annotations

import sys

import click

from sudosat.commands.common import (
    EachPuzzle,
    certify_option,
    each_puzzle_options,
    files,
    input_options,
    output_options,
    picture_options,
    pictured,
)
from sudosat.commands.helptext import Command
from sudosat.running import runner
from sudosat.running.tasks import Candidates, Certified, Task
from sudosat.showing.view import FORMATS, PICTURES, View


@click.command(
    cls=Command, usual=("--format", "--count-each", "--timeout", "--certify", "--rules", "--jobs")
)
@click.argument("puzzles", nargs=-1, metavar="[PUZZLE]...", shell_complete=files)
@input_options
@click.option(
    "--count-each",
    type=click.IntRange(1),
    metavar="N",
    help="Also count the solutions holding each candidate of a cell with several, up "
    "to N (json: counts, 'N+' when there are more): the cell to disambiguate is the "
    "one whose counts are most even.",
)
@output_options(
    *FORMATS,
    "fpuzzles",
    *PICTURES,
    defaults="rich (default on a terminal: pencil marks in the cells), line (default "
    "when piped for many: a token of candidates per cell), grid (for one: the tokens "
    "as a grid), json or jsonl (cell to values), csv, svg, pdf or png (small digits in the "
    "cells), or fpuzzles (a link with the candidates as centre pencil marks)",
)
@picture_options()
@each_puzzle_options(
    "Seconds for each puzzle: the candidates witnessed by then are printed, the rest "
    "are undecided (json: undecided), exit code 5."
)
@certify_option(
    "Write each puzzle's certificate in DIR/FILE-LINE: candidates.txt, a solution and "
    "model witnessing each candidate, and a DRUP proof that no solution puts any other "
    "value in any cell (one proof for the grid). `sudosat verify DIR` checks them."
)
def candidates(
    each: EachPuzzle,
    count_each: int | None,
    certify: str | None,
    fmt: str | None,
    color: bool | None,
    per_page: int,
) -> None:
    """Show each cell's true candidates: the values some solution puts there.

    \b
    Every candidate shown is in a solution that was found and checked against the
    rules; every value left out was proved impossible. A unique puzzle's candidates
    are its solution; a puzzle with no solution has none, said in about the time a
    solve takes, and the clues and rules that cannot all hold are named where that
    takes under a second (`explain` names them however long). Classic and variant, any
    size. Input as for `solve`. Exit codes: 0 unique, 1 several solutions, 2 bad
    input, 3 no solution, 5 out of time.

    \b
    Examples:
      sudosat candidates puzzles/several-solutions.txt
      sudosat candidates --count-each 100 --format json puzzles/several-solutions.txt
      sudosat candidates --format svg puzzles/several-solutions.txt > marks.svg
      sudosat candidates --format fpuzzles puzzles/killer.txt
    """
    task: Task = Candidates(count_each)
    if certify is not None:
        task = Certified(task, certify)
    view = pictured(fmt, View(per_page=per_page))
    sys.exit(each.answer(fmt, color, task, view, runner.CANDIDATES_FORMATS))
