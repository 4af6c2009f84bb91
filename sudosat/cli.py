"""The command line: thin click commands over the library."""

from __future__ import annotations

import json
import os
import signal
import sys
from collections.abc import Callable, Iterator
from typing import IO, Any, TypeVar

import click
from rich.console import Console
from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn
from rich.table import Table

from . import __version__
from .batch import FORMATS as BATCH_FORMATS
from .batch import (
    MALFORMED,
    MISMATCH,
    Chunk,
    Lines,
    Settings,
    Summary,
    csv_fields,
    is_pipe,
    is_stream,
    run,
)
from .batch import chunks as batch_chunks
from .batch import outcome as batch_outcome
from .batch import shard as take_shard
from .dimacs import read_answer, write_atomically, write_dimacs
from .encoding import AMO_ENCODINGS, RULES, Encoding, encode
from .engine import (
    ERROR,
    MULTIPLE,
    NONE,
    SOLVED,
    TIMEOUT,
    UNIQUE,
    Outcome,
    check_answer,
    solve_safely,
)
from .formats import (
    LAYOUTS,
    InputError,
    decode_text,
    open_source,
    read_file,
    read_source,
    read_text,
    source_name,
)
from .puzzle import Puzzle
from .render import count_line, outcome_json, plain, show_rich, stats_lines, status_line, where
from .solvers import DEFAULT_SOLVER, SolverError, SolverSpec, command_spec, solver_spec
from .solvers.external import executable, external_programs
from .solvers.pysat_backend import pysat_solvers

EXIT_OK = 0
EXIT_MULTIPLE = 1
EXIT_USAGE = 2
EXIT_NONE = 3
EXIT_SOLVER = 4
EXIT_TIMEOUT = 5
EXIT_MISMATCH = 6
EXIT_INTERRUPTED = 130
EXIT_TERMINATED = 143
EXIT_CODES = {
    UNIQUE: EXIT_OK,
    SOLVED: EXIT_OK,
    MULTIPLE: EXIT_MULTIPLE,
    NONE: EXIT_NONE,
    ERROR: EXIT_SOLVER,
    TIMEOUT: EXIT_TIMEOUT,
}
SEVERITY = [
    EXIT_OK,
    EXIT_MULTIPLE,
    EXIT_NONE,
    EXIT_MISMATCH,
    EXIT_TIMEOUT,
    EXIT_SOLVER,
    EXIT_USAGE,
    EXIT_INTERRUPTED,
]
"""For many puzzles the exit code is the most severe one, in this order."""

FAIL_ON = {
    "malformed": EXIT_USAGE,
    "error": EXIT_SOLVER,
    "none": EXIT_NONE,
    "multiple": EXIT_MULTIPLE,
    "timeout": EXIT_TIMEOUT,
    "mismatch": EXIT_MISMATCH,
}
"""--fail-on names: which outcomes of a batch count for the exit code, and their codes."""

F = TypeVar("F", bound=Callable[..., Any])


class BadInput(click.ClickException):
    """Input that cannot be read: one line, exit code 2."""

    exit_code = EXIT_USAGE


class SolverFailure(click.ClickException):
    exit_code = EXIT_SOLVER


def input_options(func: F) -> F:
    func = click.option(
        "--layout",
        type=click.Choice(LAYOUTS),
        default="auto",
        show_default=True,
        help="grid: the whole file is one puzzle; line: one puzzle per line.",
    )(func)
    func = click.option(
        "--alphabet",
        metavar="NAME|SYMBOLS",
        help="digits, hex (0-f), base36 (1-9A-Z), rexl (1234567890A-Z), numbers "
        "(whitespace-separated, 0 = blank) or the N symbols in value order.",
    )(func)
    return click.option(
        "--rank",
        type=click.IntRange(2, 20),
        help="Box size: 3 for 9x9, 4 for 16x16, ... (default: from the cell count).",
    )(func)


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


def output_options(*extra: str, note: str = "") -> Callable[[F], F]:
    """--format (rich, grid, line, json and ``extra``) and --color/--no-color."""

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
            type=click.Choice(["rich", "grid", "line", "json", *extra]),
            help="Output: rich (default on a terminal), grid (default when piped), line or json"
            + note
            + ".",
        )(func)

    return decorate


