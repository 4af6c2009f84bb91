"""Batch runs: files of many puzzles (one per line, or CSV), streamed, solved over
worker processes, answered in input order with exactly one record per puzzle.

Data flows in chunks: the reader cuts the input into chunks of lines (smaller
ones from a pipe, so answers start before the stream ends), workers parse,
solve, verify and render a chunk into finished text, and the main process
writes the chunks back in order.
"""

from __future__ import annotations

import csv
import io
import json
import multiprocessing
import os
import queue
import signal
import stat
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from functools import cache
from typing import IO, Any

from .encoding import Encoding
from .engine import ERROR, MULTIPLE, NONE, SOLVED, TIMEOUT, UNIQUE, Outcome, solve_safely
from .fast import MAX_RANK, NAME, FastSolver
from .formats import InputError, LineReader, Row, fits, format_line, is_content
from .puzzle import Grid, Puzzle
from .solvers import DEFAULT_SOLVER, SolverError, SolverSpec

FORMATS = ("jsonl", "csv", "line")
CHUNK = 128
"""Lines per chunk from a file; a pipe gives what has arrived, up to this many."""
MALFORMED, MISMATCH = "malformed", "mismatch"
"""Summary keys besides the statuses: input errors (status ``error`` in records,
counted apart from solver failures) and ``--check`` mismatches."""
NO_EXPECTATION = "no expected solution"
PUZZLE_COLUMNS = ("quizzes", "quiz", "puzzle", "puzzles", "sudoku", "grid", "board", "question")
SOLUTION_COLUMNS = ("solutions", "solution", "answer", "answers")
CSV_FIELDS = ["source", "line", "puzzle", "status", "unique", "solution", "time", "reason"]


@dataclass(frozen=True)
class Settings:
    """What every worker needs to know, the same for the whole run."""

    solver: SolverSpec | None = None
    """None: the batch engine (propagation first, :mod:`fast`)."""
    encoding: Encoding = field(default_factory=Encoding)
    limit: int = 2
    timeout: float | None = None
    fmt: str = "jsonl"
    check: bool = False
    count: bool = False


Line = tuple[int, str, str | None, int | None]
"""An input line: its number, the puzzle text, the expected solution (text) and
the expected number of solutions, when the input gives them."""


@dataclass
class Chunk:
    """Consecutive input lines of one file, or puzzles already read whole."""

    source: str
    rows: list[Line] = field(default_factory=list)
    reader: LineReader | None = None
    entries: list[Puzzle | InputError] = field(default_factory=list)
    """Puzzles read whole (a grid file), solved as they are."""


Task = tuple[Chunk, Settings]
"""One chunk to solve and render, with the run's settings."""


@dataclass
class Done:
    """A worker's answer for one chunk: the text to write and what the summary needs."""

    text: str
    counts: Counter[str]
    slowest: tuple[float, str, int] | None
    puzzles: int
    interrupted: bool = False
    notes: list[str] = field(default_factory=list)
    """For stderr, with --format line: why a puzzle failed or is not unique."""


# --- reading ---------------------------------------------------------------


class Lines:
    """Numbered text lines of a binary stream, with the first few peeked at."""

    def __init__(self, stream: IO[bytes]) -> None:
        self.stream = stream
        self.number = 0
        self.pushed: list[tuple[int, bytes]] = []  # peeked at, as read

    def next(self) -> tuple[int, str] | None:
        item = self._raw()
        return None if item is None else (item[0], _text(*item))

    def _raw(self) -> tuple[int, bytes] | None:
        if self.pushed:
            return self.pushed.pop(0)
        data = self.stream.readline()
        if not data:
            return None
        self.number += 1
        return self.number, data

    def peek_content(self, count: int) -> list[tuple[int, str]]:
        """The first ``count`` lines that are neither blank nor ``#`` comments."""
        seen: list[tuple[int, bytes]] = []
        content: list[tuple[int, str]] = []
        while len(content) < count:
            item = self._raw()
            if item is None:
                break
            seen.append(item)
            text = _text(*item)
            if is_content(text):
                content.append((item[0], text))
        self.pushed = seen + self.pushed
        return content

    def rest(self) -> bytes:
        """Everything not yet taken, as it was."""
        head = b"".join(data for _, data in self.pushed)
        self.pushed = []
        return head + self.stream.read()


