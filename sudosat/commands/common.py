"""What the commands share: their options, the reading of input, errors as click's."""

from __future__ import annotations

import functools
import os
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, TypeVar, cast

import click
from click.core import ParameterSource

from sudosat.commands.paramtypes import Real
from sudosat.core.errors import AmbiguousInput, InputError, SolverError, printable
from sudosat.core.puzzle import Puzzle
from sudosat.reading.chunks import ARGUMENT, MAX_WHOLE
from sudosat.reading.formats import is_content, read_text
from sudosat.reading.inputs import read_file, read_source
from sudosat.reading.lines import Variants
from sudosat.reading.ruletext import Statements, from_option, split
from sudosat.running import runner
from sudosat.running.runner import Formats, How, Output, Plain, Reading
from sudosat.running.tasks import Task
from sudosat.sat.cnf import AMO_ENCODINGS, RULES, Encoding
from sudosat.sat.solvers import (
    DEFAULT_SOLVER,
    SolverSpec,
    command_spec,
    solver_spec,
)
from sudosat.showing.view import View
from sudosat.solving.engine import Options
from sudosat.system.lazy import lazy
from sudosat.system.process import (
    EXIT_OUTPUT,
    EXIT_SOLVER,
    EXIT_USAGE,
)
from sudosat.system.writing import OutputRefused, WriteFn, write_out

if TYPE_CHECKING:
    from rich.console import Console

    from sudosat.running import shards
    from sudosat.running.shards import Shard
else:
    shards = lazy("sudosat.running.shards")  # for --shard alone

F = TypeVar("F", bound=Callable[..., Any])


class BadInput(click.ClickException):
    """Input that cannot be read: one line, exit code 2."""

    exit_code = EXIT_USAGE


class SolverFailure(click.ClickException):
    exit_code = EXIT_SOLVER


class CannotWrite(click.ClickException):
    """Output that could not be written (a full disk, an I/O error): exit 74."""

    exit_code = EXIT_OUTPUT


def files(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[Any]:
    """Shell completion of an argument or option that names a file: the shell's
    own file names (click's ``file`` completion)."""
    from click.shell_completion import CompletionItem  # deferred: completing only

    return [CompletionItem(incomplete, type="file")]


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
        given = kwargs.get("puzzles") or (kwargs.get("puzzle"),)
        inline = _puzzle_arguments([p for p in given if p], rank, alphabet, variants)
        reading = Reading(rank, alphabet, layout, variants, files, inline)
        return func(*args, reading=reading, **kwargs)

    wrapped = cast(F, command)
    wrapped = click.option(
        "--filled-as-givens",
        is_flag=True,
        help="f-puzzles: take every filled value as a given, not only those marked given.",
    )(wrapped)
    wrapped = click.option(
        "--rules-file",
        metavar="FILE",
        shell_complete=files,
        help="Rule statements, one a line, added to every puzzle (docs: Variant Sudoku).",
    )(wrapped)
    wrapped = click.option(
        "--rules",
        "rule_statements",
        metavar="STATEMENTS",
        help="Rules added to every puzzle: 'anti-knight, diagonals', 'cage 15: r1c1 r1c2; "
        "thermo: r2c2 r2c3 r2c4' (docs: Variant Sudoku).",
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


def _puzzle_arguments(
    given: list[str], rank: int | None, alphabet: str | None, variants: Variants
) -> frozenset[str]:
    """The PUZZLE arguments that are puzzles rather than files, said once on stderr."""
    if all(argument == "-" or os.path.lexists(argument) for argument in given):
        return frozenset()  # files, as a rule: nothing to read as a puzzle
    from sudosat.reading.arguments import is_puzzle_argument  # deferred: a puzzle argument

    inline = frozenset(
        argument
        for argument in given
        if is_puzzle_argument(argument, rank=rank, alphabet=alphabet, variants=variants)
    )
    if inline:
        which = "an argument" if len(inline) == 1 else f"{len(inline)} arguments"
        click.echo(f"sudosat: reading {which} as a puzzle (no file has that name)", err=True)
    return inline


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
    "--quiet",
    "-q",
    is_flag=True,
    help="Nothing on stderr but what failed: no progress bar, no summary, no status of a "
    "puzzle that did not fail.",
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


def picture_options(solution_help: str | None = None) -> Callable[[F], F]:
    """--per-page and the page's options, for the picture formats, and with a
    ``solution_help`` --solution."""

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
        if solution_help is None:
            return func
        return click.option("--solution", is_flag=True, help=solution_help)(func)

    return decorate


def pictured(fmt: str | None, view: View | None = None) -> View:
    """``view`` with the page options (--title, --paper, ...) of the picture
    formats; a PDF or a PNG is never written to a terminal."""
    if fmt in ("pdf", "png") and sys.stdout.isatty():
        raise click.UsageError(f"a {fmt.upper()} is binary: send it to a file (> puzzles.{fmt})")
    if fmt in ("pdf", "png"):
        from sudosat.showing.pictures import missing_pdf  # deferred: drawsvg, for PDFs only

        missing = missing_pdf(fmt)
        if missing:
            raise BadInput(missing)
    context = click.get_current_context(silent=True)
    page = context.meta.get("page", {}) if context is not None else {}
    return replace(view or View(), **page)


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
        self, fmt: str | None, color: bool | None, task: Task, view: View, formats: Formats
    ) -> int:
        """Every puzzle answered by ``task``, shown as ``view``; the exit code."""
        options, how, output = (
            Options(timeout=self.timeout),
            How(jobs=self.jobs),
            Output(fmt, color, self.quiet),
        )
        return answer(self.puzzles, self.reading, options, task, view, how, output, formats)


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


def certify_option(help: str) -> Callable[[F], F]:
    return click.option("--certify", metavar="DIR", type=click.Path(file_okay=False), help=help)


def old_spelling(*opts: str, dest: str, **kwargs: Any) -> Callable[[F], F]:
    """An option's former spelling, hidden and kept for one release; read it with
    :func:`renamed`."""
    return click.option(*opts, dest, hidden=True, default=None, **kwargs)


def renamed(old: str, new: str, value: Any, current: Any) -> Any:
    """``current``, or the value given by the old spelling ``old``, with a note
    that it is now ``new``."""
    if value is None:
        return current
    click.echo(f"sudosat: {old} is now {new}; {old} goes in the next release", err=True)
    return value


def timeout_option(help: str) -> Callable[[F], F]:
    return click.option("--timeout", type=Real(0, min_open=True), metavar="SECONDS", help=help)


def families(ctx: click.Context, param: click.Parameter, value: tuple[str, ...]) -> frozenset[str]:
    """``--without subsets,fish``: the techniques of those families (see FAMILIES)."""
    from sudosat.logic.techniques import left_out  # deferred: the path, for steps and rate

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
        "locked, subsets, fish, wings, uniqueness, chains, forcing, rules together.",
    )(func)