def resolve_solver(solver: str | None, solver_cmd: str | None) -> SolverSpec:
    """The solver the options name; a program that is not installed fails here (exit 4)."""
    try:
        if solver_cmd is None:
            spec = solver_spec(solver or DEFAULT_SOLVER)
        elif solver is not None:
            raise click.UsageError("give --solver or --solver-cmd, not both")
        else:
            spec = command_spec(solver_cmd)
    except SolverError as err:
        hint = "--solver" if solver_cmd is None else "--solver-cmd"
        raise click.BadParameter(str(err), param_hint=hint) from None
    if spec.program is not None:
        try:
            executable(spec.program)
        except SolverError as err:
            raise SolverFailure(str(err)) from None
    return spec


def _shard(value: str | None) -> tuple[int, int] | None:
    if value is None:
        return None
    k, _, n = value.partition("/")
    if not (k.isdigit() and n.isdigit() and 1 <= int(k) <= int(n)):
        raise click.BadParameter(f"expected K/N with 1 <= K <= N, e.g. 1/4, not {value!r}")
    return int(k), int(n)


def _fail_on(value: str | None) -> frozenset[str] | None:
    if value is None:
        return None
    names = {name.strip() for name in value.split(",") if name.strip()}
    if names == {"all"}:
        return frozenset(FAIL_ON)
    if names == {"never"}:
        return frozenset()
    unknown = names - set(FAIL_ON)
    if unknown:
        raise click.BadParameter(
            f"unknown {', '.join(sorted(unknown))}; choose from {', '.join(FAIL_ON)}, all or never"
        )
    return frozenset(names)


class Inputs:
    """Input files opened once: peeked at to tell a batch from a single puzzle, then read."""

    def __init__(self) -> None:
        self.opened: dict[str, tuple[IO[bytes], Lines, bool]] = {}

    def is_stream(self, path: str, rank: int | None, layout: str) -> bool:
        try:
            return self.take(path, rank, layout, keep=True)[2]
        except InputError:
            return False  # the single-puzzle path reports it

    def take(
        self, path: str, rank: int | None, layout: str, keep: bool = False
    ) -> tuple[IO[bytes], Lines, bool]:
        """The stream, its peeked lines, and whether it is a batch."""
        if path not in self.opened:
            # Two whole-puzzle lines make a batch when the format leaves it open;
            # in a batch already, one does (answers start with the first line).
            stream = open_source(path)
            streaming, lines = is_stream(stream, rank, layout, 2 if keep else 1)
            self.opened[path] = (stream, lines, streaming)
        return self.opened[path] if keep else self.opened.pop(path)

    def read(
        self, path: str, rank: int | None, alphabet: str | None, layout: str
    ) -> list[Puzzle | InputError]:
        """Every puzzle of ``path`` at once (the single-puzzle path)."""
        if path not in self.opened:
            return read_puzzles(path, rank, alphabet, layout)
        _, lines, _ = self.opened.pop(path)
        try:
            return _read_rest(lines, source_name(path), rank, alphabet, layout)
        except InputError as err:
            raise BadInput(str(err)) from None

    def chunks(
        self, paths: tuple[str, ...], rank: int | None, alphabet: str | None, layout: str
    ) -> Iterator[Chunk]:
        for path in paths:
            source = source_name(path)
            try:
                stream, lines, streaming = self.take(path, rank, layout)
            except InputError as err:
                yield Chunk(source, entries=[err])
                continue
            if streaming:
                yield from batch_chunks(
                    source, lines, rank=rank, alphabet=alphabet, piped=is_pipe(stream)
                )
                continue
            try:
                entries = _read_rest(lines, source, rank, alphabet, layout)
            except InputError as err:
                entries = [err]
            yield Chunk(source, entries=entries)


def _read_rest(
    lines: Lines, source: str, rank: int | None, alphabet: str | None, layout: str
) -> list[Puzzle | InputError]:
    """The puzzles of an input that was peeked at, read whole."""
    text = decode_text(lines.rest(), source)
    return read_text(text, source, rank=rank, alphabet_spec=alphabet, layout=layout)


