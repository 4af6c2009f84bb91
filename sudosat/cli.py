"""The command line: thin click commands over the library.

Each command parses its options, calls the library (:mod:`inputs` to read,
:func:`engine.solve_with` through :mod:`batch` to solve, :mod:`render` to
show) and turns the answers into an exit code.
"""

from __future__ import annotations

import functools
import json
import random
import re
import signal
import sys
import traceback
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from typing import IO, Any, TypeVar, cast

import click
from click.core import ParameterSource
from rich.console import Console

from sudosat import __version__
from sudosat.core.errors import AmbiguousInput, InputError, SolverError, printable
from sudosat.core.notation import format_line
from sudosat.core.puzzle import Puzzle
from sudosat.making.generator import (
    SYMMETRIES,
    VARIANT_LEVELS,
    VARIANTS,
    Asked,
    GenerationError,
    output_alphabet,
)
from sudosat.making.rating import LEVEL_NAMES, LEVELS
from sudosat.reading.formats import Variants, is_content
from sudosat.reading.inputs import MAX_WHOLE, open_source, read_file, read_source, source_name
from sudosat.reading.ruletext import Statements, apply, from_option, split
from sudosat.running import runner
from sudosat.running.report import (
    FORMATS,
    PICTURES,
    STEP_FORMATS,
    Result,
    note,
    render,
    solver_tables,
)
from sudosat.running.runner import FAIL_ON, Formats, How, Output, Reading
from sudosat.running.shards import Shard, merge, parse_shard
from sudosat.sat.cnf import AMO_ENCODINGS, RULES, Encoding
from sudosat.sat.dimacs import read_answer, write_dimacs
from sudosat.sat.encoding import encode
from sudosat.sat.limits import TooBig, check_writable
from sudosat.sat.solvers import (
    DEFAULT_SOLVER,
    SolverSpec,
    command_spec,
    installed_solvers,
    solver_spec,
    trusting,
)
from sudosat.solving.engine import COUNT_LIMIT, Options, check_answer
from sudosat.solving.outcome import Status
from sudosat.system.process import (
    EXIT_INTERNAL,
    EXIT_NONE,
    EXIT_OK,
    EXIT_OUTPUT,
    EXIT_SOLVER,
    EXIT_TIMEOUT,
    EXIT_USAGE,
    Terminated,
    caught_interrupt,
    os_failure,
    silence_stdout,
    stopped,
)
from sudosat.system.writing import OutputRefused, WriteFn, write_out

F = TypeVar("F", bound=Callable[..., Any])


class BadInput(click.ClickException):
    """Input that cannot be read: one line, exit code 2."""

    exit_code = EXIT_USAGE


