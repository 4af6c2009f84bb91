"""Running a command: one loop for solve, rate, explain and generate.

A click command parses its options and calls one function here:
:func:`answer` (solve, rate, explain: puzzles read from files or stdin) or
:func:`make` (generate: puzzles made from seeds). Both go through
:func:`run_tasks`, which owns what every run needs:

* tasks in order (chunks of input, or of seeds), solved in ``jobs`` worker
  processes when there is more than one chunk (:mod:`pool`), or in process;
* every task answered once and written whole, in order, with the stopping
  signals held back while it is written;
* a progress bar on a terminal, a summary on stderr, and an exit code that
  sums the answers up (:func:`exit_code`);
* a stopped run (Ctrl-C, SIGTERM, SIGHUP, a generate deadline) ends with
  whole records and says how far it got.

Timeouts are the tasks' own: per puzzle for solve, rate and explain (in
:mod:`batch`), for the whole run in generate. Signals reach every command the
same way (:mod:`process`).
"""

from __future__ import annotations

import functools
import os
import signal
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from itertools import chain, islice
from typing import IO, TYPE_CHECKING, Any, NamedTuple, TypeVar

from sudosat.core.errors import InputError
from sudosat.reading.inputs import Inputs
from sudosat.reading.lines import NO_VARIANTS, Variants
from sudosat.running.batch import FAILURES, MALFORMED, Done, Settings, Summary, describe, work
from sudosat.running.tasks import Generate, Task
from sudosat.sat.deadline import deadline_after
from sudosat.showing.records import Document
from sudosat.showing.view import View
from sudosat.solving.engine import Options
from sudosat.system.lazy import lazy
from sudosat.system.process import (
    EXIT_MISMATCH,
    EXIT_MULTIPLE,
    EXIT_NONE,
    EXIT_OK,
    EXIT_SOLVER,
    EXIT_TIMEOUT,
    EXIT_USAGE,
    STOPPED_CODES,
    STOPPED_WORDS,
    caught_interrupt,
    signal_of,
    signal_received,
)
from sudosat.system.signals import held

if TYPE_CHECKING:
    from rich.console import Console

    from sudosat.making import generator as making
    from sudosat.running import shards
    from sudosat.running.shards import Shard
    from sudosat.system import pool
else:
    making = lazy("sudosat.making.generator")  # for `generate` alone: its chunk size
    pool = lazy("sudosat.system.pool")  # worker processes, for many puzzles
    shards = lazy("sudosat.running.shards")  # for --shard alone

T = TypeVar("T")

FAIL_ON = dict(
    zip(
        FAILURES,
        (EXIT_USAGE, EXIT_SOLVER, EXIT_NONE, EXIT_MULTIPLE, EXIT_TIMEOUT, EXIT_MISMATCH),
        strict=True,
    )
)
"""--fail-on names: which outcomes count for the exit code, and their codes."""
SEVERITY = [
    EXIT_OK,
    EXIT_MULTIPLE,
    EXIT_NONE,
    EXIT_MISMATCH,
    EXIT_TIMEOUT,
    EXIT_SOLVER,
    EXIT_USAGE,
]
"""For many puzzles the exit code is the most severe one, in this order."""


class Usage(ValueError):
    """A run that cannot start as asked (exit 2, as a usage error)."""


@dataclass(frozen=True)
class Reading:
    """How to read puzzle text (see :func:`formats.read_text`)."""

    rank: int | None = None
    alphabet: str | None = None
    layout: str = "auto"
    variants: Variants = NO_VARIANTS
    """Rules added to every puzzle, and how f-puzzles givens are taken."""
    files: tuple[str, ...] = ()
    """Files read besides the puzzles (``--rules-file``): inputs no output may overwrite."""
    inline: frozenset[str] = frozenset()
    """Arguments that are puzzles, not files (:mod:`reading.arguments`)."""


class Formats(NamedTuple):
    """A command's default --format: on a terminal, and when piped for many
    puzzles or for one."""

    terminal: str
    many: str
    one: str