def _text(number: int, data: bytes) -> str:
    """A line as text; bytes that are not UTF-8 become U+FFFD, reported where they are."""
    text = data.decode("utf-8", errors="replace").rstrip("\r\n")
    return text.removeprefix("\ufeff") if number == 1 else text


def _whole_puzzle(text: str, rank: int | None) -> bool:
    """Whether one line holds a whole puzzle (symbols, or whitespace-separated numbers),
    maybe followed by tdoku's ``:count:solution``."""
    stripped = text.partition(":")[0].strip()
    return fits(len(stripped), rank) or fits(len(stripped.split()), rank)


def _csv_header(text: str, source: str = "", number: int = 1) -> tuple[int, int | None] | None:
    """(puzzle column, solution column) of a CSV header; None when ``text`` is no CSV.
    A header that names no puzzle column is an InputError."""
    if "," not in text:
        return None
    names = [name.strip().lower() for name in next(csv.reader([text]))]
    puzzle = next((names.index(n) for n in PUZZLE_COLUMNS if n in names), None)
    if puzzle is None:
        raise InputError(
            source,
            number,
            1,
            f"a CSV header naming no puzzle column; expected one of {', '.join(PUZZLE_COLUMNS)}",
        )
    solution = next((names.index(n) for n in SOLUTION_COLUMNS if n in names), None)
    return puzzle, solution


def is_stream(
    stream: IO[bytes], rank: int | None, layout: str, lines_needed: int = 2
) -> tuple[bool, Lines]:
    """Whether the input is a batch: a CSV, or one puzzle per line on the first
    ``lines_needed`` lines. The lines object keeps what was peeked at."""
    lines = Lines(stream)
    if layout == "grid":
        return False, lines
    first = lines.peek_content(lines_needed)
    if first and "," in first[0][1]:
        return True, lines  # a CSV
    if layout == "line":
        return True, lines
    whole = all(_whole_puzzle(text, rank) for _, text in first)
    return len(first) == lines_needed and whole, lines


def _pipe_batches(lines: Lines, size: int) -> Iterator[list[tuple[int, str]]]:
    """Lines as they arrive from a pipe: a batch is what has come, up to ``size``."""
    arrived: queue.Queue[tuple[int, str] | None] = queue.Queue(maxsize=size * 8)

    def pump() -> None:
        while True:
            item = lines.next()
            arrived.put(item)
            if item is None:
                return

    threading.Thread(target=pump, daemon=True).start()
    while True:
        item = arrived.get()
        if item is None:
            return
        batch = [item]
        while len(batch) < size:
            try:
                item = arrived.get_nowait()
            except queue.Empty:
                break
            if item is None:
                yield batch
                return
            batch.append(item)
        yield batch


def _file_batches(lines: Lines, size: int) -> Iterator[list[tuple[int, str]]]:
    batch: list[tuple[int, str]] = []
    while (item := lines.next()) is not None:
        batch.append(item)
        if len(batch) == size:
            yield batch
            batch = []
    if batch:
        yield batch


def chunks(
    source: str,
    lines: Lines,
    *,
    rank: int | None,
    alphabet: str | None,
    piped: bool,
) -> Iterator[Chunk]:
    """The input's content lines in chunks; CSV columns split off; the first chunk
    settles the alphabet and the size for the rest."""
    reader = LineReader(source, rank, alphabet)
    columns: tuple[int, int | None] | None = None
    header_seen = False
    batches = _pipe_batches(lines, CHUNK) if piped else _file_batches(lines, CHUNK)
    for batch in batches:
        rows: list[Line] = []
        for number, text in batch:
            if not is_content(text):
                continue
            if not header_seen:
                header_seen = True
                try:
                    columns = _csv_header(text, source, number)
                except InputError as error:
                    yield Chunk(source, entries=[error])
                    return
                if columns is not None:
                    continue
            rows.append(_split_row(number, text, columns))
        if not rows:
            continue
        if reader.first is None:
            reader.settle([Row(row[0], row[1]) for row in rows])
        yield Chunk(source, rows, reader)