def out_option(help: str) -> Callable[[F], F]:
    return click.option(
        "--out",
        "-o",
        default="-",
        show_default=True,
        metavar="FILE",
        shell_complete=files,
        help=help,
    )


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
        return None if value is None else shards.parse_shard(value)
    except ValueError as err:
        raise click.BadParameter(str(err)) from None


def shard_option(help: str) -> Callable[[F], F]:
    return click.option(
        "--shard", metavar="K/N", callback=lambda ctx, param, value: _shard(value), help=help
    )


def _fail_on(value: str | None, allow_malformed: bool) -> frozenset[str] | None:
    """The --fail-on gate (None: the default, everything), with --allow-malformed."""
    if value is None and not allow_malformed:
        return None
    try:
        return runner.fail_on(value, allow_malformed)
    except ValueError as err:
        raise click.BadParameter(str(err), param_hint="--fail-on") from None


def console_for(stream: Any, color: bool | None) -> Console | Plain:
    return Output(color=color).console(stream)


def _write(text: str) -> None:
    if text:
        sys.stdout.write(text)
        sys.stdout.flush()


def answer(
    puzzles: tuple[str, ...],
    reading: Reading,
    options: Options,
    task: Task,
    view: View,
    how: How,
    output: Output,
    formats: runner.Formats = runner.SOLVE_FORMATS,
) -> int:
    """:func:`runner.answer`, with its errors as click's."""
    try:
        return runner.answer(puzzles, reading, options, task, view, how, output, formats)
    except runner.Usage as err:
        raise click.UsageError(str(err)) from None
    except InputError as err:
        raise bad_input(err) from None


def read_one(path: str, reading: Reading) -> Puzzle:
    """The one puzzle of ``path`` (or of the argument ``path`` that is a puzzle);
    BadInput for anything else."""
    rank, alphabet, layout, variants = (
        reading.rank,
        reading.alphabet,
        reading.layout,
        reading.variants,
    )
    try:
        if path in reading.inline:
            entries = read_text(
                path, ARGUMENT, rank=rank, alphabet=alphabet, layout=layout, variants=variants
            )
        else:
            entries = read_file(
                path,
                rank=rank,
                alphabet=alphabet,
                layout=layout,
                limit=MAX_WHOLE,
                variants=variants,
            )
    except InputError as err:
        raise bad_input(err) from None
    if len(entries) != 1:
        raise BadInput(f"{path}: holds {len(entries)} puzzles; give one")
    if isinstance(entries[0], InputError):
        raise bad_input(entries[0])
    return entries[0]