SOLVE_FORMATS = Formats("rich", "line", "grid")
RATE_FORMATS = Formats("rich", "line", "line")
EXPLAIN_FORMATS = Formats("rich", "json", "json")
CANDIDATES_FORMATS = Formats("rich", "line", "grid")
STEPS_FORMATS = Formats("rich", "jsonl", "json")
GENERATE_FORMATS = Formats("rich", "line", "line")
UNRATED = frozenset({"line", "grid", "fpuzzles"})
"""The formats of ``generate`` that show no rating: the puzzles are not rated."""
DEFAULT_FORMATS = {
    "solve": SOLVE_FORMATS,
    "rate": RATE_FORMATS,
    "explain": EXPLAIN_FORMATS,
    "candidates": CANDIDATES_FORMATS,
    "steps": STEPS_FORMATS,
    "generate": GENERATE_FORMATS,
}
"""Each command's --format when none is given: the one table of docs/batch/formats.md."""


@dataclass(frozen=True)
class Output:
    """Where a run writes and how: the format (None: the command's default for
    what stdout is), colour (None: what the terminal and NO_COLOR say), and
    ``quiet`` (no progress bar, no summary)."""

    fmt: str | None = None
    color: bool | None = None
    quiet: bool = False
    stdout: IO[str] | None = None
    stderr: IO[str] | None = None

    def console(self, stream: IO[str], rich: bool = False) -> Console | Plain:
        """A rich console for a terminal, for colour asked for, or when ``rich``;
        else plain lines (rich's import is a sixth of a command's start-up)."""
        if not (rich or self.color or _terminal(stream)):
            return Plain(stream, self.color is False or os.environ.get("NO_COLOR", "") != "")
        from rich.console import Console  # deferred: a terminal's, or asked for

        # color None: rich decides from the stream, NO_COLOR and FORCE_COLOR
        no_color = None if self.color is None else not self.color
        return Console(
            file=stream,
            force_terminal=self.color,
            no_color=no_color,
            highlight=False,
            soft_wrap=True,
        )

    def out(self) -> IO[str]:
        return self.stdout or sys.stdout

    def err(self) -> IO[str]:
        return self.stderr or sys.stderr


@dataclass(frozen=True)
class How:
    """How to run: worker processes, a shard of the input, what fails the run."""

    jobs: int | None = None
    shard: Shard | None = None
    fail_on: frozenset[str] | None = None
    front_end: bool = True


def _terminal(stream: IO[str]) -> bool:
    """What rich would take for a terminal: a tty, or FORCE_COLOR or TTY_COMPATIBLE=1
    in the environment."""
    if "FORCE_COLOR" in os.environ or os.environ.get("TTY_COMPATIBLE") == "1":
        return True
    isatty = getattr(stream, "isatty", None)
    try:
        return bool(isatty and isatty())
    except ValueError:  # a closed stream
        return False


class Plain:
    """What a run asks of a console on a pipe or a file: plain lines (rich's
    Console writes the same there: no styles, no wrapping)."""

    is_terminal = False
    color_system = None
    width = 80

    def __init__(self, file: IO[str], no_color: bool) -> None:
        self.file = file
        self.no_color = no_color

    def print(
        self, text: object, markup: bool = True, highlight: bool = True, style: object = None
    ) -> None:
        self.file.write(f"{text}\n")


def view_for(view: View, fmt: str, out: Console | Plain, many: bool) -> View:
    """``view`` in ``fmt``, with rich's view of the terminal (colours, width) for workers."""
    return replace(
        view,
        fmt=fmt,
        many=many,
        color_system=out.color_system if fmt == "rich" else None,
        no_color=out.no_color,
        width=out.width,
    )