def _split_row(number: int, text: str, columns: tuple[int, int | None] | None) -> Line:
    """The puzzle and what is expected of it: CSV columns, or tdoku's
    ``puzzle:count[:solution]``."""
    if columns is None:
        if ":" not in text:
            return number, text, None, None
        puzzle, _, rest = text.partition(":")
        count, _, given = rest.partition(":")
        expected = int(count) if count.strip().isdigit() else None
        return number, puzzle, given or None, expected
    fields = next(csv.reader([text]), [])
    puzzle_at, solution_at = columns
    puzzle = fields[puzzle_at] if puzzle_at < len(fields) else ""
    solution = (
        fields[solution_at] if solution_at is not None and solution_at < len(fields) else None
    )
    return number, puzzle, solution, None


def is_pipe(stream: IO[bytes]) -> bool:
    try:
        return not stat.S_ISREG(os.fstat(stream.fileno()).st_mode)
    except (OSError, ValueError, io.UnsupportedOperation):
        return True


def shard(chunk_iter: Iterable[Chunk], k: int, n: int) -> Iterator[Chunk]:
    """Every ``n``-th puzzle, starting at the ``k``-th (1-based), over all inputs."""
    index = 0
    for chunk in chunk_iter:
        # a chunk holds rows or entries, never both: either counts from ``index``
        size = len(chunk.rows) + len(chunk.entries)
        chunk.rows = [row for i, row in enumerate(chunk.rows, index) if i % n == k - 1]
        chunk.entries = [e for i, e in enumerate(chunk.entries, index) if i % n == k - 1]
        index += size
        if chunk.rows or chunk.entries:
            yield chunk


# --- solving and rendering (in the workers) --------------------------------


@cache
def _fast_solver(rank: int) -> FastSolver:
    """One batch engine per rank and process, made when first needed."""
    return FastSolver(rank)


@dataclass
class Result:
    source: str
    line: int
    puzzle: str
    status: str
    solutions: list[str] = field(default_factory=list)
    time: float = 0.0
    reason: str = ""
    exhausted: bool = False
    expected: str | None = None
    expected_count: int | None = None
    check: str | None = None
    malformed: bool = False


def outcome(puzzle: Puzzle, settings: Settings) -> Outcome:
    """One puzzle through the batch engine where it applies (ranks up to 4, no solver
    or encoding asked for), else the general engine; a solver failure is an ``error``
    outcome."""
    if settings.solver is not None or puzzle.rank > MAX_RANK:
        return solve_safely(
            puzzle,
            solver=settings.solver or DEFAULT_SOLVER,
            encoding=settings.encoding,
            max_solutions=settings.limit,
            timeout=settings.timeout,
        )
    start = time.perf_counter()
    try:
        found = _fast_solver(puzzle.rank).solve(puzzle, settings.limit, settings.timeout)
    except SolverError as err:
        return Outcome(puzzle, ERROR, reason=str(err), solver=NAME)
    found.stats.time = time.perf_counter() - start
    return found


def _result(
    source: str,
    number: int,
    text: str,
    entry: Puzzle | InputError,
    expected: str | None,
    reader: LineReader | None,
    settings: Settings,
    count: int | None = None,
) -> Result:
    if isinstance(entry, InputError):
        return Result(source, number, text.strip(), ERROR, reason=str(entry), malformed=True)
    found = outcome(entry, settings)
    clash = found.clashes[0].describe(entry) if found.clashes else ""
    result = Result(
        source,
        number,
        text.strip(),
        found.status,
        [format_line(entry, grid) for grid in found.solutions],
        found.stats.time,
        found.reason or clash,
        found.exhausted,
    )
    if settings.check:
        _check(result, found.solutions, expected, count, reader)
    return result