class Real(click.FloatRange):
    """A float in a range, never NaN (click's range lets it through: every
    comparison with NaN is false)."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        found = super().convert(value, param, ctx)
        if found != found:
            self.fail(f"{value!r} is not a number.", param, ctx)
        return found


class SolverFailure(click.ClickException):
    exit_code = EXIT_SOLVER


class CannotWrite(click.ClickException):
    """Output that could not be written (a full disk, an I/O error): exit 74."""

    exit_code = EXIT_OUTPUT


def bad_input(err: InputError) -> BadInput:
    """The one-line error for input that cannot be read, with the flags that settle
    an ambiguous reading."""
    hint = "; see --alphabet, --rank and --layout" if isinstance(err, AmbiguousInput) else ""
    return BadInput(f"{err}{hint}")


def input_options(func: F) -> F:
    """The reading options, handed to the command as one ``reading``."""

    @functools.wraps(func)
    def command(
        *args: Any,
        rank: int | None,
        alphabet: str | None,
        layout: str,
        rule_statements: str | None,
        rules_file: str | None,
        filled_as_givens: bool,
        **kwargs: Any,
    ) -> Any:
        variants = Variants(_statements(rule_statements, rules_file), filled_as_givens)
        files = (rules_file,) if rules_file is not None else ()
        return func(*args, reading=Reading(rank, alphabet, layout, variants, files), **kwargs)

    wrapped = cast(F, command)
    wrapped = click.option(
        "--filled-as-givens",
        is_flag=True,
        help="f-puzzles: take every filled value as a given, not only those marked given.",
    )(wrapped)
    wrapped = click.option(
        "--rules-file",
        metavar="FILE",
        help="Rule statements, one a line, added to every puzzle (see README, Variants).",
    )(wrapped)
    wrapped = click.option(
        "--rules",
        "rule_statements",
        metavar="STATEMENTS",
        help="Rules added to every puzzle: 'anti-knight, diagonals', 'cage 15: r1c1 r1c2; "
        "thermo: r2c2 r2c3 r2c4' (see README, Variants).",
    )(wrapped)
    wrapped = click.option(
        "--layout",
        type=click.Choice(("auto", "line", "grid")),
        default="auto",
        show_default=True,
        help="grid: puzzles are grids; line: one puzzle per line.",
    )(wrapped)
    wrapped = click.option(
        "--alphabet",
        metavar="NAME|SYMBOLS",
        help="digits, hex (0-f), base36 (1-9A-Z), rexl (1234567890A-Z), numbers "
        "(whitespace-separated, 0 = blank) or the N symbols in value order.",
    )(wrapped)
    return click.option(
        "--rank",
        type=click.IntRange(2, 20),
        help="Box size: 3 for 9x9, 4 for 16x16, ... (default: from the cell count).",
    )(wrapped)


def _statements(rules: str | None, rules_file: str | None) -> tuple[Statements, ...]:
    """The rule statements of --rules and --rules-file; BadInput for a file that
    cannot be read."""
    found = []
    if rules_file is not None:
        try:
            source, text = read_source(rules_file, expected="rule statements")
        except InputError as err:
            raise bad_input(err) from None
        statements, rest = split(text, source)
        stray = next((n for n, line in enumerate(rest.splitlines(), 1) if is_content(line)), 0)
        if stray:
            line = rest.splitlines()[stray - 1].strip()
            raise BadInput(f"{source}:{stray}:1: not a rule statement: {line[:40]!r}")
        found.append(statements)
    if rules is not None:
        found.append(from_option(rules))
    return tuple(found)


def encoding_options(func: F) -> F:
    default = Encoding()
    func = click.option(
        "--reduced/--full",
        default=default.reduced,
        show_default=True,
        help="Leave out what the givens decide (Kwon and Jain), or write every rule and given.",
    )(func)
    func = click.option(
        "--amo",
        type=click.Choice(AMO_ENCODINGS),
        default=default.amo,
        show_default=True,
        help="At-most-one encoding (pysat.card) for the cell and unit constraints.",
    )(func)
    return click.option(
        "--encoding",
        "rules",
        type=click.Choice(RULES),
        default=default.rules,
        show_default=True,
        help="Clause families of Lynce and Ouaknine.",
    )(func)


def asked_encoding(rules: str, amo: str, reduced: bool) -> Encoding | None:
    """The encoding the options ask for; None when none of them was given."""
    context = click.get_current_context()
    given = [context.get_parameter_source(name) for name in ("rules", "amo", "reduced")]
    if all(source == ParameterSource.DEFAULT for source in given):
        return None
    return Encoding(rules, amo, reduced)


def output_options(
    *formats: str,
    note: str = "",
    defaults: str = "rich (default on a terminal), grid (default when piped)",
) -> Callable[[F], F]:
    """--format (one of ``formats``) and --color/--no-color."""

    def decorate(func: F) -> F:
        func = click.option(
            "--color/--no-color",
            default=None,
            help="Force colour on or off (NO_COLOR is honoured).",
        )(func)
        return click.option(
            "--format",
            "-f",
            "fmt",
            type=click.Choice(formats),
            help=f"Output: {defaults}{note}.",
        )(func)

    return decorate


trust_option = click.option(
    "--trust-solver",
    is_flag=True,
    help="Take a solver program's UNSATISFIABLE on its word. Without it the embedded "
    f"{DEFAULT_SOLVER} checks every one, so a broken program cannot make a puzzle "
    "unique or unsolvable.",
)
jobs_option = click.option(
    "--jobs",
    "-j",
    type=click.IntRange(1),
    help="Worker processes for many puzzles (default: all cores); answers stay in input order.",
)
quiet_option = click.option(
    "--quiet", "-q", is_flag=True, help="No progress bar and no summary on stderr."
)


def _page_option(name: str) -> Callable[[click.Context, click.Parameter, Any], None]:
    """A picture option's callback: its value kept for :func:`pictures` (the page
    options are many, and the commands' own parameters stay few)."""

    def keep(ctx: click.Context, param: click.Parameter, value: Any) -> None:
        if value is not None:
            ctx.meta.setdefault("page", {})[name] = value

    return keep


PAGE_OPTIONS = [
    click.option(
        "--title",
        metavar="TEXT",
        callback=_page_option("title"),
        expose_value=False,
        help="svg, pdf and png: the title over each grid (default: the puzzle's own "
        "title and author).",
    ),
    click.option(
        "--no-title",
        is_flag=True,
        default=None,
        callback=lambda ctx, param, value: _page_option("title")(ctx, param, "" if value else None),
        expose_value=False,
        help="svg, pdf and png: no title over the grids.",
    ),
    click.option(
        "--rules-text/--no-rules-text",
        default=None,
        callback=_page_option("rules_text"),
        expose_value=False,
        help="svg, pdf and png: the rules in words under each grid: the setter's "
        "ruleset, or each rule's meaning (default: where the puzzle has a ruleset).",
    ),
    click.option(
        "--paper",
        type=click.Choice(["a4", "letter"]),
        callback=_page_option("paper"),
        expose_value=False,
        help="pdf: the page size (default: a4).",
    ),
    click.option(
        "--dpi",
        type=click.IntRange(30, 1200),
        callback=_page_option("dpi"),
        expose_value=False,
        help="png: dots an inch (default: 150).",
    ),
]


def picture_options(solution_help: str) -> Callable[[F], F]:
    """--solution, --per-page and the page's options, for the picture formats."""

    def decorate(func: F) -> F:
        for option in reversed(PAGE_OPTIONS):
            func = option(func)
        func = click.option(
            "--per-page",
            type=click.IntRange(1, 30),
            default=1,
            show_default=True,
            help="svg, pdf and png: puzzles on a PDF page, or in a row of a sheet.",
        )(func)
        return click.option("--solution", is_flag=True, help=solution_help)(func)

    return decorate