def answer(
    paths: Iterable[str],
    reading: Reading,
    options: Options,
    task: Task,
    view: View,
    how: How,
    output: Output,
    formats: Formats = SOLVE_FORMATS,
) -> int:
    """Answer every puzzle of ``paths`` (``-``: stdin) with ``task`` (solve, rate,
    explain, ...: :mod:`tasks`), write one record each in order as ``view`` shows
    it, sum up on stderr; the exit code. One puzzle whose input cannot be read
    raises InputError; a run that cannot start, Usage."""
    paths = tuple(paths) or ("-",)
    if paths == ("-",) and sys.stdin.isatty():
        raise Usage("give a PUZZLE file, or - to read one from stdin")
    _say_if_slow(task, output)
    # jsonl and csv look the same for one puzzle and many: a pipe's first line starts them
    tell = 1 if output.fmt in ("jsonl", "csv") else 2
    inputs = Inputs(
        paths,
        rank=reading.rank,
        alphabet=reading.alphabet,
        layout=reading.layout,
        variants=reading.variants,
        lines_to_tell=tell,
        digest=how.shard is not None,
        inline=reading.inline,
    )
    many = inputs.many
    if not many:
        single = inputs.single()
        if isinstance(single, InputError):
            raise single
    out = output.console(output.out())
    fmt = output.fmt or (formats.terminal if out.is_terminal else formats[1 if many else 2])
    if fmt == "rich":  # its width and colours as rich sees the stream
        out = output.console(output.out(), rich=True)
    asked = task.shaped(view)
    view = view_for(asked, fmt, out, many)
    chunks = inputs.chunks()
    if how.shard is not None:
        chunks = how.shard.take(chunks)
    workers = (how.jobs or os.cpu_count() or 1) if many else 1
    if workers > 1 and inputs.regular:  # one chunk (one big grid in jsonl): no pool to start
        ahead = list(islice(chunks, 2))
        workers = workers if len(ahead) > 1 else 1
        chunks = chain(ahead, chunks)
    settings = Settings(options, task, view, how.front_end)

    @functools.cache
    def total() -> int | None:  # the puzzles to answer: asked only where they are needed
        found = inputs.total()  # (the bar's total and time left, dear puzzles' chunks)
        if found is None or how.shard is None:
            return found
        return len(range(how.shard.k - 1, found, how.shard.n))

    heard = _ignored
    if workers > 1:  # the workers share the work by its cost: see pacing
        from sudosat.reading.chunks import Chunk
        from sudosat.running.pacing import Pacer

        pacer = Pacer(Chunk.split, workers, total, task.dear(options))
        chunks, heard = pacer.cut(chunks), pacer.heard
    tasks = ((chunk, settings) for chunk in chunks)

    summary = _run_and_sum_up(
        tasks, work, view, workers, many, output, "solving", describe, total, heard
    )
    if how.shard is not None and inputs.digest is not None:  # the inputs are read by now
        settings_of = (reading, options, task, asked, fmt)
        how.shard.run = shards.run_of("solve", settings_of, inputs.digest.hexdigest())
    _end_shard(how.shard, fmt, summary, output)
    gate = how.fail_on if how.fail_on is not None else frozenset(FAIL_ON)
    code = exit_code(summary, gate)
    failed = summary.failed(gate)
    if many and failed and code != EXIT_OK and not summary.interrupted:
        named = ",".join(name for name in FAIL_ON if name in gate)
        said = f"sudosat: these fail the run (--fail-on {named}): {failed}"
        output.console(output.err()).print(said, markup=False, highlight=False)
    return code