def _check(
    result: Result,
    grids: list[Grid],
    expected: str | None,
    count: int | None,
    reader: LineReader | None,
) -> None:
    """``result.check``: how the answer compares with the expected solution and count."""
    if count is not None:
        result.expected_count = count
        found = len(grids)
        # without --count the search stops at 2: compare none / unique / several
        agrees = found == count if result.exhausted else count >= found
        if not agrees:
            result.check = f"mismatch: {count} solutions expected"
            return
    if expected is None or not expected.strip():
        result.check = "ok" if count is not None else NO_EXPECTATION
        return
    result.expected = expected.strip()
    wanted = reader.read_row(Row(result.line, expected)) if reader else None
    if not isinstance(wanted, Puzzle):
        result.check = "expected solution unreadable"
        return
    if result.status in (UNIQUE, SOLVED) and grids and grids[0] == wanted.cells:
        result.check = "ok"
    elif result.status == MULTIPLE and wanted.cells in grids:
        result.check = "mismatch: several solutions"
    else:
        result.check = "mismatch"


def work(job: Task) -> Done:
    """Solve and render one chunk (in a worker, or in process with --jobs 1)."""
    chunk, settings = job
    results: list[Result] = []
    interrupted = False
    try:
        if chunk.reader is not None:
            for number, text, expected, count in chunk.rows:
                entry = chunk.reader.read_row(Row(number, text))
                results.append(
                    _result(
                        chunk.source, number, text, entry, expected, chunk.reader, settings, count
                    )
                )
        for entry in chunk.entries:
            if isinstance(entry, InputError):
                results.append(
                    Result(chunk.source, entry.line, "", ERROR, reason=str(entry), malformed=True)
                )
            else:
                results.append(
                    _result(
                        chunk.source, entry.line, format_line(entry), entry, None, None, settings
                    )
                )
    except KeyboardInterrupt:
        interrupted = True  # hand back the whole records made so far
    return _done(results, settings, interrupted)


def _done(results: list[Result], settings: Settings, interrupted: bool) -> Done:
    counts: Counter[str] = Counter()
    slowest: tuple[float, str, int] | None = None
    for r in results:
        counts[r.status] += 1
        if r.malformed:
            counts[MALFORMED] += 1
        if _failed_check(r):
            counts[MISMATCH] += 1
        if slowest is None or r.time > slowest[0]:
            slowest = (r.time, r.source, r.line)
    notes = (
        [_note(r) for r in results if r.status not in (UNIQUE, SOLVED) or _failed_check(r)]
        if settings.fmt == "line"
        else []
    )
    return Done(render(results, settings), counts, slowest, len(results), interrupted, notes)


def _failed_check(r: Result) -> bool:
    """A mismatch, or an expected solution that cannot be read; no expectation is no failure."""
    return r.check is not None and r.check not in ("ok", NO_EXPECTATION)


def _note(r: Result) -> str:
    if r.status == ERROR:
        return f"Error: {r.reason}" if r.malformed else f"Error: {r.source}:{r.line}: {r.reason}"
    note = f"{r.source}:{r.line}: {r.status}" + (f": {r.reason}" if r.reason else "")
    return note + (f"; --check: {r.check}" if _failed_check(r) else "")


def render(results: list[Result], settings: Settings) -> str:
    if settings.fmt == "jsonl":
        return "".join(json.dumps(record(r, settings)) + "\n" for r in results)
    if settings.fmt == "csv":
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        for r in results:
            writer.writerow(csv_row(r, settings))
        return out.getvalue()
    return "".join(_line(r, settings) + "\n" for r in results)


