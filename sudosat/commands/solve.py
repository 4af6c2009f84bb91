"""`sudosat solve`."""

from __future__ import annotations

import sys
from dataclasses import replace
from typing import TYPE_CHECKING

import click

from sudosat.commands.common import (
    _fail_on,
    answer,
    asked_encoding,
    certify_option,
    encoding_options,
    files,
    input_options,
    jobs_option,
    output_options,
    picture_options,
    pictured,
    quiet_option,
    resolve_solver,
    shard_option,
    timeout_option,
    trust_option,
)
from sudosat.commands.helptext import Command
from sudosat.commands.paramtypes import Real
from sudosat.running.runner import FAIL_ON, How, Output, Reading
from sudosat.running.tasks import Certified, Estimate, Solve, Task
from sudosat.sat.solvers import (
    DEFAULT_SOLVER,
    trusting,
)
from sudosat.showing.view import FORMATS, PICTURES, View
from sudosat.solving.engine import COUNT_LIMIT, Options

if TYPE_CHECKING:
    from sudosat.running.shards import Shard


@click.command(
    cls=Command,
    usual=(
        "--count",
        "--max-solutions",
        "--estimate",
        "--format",
        "--solver",
        "--timeout",
        "--rules",
        "--jobs",
        "--fail-on",
        "--check",
    ),
    headings={
        "Counting": (
            "--max-solutions",
            "--count",
            "--estimate",
            "--epsilon",
            "--delta",
            "--estimator",
            "--seed",
        )
    },
)
@click.argument("puzzles", nargs=-1, metavar="[PUZZLE]...", shell_complete=files)
@input_options
@click.option(
    "--solver",
    "-s",
    metavar="NAME",
    help="A PySAT solver (cadical195, glucose4, ...) or a solver program: minisat, cadical, "
    "kissat, picosat, cryptominisat5, glucose (see `sudosat solvers`); several, "
    "comma-separated, race as a portfolio (cadical195,glucose4). Default: the batch "
    f"engine for ranks 2-4; above, a short minicard search, then {DEFAULT_SOLVER}.",
)
@click.option(
    "--solver-cmd",
    metavar="COMMAND",
    help="Any DIMACS solver program, e.g. 'kissat -q': run without a shell on IN.cnf "
    "(appended), answering with s/v lines.",
)
@trust_option
@encoding_options
@click.option(
    "--max-solutions",
    "-n",
    type=click.IntRange(1),
    help="Look for up to N solutions (default 2: the uniqueness check; 1 skips it).",
)
@click.option(
    "--count",
    is_flag=True,
    help=f"Print the number of solutions (up to --max-solutions, default {COUNT_LIMIT}); "
    "N+ when the search stopped before it was complete.",
)
@click.option(
    "--estimate",
    is_flag=True,
    help="Print about how many solutions there are: exact up to 1000, else an estimate "
    "with its interval (see --epsilon, --delta, --estimator); json: an estimate object.",
)
@click.option(
    "--epsilon",
    type=Real(0, 1, min_open=True, max_open=True),
    default=0.2,
    show_default=True,
    help="--estimate: how far the interval may reach either side of the estimate, as a "
    "fraction of it (ApproxMC: the count within a factor 1 + epsilon).",
)
@click.option(
    "--delta",
    type=Real(0, 1, min_open=True, max_open=True),
    default=0.05,
    show_default=True,
    help="--estimate: the chance the interval may miss (it holds at confidence 1 - delta).",
)
@click.option(
    "--estimator",
    type=click.Choice(["sampling", "approxmc"]),
    default="sampling",
    show_default=True,
    help="--estimate: sampling (Knuth's estimator over true candidates; a statistical "
    "interval) or approxmc (ApproxMC's guarantee; far slower).",
)
@click.option(
    "--seed",
    type=click.IntRange(0),
    default=0,
    show_default=True,
    help="--estimate: the random seed (the same seed, the same estimate).",
)
@timeout_option("Give up on a puzzle after this long (exit code 5).")
@click.option(
    "--stats",
    is_flag=True,
    help="Report variables, clauses, conflicts, decisions, propagations, restarts and time.",
)
@output_options(
    *FORMATS,
    *PICTURES,
    "fpuzzles",
    note="; for many puzzles line; line, jsonl (an object per puzzle) or csv for programs; "
    "svg, pdf or png for pictures, fpuzzles for f-puzzles links",
)
@picture_options("svg, pdf and png: draw the solved grid (the first solution), not the puzzle.")
@jobs_option
@shard_option(
    "Take every N-th puzzle starting at the K-th (1-based): one of N machines. "
    "With --format jsonl a last line says which shard and of how many puzzles, "
    "for `sudosat merge`."
)
@click.option(
    "--check",
    is_flag=True,
    help="Compare with what the input expects: a CSV `solutions` column, or tdoku's "
    "`puzzle:count:solution` lines; exit 6 on a mismatch.",
)
@click.option(
    "--fail-on",
    metavar="LIST",
    help="Which outcomes make the exit code non-zero: comma-separated of "
    f"{', '.join(FAIL_ON)}; `all` (default) or `never`. Malformed input fails the run "
    "whatever the list, unless it says -malformed (all,-malformed) or never.",
)
@click.option(
    "--allow-malformed",
    is_flag=True,
    help="Lines that cannot be read do not fail the run (each still gets its error record).",
)
@click.option(
    "--time/--no-time",
    "timed",
    default=True,
    show_default=True,
    help="Each record's time in seconds; --no-time writes null, so that two runs (one "
    "whole and one merged from shards) compare byte for byte.",
)
@click.option(
    "--front-end/--no-front-end",
    default=True,
    show_default=True,
    help="In a batch of ranks 2-5, settle every puzzle that propagation and a short "
    "search can, a chunk at a time in numpy, before the engine sees the rest. Answers "
    "are the same either way.",
)
@certify_option(
    "Write each answer's certificate in DIR/FILE-LINE: the full CNF, the solutions "
    "and their models, and a proof that there is no other (none at all; with --count, "
    "no more than those counted): DRUP from CaDiCaL 1.9.5 in process, or DRAT from "
    "--solver cadical or kissat, or a --solver-cmd that takes a proof file after the "
    "input file. `sudosat verify DIR` checks them."
)
@quiet_option
def solve(
    puzzles: tuple[str, ...],
    reading: Reading,
    solver: str | None,
    solver_cmd: str | None,
    trust_solver: bool,
    rules: str,
    amo: str,
    reduced: bool,
    max_solutions: int | None,
    count: bool,
    estimate: bool,
    epsilon: float,
    delta: float,
    estimator: str,
    seed: int,
    timeout: float | None,
    stats: bool,
    fmt: str | None,
    color: bool | None,
    jobs: int | None,
    shard: Shard | None,
    check: bool,
    fail_on: str | None,
    allow_malformed: bool,
    timed: bool,
    front_end: bool,
    quiet: bool,
    solution: bool,
    per_page: int,
    certify: str | None,
) -> None:
    """Solve PUZZLE files (`-` or nothing for stdin) and say whether each solution is unique.

    A file holds one puzzle (a line of N*N symbols, or a grid of N rows), one puzzle
    per line, or a CSV with a puzzle column (quizzes, puzzle, ...) and maybe a
    solutions column. A PUZZLE that is no file but reads as a puzzle (a line of
    cells, an f-puzzles or SudokuPad link) is that puzzle. The input alone decides
    between one puzzle and many: many are streamed, solved by --jobs workers and
    answered once each, in input order, with a summary on stderr. Every format gives
    one record per puzzle. Exit codes: 0 unique, 1 several solutions, 2 bad input, 3
    no solution, 4 solver failure, 5 timeout, 6 --check mismatch, 130 interrupted
    (the most severe over all puzzles; see --fail-on; a puzzle whose expected answer
    is checked counts by its check alone).

    \b
    Examples:
      sudosat solve puzzles/ai-escargot.txt
      sudosat solve --solver glucose4 --stats puzzles/rank5-25x25.txt
      sudosat solve --solver minisat puzzles/hex-16x16.txt
      sudosat solve --solver-cmd 'kissat -q' --timeout 60 puzzles/rank6-36x36.txt
      sudosat solve puzzles/royle17-25.txt
      sudosat solve --count -n 1000 puzzles/several-solutions.txt
      sudosat solve --estimate puzzles/empty-9x9.txt
      sudosat solve --format jsonl --jobs 2 puzzles/tdoku-magictour-25.txt > out.jsonl
      sudosat solve --format csv --check --fail-on error,mismatch your-sudoku.csv
      sudosat solve --shard 2/4 --format jsonl puzzles/royle17-25.txt
      sudosat solve --format svg --solution puzzles/killer.txt > killer.svg
      sudosat solve --format fpuzzles puzzles/jigsaw.txt
      sudosat solve --certify proofs puzzles/ai-escargot.txt
    """
    spec = resolve_solver(solver, solver_cmd)
    options = Options(
        trusting(spec) if spec is not None and trust_solver else spec,
        asked_encoding(rules, amo, reduced),
        max_solutions or (COUNT_LIMIT if count else 2),
        timeout,
    )
    look = View(count=count or estimate, stats=stats, timed=timed, solution=solution)
    view = pictured(fmt, replace(look, per_page=per_page))
    task: Task = Solve(check)
    if estimate:
        from sudosat.solving.estimate import LEAST_SAMPLED_DELTA  # deferred: estimates only

        if estimator == "sampling" and delta < LEAST_SAMPLED_DELTA:
            raise click.BadParameter(
                f"{delta:g}: a sampled interval cannot be that sure; take "
                f"{LEAST_SAMPLED_DELTA:g} or more, or --estimator approxmc",
                param_hint="--delta",
            )
        task = Estimate(epsilon, delta, estimator, seed)
    if certify is not None:
        task = Certified(task, certify)
    how = How(jobs, shard, _fail_on(fail_on, allow_malformed), front_end)
    sys.exit(answer(puzzles, reading, options, task, view, how, Output(fmt, color, quiet)))