def make(
    task: Generate,
    seeds: range,
    jobs: int | None,
    output: Output,
    timeout: float | None = None,
    view: View | None = None,
    shard: Shard | None = None,
) -> int:
    """Make a puzzle from each seed (see :mod:`generator`; with ``shard``, of
    its seeds), write them in order as ``view`` shows them, and with ``timeout``
    stop when it passes, keeping the puzzles made whole (exit 5); the exit code.
    GenerationError when what is asked cannot be made."""
    shaped = task.shaped(view or View())
    _say_if_slow(task, output)
    if shard is not None:
        shard.run = shards.run_of("generate", (task.asked, seeds, shaped, output.fmt))
        seeds = shard.seeds(seeds)
    out = output.console(output.out())
    fmt = output.fmt or (GENERATE_FORMATS.terminal if out.is_terminal else GENERATE_FORMATS.many)
    if fmt == "rich":
        out = output.console(output.out(), rich=True)
    seen = view_for(shaped, fmt, out, len(seeds) > 1)
    if fmt in UNRATED:  # no rating shown: none made (a path is most of a puzzle's time)
        task = Generate(replace(task.asked, rated=False))
    deadline = deadline_after(timeout)
    workers = (jobs or os.cpu_count() or 1) if len(seeds) > 1 else 1
    step, heard = making.GENERATE_CHUNK, _ignored
    chunks: Iterable[range] = (seeds[i : i + step] for i in range(0, len(seeds), step))
    if workers > 1:  # the workers share the work by its cost: see pacing
        from sudosat.running.pacing import Pacer

        pacer: Pacer[range] = Pacer(_split_seeds, workers, lambda: len(seeds))
        chunks, heard = pacer.cut([seeds]), pacer.heard
    tasks = ((list(chunk), task, deadline, seen) for chunk in chunks)
    summary = _run_and_sum_up(
        tasks,
        _make_chunk,
        seen,
        workers,
        len(seeds) > 1,
        output,
        "making",
        _seeds_of,
        heard=heard,
    )
    _end_shard(shard, fmt, summary, output)
    if summary.stopped:
        noun = "puzzle" if summary.puzzles == 1 else "puzzles"
        output.console(output.err()).print(
            f"timeout: made {summary.puzzles} of {len(seeds)} {noun} within {timeout:g} s",
            markup=False,
            highlight=False,
        )
        return EXIT_TIMEOUT
    return STOPPED_CODES[signal.Signals(summary.interrupted)] if summary.interrupted else EXIT_OK


def _split_seeds(seeds: range, size: int) -> tuple[range, range]:
    return seeds[:size], seeds[size:]


def _ignored(seconds: float, puzzles: int) -> None:
    """What a run in one process does with each chunk's time: its chunks are the reader's."""


def _say_if_slow(task: Task, output: Output) -> None:
    """Where the task follows logical paths and the compiled engine is not built:
    one line on stderr saying what that costs."""
    if not task.logic:
        return
    from sudosat.logic.bitboard import fallback_note  # deferred: the logic's tasks alone

    said = fallback_note()
    if said is not None:
        output.console(output.err()).print(f"sudosat: {said}", markup=False, highlight=False)


def _end_shard(shard: Shard | None, fmt: str, summary: Summary, output: Output) -> None:
    """A shard's trailer after its JSON Lines, when it ran to the end (see
    :mod:`shards`): what ``sudosat merge`` checks a set of shards by."""
    whole = not (summary.interrupted or summary.stopped or summary.failure)
    if shard is not None and fmt == "jsonl" and whole:
        _write(output.out(), shard.trailer(summary.puzzles) + "\n")


Seeds = tuple[list[int], Generate, float | None, View]
"""Some seeds to make puzzles of, the task, the run's deadline, the view."""


def _make_chunk(chunk: Seeds) -> Done:
    """Some seeds' puzzles, rendered (in a worker, or in process)."""
    seeds, task, deadline, view = chunk
    start = time.perf_counter()
    made, late = task.make(seeds, deadline)
    done = Done(task.render(made, view), len(made), stopped=late)
    done.seconds = time.perf_counter() - start
    done.statuses["made"] = len(made)
    return done


def _seeds_of(chunk: Seeds) -> str:
    seeds = chunk[0]
    return f"the puzzles of seeds {seeds[0]} to {seeds[-1]}"