def record(r: Result, settings: Settings) -> dict[str, Any]:
    """The JSONL object of one puzzle."""
    data: dict[str, Any] = {
        "source": r.source,
        "line": r.line,
        "puzzle": r.puzzle,
        "status": r.status,
        "unique": r.status == UNIQUE if r.status in (UNIQUE, MULTIPLE, NONE) else None,
        "solution": r.solutions[0] if r.solutions else None,
        "time": round(r.time, 6),
    }
    if r.status == MULTIPLE:
        data["solutions"] = r.solutions
    if settings.count:
        data["count"] = len(r.solutions)
        data["count_complete"] = r.exhausted
    if r.reason:
        data["reason"] = r.reason
    if settings.check:
        data["expected"] = r.expected
        data["expected_count"] = r.expected_count
        data["check"] = r.check
    return data


def csv_fields(settings: Settings) -> list[str]:
    extra = (["count", "count_complete"] if settings.count else []) + (
        ["expected", "expected_count", "check"] if settings.check else []
    )
    return CSV_FIELDS + extra


def csv_row(r: Result, settings: Settings) -> list[Any]:
    data = record(r, settings)
    data.setdefault("reason", "")
    return [
        "" if data.get(name) is None else _csv_value(data[name]) for name in csv_fields(settings)
    ]


def _csv_value(value: Any) -> Any:
    return str(value).lower() if isinstance(value, bool) else value


def _line(r: Result, settings: Settings) -> str:
    if settings.count:
        return str(len(r.solutions))
    return r.solutions[0] if r.solutions else r.status


# --- running ---------------------------------------------------------------


@dataclass
class Summary:
    counts: Counter[str] = field(default_factory=Counter)
    puzzles: int = 0
    slowest: tuple[float, str, int] | None = None
    seconds: float = 0.0
    interrupted: bool = False
    failure: str = ""
    """Why the run stopped early (a worker process died), if it did."""

    def add(self, done: Done) -> None:
        self.counts.update(done.counts)
        self.puzzles += done.puzzles
        if done.slowest and (self.slowest is None or done.slowest[0] > self.slowest[0]):
            self.slowest = done.slowest

    def lines(self) -> list[str]:
        order = [UNIQUE, SOLVED, MULTIPLE, NONE, TIMEOUT, ERROR]
        parts = [f"{self.counts[s]} {s}" for s in order if self.counts[s]]
        if self.counts[MALFORMED]:
            parts[-1] += f" ({self.counts[MALFORMED]} malformed input)"
        if self.counts[MISMATCH]:
            parts.append(f"{self.counts[MISMATCH]} failed --check")
        rate = self.puzzles / self.seconds if self.seconds > 0 else 0.0
        head = "interrupted after" if self.interrupted or self.failure else "answered"
        noun = "puzzle" if self.puzzles == 1 else "puzzles"
        found = [
            f"{head} {self.puzzles} {noun} in {self.seconds:.2f} s ({rate:,.0f} puzzles/s): "
            + (", ".join(parts) or "nothing to do")
        ]
        if self.slowest is not None:
            seconds, source, line = self.slowest
            found.append(f"slowest: {source}:{line} ({seconds * 1000:.1f} ms)")
        return found


def _quiet_worker() -> None:
    # Ctrl-C goes to the whole process group: the main process stops the workers,
    # with SIGTERM, which must simply end them.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def run(
    jobs_in: Iterable[Chunk],
    settings: Settings,
    write: Callable[[str], None],
    *,
    jobs: int,
    report: Callable[[str], None] = lambda note: None,
    progress: Callable[[int], None] | None = None,
) -> Summary:
    """Solve every chunk, writing the answers in input order. Ctrl-C stops it: what
    was written is whole records, and the summary says how far it got."""
    summary = Summary()
    start = time.perf_counter()
    tasks = ((chunk, settings) for chunk in jobs_in)
    try:
        answers = _in_parallel(tasks, jobs, report) if jobs > 1 else map(work, tasks)
        for done in answers:
            summary.add(done)  # first: a Ctrl-C held back during the write fires after it
            _write_whole(write, done.text)
            for note in done.notes:
                report(note)
            if progress is not None:
                progress(done.puzzles)
            if done.interrupted:
                raise KeyboardInterrupt
    except KeyboardInterrupt:
        summary.interrupted = True
    except SolverError as error:
        summary.failure = str(error)
    finally:
        summary.seconds = time.perf_counter() - start
    return summary


