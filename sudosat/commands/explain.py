"""`sudosat explain`."""

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
    pictured,
)
from sudosat.commands.helptext import Command
from sudosat.running import runner
from sudosat.running.tasks import Certified, Explain
from sudosat.showing.view import PICTURES


@click.command(cls=Command, usual=("--format", "--timeout", "--certify", "--rules", "--jobs"))
@click.argument("puzzles", nargs=-1, metavar="[PUZZLE]...", shell_complete=files)
@input_options
@output_options(
    "rich",
    "json",
    "jsonl",
    "text",
    *PICTURES,
    defaults="rich (default on a terminal), json (default when piped), jsonl (an object per "
    "puzzle), text (plain, for logs and mail), or svg, pdf or png (pictures: the cells an "
    "explanation names shaded, the rules of a conflict in red)",
)
@each_puzzle_options(
    "Seconds for each puzzle's explanation: what is found by then is printed, and "
    "timed_out names the parts that ran out (exit code 5). Without it the answer is "
    "found however long it takes, and the parts after it have 60 s together."
)
@certify_option(
    "Where the answer is no solution, write its certificate in DIR/FILE-LINE (as "
    "`solve --certify`): the full CNF and a DRUP proof that it is unsatisfiable."
)
def explain(each: EachPuzzle, fmt: str | None, color: bool | None, certify: str | None) -> None:
    """Explain each puzzle's answer: why it has no solution, or several, or how hard it is.

    \b
    No solution: conflict (a minimal set of clues that cannot all hold),
      fewest_removed (the fewest clues to drop), best_fill (the givens kept, as
      many cells filled as the rules allow).
    Several solutions: differ (cells where two solutions differ), add (clues
      from the first solution that make it unique).
    Unique: rating and level (see `sudosat rate`).
    Input as for `solve`. Exit codes: 0 unique, 1 several solutions, 2 bad input,
    3 no solution, 5 a part ran out of time (timed_out names it).

    \b
    Examples:
      sudosat explain puzzles/rexl-partial.txt
      sudosat explain --format json puzzles/several-solutions.txt
      sudosat explain --format text --timeout 60 puzzles/rkkautsar-64-1.txt
      sudosat explain --format svg puzzles/clashing-clues.txt > conflict.svg
    """
    task = Explain() if certify is None else Certified(Explain(), certify)
    sys.exit(each.answer(fmt, color, task, pictured(fmt), runner.EXPLAIN_FORMATS))