def _run_and_sum_up(
    tasks: Iterable[T],
    func: Callable[[T], Done],
    view: View,
    jobs: int,
    many: bool,
    output: Output,
    doing: str,
    describe: Callable[[T], str],
    total: Callable[[], int | None] = lambda: None,
    heard: Callable[[float, int], None] = _ignored,
) -> Summary:
    """:func:`run_tasks` with the output's document around the records, the
    progress bar on a terminal (many puzzles: of ``total()``, with the time left,
    when it is known), and the summary at the end."""
    stdout = output.out()
    errors = output.console(output.err())

    def report(said: str) -> None:
        style = "red" if said.startswith("Error:") else None
        errors.print(said, markup=False, highlight=False, style=style)

    document = Document(view)
    _write(stdout, document.head())
    live: list[Any] = []  # the line shown on stderr now (a bar, a search's count), if any
    on_screen = _terminal(stdout)

    def write(text: str) -> None:
        piece = document.piece(text)
        if not (live and on_screen and piece):
            _write(stdout, piece)
            return
        # an answer for the same screen: the live line off first, else the answer
        # starts where the line ends; then the line back below it
        live[0].stop()
        _write(stdout, piece)
        with held():  # its refresh thread starts with the stopping signals blocked
            live[0].start()

    if output.quiet or not errors.is_terminal:
        summary = run_tasks(
            tasks,
            func,
            write,
            jobs=jobs,
            report=report,
            describe=describe,
            quiet=output.quiet,
            heard=heard,
        )
    elif not many:  # one puzzle: its search told as it goes (a long count, an estimate)
        with _watching(errors, live):
            summary = run_tasks(
                tasks, func, write, jobs=jobs, report=report, describe=describe, heard=heard
            )
    else:
        counted = total()
        with held():  # its refresh thread starts with the stopping signals blocked
            bar = _progress_bar(errors, counted)
            live.append(bar)
            bar.start()
        try:
            progress = bar.add_task(doing, total=counted)
            summary = run_tasks(
                tasks,
                func,
                write,
                jobs=jobs,
                report=report,
                progress=lambda n: bar.advance(progress, n),
                describe=describe,
                heard=heard,
            )
        finally:
            bar.stop()
    _write(stdout, document.tail())
    if summary.failure:
        report(f"Error: {summary.failure}")
    if many and not output.quiet:
        for line in summary.lines():
            errors.print(line, markup=False, highlight=False)
    if summary.interrupted:  # last, as every stopped command ends
        said = STOPPED_WORDS[signal.Signals(summary.interrupted)]
        errors.print(f"sudosat: {said}", markup=False, highlight=False)
    return summary


def _progress_bar(errors: Any, total: int | None, counted: str = "") -> Any:
    """A rich progress bar on stderr: ``counted`` (default: how many puzzles), and
    with a ``total`` the bar and the time left."""
    from rich import progress  # deferred: only a terminal shows progress

    if not counted:
        counted = (
            "{task.completed:,} puzzles"
            if not total
            else "{task.completed:,} of {task.total:,} puzzles"
        )
    columns: list[Any] = [progress.SpinnerColumn(), progress.TextColumn(counted)]
    if total:
        columns += [progress.BarColumn(), progress.TimeRemainingColumn()]
    columns.append(progress.TimeElapsedColumn())
    return progress.Progress(
        *columns,
        console=errors if not isinstance(errors, Plain) else None,
        transient=True,
        redirect_stdout=False,  # records go to stdout, never into the bar's stream
        redirect_stderr=False,
    )


SHOW_AFTER = 0.5
"""Seconds before one puzzle's search shows its progress: a quick answer shows none."""


class _Watch:
    """One puzzle's long search told on stderr as it goes (:mod:`progress`):
    solutions counted, walks sampled, a tenth of a second apart at most. Its
    line, once shown, is put in ``live`` (the answer's writer takes it off)."""

    def __init__(self, errors: Any, live: list[Any]) -> None:
        self.errors, self.start = errors, time.monotonic()
        self.at = self.start
        self.bar: Any = None
        self.live = live

    def __call__(self, what: str, done: int) -> None:
        now = time.monotonic()
        if now - self.at < 0.1 or now - self.start < SHOW_AFTER:
            return
        self.at = now
        said = f"{done:,} {what} so far"
        if self.bar is None:
            self.bar = _progress_bar(self.errors, None, "{task.description}")
            self.task = self.bar.add_task(said, total=None)
            self.live.append(self.bar)  # before it shows: a signal may end the start
            with held():  # its refresh thread starts with the stopping signals blocked
                self.bar.start()
        self.bar.update(self.task, description=said)

    def stop(self) -> None:
        if self.bar is not None:
            self.bar.stop()


@contextmanager
def _watching(errors: Any, live: list[Any]) -> Iterator[None]:
    from sudosat.solving import progress

    watch = _Watch(errors, live)
    try:
        with progress.watched(watch):
            yield
    finally:
        watch.stop()