def pictures(fmt: str | None, solution: bool = False, per_page: int = 1) -> dict[str, Any]:
    """What the picture formats show; a PDF or a PNG is never written to a terminal."""
    if fmt in ("pdf", "png") and sys.stdout.isatty():
        raise click.UsageError(f"a {fmt.upper()} is binary: send it to a file (> puzzles.{fmt})")
    if fmt in ("pdf", "png"):
        from sudosat.core.draw import missing_pdf  # deferred: drawsvg, for PDFs only

        missing = missing_pdf(fmt)
        if missing:
            raise click.UsageError(missing)
    context = click.get_current_context(silent=True)
    page = context.meta.get("page", {}) if context is not None else {}
    return {"solution": solution, "per_page": per_page, **page}


def resolve_solver(solver: str | None, solver_cmd: str | None) -> SolverSpec | None:
    """The solver the options name (None: none was); a program that is not installed
    fails here (exit 4)."""
    try:
        if solver_cmd is None:
            spec = solver_spec(solver) if solver is not None else None
        elif solver is not None:
            raise click.UsageError("give --solver or --solver-cmd, not both")
        else:
            spec = command_spec(solver_cmd)
    except SolverError as err:
        hint = "--solver" if solver_cmd is None else "--solver-cmd"
        raise click.BadParameter(str(err), param_hint=hint) from None
    for program in spec.programs if spec is not None else []:
        from sudosat.sat.solvers.external import executable

        try:
            executable(program)
        except SolverError as err:
            raise SolverFailure(str(err)) from None
    return spec


@dataclass(frozen=True)
class EachPuzzle:
    """What rate and explain take alike: the puzzles, how to read them, a timeout
    per puzzle, workers, and whether to be quiet."""

    puzzles: tuple[str, ...]
    reading: Reading
    timeout: float | None
    jobs: int | None
    quiet: bool

    def answer(
        self, fmt: str | None, color: bool | None, shown: dict[str, Any], formats: Formats
    ) -> int:
        """Every puzzle answered with ``shown`` asked of it; the exit code."""
        options, how, output = (
            Options(timeout=self.timeout),
            How(jobs=self.jobs),
            Output(fmt, color, self.quiet),
        )
        return answer(self.puzzles, self.reading, options, shown, how, output, formats)


def each_puzzle_options(timeout_help: str) -> Callable[[F], F]:
    """--timeout, --jobs and --quiet, and with the puzzles and their reading (the
    decorators above) handed to the command as one ``each``."""

    def decorate(func: F) -> F:
        @functools.wraps(func)
        def command(
            *args: Any,
            puzzles: tuple[str, ...],
            reading: Reading,
            timeout: float | None,
            jobs: int | None,
            quiet: bool,
            **kwargs: Any,
        ) -> Any:
            return func(*args, each=EachPuzzle(puzzles, reading, timeout, jobs, quiet), **kwargs)

        wrapped = cast(F, command)
        for option in (quiet_option, jobs_option, timeout_option(timeout_help)):
            wrapped = option(wrapped)
        return wrapped

    return decorate


def timeout_option(help: str) -> Callable[[F], F]:
    return click.option("--timeout", type=Real(0, min_open=True), metavar="SECONDS", help=help)


def families(ctx: click.Context, param: click.Parameter, value: tuple[str, ...]) -> frozenset[str]:
    """``--without subsets,fish``: the techniques of those families (see FAMILIES)."""
    from sudosat.making.techniques import left_out  # deferred: the path, for steps and rate

    try:
        return left_out(name.strip() for item in value for name in item.split(",") if name.strip())
    except ValueError as err:
        raise click.BadParameter(str(err)) from None


def without_option(func: F) -> F:
    return click.option(
        "--without",
        multiple=True,
        callback=families,
        metavar="FAMILIES",
        help="Leave these technique families out of the path (comma-separated or repeated): "
        "locked, subsets, fish, wings, chains, forcing, rules together.",
    )(func)


def out_option(help: str) -> Callable[[F], F]:
    return click.option("--out", "-o", default="-", show_default=True, metavar="FILE", help=help)


def write_to(out: str, write: WriteFn, inputs: Iterable[str]) -> None:
    """``write`` to stdout (``-``) or to the file ``out``, atomically; errors
    as click's (an input or a directory given as ``out``: bad input)."""
    if out == "-":
        write(sys.stdout)
        return
    try:
        write_out(out, write, inputs)
    except OutputRefused as err:
        raise BadInput(str(err)) from None
    except OSError as err:
        raise CannotWrite(f"cannot write {printable(out)}: {err.strerror or err}") from None


def _shard(value: str | None) -> Shard | None:
    try:
        return None if value is None else parse_shard(value)
    except ValueError as err:
        raise click.BadParameter(str(err)) from None


def shard_option(help: str) -> Callable[[F], F]:
    return click.option(
        "--shard", metavar="K/N", callback=lambda ctx, param, value: _shard(value), help=help
    )


