"""`sudosat rate`."""

from __future__ import annotations

import sys

import click

from sudosat.commands.common import (
    EachPuzzle,
    each_puzzle_options,
    files,
    input_options,
    output_options,
    without_option,
)
from sudosat.commands.helptext import Command
from sudosat.running import runner
from sudosat.running.tasks import Rate
from sudosat.showing.view import FORMATS, View


@click.command(
    cls=Command, usual=("--format", "--by", "--without", "--timeout", "--jobs", "--rules")
)
@click.argument("puzzles", nargs=-1, metavar="[PUZZLE]...", shell_complete=files)
@input_options
@output_options(
    *FORMATS,
    defaults="rich (default on a terminal), line (default when piped): `LEVEL RATING` per "
    "puzzle; json, jsonl or csv add level, rating, conflicts, technique, er, ep, ed, "
    "er_not_computed and engine to solve's record",
)
@click.option(
    "--by",
    type=click.Choice(["path", "search"]),
    default="path",
    show_default=True,
    help="Rate by the logical path's hardest technique, or by a SAT solver's search "
    "effort (no level): faster on big batches.",
)
@without_option
@each_puzzle_options(
    "Give up on a puzzle after this long: its record says timeout, and the run "
    "goes on (exit code 5)."
)
def rate(
    each: EachPuzzle, by: str, without: frozenset[str], fmt: str | None, color: bool | None
) -> None:
    """Rate how hard each puzzle is: a `level` and a `rating` that grows with difficulty.

    \b
    By path (the default): the hardest technique of the puzzle's logical path
    (`sudosat steps`) gives the level:
      simple        naked singles alone
      easy          hidden singles; a variant's rules one at a time
      intermediate  locked candidates (pointing, claiming); rules together, each
                    rule with its units, a house with its rules (innies, outies)
      expert        pairs, fish, wings, colouring, chains, forcing chains,
                    nested forcing chains
    Ratings: 1, 2; intermediate: the technique's weight + log2(its steps) / 10
    (2.6 to 3.9); expert: 1 + the technique's weight (a pair 4, an X-wing 4.2,
    an XY-wing 5.2, an AIC 8, forcing chains 9, nested chains 10.5 to 12.9) + the
    same, below 13; where no technique finishes the path, 13 + log2(1 + the
    search's conflicts) / 4.
    `technique` names the hardest ("search" beyond them). `er`, `ep`, `ed`:
    Sudoku Explainer's ER, EP and ED (its hardest step, up to the first
    placement, the first); a classic 9x9's from 9.0 up by Sudoku Explainer's
    own search (seconds on the hardest known; compiled with sudosat: where it
    is not built, null, and `er_not_computed` says why), the rest by the path's
    steps. `engine`: compiled or python, which rated it. --timeout bounds the
    search too.
    By search: no level (null), the solver's effort instead, log2(1 + conflicts
    of a deterministic search for the solution), 0 where propagation settles it;
    fast. Past 36x36 there is no path: puzzles are rated by search.
    Only unique puzzles are rated; the others get their status. Input as for
    `solve`; exit codes as for `solve`.

    \b
    Examples:
      sudosat rate puzzles/ai-escargot.txt
      sudosat rate --format jsonl puzzles/tdoku-magictour-25.txt
      sudosat rate --timeout 10 --jobs 2 puzzles/tdoku-magictour-25.txt
    """
    sys.exit(each.answer(fmt, color, Rate(by, without), View(), runner.RATE_FORMATS))
