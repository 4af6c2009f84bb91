"""Answering a chunk of input: each puzzle is parsed, answered by the run's
task (:mod:`tasks`: solved, rated, explained, ...), checked and rendered, in a
worker or in process; :mod:`runner` writes the chunks back in input order,
exactly one record per puzzle, and sums up.
"""

from __future__ import annotations

import gc
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import NamedTuple

from sudosat.core.errors import InputError
from sudosat.core.puzzle import Puzzle
from sudosat.reading.cells import NUMBERS, Row
from sudosat.reading.chunks import Chunk, Entry
from sudosat.reading.lines import LineReader
from sudosat.running.tasks import Place, Solve, Task
from sudosat.sat.limits import TooBig
from sudosat.showing.text import stats_lines, unlinkable
from sudosat.showing.view import NO_EXPECTATION, OK, UNREADABLE, Check, Result, View
from sudosat.solving.engine import Options
from sudosat.solving.outcome import Interrupted, Outcome, Status
from sudosat.system.process import signal_of

MALFORMED, MISMATCH = "malformed", "mismatch"
"""Failure kinds besides the statuses: input that cannot be read, and failed checks."""
FAILURES = (MALFORMED, "error", "none", "multiple", "timeout", MISMATCH)
"""What can make a run fail, as --fail-on names it."""


@dataclass(frozen=True)
class Settings:
    """What every worker needs to know, the same for the whole run: how to solve,
    what to ask of each puzzle, how to show the answers."""

    options: Options = field(default_factory=Options)
    task: Task = field(default_factory=Solve)
    view: View = field(default_factory=View)
    front_end: bool = True
    """Settle what propagation and a short search can, all of a chunk at once
    (:mod:`vector`), before the engine sees a puzzle."""


Work = tuple[Chunk, Settings]
"""One chunk to answer and render, with the run's settings."""


class Slowest(NamedTuple):
    seconds: float
    source: str
    line: int


class Note(NamedTuple):
    """A line for stderr about one puzzle; ``always``: said even with --quiet (why
    a puzzle failed, the --stats asked for), else only without it ("unique
    solution")."""

    text: str
    always: bool


@dataclass
class Done:
    """A worker's answer for one chunk: the text to write and what the summary needs."""

    text: str
    puzzles: int
    statuses: Counter[str] = field(default_factory=Counter)
    """Statuses, and ``malformed`` and ``mismatch``, for the summary."""
    failures: Counter[str] = field(default_factory=Counter)
    """What counts for the exit code: a checked puzzle counts only when its check fails."""
    slowest: Slowest | None = None
    failed_at: dict[str, list[str]] = field(default_factory=dict)
    """The first few places (``file:line``) of each kind of failure, for the summary."""
    notes: list[Note] = field(default_factory=list)
    """For stderr, in order: why a puzzle failed or is not unique, what it is when
    it did not fail, the --stats asked for (line and grid formats)."""
    interrupted: int = 0
    """The stopping signal that cut this chunk short (SIGINT, SIGTERM, SIGHUP), if one did."""
    cut: bool = False
    """Stopped before every puzzle of the chunk had its record: nothing after it may
    be written."""
    stopped: bool = False
    """The run must stop after this chunk (generate's deadline passed)."""
    seconds: float = 0.0
    """The worker's time on the chunk: what the next chunks are sized by (:mod:`pacing`)."""


def failure(result: Result) -> str | None:
    """What a result counts as for the exit code (a --fail-on name), if anything.
    A puzzle whose expected answer was checked counts by its check alone."""
    if result.outcome is None:
        return MALFORMED
    if result.explanation is not None and result.explanation.timed_out:
        return str(Status.TIMEOUT)
    if result.candidates is not None and result.candidates.timed_out:
        return str(Status.TIMEOUT)
    if result.path is not None and result.path.timed_out:
        return str(Status.TIMEOUT)
    if result.check is not None and result.check.verdict != NO_EXPECTATION:
        return MISMATCH if result.check.failed else None
    status = result.status
    return None if status in (Status.UNIQUE, Status.SOLVED) else str(status)


