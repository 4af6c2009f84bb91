"""`sudosat steps`."""

from __future__ import annotations

import sys

import click

from sudosat.commands.common import (
    EachPuzzle,
    bad_input,
    each_puzzle_options,
    files,
    input_options,
    output_options,
    picture_options,
    pictured,
    without_option,
)
from sudosat.commands.helptext import Command
from sudosat.core.errors import InputError
from sudosat.reading.inputs import open_source, source_name
from sudosat.running import runner
from sudosat.running.tasks import Steps
from sudosat.showing.view import STEP_FORMATS, View


@click.command(
    cls=Command,
    usual=(
        "--format",
        "--hint",
        "--marks",
        "--bifurcation",
        "--grid",
        "--without",
        "--each-step",
        "--timeout",
        "--rules",
        "--jobs",
    ),
)
@click.argument("puzzles", nargs=-1, metavar="[PUZZLE]...", shell_complete=files)
@input_options
@click.option("--hint", is_flag=True, help="Only the next step (from --marks, if given).")
@click.option(
    "--marks",
    "marks_file",
    metavar="FILE",
    shell_complete=files,
    help="Start from these pencil marks, as `candidates -f line` or `-f grid` writes them "
    "(a token of candidates per cell; one candidate: a filled cell). A value a solution "
    "holds may not be left out.",
)
@click.option(
    "--bifurcation",
    type=click.IntRange(0, 4),
    default=0,
    show_default=True,
    metavar="DEPTH",
    help="When no technique applies, guess (in the cells with fewest candidates) and "
    "follow the guess until it fails, up to DEPTH guesses deep. 0: never guess.",
)
@click.option("--grid", "show_grid", is_flag=True, help="rich, text: the pencil marks too.")
@click.option(
    "--detail",
    is_flag=True,
    help="rich, text: each chain in full, every fact with the facts it follows from "
    "(json always has them), and a nested step's inner chains too.",
)
@without_option
@click.option(
    "--each-step", is_flag=True, help="svg, pdf, png: a picture for every step, not the last."
)
@output_options(
    *STEP_FORMATS,
    defaults="rich (default on a terminal): a sentence a step; text (the same, plain); "
    "json (default when piped for one) or jsonl (for many): the steps to replay; line: "
    "END LEVEL RATING STEPS HARDEST; svg, pdf or png: the pencil marks, a step's cells "
    "shaded, its removals struck",
)
@picture_options()
@each_puzzle_options(
    "Seconds for each puzzle: the steps found by then are printed, the path ends "
    "`timeout` (exit code 5)."
)
def steps(
    each: EachPuzzle,
    hint: bool,
    marks_file: str | None,
    bifurcation: int,
    show_grid: bool,
    detail: bool,
    without: frozenset[str],
    each_step: bool,
    fmt: str | None,
    color: bool | None,
    per_page: int,
) -> None:
    """Solve each puzzle by logic, a step at a time, as a person would.

    \b
    Each step is the first deduction of the easiest technique that finds one:
      naked single, hidden single, (a variant's rule alone), locked candidates,
      (two rules that share cells), naked pair, (a rule with its units),
      X-wing, (a house with its rules), hidden pair, triples, swordfish,
      XY-wing, XYZ-wing, W-wing, unique rectangles, quads, jellyfish, simple
      colouring, BUG+1, turbot fish (skyscraper, 2-string kite), empty
      rectangle, finned fish, X-chain, XY-chain, AIC, ALS-XZ, ALS-XY-wing,
      forcing chains, dynamic forcing chains; bifurcation only with --bifurcation. Only unique
      rectangles and BUG+1 assume uniqueness: asked of a classic puzzle known
      to have one solution (--without uniqueness: never). A question over
      rules and houses is taken apart to the smallest part that does the work,
      which names and weighs the step. Chains print as one short line a
      branch; --detail and json give every fact with its premises.
    Every step is checked against the true candidates before it is shown. The
    path ends solved, stuck (nothing applies), or in a contradiction (no
    solution); its hardest technique gives the level and rating `rate` reports.
    Input as for `solve`. Exit codes: 0 unique, 1 several solutions, 2 bad input,
    3 no solution, 5 out of time.

    \b
    Examples:
      sudosat steps puzzles/miracle.txt
      sudosat steps --format jsonl puzzles/tdoku-magictour-25.txt
      sudosat steps --hint --marks puzzles/escargot-marks.txt puzzles/hodoku.txt
      sudosat steps --format pdf --each-step puzzles/kropki-6x6.txt > path.pdf
    """
    marks = None
    if marks_file is not None:
        try:
            with open_source(marks_file, "pencil marks") as handle:
                text = handle.read().decode("utf-8", errors="replace")
        except InputError as err:
            raise bad_input(err) from None
        marks = (source_name(marks_file), text)
    task = Steps(hint, bifurcation, marks, without)
    view = pictured(
        fmt, View(show_grid=show_grid, detail=detail, each_step=each_step, per_page=per_page)
    )
    sys.exit(each.answer(fmt, color, task, view, runner.STEPS_FORMATS))