def _fail_on(value: str | None) -> frozenset[str] | None:
    try:
        return None if value is None else runner.fail_on(value)
    except ValueError as err:
        raise click.BadParameter(str(err)) from None


def console_for(stream: Any, color: bool | None) -> Console:
    return Output(color=color).console(stream)


def _write(text: str) -> None:
    if text:
        sys.stdout.write(text)
        sys.stdout.flush()


def answer(
    puzzles: tuple[str, ...],
    reading: Reading,
    options: Options,
    shown: dict[str, Any],
    how: How,
    output: Output,
    formats: runner.Formats = runner.SOLVE_FORMATS,
) -> int:
    """:func:`runner.answer`, with its errors as click's."""
    try:
        return runner.answer(puzzles, reading, options, shown, how, output, formats)
    except runner.Usage as err:
        raise click.UsageError(str(err)) from None
    except InputError as err:
        raise bad_input(err) from None


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="sudosat")
@click.option(
    "--debug", is_flag=True, help="On an internal error, print the traceback (see Exit codes)."
)
def cli(debug: bool) -> None:
    """Solve, count and compile Sudoku puzzles with SAT solvers.

    \b
    Examples:
      sudosat solve puzzles/ai-escargot.txt
      sudosat solve --count --max-solutions 100 puzzles/several-solutions.txt
      cat puzzle.txt | sudosat solve - --format json
      sudosat cnf puzzles/hex-16x16.txt --out hex.cnf
      sudosat cnf --rank 4 --full --out rules16.cnf
      sudosat solvers
    """