REPLACEMENTS = 3
"""Worker pools a run may replace after a worker died before it stops."""
Submitted = tuple[Task, int, "Future[Done] | None"]
"""A task, the pool (by number) it went to, its future (None: that pool was broken)."""


def _in_parallel(
    tasks: Iterator[Task],
    jobs: int,
    report: Callable[[str], None] = lambda note: None,
) -> Iterator[Done]:
    """``work`` over worker processes, answers in order as soon as each is ready.

    A thread feeds the pool while answers are taken, so a slow stream on stdin
    is answered line by line; a bounded window keeps the input from being read
    far ahead of the output. When a worker dies (killed, out of memory) the pool
    is replaced and the chunks it held are solved again, each once: a chunk whose
    worker dies a second time stops the run.
    """
    first = ProcessPoolExecutor(
        jobs, mp_context=multiprocessing.get_context("fork"), initializer=_quiet_worker
    )
    first.submit(int).result()  # fork every worker now, before this process starts threads
    pools = [first]
    window = threading.Semaphore(jobs * 4)
    submitted: queue.Queue[Submitted | BaseException | None] = queue.Queue()
    stop = threading.Event()

    def feed() -> None:
        try:
            for task in tasks:
                while not window.acquire(timeout=0.1):
                    if stop.is_set():
                        return
                if stop.is_set():
                    return
                generation = len(pools) - 1
                try:
                    future: Future[Done] | None = pools[generation].submit(work, task)
                except BrokenProcessPool:
                    future = None  # submitted again once the pool is replaced
                submitted.put((task, generation, future))
        except BaseException as error:  # reading failed: say so in order, then stop
            submitted.put(error)
        finally:
            submitted.put(None)

    def answer(task: Task, generation: int, future: Future[Done] | None) -> Done:
        for attempt in range(2):
            if future is not None:
                try:
                    return future.result()
                except BrokenProcessPool:
                    pass
            if attempt == 1 or len(pools) > REPLACEMENTS:
                break
            if generation == len(pools) - 1:  # the current pool broke: replace it
                report("Warning: a worker process died; starting new workers")
                pools.append(_new_pool(jobs))
            generation = len(pools) - 1
            try:
                future = pools[generation].submit(work, task)
            except BrokenProcessPool:
                future = None
            except OSError as error:
                raise SolverError(f"cannot start new worker processes: {error}") from None
        chunk = task[0]
        raise SolverError(
            f"worker processes kept dying (the last while solving {chunk.source} from line "
            f"{_first_line(chunk)}); the run stopped there"
        )

    feeder = threading.Thread(target=feed, daemon=True)
    feeder.start()
    try:
        while (item := submitted.get()) is not None:
            if isinstance(item, BaseException):
                raise item
            done = answer(*item)
            window.release()
            yield done
    finally:
        stop.set()
        for pool in pools:
            for process in list((getattr(pool, "_processes", None) or {}).values()):
                process.terminate()  # Ctrl-C or an error: do not wait for queued work
            pool.shutdown(wait=True, cancel_futures=True)


def _new_pool(jobs: int) -> ProcessPoolExecutor:
    """Workers started by a fork server: this process has threads by now, and forking
    it could hand a worker a lock some other thread held."""
    return ProcessPoolExecutor(
        jobs, mp_context=multiprocessing.get_context("forkserver"), initializer=_quiet_worker
    )


def _first_line(chunk: Chunk) -> int:
    if chunk.rows:
        return chunk.rows[0][0]
    return chunk.entries[0].line if chunk.entries else 0


def _write_whole(write: Callable[[str], None], text: str) -> None:
    """Write with SIGINT held back, so a record is never cut in half."""
    if not text:
        return
    old = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        write(text)
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)
