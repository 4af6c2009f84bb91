"""`sudosat generate`."""

from __future__ import annotations

import random
import sys

import click

from sudosat.commands.common import (
    BadInput,
    jobs_option,
    old_spelling,
    output_options,
    picture_options,
    pictured,
    quiet_option,
    renamed,
    shard_option,
)
from sudosat.commands.helptext import Command
from sudosat.commands.paramtypes import Real
from sudosat.logic.levels import LEVEL_NAMES, LEVELS, level_named
from sudosat.making.generator import (
    SYMMETRIES,
    VARIANT_LEVELS,
    VARIANTS,
    Asked,
    GenerationError,
    output_alphabet,
)
from sudosat.running import runner
from sudosat.running.runner import Output
from sudosat.running.shards import Shard
from sudosat.running.tasks import Generate
from sudosat.showing.view import PICTURES, View


@click.command(
    cls=Command,
    usual=(
        "--puzzles",
        "--seed",
        "--rank",
        "--minimal",
        "--clues",
        "--symmetry",
        "--variant",
        "--level",
        "--format",
        "--solution",
    ),
    headings={
        "What to make": (
            "--puzzles",
            "--seed",
            "--rank",
            "--alphabet",
            "--minimal",
            "--clues",
            "--symmetry",
            "--variant",
            "--cage-cells",
            "--level",
            "--time-limit",
        )
    },
)
@click.option("--rank", type=click.IntRange(2, 6), default=3, show_default=True, help="Box size.")
@click.option(
    "--alphabet",
    metavar="NAME|SYMBOLS",
    help="How to write values: digits, hex, base36, rexl, numbers or the N symbols "
    "(default: digits to 9x9, hex for 16x16, base36 for 25x25, rexl for 36x36).",
)
@click.option(
    "--puzzles",
    "how_many",
    type=click.IntRange(1),
    default=1,
    show_default=True,
    metavar="N",
    help="How many puzzles to make (puzzle i from seed --seed + i).",
)
@old_spelling("--count", "-n", dest="old_count", type=click.IntRange(1))
@click.option(
    "--seed",
    type=click.IntRange(0),
    help="Puzzle i is made from seed+i (default: random, on stderr).",
)
@click.option(
    "--minimal", "minimal", flag_value=True, default=True, help="No clue can be removed (default)."
)
@click.option("--clues", type=click.IntRange(0), help="Exactly this many clues (still unique).")
@click.option(
    "--symmetry",
    type=click.Choice(SYMMETRIES),
    default="none",
    show_default=True,
    help="Clues placed symmetrically: rotate180 (the classic newspaper look), rotate90, "
    "the mirrors, diagonal ones, or none.",
)
@click.option(
    "--variant",
    type=click.Choice(VARIANTS),
    default="classic",
    show_default=True,
    help="killer: cages only, no givens; jigsaw: random regions, minimal givens; "
    "x: both diagonals, minimal givens.",
)
@click.option(
    "--cage-cells",
    "largest",
    type=click.IntRange(2, 9),
    default=4,
    show_default=True,
    help="killer: the largest cages, in cells (cages are cut with 2 to this many).",
)
@click.option(
    "--level",
    type=click.Choice([*map(str, LEVELS), *LEVEL_NAMES]),
    help="Keep only puzzles of this level (see `rate`); medium is intermediate, hard is "
    "expert. Variants: easy, intermediate or expert (made by steering towards the level).",
)
@click.option(
    "--time-limit",
    type=Real(0, min_open=True),
    metavar="SECONDS",
    help="Stop after this long for the whole run: the puzzles made by then are printed "
    "whole, in seed order (exit code 5).",
)
@old_spelling("--timeout", dest="old_timeout", type=Real(0, min_open=True))
@output_options(
    "rich",
    "grid",
    "line",
    "jsonl",
    "csv",
    *PICTURES,
    "fpuzzles",
    defaults="rich (default on a terminal), line (default when piped); svg, pdf or png "
    "for pictures, fpuzzles for f-puzzles links; line, grid and fpuzzles show no rating, "
    "and their puzzles are not rated (faster)",
)
@picture_options("svg, pdf and png: the solutions too, after the puzzles (at the back of a PDF).")
@jobs_option
@shard_option(
    "Make every N-th of the --puzzles puzzles, starting at the K-th: one of N machines, "
    "the same puzzles as one run (puzzle i comes from seed --seed + i). With --format "
    "jsonl a last line says which shard, for `sudosat merge`."
)
@quiet_option
def generate(
    rank: int,
    alphabet: str | None,
    how_many: int,
    old_count: int | None,
    seed: int | None,
    minimal: bool,
    clues: int | None,
    symmetry: str,
    variant: str,
    largest: int,
    level: str | None,
    time_limit: float | None,
    old_timeout: float | None,
    fmt: str | None,
    color: bool | None,
    solution: bool,
    per_page: int,
    jobs: int | None,
    shard: Shard | None,
    quiet: bool,
) -> None:
    """Make puzzles with a unique solution: minimal, or with exactly --clues clues.

    Every puzzle is solved again by the engine (unique) and, when minimal, each
    clue is shown to be needed by a verified second solution without it. The
    same --seed and options give the same puzzles on any machine and with any
    --jobs. With --symmetry, minimal means no symmetric set of clues can go.
    Levels: simple, easy, intermediate (medium), expert (hard); see `rate`.

    \b
    Examples:
      sudosat generate
      sudosat generate --puzzles 100 --seed 7 --format jsonl > puzzles.jsonl
      sudosat generate --symmetry rotate180 --level hard
      sudosat generate --rank 4 --clues 120
      sudosat generate --rank 5 --puzzles 20 --time-limit 60
      sudosat generate --variant killer --seed 1 --format svg > killer.svg
      sudosat generate --variant jigsaw --puzzles 12 --format pdf --per-page 6 --solution > j.pdf
      sudosat generate --puzzles 1000 --seed 7 --shard 2/4 --format jsonl > part2.jsonl
    """
    how_many = renamed("generate --count", "--puzzles", old_count, how_many)
    time_limit = renamed("generate --timeout", "--time-limit", old_timeout, time_limit)
    n = rank * rank
    try:
        symbols = output_alphabet(alphabet, n)
    except ValueError as err:
        raise click.BadParameter(str(err), param_hint="--alphabet") from None
    if clues is not None and clues > n * n:
        raise click.BadParameter(f"a {n}x{n} grid has {n * n} cells", param_hint="--clues")
    if seed is None:
        seed = random.SystemRandom().randrange(2**31)
        click.echo(f"seed: {seed}", err=True)
    if variant != "classic" and (clues is not None or symmetry != "none"):
        raise click.UsageError(
            f"--variant {variant} makes minimal puzzles: no --clues or --symmetry"
        )
    view = pictured(fmt, View(solution=solution, per_page=per_page))
    wanted = None if level is None else level_named(level)
    if variant != "classic" and wanted not in (None, *VARIANT_LEVELS):
        raise click.BadParameter(
            f"variants are made {', '.join(VARIANT_LEVELS)}: never {wanted} (naked singles "
            "alone are a level of classic givens)",
            param_hint="--level",
        )
    asked = Asked(rank, symmetry, clues, wanted, symbols, variant, largest)
    seeds = range(seed, seed + how_many)
    try:
        output = Output(fmt, color, quiet)
        code = runner.make(Generate(asked), seeds, jobs, output, time_limit, view, shard)
    except GenerationError as err:
        raise BadInput(str(err)) from None
    sys.exit(code)