def _write(stream: IO[str], text: str | bytes) -> None:
    if isinstance(text, bytes):  # a PDF
        stream.flush()
        stream.buffer.write(text)  # type: ignore[attr-defined]
        stream.buffer.flush()  # type: ignore[attr-defined]
    elif text:
        stream.write(text)
        stream.flush()  # a stream's answers go out as they come


def run_tasks(
    tasks: Iterable[T],
    func: Callable[[T], Done],
    write: Callable[[str], None],
    *,
    jobs: int,
    report: Callable[[str], None] = lambda note: None,
    progress: Callable[[int], None] | None = None,
    describe: Callable[[T], str] = lambda task: "a task",
    quiet: bool = False,
    heard: Callable[[float, int], None] = _ignored,
) -> Summary:
    """``func`` over every task, in ``jobs`` worker processes (or in process for
    one), writing each answer's text in task order. Ctrl-C stops it: what was
    written is whole records, and the summary says how far it got; so does a
    task that says the run must stop (``Done.stopped``, a deadline). ``quiet``:
    the notes of puzzles that did not fail are not reported; ``heard`` is told each
    answer's time and puzzles (what :mod:`pacing` sizes the chunks by)."""
    summary = Summary()
    start = time.perf_counter()
    try:
        answers: Iterator[Done]
        if jobs > 1:
            answers = pool.ordered_map(func, tasks, jobs, describe=describe, warn=report)
        else:
            answers = map(func, tasks)
        for done in answers:
            heard(done.seconds, done.puzzles)
            with held():  # a stopping signal acts after both, never between
                summary.add(done)
                write(done.text)  # whole records, never cut in half
            for note in done.notes:
                if note.always or not quiet:
                    report(note.text)
            if progress is not None:
                progress(done.puzzles)
            if done.interrupted:  # the signal this process was sent (a worker's is SIGINT)
                summary.interrupted = signal_received() or done.interrupted
                if jobs == 1 or done.cut:  # else the workers' next answers in hand follow
                    break
            if done.stopped:
                summary.stopped = True
                break
    except KeyboardInterrupt as stop:  # SIGTERM and SIGHUP too (process.Terminated)
        summary.interrupted = signal_of(stop)
    except pool.WorkerError as error:
        summary.failure = str(error)
    except Exception as err:
        if not caught_interrupt(err):
            raise
        summary.interrupted = signal.SIGINT
    finally:
        summary.seconds = time.perf_counter() - start
    return summary


def exit_code(summary: Summary, fail_on: frozenset[str]) -> int:
    """The most severe code of what ``fail_on`` counts; 130 when interrupted, 4 when
    worker processes kept dying."""
    if summary.interrupted:
        return STOPPED_CODES[signal.Signals(summary.interrupted)]
    if summary.failure:
        return EXIT_SOLVER
    codes = [FAIL_ON[name] for name, n in summary.failures.items() if n and name in fail_on]
    return max(codes, key=SEVERITY.index, default=EXIT_OK)


def fail_on(value: str | None, allow_malformed: bool = False) -> frozenset[str]:
    """What fails a run: ``--fail-on``'s names as a set (None: ``all``; ``never``:
    nothing). Input that cannot be read fails it whatever the names, unless it is
    left out in so many words: ``never``, ``-malformed`` (``all,-malformed``, or
    ``-malformed`` alone for all but it) or ``allow_malformed``. ValueError for
    names it does not know."""
    names = [name.strip() for name in (value or "all").split(",") if name.strip()]
    left_out = {name[1:] for name in names if name.startswith("-")}
    chosen = {name for name in names if not name.startswith("-")}
    unknown = (chosen - {"all", "never"} | left_out) - set(FAIL_ON)
    if unknown or not names:
        said = ", ".join(sorted(unknown)) or "nothing"
        raise ValueError(
            f"unknown {said}; choose from {', '.join(FAIL_ON)}, all or never "
            "(-NAME leaves one out: all,-timeout)"
        )
    if "never" in chosen:
        if len(names) > 1:
            raise ValueError("never stands alone: it fails a run on nothing")
        return frozenset()
    gate = set(FAIL_ON) if chosen <= {"all"} else chosen | {MALFORMED}
    if allow_malformed:
        left_out.add(MALFORMED)
    return frozenset(gate - left_out)