def check(outcome: Outcome, row: Entry, reader: LineReader | None) -> Check:
    """How ``outcome`` compares with the solution and count ``row`` expects."""
    grids, exhausted = outcome.solutions, outcome.exhausted
    count = row.expected_count
    if count is not None:
        # without --count the search stops at 2: compare none / unique / several
        agrees = len(grids) == count if exhausted else count >= len(grids)
        if not agrees:
            return Check(f"mismatch: {count} solutions expected", None, count)
    expected = (row.expected or "").strip()
    if not expected:
        return Check(OK if count is not None else NO_EXPECTATION, None, count)
    wanted = reader.read_row(Row(row.line, expected)) if reader else None
    if not isinstance(wanted, Puzzle):
        return Check(UNREADABLE, expected, count)
    if outcome.status in (Status.UNIQUE, Status.SOLVED) and grids and grids[0] == wanted.cells:
        return Check(OK, expected, count)
    if outcome.status == Status.MULTIPLE and wanted.cells in grids:
        return Check("mismatch: several solutions", expected, count)
    return Check("mismatch", expected, count)


def answer(
    source: str, row: Entry, entry: Puzzle | InputError, settings: Settings, chunk: Chunk
) -> Result:
    """One puzzle of a chunk, answered by the run's task and checked."""
    place = Place(source, row.line, row.text.strip(), row.name)
    if isinstance(entry, InputError):
        return place.result(None, str(entry))
    if settings.view.fmt == "fpuzzles" and (why := unlinkable(entry)):  # before any work
        return place.result(None, why)
    start = time.perf_counter()
    try:
        result = settings.task.answer(entry, place, settings.options)
    except Interrupted as stop:
        if settings.task.partial:  # the record of what was found: a count says N+
            stop.result = place.result(stop.outcome)
            stop.result.spent = time.perf_counter() - start
        raise
    except TooBig as err:  # like input that cannot be read: a line saying why, exit 2
        return place.result(None, str(err))
    result.spent = time.perf_counter() - start
    if settings.view.check and result.outcome is not None:
        result.check = check(result.outcome, row, chunk.reader)
    return result


def work(task: Work) -> Done:
    """Solve and render one chunk (in a worker, or in process with one job)."""
    chunk, settings = task
    results: list[Result] = []
    interrupted = 0
    start = time.perf_counter()
    try:
        with _no_collection():
            if _front_end_applies(chunk, settings):
                results = _answer_at_once(chunk, settings)
            else:
                for row, entry in chunk.puzzles():
                    results.append(answer(chunk.source, row, entry, settings, chunk))
    except KeyboardInterrupt as stop:  # SIGTERM and SIGHUP too (process.Terminated)
        interrupted = signal_of(stop)  # hand back the whole records made so far
        if isinstance(stop, Interrupted) and stop.result is not None:
            results.append(stop.result)
    done = _done(results, settings, interrupted)
    done.cut = len(results) < len(chunk)
    done.seconds = time.perf_counter() - start
    return done


@contextmanager
def _no_collection() -> Iterator[None]:
    """The cycle collector off for one chunk. A chunk makes hundreds of thousands
    of small lists and no cycles worth collecting; the collector walking them all
    again and again took three quarters of the time spent making them."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


FRONT_END_RANKS = range(2, 6)
"""Ranks whose candidates fit the front end's masks (up to 32 bits: 25 values)."""


def _front_end_applies(chunk: Chunk, settings: Settings) -> bool:
    """The front end answers as the engine would: a task it serves (solving), the
    default engine, one or two solutions, and no search figures to report (stats)."""
    options, view, reader = settings.options, settings.view, chunk.reader
    return (
        settings.front_end
        and settings.task.front_end
        and reader is not None
        and reader.classic
        and reader.first is not None
        and (bool(reader.fast) or reader.alphabet == NUMBERS)
        and reader.first.rank in FRONT_END_RANKS
        and options.solver is None
        and options.encoding is None
        and options.max_solutions <= 2
        and not view.stats
        and not any(row.rules or row.error for row in chunk.rows)  # records of variants
    )


def _answer_at_once(chunk: Chunk, settings: Settings) -> list[Result]:
    """A chunk of lines through the front end (:func:`vector.answer_chunk`): the
    lines in the usual form answered together; the rest (other forms, errors, and
    what the front end leaves to the engine) one by one, as without it."""
    from sudosat.solving import vector  # deferred: numpy, for batches only

    reader, source = chunk.reader, chunk.source
    assert reader is not None and reader.first is not None
    texts = [row.text.strip() for row in chunk.rows]
    places = [(row.line, row.name) for row in chunk.rows]
    by_characters = reader.alphabet not in (None, NUMBERS)
    found = vector.answer_chunk(
        texts, places, reader.first, reader.fast, by_characters, source, settings.options
    )
    results = []
    for index, row in enumerate(chunk.rows):
        puzzle, outcome = found.get(index, (None, None))
        if outcome is None:  # the engine answers (and says so when a solver failed)
            entry = puzzle if puzzle is not None else chunk.parse(row)[1]
            results.append(answer(source, row, entry, settings, chunk))
            continue
        result = Result(source, row.line, texts[index], outcome, name=row.name)
        if settings.view.check:
            result.check = check(outcome, row, reader)
        results.append(result)
    for row, entry in chunk.whole():
        results.append(answer(source, row, entry, settings, chunk))
    return results