def solve_batch(
    paths: tuple[str, ...],
    opened: Inputs,
    settings: Settings,
    *,
    rank: int | None,
    alphabet: str | None,
    layout: str,
    jobs: int,
    shard: tuple[int, int] | None,
    fail_on: frozenset[str],
    quiet: bool,
    color: bool | None,
) -> int:
    """Many puzzles: streamed, solved by workers, written in order; the exit code."""
    work = opened.chunks(paths, rank, alphabet, layout)
    if shard is not None:
        work = take_shard(work, *shard)
    if settings.fmt == "csv":
        _write(",".join(csv_fields(settings)) + "\n")  # plain names: nothing to quote
    errors = console_for(sys.stderr, color)

    def report(note: str) -> None:
        errors.print(
            note, markup=False, highlight=False, style="red" if note[:6] == "Error:" else None
        )

    if quiet or not sys.stderr.isatty():
        summary = run(work, settings, _write, jobs=jobs, report=report)
    else:
        with Progress(
            SpinnerColumn(),
            TextColumn("{task.completed:,} puzzles"),
            TimeElapsedColumn(),
            console=errors,
            transient=True,
        ) as bar:
            task = bar.add_task("solving", total=None)
            summary = run(
                work,
                settings,
                _write,
                jobs=jobs,
                report=report,
                progress=lambda n: bar.advance(task, n),
            )
    if summary.failure:
        errors.print(f"Error: {summary.failure}", style="red", markup=False, highlight=False)
    if not quiet:
        for line in summary.lines():
            errors.print(line, markup=False, highlight=False)
    return batch_exit_code(summary, fail_on)


def _write(text: str) -> None:
    sys.stdout.write(text)
    sys.stdout.flush()  # a stream's answers go out as they come


def batch_exit_code(summary: Summary, fail_on: frozenset[str]) -> int:
    if summary.interrupted:
        return EXIT_INTERRUPTED
    if summary.failure:
        return EXIT_SOLVER
    counts = summary.counts
    found = {
        "malformed": counts[MALFORMED],
        "error": counts[ERROR] - counts[MALFORMED],
        "none": counts[NONE],
        "multiple": counts[MULTIPLE],
        "timeout": counts[TIMEOUT],
        "mismatch": counts[MISMATCH],
    }
    codes = [FAIL_ON[name] for name, n in found.items() if n and name in fail_on]
    return max(codes, key=SEVERITY.index, default=EXIT_OK)


def read_puzzles(
    path: str, rank: int | None, alphabet: str | None, layout: str
) -> list[Puzzle | InputError]:
    try:
        return read_file(path, rank=rank, alphabet_spec=alphabet, layout=layout)
    except InputError as err:
        raise BadInput(str(err)) from None