@cli.command()
@click.argument("puzzles", nargs=-1, metavar="[PUZZLE]...")
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
    callback=lambda ctx, param, value: _fail_on(value),
    help="Which outcomes make the exit code non-zero: comma-separated of "
    f"{', '.join(FAIL_ON)}; `all` (default) or `never`.",
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
@click.option(
    "--certify",
    metavar="DIR",
    type=click.Path(file_okay=False),
    help="Write each answer's certificate in DIR/FILE-LINE: the full CNF, the solutions "
    "and their models, and a DRUP proof that there is no other (or none at all), from "
    "CaDiCaL 1.9.5 in process; `sudosat verify DIR` checks them.",
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
    fail_on: frozenset[str] | None,
    timed: bool,
    front_end: bool,
    quiet: bool,
    solution: bool,
    per_page: int,
    certify: str | None,
) -> None:
    """Solve PUZZLE files (`-` or nothing for stdin) and say whether each solution is unique.

    A file holds one puzzle (a line of N*N symbols, or a grid of N rows), one
    puzzle per line, or a CSV with a puzzle column (quizzes, puzzle, ...) and
    maybe a solutions column. The input alone decides between one puzzle and
    many: many are streamed, solved by --jobs workers and answered once each,
    in input order, with a summary on stderr. Every format gives one record per
    puzzle. Exit codes: 0 unique, 1 several solutions, 2 bad input, 3 no
    solution, 4 solver failure, 5 timeout, 6 --check mismatch, 130 interrupted
    (the most severe over all puzzles; see --fail-on; a puzzle whose expected
    answer is checked counts by its check alone).

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
      sudosat solve --format csv --check --fail-on error,mismatch sudoku.csv
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
    shown: dict[str, Any] = {"count": count or estimate, "check": check, "stats": stats}
    shown |= {"timed": timed, **pictures(fmt, solution, per_page)}
    if estimate:
        shown["estimate"] = (epsilon, delta, estimator, seed)
    if certify is not None:
        shown["certify"] = certify
    how = How(jobs, shard, fail_on, front_end)
    sys.exit(answer(puzzles, reading, options, shown, how, Output(fmt, color, quiet)))


def read_one(path: str, reading: Reading) -> Puzzle:
    """The one puzzle of ``path``; BadInput for anything else."""
    try:
        entries = read_file(
            path,
            rank=reading.rank,
            alphabet=reading.alphabet,
            layout=reading.layout,
            limit=MAX_WHOLE,
            variants=reading.variants,
        )
    except InputError as err:
        raise bad_input(err) from None
    if len(entries) != 1:
        raise BadInput(f"{path}: holds {len(entries)} puzzles; give one")
    if isinstance(entries[0], InputError):
        raise bad_input(entries[0])
    return entries[0]


@cli.command()
@click.argument("puzzle", required=False)
@input_options
@encoding_options
@out_option("Where to write the CNF (written atomically); - for stdout.")
def cnf(
    puzzle: str | None,
    reading: Reading,
    rules: str,
    amo: str,
    reduced: bool,
    out: str,
) -> None:
    """Write the DIMACS CNF of PUZZLE, or with --rank and no PUZZLE the rules alone.

    Variable (r*N + c)*N + v + 1 means row r, column c holds value v (all 0-based).

    \b
    Examples:
      sudosat cnf puzzles/ai-escargot.txt --out escargot.cnf
      sudosat cnf puzzles/ai-escargot.txt --full --amo seqcounter | cadical
      sudosat cnf --rank 4 --out rules16.cnf
    """
    if puzzle is None:
        if reading.rank is None:
            raise click.UsageError("give a PUZZLE, or --rank N for the rules alone")
        target = replace(Puzzle.empty(reading.rank), source="<rules>", line=0)
        try:
            target = apply(target, reading.variants.statements)
        except InputError as err:
            raise bad_input(err) from None
        reduced = False
    else:
        target = read_one(puzzle, reading)
    try:
        check_writable(target, reduced, out)
    except TooBig as err:
        raise BadInput(str(err)) from None
    formula = encode(target, Encoding(rules, amo, reduced))
    write_to(out, lambda handle: write_dimacs(formula, handle), [puzzle or "-", *reading.files])


@cli.command()
@click.argument("puzzle")
@click.argument("model", default="-")
@input_options
@output_options("rich", "grid", "line", "json")
@trust_option
def decode(
    puzzle: str,
    model: str,
    reading: Reading,
    fmt: str | None,
    color: bool | None,
    trust_solver: bool,
) -> None:
    """Read a solver's answer to PUZZLE's CNF from MODEL (default stdin) and print the grid.

    MODEL may hold SAT competition output (s and v lines), a MiniSat result file
    (SAT, then the model) or bare integers. The model is mapped back through
    the variable numbering and verified against the rules and the givens; one
    that is no solution is an error (exit 4), and so is UNSATISFIABLE for a
    puzzle the embedded solver solves. Exit codes: 0 solved, 2 bad input,
    3 no solution (UNSATISFIABLE, confirmed), 4 no solution in the model or a
    wrong UNSATISFIABLE, 5 the solver gave no answer (UNKNOWN).

    \b
    Examples:
      sudosat cnf puzzles/ai-escargot.txt | cadical | sudosat decode puzzles/ai-escargot.txt
      sudosat cnf puzzles/hex-16x16.txt -o hex.cnf
      minisat hex.cnf hex.out; sudosat decode puzzles/hex-16x16.txt hex.out
    """
    if puzzle == "-" and model == "-":
        raise click.UsageError("PUZZLE and MODEL cannot both be stdin")
    target = read_one(puzzle, reading)
    try:
        limit = MAX_WHOLE + target.size**3 * (len(str(target.size**3)) + 2)  # every literal
        source, text = read_source(model, expected="solver output", limit=limit)
        answer = read_answer(text, source)
    except InputError as err:
        raise bad_input(err) from None
    try:
        outcome = check_answer(target, answer, trusted=trust_solver)
    except SolverError as err:
        raise SolverFailure(f"{source}: {err}") from None
    out = console_for(sys.stdout, color)
    view = runner.view_for(fmt or ("rich" if out.is_terminal else "grid"), out)
    result = Result(target.source, target.line, format_line(target), outcome)
    _write(render([result], view))
    said = note(result, view)
    if said is not None:
        console_for(sys.stderr, color).print(said, markup=False, highlight=False)
    codes = {Status.SOLVED: EXIT_OK, Status.NONE: EXIT_NONE, Status.TIMEOUT: EXIT_TIMEOUT}
    sys.exit(codes[outcome.status])


@cli.command()
@click.argument("puzzles", nargs=-1, metavar="[PUZZLE]...")
@input_options
@output_options(
    *FORMATS,
    defaults="rich (default on a terminal), line (default when piped): `LEVEL RATING` per "
    "puzzle; json, jsonl or csv add level, rating and conflicts to solve's record",
)
@click.option(
    "--by",
    type=click.Choice(["path", "search"]),
    default="path",
    show_default=True,
    help="Rate by the logical path's hardest technique, or (classic puzzles) by the "
    "engine's search: faster on big batches.",
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
    an XY-wing 5.2, an AIC 8, forcing chains 9, nested chains 10 to 11.5) + the
    same; where no technique finishes the path, 12 + log2(1 + the search's
    conflicts) / 4.
    `technique` names the hardest ("search" beyond them).
    By search (classic puzzles; as before 2026-11): the same first three levels by
    propagation, then 4 + log2(1 + conflicts of the engine's search); fast.
    Only unique puzzles are rated; the others get their status. Input as for
    `solve`; exit codes as for `solve`.

    \b
    Examples:
      sudosat rate puzzles/ai-escargot.txt
      sudosat rate --format jsonl puzzles/tdoku-magictour-25.txt
      sudosat rate --timeout 10 --jobs 2 collection.txt
    """
    shown = {"rate": True, "rate_by": by, "without": without}
    sys.exit(each.answer(fmt, color, shown, runner.RATE_FORMATS))