def _done(results: list[Result], settings: Settings, interrupted: int) -> Done:
    task, view = settings.task, settings.view
    done = Done(task.render(results, view), len(results), interrupted=interrupted)
    for r in results:
        done.statuses[str(r.status)] += 1
        if r.outcome is None:
            done.statuses[MALFORMED] += 1
        if r.check is not None and r.check.failed:
            done.statuses[MISMATCH] += 1
        kind = failure(r)
        if kind is not None:
            done.failures[kind] += 1
            _keep_place(done.failed_at, kind, [r.where()])
        if done.slowest is None or r.time > done.slowest.seconds:
            done.slowest = Slowest(r.time, r.source, r.line)
        said = task.note(r, view)
        if said is not None:
            done.notes.append(Note(said, always=kind is not None))
        if view.stats and r.outcome is not None and view.fmt in ("line", "grid"):
            done.notes.extend(Note(line, always=True) for line in stats_lines(r.outcome))
    return done


PLACES_SHOWN = 3
"""Places of each kind of failure the summary names (the records name them all)."""


def _keep_place(kept: dict[str, list[str]], kind: str, places: list[str]) -> None:
    """The first PLACES_SHOWN of ``places`` added to ``kept[kind]``, in input order."""
    found = kept.setdefault(kind, [])
    found += places[: PLACES_SHOWN - len(found)]


@dataclass
class Summary:
    statuses: Counter[str] = field(default_factory=Counter)
    failures: Counter[str] = field(default_factory=Counter)
    failed_at: dict[str, list[str]] = field(default_factory=dict)
    puzzles: int = 0
    slowest: Slowest | None = None
    seconds: float = 0.0
    interrupted: int = 0
    """The stopping signal the run ended by (SIGINT, SIGTERM, SIGHUP), if one came."""
    stopped: bool = False
    """A task stopped the run (generate's deadline)."""
    failure: str = ""
    """Why the run stopped early (worker processes kept dying), if it did."""

    def add(self, done: Done) -> None:
        self.statuses.update(done.statuses)
        self.failures.update(done.failures)
        for kind, places in done.failed_at.items():
            _keep_place(self.failed_at, kind, places)
        self.puzzles += done.puzzles
        if done.slowest and (self.slowest is None or done.slowest.seconds > self.slowest.seconds):
            self.slowest = done.slowest

    def lines(self) -> list[str]:
        order = [str(s) for s in (Status.UNIQUE, Status.SOLVED, Status.MULTIPLE)]
        order += [str(s) for s in (Status.NONE, Status.TIMEOUT, Status.ERROR)]
        order += ["made"]
        parts = [f"{self.statuses[s]} {s}" for s in order if self.statuses[s]]
        if self.statuses[MALFORMED]:
            parts[-1] += f" ({self.statuses[MALFORMED]} malformed input)"
        if self.statuses[MISMATCH]:
            parts.append(f"{self.statuses[MISMATCH]} failed --check")
        rate = self.puzzles / self.seconds if self.seconds > 0 else 0.0
        verb = "made" if self.statuses["made"] else "answered"
        early = self.interrupted or self.failure or self.stopped
        head = ("stopped" if self.stopped else "interrupted") + " after" if early else verb
        noun = "puzzle" if self.puzzles == 1 else "puzzles"
        said = ", ".join(parts) or ("none answered yet" if early else "nothing to do")
        found = [
            f"{head} {self.puzzles} {noun} in {self.seconds:.2f} s ({rate:,.0f} puzzles/s): {said}"
        ]
        if self.slowest is not None:
            seconds, source, line = self.slowest
            found.append(f"slowest: {source}:{line} ({seconds * 1000:.1f} ms)")
        return found

    def failed(self, gate: frozenset[str]) -> str:
        """The records that fail ``gate`` (the --fail-on names counted), by kind
        with the first places of each; empty when none does."""
        parts = []
        for kind in FAILURES:
            n = self.failures[kind]
            if n and kind in gate:
                places = self.failed_at.get(kind, [])
                more = f" and {n - len(places):,} more" if n > len(places) else ""
                parts.append(f"{n:,} {kind} ({', '.join(places)}{more})")
        return "; ".join(parts)


def describe(task: Work) -> str:
    chunk = task[0]
    return f"{chunk.source} from line {chunk.first_line()}"