def console_for(stream: IO[str], color: bool | None) -> Console:
    # color None: rich decides from the stream, NO_COLOR and FORCE_COLOR; a flag wins over both.
    no_color = None if color is None else not color
    return Console(
        file=stream, force_terminal=color, no_color=no_color, highlight=False, soft_wrap=True
    )


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="sudosat")
def cli() -> None:
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
    help=f"A PySAT solver (default {DEFAULT_SOLVER}) or a solver program: minisat, cadical, "
    "kissat, picosat, cryptominisat5, glucose (see `sudosat solvers`).",
)
@click.option(
    "--solver-cmd",
    metavar="COMMAND",
    help="Any DIMACS solver program, e.g. 'kissat -q': run without a shell on IN.cnf "
    "(appended), answering with s/v lines.",
)
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
    help="Print the number of solutions (up to --max-solutions, default 10000).",
)
@click.option(
    "--timeout",
    type=click.FloatRange(0, min_open=True),
    metavar="SECONDS",
    help="Give up on a puzzle after this long (exit code 5).",
)
@click.option(
    "--stats",
    is_flag=True,
    help="Report variables, clauses, conflicts, decisions, propagations, restarts and time.",
)
@output_options(
    "jsonl",
    "csv",
    note="; for many puzzles line (the default), jsonl (an object per puzzle) or csv",
)
@click.option(
    "--jobs",
    "-j",
    type=click.IntRange(1),
    help="Worker processes for a batch (default: all cores); answers stay in input order.",
)
@click.option(
    "--shard",
    metavar="K/N",
    callback=lambda ctx, param, value: _shard(value),
    help="Take every N-th puzzle starting at the K-th (1-based): one of N CI machines.",
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
@click.option("--quiet", "-q", is_flag=True, help="No progress bar and no summary on stderr.")
def solve(
    puzzles: tuple[str, ...],
    rank: int | None,
    alphabet: str | None,
    layout: str,
    solver: str | None,
    solver_cmd: str | None,
    rules: str,
    amo: str,
    reduced: bool,
    max_solutions: int | None,
    count: bool,
    timeout: float | None,
    stats: bool,
    fmt: str | None,
    color: bool | None,
    jobs: int | None,
    shard: tuple[int, int] | None,
    check: bool,
    fail_on: frozenset[str] | None,
    quiet: bool,
) -> None:
    """Solve PUZZLE files (`-` or nothing for stdin) and say whether each solution is unique.

    A file holds one puzzle (a line of N*N symbols, or a grid of N rows), one
    puzzle per line, or a CSV with a puzzle column (quizzes, puzzle, ...) and
    maybe a solutions column. Many puzzles are a batch: streamed, solved by
    --jobs workers, one answer per puzzle in input order (line, jsonl or csv),
    a summary on stderr. Exit codes: 0 unique, 1 several solutions, 2 bad
    input, 3 no solution, 4 solver failure, 5 timeout, 6 --check mismatch,
    130 interrupted (the most severe over all puzzles; see --fail-on).

    \b
    Examples:
      sudosat solve puzzles/ai-escargot.txt
      sudosat solve --solver glucose4 --stats puzzles/rank5-25x25.txt
      sudosat solve --solver minisat puzzles/hex-16x16.txt
      sudosat solve --solver-cmd 'kissat -q' --timeout 60 puzzles/rank6-36x36.txt
      sudosat solve puzzles/royle17-25.txt
      sudosat solve --count -n 1000 puzzles/several-solutions.txt
      sudosat solve --format jsonl --jobs 2 puzzles/tdoku-magictour-25.txt > out.jsonl
      sudosat solve --format csv --check --fail-on error,mismatch sudoku.csv
      sudosat solve --shard 2/4 --format jsonl puzzles/royle17-25.txt
    """
    spec = resolve_solver(solver, solver_cmd)
    encoding = Encoding(rules, amo, reduced)
    limit = max_solutions or (10000 if count else 2)
    paths = puzzles or ("-",)
    if paths == ("-",) and sys.stdin.isatty():
        raise click.UsageError("give a PUZZLE file, or - to read one from stdin")
    batch_options = jobs is not None or shard is not None or check or fail_on is not None
    opened = Inputs()
    if fmt in ("jsonl", "csv") or batch_options:  # only a batch writes these
        if fmt not in (None, *BATCH_FORMATS):
            raise click.UsageError(
                "--jobs, --shard, --check and --fail-on work with --format line, jsonl or csv"
            )
        batch = True
    elif fmt in ("rich", "grid", "json"):
        batch = False
    else:
        batch = len(paths) > 1 or opened.is_stream(paths[0], rank, layout)
    if batch and stats:
        raise click.UsageError(
            "--stats is for single puzzles; a batch reports each time in jsonl/csv"
        )
    explicit = solver is not None or solver_cmd is not None or encoding != Encoding()
    settings = Settings(
        solver=spec if explicit else None,  # None: the batch engine where it applies
        encoding=encoding,
        limit=limit,
        timeout=timeout,
        fmt=fmt or "line",
        check=check,
        count=count,
    )
    if batch:
        code = solve_batch(
            paths,
            opened,
            settings,
            rank=rank,
            alphabet=alphabet,
            layout=layout,
            jobs=jobs or os.cpu_count() or 1,
            shard=shard,
            fail_on=fail_on if fail_on is not None else frozenset(FAIL_ON),
            quiet=quiet,
            color=color,
        )
        sys.exit(code)
    entries = [e for path in paths for e in opened.read(path, rank, alphabet, layout)]
    if fmt is None:
        piped = "line" if len(entries) > 1 else "grid"
        fmt = "rich" if sys.stdout.isatty() or color else piped
    out = console_for(sys.stdout, color)
    errors = console_for(sys.stderr, color)
    codes = []
    records = []
    for entry in entries:
        if isinstance(entry, InputError):
            errors.print(f"Error: {entry}", style="red", markup=False)
            codes.append(EXIT_USAGE)
            if fmt == "json":
                records.append(
                    {
                        "source": entry.source,
                        "line": entry.line,
                        "status": "error",
                        "reason": str(entry),
                    }
                )
            elif fmt == "line":
                click.echo("error")
            continue
        if len(entries) > 1:  # the batch engine, unless a solver or encoding is asked for
            outcome = batch_outcome(entry, settings)
        else:
            outcome = solve_safely(
                entry, solver=spec, encoding=encoding, max_solutions=limit, timeout=timeout
            )
        if len(entries) == 1 and outcome.status == ERROR:
            raise SolverFailure(outcome.reason)
        codes.append(EXIT_CODES[outcome.status])
        if fmt == "json":
            records.append(outcome_json(outcome))
        else:
            _show(outcome, fmt, out, errors, count=count, many=len(entries) > 1)
        if stats:
            stream = out if fmt == "rich" else errors
            stream.print(
                "\n".join(stats_lines(outcome)),
                markup=False,
                style="dim" if fmt == "rich" else None,
            )
    if fmt == "json":
        document: Any = records[0] if len(entries) == 1 else records
        click.echo(json.dumps(document, indent=2 if len(entries) == 1 else None))
    sys.exit(max(codes, key=SEVERITY.index) if codes else EXIT_OK)


def _show(
    outcome: Outcome, fmt: str, out: Console, err: Console, *, count: bool, many: bool
) -> None:
    if fmt == "rich":
        if count:
            if many:
                out.print(f"{where(outcome)}: ", end="", markup=False)
            out.print(count_line(outcome), markup=False)
        else:
            show_rich(out, outcome, title=many)
        return
    label = f"{where(outcome)}: " if many else ""
    if count:
        click.echo(len(outcome.solutions))
        err.print(label + count_line(outcome), markup=False)
        return
    click.echo(plain(outcome, fmt, limit=1 if many and fmt == "line" else None))
    if many and fmt == "grid":
        click.echo()
    if not many or outcome.status != UNIQUE:
        err.print(label + status_line(outcome), markup=False)


@cli.command()
@click.argument("puzzle", required=False)
@input_options
@encoding_options
@click.option(
    "--out",
    "-o",
    default="-",
    show_default=True,
    metavar="FILE",
    help="Where to write the CNF (written atomically); - for stdout.",
)
def cnf(
    puzzle: str | None,
    rank: int | None,
    alphabet: str | None,
    layout: str,
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
        if rank is None:
            raise click.UsageError("give a PUZZLE, or --rank N for the rules alone")
        target = Puzzle(rank, (0,) * rank**4)
        reduced = False
    else:
        entries = read_puzzles(puzzle, rank, alphabet, layout)
        if len(entries) != 1:
            raise BadInput(f"{puzzle}: holds {len(entries)} puzzles; cnf takes one")
        if isinstance(entries[0], InputError):
            raise BadInput(str(entries[0]))
        target = entries[0]
    formula = encode(target, Encoding(rules, amo, reduced))
    if out == "-":
        write_dimacs(formula, sys.stdout)
    else:
        write_atomically(out, lambda handle: write_dimacs(formula, handle))


@cli.command()
@click.argument("puzzle")
@click.argument("model", default="-")
@input_options
@output_options()
def decode(
    puzzle: str,
    model: str,
    rank: int | None,
    alphabet: str | None,
    layout: str,
    fmt: str | None,
    color: bool | None,
) -> None:
    """Read a solver's answer to PUZZLE's CNF from MODEL (default stdin) and print the grid.

    MODEL may hold SAT competition output (s and v lines), a MiniSat result file
    (SAT, then the model) or bare integers. The model is mapped back through
    the variable numbering and verified against the rules and the givens; one
    that is no solution is an error (exit 4). Exit codes: 0 solved, 2 bad
    input, 3 the solver said UNSATISFIABLE, 4 no solution in the model,
    5 the solver gave no answer (UNKNOWN).

    \b
    Examples:
      sudosat cnf puzzles/ai-escargot.txt | cadical | sudosat decode puzzles/ai-escargot.txt
      sudosat cnf puzzles/hex-16x16.txt -o hex.cnf
      minisat hex.cnf hex.out; sudosat decode puzzles/hex-16x16.txt hex.out
    """
    if puzzle == "-" and model == "-":
        raise click.UsageError("PUZZLE and MODEL cannot both be stdin")
    entries = read_puzzles(puzzle, rank, alphabet, layout)
    if len(entries) != 1:
        raise BadInput(f"{puzzle}: holds {len(entries)} puzzles; decode takes one")
    if isinstance(entries[0], InputError):
        raise BadInput(str(entries[0]))
    try:
        source, text = read_source(model, expected="solver output")
        answer = read_answer(text, source)
    except InputError as err:
        raise BadInput(str(err)) from None
    try:
        outcome = check_answer(entries[0], answer)
    except SolverError as err:
        raise SolverFailure(f"{source}: {err}") from None
    fmt = fmt or ("rich" if sys.stdout.isatty() or color else "grid")
    if fmt == "json":
        click.echo(json.dumps(outcome_json(outcome), indent=2))
    else:
        _show(
            outcome,
            fmt,
            console_for(sys.stdout, color),
            console_for(sys.stderr, color),
            count=False,
            many=False,
        )
    sys.exit(EXIT_CODES[outcome.status])


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
    infos = pysat_solvers()
    programs = external_programs()
    fmt = fmt or ("rich" if sys.stdout.isatty() else "json")
    if fmt == "json":
        listing: list[dict[str, Any]] = [
            {
                "name": i.name,
                "kind": "pysat",
                "aliases": list(i.aliases),
                "available": i.available,
                "class": i.backend_class,
                "incremental": i.incremental,
                "budgets": i.budgets,
                "interrupt": i.interrupt,
                "stats": i.stats,
                "note": i.note,
                "default": i.name == DEFAULT_SOLVER,
            }
            for i in infos
        ]
        listing += [
            {
                "name": p.name,
                "kind": "program",
                "available": p.path is not None,
                "path": p.path,
                "version": p.version if p.path else None,
                "convention": p.convention,
                "command": p.command,
                "default": False,
            }
            for p in programs
        ]
        click.echo(json.dumps(listing, indent=2))
        return
    table = Table(title="PySAT solvers (in process)")
    for column in (
        "name",
        "aliases",
        "version (class)",
        "incremental",
        "budgets",
        "interrupt",
        "stats",
        "note",
    ):
        table.add_column(column)

    def yes(flag: bool) -> str:
        return "yes" if flag else "no"

    for i in infos:
        if not i.available:
            table.add_row(
                i.name, ", ".join(i.aliases), "-", "-", "-", "-", "-", "not installed", style="dim"
            )
            continue
        name = i.name + (" (default)" if i.name == DEFAULT_SOLVER else "")
        table.add_row(
            name,
            ", ".join(i.aliases),
            i.backend_class,
            yes(i.incremental),
            yes(i.budgets),
            yes(i.interrupt),
            yes(i.stats),
            i.note,
        )
    console = Console()
    console.print(table)
    found = Table(title="Solver programs (--solver NAME, or any with --solver-cmd)")
    for column in ("name", "path", "version", "output", "called as"):
        found.add_column(column)
    for p in programs:
        if p.path is None:
            found.add_row(p.name, "not on PATH", "-", p.convention, p.command, style="dim")
        else:
            found.add_row(p.name, p.path, p.version, p.convention, p.command)
    console.print(found)


class Terminated(Exception):
    """SIGTERM, raised so that temporary files are removed and solver programs killed."""


def _terminate(signum: int, frame: object) -> None:
    raise Terminated


def main() -> None:
    """Entry point: click's error machinery, plus exit 130 on Ctrl-C and 143 on SIGTERM."""
    signal.signal(signal.SIGTERM, _terminate)
    try:
        code = cli.main(prog_name="sudosat", standalone_mode=False)
    except click.ClickException as err:
        err.show()
        sys.exit(err.exit_code)
    except (KeyboardInterrupt, click.Abort):
        click.echo("sudosat: interrupted", err=True)
        sys.exit(EXIT_INTERRUPTED)
    except Terminated:
        click.echo("sudosat: terminated", err=True)
        sys.exit(EXIT_TERMINATED)
    except BrokenPipeError:
        sys.stderr.close()
        sys.exit(EXIT_OK)
    sys.exit(code if isinstance(code, int) else EXIT_OK)