@cli.command()
@click.option("--rank", type=click.IntRange(2, 6), default=3, show_default=True, help="Box size.")
@click.option(
    "--alphabet",
    metavar="NAME|SYMBOLS",
    help="How to write values: digits, hex, base36, rexl, numbers or the N symbols "
    "(default: digits to 9x9, hex for 16x16, base36 for 25x25, rexl for 36x36).",
)
@click.option("--count", "-n", "how_many", type=click.IntRange(1), default=1, show_default=True)
@click.option(
    "--seed",
    type=click.IntRange(0),
    help="Puzzle i is made from seed+i (default: random, on stderr).",
)
@click.option(
    "--minimal", "minimal", flag_value=True, default=True, help="No clue can be removed (default)."
)
@click.option("--clues", type=click.IntRange(0), help="Exactly this many clues (still unique).")
@click.option("--symmetry", type=click.Choice(SYMMETRIES), default="none", show_default=True)
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
    type=click.Choice((*LEVELS, *LEVEL_NAMES)),
    help="Keep only puzzles of this level (see `rate`); medium is intermediate, hard is "
    "expert. Variants: easy, intermediate or expert (made by steering towards the level).",
)
@timeout_option(
    "Stop after this long for the whole run: the puzzles made by then are printed "
    "whole, in seed order (exit code 5)."
)
@output_options(
    "rich",
    "grid",
    "line",
    "jsonl",
    "csv",
    *PICTURES,
    "fpuzzles",
    defaults="rich (default on a terminal), line (default when piped); svg, pdf or png "
    "for pictures, fpuzzles for f-puzzles links",
)
@picture_options("svg, pdf and png: the solutions too, after the puzzles (at the back of a PDF).")
@click.option(
    "--jobs", "-j", type=click.IntRange(1), default=1, show_default=True, help="Worker processes."
)
@shard_option(
    "Make every N-th of the --count puzzles, starting at the K-th: one of N machines, "
    "the same puzzles as one run (puzzle i comes from seed --seed + i). With --format "
    "jsonl a last line says which shard, for `sudosat merge`."
)
@quiet_option
def generate(
    rank: int,
    alphabet: str | None,
    how_many: int,
    seed: int | None,
    minimal: bool,
    clues: int | None,
    symmetry: str,
    variant: str,
    largest: int,
    level: str | None,
    timeout: float | None,
    fmt: str | None,
    color: bool | None,
    solution: bool,
    per_page: int,
    jobs: int,
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
      sudosat generate --count 100 --seed 7 --format jsonl > puzzles.jsonl
      sudosat generate --symmetry rotate180 --level hard
      sudosat generate --rank 4 --clues 120
      sudosat generate --rank 5 --count 20 --timeout 60
      sudosat generate --variant killer --seed 1 --format svg > killer.svg
      sudosat generate --variant jigsaw --count 12 --format pdf --per-page 6 --solution > j.pdf
      sudosat generate --count 1000 --seed 7 --shard 2/4 --format jsonl > part2.jsonl
    """
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
    shown = pictures(fmt, solution, per_page)
    level = LEVEL_NAMES.get(level or "", level)
    if variant != "classic" and level not in (None, *VARIANT_LEVELS):
        raise click.BadParameter(
            f"variants are made {', '.join(VARIANT_LEVELS)}: never {level} (naked singles "
            "alone are a level of classic givens)",
            param_hint="--level",
        )
    asked = Asked(rank, symmetry, clues, level, symbols, variant, largest)
    seeds = range(seed, seed + how_many)
    try:
        code = runner.make(asked, seeds, jobs, Output(fmt, color, quiet), timeout, shown, shard)
    except GenerationError as err:
        raise BadInput(str(err)) from None
    sys.exit(code)


@cli.command()
@click.argument("puzzles", nargs=-1, metavar="[PUZZLE]...")
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
def explain(each: EachPuzzle, fmt: str | None, color: bool | None) -> None:
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
    shown = {"explain": True, **pictures(fmt)}
    sys.exit(each.answer(fmt, color, shown, runner.EXPLAIN_FORMATS))


@cli.command()
@click.argument("puzzles", nargs=-1, metavar="[PUZZLE]...")
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
@picture_options("Not used by candidates: a cell with one candidate shows it.")
@each_puzzle_options(
    "Seconds for each puzzle: the candidates witnessed by then are printed, the rest "
    "are undecided (json: undecided), exit code 5."
)
def candidates(
    each: EachPuzzle,
    count_each: int | None,
    fmt: str | None,
    color: bool | None,
    solution: bool,
    per_page: int,
) -> None:
    """Show each cell's true candidates: the values some solution puts there.

    \b
    Every candidate shown is in a solution that was found and checked against the
    rules; every value left out was proved impossible. A unique puzzle's candidates
    are its solution; a puzzle with no solution has none, and the clues and rules
    that cannot all hold are named (as `explain` does). Classic and variant, any
    size. Input as for `solve`. Exit codes: 0 unique, 1 several solutions, 2 bad
    input, 3 no solution, 5 out of time.

    \b
    Examples:
      sudosat candidates puzzles/several-solutions.txt
      sudosat candidates --count-each 100 --format json puzzles/several-solutions.txt
      sudosat candidates --format svg puzzles/several-solutions.txt > marks.svg
      sudosat candidates --format fpuzzles puzzles/killer.txt
    """
    shown = {"candidates": True, "count_each": count_each, **pictures(fmt, False, per_page)}
    sys.exit(each.answer(fmt, color, shown, runner.CANDIDATES_FORMATS))


@cli.command()
@click.argument("puzzles", nargs=-1, metavar="[PUZZLE]...")
@input_options
@click.option("--hint", is_flag=True, help="Only the next step (from --marks, if given).")
@click.option(
    "--marks",
    "marks_file",
    metavar="FILE",
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
@picture_options("Not used by steps.")
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
    without: frozenset[str],
    each_step: bool,
    fmt: str | None,
    color: bool | None,
    solution: bool,
    per_page: int,
) -> None:
    """Solve each puzzle by logic, a step at a time, as a person would.

    \b
    Each step is the first deduction of the easiest technique that finds one:
      naked single, hidden single, (a variant's rule alone), locked candidates,
      (two rules that share cells), naked pair, (a rule with its units),
      X-wing, (a house with its rules), hidden pair, triples, swordfish,
      XY-wing, XYZ-wing, W-wing, quads, jellyfish, simple colouring, X-chain,
      XY-chain, AIC, forcing chains, dynamic forcing chains; bifurcation only
      with --bifurcation. None assumes uniqueness. A question over rules and
      houses is taken apart to the smallest part that does the work, which
      names and weighs the step.
    Every step is checked against the true candidates before it is shown. The
    path ends solved, stuck (nothing applies), or in a contradiction (no
    solution); its hardest technique gives the level and rating `rate` reports.
    Input as for `solve`. Exit codes: 0 unique, 1 several solutions, 2 bad input,
    3 no solution, 5 out of time.

    \b
    Examples:
      sudosat steps puzzles/miracle.txt
      sudosat steps --format jsonl puzzles/tdoku-magictour-25.txt
      sudosat candidates -f line puzzles/hodoku.txt > marks.txt
      sudosat steps --hint --marks marks.txt puzzles/hodoku.txt
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
    shown = {
        "steps": True,
        "hint": hint,
        "marks": marks,
        "bifurcation": bifurcation,
        "show_grid": show_grid,
        "without": without,
        "each_step": each_step,
        **pictures(fmt, False, per_page),
    }
    sys.exit(each.answer(fmt, color, shown, runner.STEPS_FORMATS))


@cli.command(name="merge")
@click.argument("shards", nargs=-1, required=True, metavar="SHARD...")
@out_option("Where the merged records go (written whole, or not at all); - for stdout.")
def merge_command(shards: tuple[str, ...], out: str) -> None:
    """Join the JSON Lines of `solve --shard K/N` or `generate --shard K/N`
    runs into the output of one run: the same records in the same order.

    Each SHARD (a file, a FIFO, or - for stdin once) is read once and must end
    with its shard's trailer line, and together they must be shards 1 to N of
    one run (the same command, options and input), each once: a missing,
    repeated, unfinished or foreign shard is refused with one line (exit 2)
    and nothing is written.

    \b
    Examples:
      sudosat merge part1.jsonl part2.jsonl part3.jsonl part4.jsonl > all.jsonl
      sudosat merge parts/*.jsonl --out all.jsonl
    """
    if shards.count("-") > 1:
        raise click.UsageError("stdin (-) can be one shard only")
    records = merge(shards, open_source)  # each read once, checked before any is given

    def write(handle: IO[str]) -> None:
        try:
            handle.writelines(records)
        except InputError as err:
            raise bad_input(err) from None
        except ValueError as err:
            raise BadInput(str(err)) from None
        except OSError as err:
            if err.filename is None:  # the output's own failure: write_to says so
                raise
            raise BadInput(f"{printable(err.filename)}: {err.strerror or err}") from None

    write_to(out, write, shards)


@cli.command(name="verify")
@click.argument(
    "folders", nargs=-1, required=True, metavar="DIR...", type=click.Path(file_okay=False)
)
@click.option(
    "--checker",
    type=click.Choice(["dratify", "drup"]),
    default="dratify",
    show_default=True,
    help="The proof checker: dratify (fast, pure Python), or drup (extracted from "
    "verified Why3 code; slow; pip install 'sudosat[drup]').",
)
def verify_command(folders: tuple[str, ...], checker: str) -> None:
    """Check the certificates `solve --certify` wrote: DIR is one certificate, or a
    folder of them.

    Each claim is checked as a reader would, trusting neither the solver nor the
    proof's maker: the files' hashes; that puzzle.cnf is the puzzle's full CNF;
    that each model satisfies every clause and spells its solution, and that the
    solution keeps every rule by the rule's own check; that claim.cnf is the CNF
    with those solutions blocked; that claim.drup, a DRUP proof, refutes it
    (checked by a checker that shares no code with sudosat or the solver). A
    line per certificate: `valid` or `NOT VALID` and what failed. Exit codes: 0
    every certificate valid, 1 one is not, 2 a folder holds no certificate.

    \b
    Examples:
      sudosat solve --certify proofs puzzles/ai-escargot.txt
      sudosat verify proofs
      sudosat verify --checker drup proofs/ai-escargot.txt-1
    """
    from pathlib import Path

    from sudosat.solving.certificate import NotACertificate, check, found_in

    try:
        certificates = [c for folder in folders for c in found_in(Path(folder))]
    except NotACertificate as err:
        raise BadInput(str(err)) from None
    failed = False
    for folder in certificates:
        try:
            verdict = check(folder, checker)
        except NotACertificate as err:
            raise BadInput(str(err)) from None
        if verdict.valid:
            proof = f", {verdict.proven}" if verdict.proven else ""
            click.echo(f"valid: {folder}: {verdict.status}{proof} ({verdict.seconds:.2f} s)")
        else:
            failed = True
            click.echo(f"NOT VALID: {folder}: {verdict.problems[0]}")
    sys.exit(1 if failed else 0)


@cli.command()
@click.option(
    "--format",
    "-f",
    "fmt",
    type=click.Choice(["rich", "json"]),
    help="Table (default on a terminal) or JSON.",
)
def solvers(fmt: str | None) -> None:
    """List the SAT solvers this installation can run: PySAT's, in process, and the
    solver programs found on PATH, with their versions."""
    listing = installed_solvers()
    if (fmt or ("rich" if sys.stdout.isatty() else "json")) == "json":
        click.echo(json.dumps(listing, indent=2))
        return
    console = Console()
    for table in solver_tables(listing):
        console.print(table)


@cli.command()
@click.option(
    "--port",
    type=click.IntRange(0, 65535),
    default=4545,
    show_default=True,
    help="The port (the plugin's is 4545; 0: any free one).",
)
@click.option(
    "--host",
    default="localhost",
    show_default=True,
    help="Where to listen: loopback names only (localhost, 127.0.0.1, ::1).",
)
@click.option(
    "--allow-origin",
    "allow_origins",
    multiple=True,
    metavar="URL",
    help="Also let web pages of this origin drive the server (repeatable), "
    "besides f-puzzles and pages on localhost.",
)
@click.option(
    "--timeout",
    type=Real(0, min_open=True),
    default=300,
    show_default=True,
    metavar="SECONDS",
    help="The longest a job may run (an estimate's stream too).",
)
@click.option(
    "--cache",
    type=click.IntRange(0),
    default=256,
    show_default=True,
    help="Answers kept, to answer a repeated puzzle at once (0: none).",
)
@click.option(
    "--max-frame",
    type=click.IntRange(1024),
    default=4 * 1024 * 1024,
    show_default=True,
    metavar="BYTES",
    help="The largest message taken.",
)
def serve(
    port: int,
    host: str,
    allow_origins: tuple[str, ...],
    timeout: float,
    cache: int,
    max_frame: int,
) -> None:
    """Answer the f-puzzles solver plugin: a websocket server on localhost:4545.

    Install the userscript Fpuzzles-SudokuSolver (github.com/dclamage/SudokuSolver,
    UserScripts/), open f-puzzles, press Connect: true candidates, solve, check,
    count, estimate, the solution path and steps are then sudosat's. Open
    http://localhost:4545/ for a page that takes any link or puzzle sudosat
    reads (SudokuPad links too) and shows its candidates and logical path.
    Ctrl-C or SIGTERM stops it, with every worker process.

    \b
    Examples:
      sudosat serve
      sudosat serve --port 4546 --timeout 60
      sudosat serve --allow-origin https://my-editor.example
    """
    from sudosat.serving.server import LOOPBACK, Settings, serve_forever  # deferred: websockets

    if host not in LOOPBACK:
        raise click.BadParameter(
            f"{host!r}: sudosat serves loopback only ({', '.join(LOOPBACK)})", param_hint="--host"
        )
    for origin in allow_origins:
        if not re.fullmatch(r"https?://[^/\s]+", origin):
            raise click.BadParameter(
                f"{origin!r}: expected an origin such as https://example.com",
                param_hint="--allow-origin",
            )
    settings = Settings(host, port, allow_origins, timeout, max_frame, cache)
    try:
        signum = serve_forever(settings)
    except OSError as err:
        raise click.ClickException(
            f"cannot listen on {host}:{port}: {err.strerror or err}"
        ) from None
    if signum:
        sys.exit(stopped(signum))


def run_command() -> int:
    """The command of ``sys.argv``, run here; its exit code."""
    try:
        code = cli.main(prog_name="sudosat", standalone_mode=False)
        sys.stdout.flush()  # here, not at exit, where a failure could not be reported
    except click.ClickException as err:
        err.show()
        return err.exit_code
    except (KeyboardInterrupt, click.Abort):
        return stopped(signal.SIGINT)
    except Terminated as stop:
        return stopped(stop.signum)
    except BrokenPipeError:  # the reader has all it wants (`| head`)
        silence_stdout()
        return EXIT_OK
    except SystemExit as done:
        if type(sys.stdout).__name__ == "_PacifyFlushWrapper":  # click saw the pipe close
            silence_stdout()
            return EXIT_OK
        raise done
    except OSError as err:
        code, message = os_failure(err)
        if code == EXIT_OUTPUT:
            silence_stdout()
        click.echo(f"sudosat: {message}", err=True)
        return code
    except Exception as err:  # a bug: one line, the traceback only when asked for
        if caught_interrupt(err):
            return stopped(signal.SIGINT)
        if "--debug" in sys.argv[1:]:
            traceback.print_exc()
        what = printable(f"{type(err).__name__}: {err}")[:300]
        hint = "" if "--debug" in sys.argv[1:] else " (sudosat --debug ... shows the traceback)"
        click.echo(f"sudosat: internal error: {what}{hint}", err=True)
        return EXIT_INTERNAL
    return code if isinstance(code, int) else EXIT_OK
