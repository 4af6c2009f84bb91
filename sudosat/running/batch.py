"""Answering a chunk of input: each puzzle is parsed, solved (through
:func:`engine.solve_with`, which chooses the engine), rated or explained when
asked, checked and rendered, in a worker or in process; :mod:`runner` writes
the chunks back in input order, exactly one record per puzzle, and sums up.
"""

from __future__ import annotations

import gc
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from sudosat.core.errors import InputError, SolverError, SolverTimeout
from sudosat.core.puzzle import Puzzle
from sudosat.reading.formats import NUMBERS, LineReader, Row
from sudosat.reading.inputs import Chunk, Entry
from sudosat.running.report import render
from sudosat.sat.deadline import deadline_after, remaining
from sudosat.sat.limits import TooBig
from sudosat.showing.text import note, stats_lines, unlinkable
from sudosat.showing.view import NO_EXPECTATION, OK, UNREADABLE, Check, Result, View
from sudosat.solving.engine import Options, solve_or_error
from sudosat.solving.fast import NAME as ENGINE
from sudosat.solving.outcome import Outcome, Status, status_of
from sudosat.system.lazy import lazy

if TYPE_CHECKING:
    from sudosat.making import rating
    from sudosat.making.candidates import Candidates
    from sudosat.making.rating import Rating
    from sudosat.solving.certificate import Certificate
else:  # solve rates when asked to (--rate)
    rating = lazy("sudosat.making.rating")

MALFORMED, MISMATCH = "malformed", "mismatch"
"""Failure kinds besides the statuses: input that cannot be read, and failed checks."""
FAILURES = (MALFORMED, "error", "none", "multiple", "timeout", MISMATCH)
"""What can make a run fail, as --fail-on names it."""


@dataclass(frozen=True)
class Settings:
    """What every worker needs to know, the same for the whole run."""

    options: Options = field(default_factory=Options)
    view: View = field(default_factory=View)
    front_end: bool = True
    """Settle what propagation and a short search can, all of a chunk at once
    (:mod:`vector`), before the engine sees a puzzle."""


Task = tuple[Chunk, Settings]
"""One chunk to solve and render, with the run's settings."""


class Slowest(NamedTuple):
    seconds: float
    source: str
    line: int


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
    notes: list[str] = field(default_factory=list)
    """For stderr: why a puzzle failed or is not unique (line and grid formats)."""
    interrupted: bool = False
    stopped: bool = False
    """The run must stop after this chunk (generate's deadline passed)."""


def failure(result: Result) -> str | None:
    """What a result counts as for the exit code (a --fail-on name), if anything.
    A puzzle whose expected answer was checked counts by its check alone."""
    if result.outcome is None:
        return MALFORMED
    if result.explanation is not None and result.explanation.timed_out:
        return str(Status.TIMEOUT)
    if result.candidates is not None and result.candidates.timed_out:
        return str(Status.TIMEOUT)
    if result.path is not None and result.path.end == "timeout":
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
    """One puzzle of a chunk, solved and checked."""
    if isinstance(entry, InputError):
        return Result(source, row.line, row.text.strip(), None, str(entry), name=row.name)
    options, view = settings.options, settings.view
    if view.fmt == "fpuzzles" and (why := unlinkable(entry)):  # refused before any work
        return Result(source, row.line, row.text.strip(), None, why, name=row.name)
    try:
        if view.candidates:
            return _candidates(source, row, entry, settings)
        if view.steps:
            return _steps(source, row, entry, settings)
        if view.estimate is not None:
            return _estimate(source, row, entry, settings)
        if view.explain:
            from sudosat.making.explain import explain  # here: PySAT's RC2

            text = row.text.strip()
            try:
                found = explain(entry, options.timeout)
            except SolverError as err:  # a record saying so; the batch goes on
                failed = Outcome(entry, Status.ERROR, reason=str(err))
                return Result(source, row.line, text, failed, name=row.name)
            if view.certify is not None and found.outcome.status == Status.NONE:
                folder = Path(view.certify) / certificate_name(source, row.line)
                _certified(entry, found.outcome, options, folder)
            return Result(source, row.line, text, found.outcome, explanation=found, name=row.name)
        deadline = deadline_after(options.timeout)
        outcome = solve_or_error(entry, options)
        if view.certify is not None:
            folder = Path(view.certify) / certificate_name(source, row.line)
            _certified(entry, outcome, options, folder)
        rating = None
        if view.rate and outcome.status == Status.UNIQUE:
            searched = outcome if outcome.solver == ENGINE else None  # its search is rated
            try:
                rating = _rating(
                    entry, outcome, searched, view.rate_by, remaining(deadline), view.without
                )
            except SolverTimeout:
                outcome.status = Status.TIMEOUT
                outcome.reason = f"no rating within {options.timeout:g} s"
    except TooBig as err:  # like input that cannot be read: a line saying why, exit 2
        return Result(source, row.line, row.text.strip(), None, str(err), name=row.name)
    result = Result(source, row.line, row.text.strip(), outcome, rating=rating, name=row.name)
    if settings.view.check:
        result.check = check(outcome, row, chunk.reader)
    return result


def certificate_name(source: str, line: int) -> str:
    """The folder of one puzzle's certificate: its file's name and its line."""
    stem = "stdin" if source in ("-", "<stdin>") else Path(source).name
    return f"{stem}-{line}"


def _certified(entry: Puzzle, outcome: Outcome, options: Options, folder: Path) -> None:
    """Write the puzzle's certificate (an answer the engine gave only: not a
    timeout or an error), its proof from the solver program asked for, if one, else
    from CaDiCaL in process; an outcome it does not prove becomes an error."""
    if outcome.status not in (Status.UNIQUE, Status.NONE, Status.MULTIPLE):
        return
    from sudosat.solving.certificate import certify  # deferred: --certify alone

    spec = options.solver
    try:
        if spec is not None and spec.members:
            raise SolverError("a portfolio writes no one proof: certify with one solver")
        program = spec.program if spec is not None else None
        found = certify(entry, options.max_solutions, program, options.timeout)
    except SolverTimeout as err:
        outcome.status, outcome.reason = Status.TIMEOUT, f"no certificate: {err}"
        return
    except SolverError as err:
        outcome.status, outcome.reason = Status.ERROR, f"no certificate: {err}"
        return
    if len(found.solutions) != len(outcome.solutions):
        outcome.status = Status.ERROR
        outcome.reason = f"the proof-logging solver finds it {found.status}: no certificate"
        return
    _written(found, outcome, folder)


def _written(found: Certificate, outcome: Outcome, folder: Path) -> None:
    """``found`` written to ``folder``; a failure makes the outcome an error."""
    from sudosat.solving.certificate import write  # deferred: --certify alone

    try:
        write(found, folder)
    except OSError as err:
        outcome.status = Status.ERROR
        outcome.reason = f"cannot write the certificate {folder}: {err.strerror}"


def _rating(
    entry: Puzzle,
    outcome: Outcome,
    searched: Outcome | None,
    by: str,
    timeout: float | None,
    without: frozenset[str] = frozenset(),
) -> Rating:
    """A unique puzzle's rating: by its logical path (up to 36x36; past that, and
    ``by`` search, by the engine's search), ``without`` the techniques named."""
    if by == "path":
        from sudosat.making.path import PATH_LARGEST, rate_by_path  # deferred: for rate alone

        if entry.size <= PATH_LARGEST:
            return rate_by_path(entry, outcome.solutions[0], timeout, without)
    return rating.rate(entry, searched, timeout)


def _candidates(source: str, row: Entry, entry: Puzzle, settings: Settings) -> Result:
    """One puzzle's true candidates; a solver's failure is a record saying so."""
    from sudosat.making.candidates import candidates  # here: the workbench, for this alone

    text = row.text.strip()
    try:
        found = candidates(
            entry, count_each=settings.view.count_each, timeout=settings.options.timeout
        )
    except SolverError as err:
        failed = Outcome(entry, Status.ERROR, reason=str(err))
        return Result(source, row.line, text, failed, name=row.name)
    if settings.view.certify is not None:
        folder = Path(settings.view.certify) / certificate_name(source, row.line)
        _certified_candidates(entry, found, folder)
    return Result(source, row.line, text, found.outcome, candidates=found, name=row.name)


def _certified_candidates(entry: Puzzle, found: Candidates, folder: Path) -> None:
    """Write the certificate of ``found``, when it is complete (no value undecided)."""
    from sudosat.solving.certificate import certify_candidates  # deferred: --certify alone

    if found.outcome.status not in (Status.UNIQUE, Status.NONE, Status.MULTIPLE):
        return
    marks = found.marks or tuple(() for _ in range(entry.size**2))
    try:
        _written(certify_candidates(entry, marks), found.outcome, folder)
    except ValueError as err:  # the proof-logging solver disagrees: no certificate
        found.outcome.status, found.outcome.reason = Status.ERROR, f"no certificate: {err}"


def _steps(source: str, row: Entry, entry: Puzzle, settings: Settings) -> Result:
    """One puzzle's logical path; a solver's failure, or pencil marks that rule out
    a solution's value, is a record saying so."""
    from sudosat.making.path import MarksError, logical_path  # here: for steps alone
    from sudosat.reading.pencil import read_marks

    view, text = settings.view, row.text.strip()
    try:
        marks = read_marks(view.marks[1], view.marks[0], entry) if view.marks else None
        found = logical_path(
            entry,
            bifurcation=view.bifurcation,
            marks=marks,
            hint=view.hint,
            timeout=settings.options.timeout,
            without=view.without,
        )
    except (MarksError, InputError) as err:
        return Result(source, row.line, text, None, str(err), name=row.name)
    except SolverError as err:
        failed = Outcome(entry, Status.ERROR, reason=str(err))
        return Result(source, row.line, text, failed, name=row.name)
    assert found.outcome is not None
    return Result(source, row.line, text, found.outcome, path=found, name=row.name)


def _estimate(source: str, row: Entry, entry: Puzzle, settings: Settings) -> Result:
    """One puzzle's number of solutions, exact when small, else estimated."""
    from sudosat.solving.estimate import estimate  # here: for --estimate alone

    assert settings.view.estimate is not None
    epsilon, delta, method, seed = settings.view.estimate
    text = row.text.strip()
    try:
        found = estimate(
            entry,
            epsilon=epsilon,
            delta=delta,
            method=method,
            seed=seed,
            timeout=settings.options.timeout,
        )
    except (SolverTimeout, SolverError) as err:  # a record saying so; the batch goes on
        stopped = isinstance(err, SolverTimeout)
        why = f"no count within {settings.options.timeout:g} s ({err})" if stopped else str(err)
        failed = Outcome(entry, Status.TIMEOUT if stopped else Status.ERROR, reason=why)
        return Result(source, row.line, text, failed, name=row.name)
    status = status_of(int(found.estimate), True) if found.exact else Status.MULTIPLE
    outcome = Outcome(
        entry, status, list(found.solutions), exhausted=found.exact, solver="minicard"
    )
    outcome.stats.time, outcome.stats.solves = found.time, found.solves
    if not found.converged:
        late = "while counting" if found.at_least else "before the interval narrowed"
        outcome.status, outcome.reason = Status.TIMEOUT, f"out of time {late}"
    return Result(source, row.line, text, outcome, estimate=found, name=row.name)


def work(task: Task) -> Done:
    """Solve and render one chunk (in a worker, or in process with one job)."""
    chunk, settings = task
    results: list[Result] = []
    interrupted = False
    try:
        with _no_collection():
            if _front_end_applies(chunk, settings):
                results = _answer_at_once(chunk, settings)
            else:
                for row, entry in chunk.puzzles():
                    results.append(answer(chunk.source, row, entry, settings, chunk))
    except KeyboardInterrupt:
        interrupted = True  # hand back the whole records made so far
    return _done(results, settings.view, interrupted)


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
    """The front end answers as the engine would: the default engine, one or two
    solutions, and no per-puzzle search figures to report (ratings, stats)."""
    options, view, reader = settings.options, settings.view, chunk.reader
    return (
        settings.front_end
        and reader is not None
        and reader.classic
        and reader.first is not None
        and (bool(reader.fast) or reader.alphabet == NUMBERS)
        and reader.first.rank in FRONT_END_RANKS
        and options.solver is None
        and options.encoding is None
        and options.max_solutions <= 2
        and not view.rate
        and not view.stats
        and not view.explain
        and not view.candidates
        and not view.steps
        and view.estimate is None
        and view.certify is None
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


def _done(results: list[Result], view: View, interrupted: bool) -> Done:
    if view.candidates:
        from sudosat.running import marks  # deferred: for candidates alone

        text, say = marks.render_candidates(results, view), marks.candidates_note
    elif view.steps:
        from sudosat.running import paths  # deferred: for steps alone

        text, say = paths.render_steps(results, view), paths.steps_note
    else:
        text, say = render(results, view), note
    done = Done(text, len(results), interrupted=interrupted)
    for r in results:
        done.statuses[str(r.status)] += 1
        if r.outcome is None:
            done.statuses[MALFORMED] += 1
        if r.check is not None and r.check.failed:
            done.statuses[MISMATCH] += 1
        kind = failure(r)
        if kind is not None:
            done.failures[kind] += 1
        if done.slowest is None or r.time > done.slowest.seconds:
            done.slowest = Slowest(r.time, r.source, r.line)
        said = say(r, view)
        if said is not None:
            done.notes.append(said)
        if view.stats and r.outcome is not None and view.fmt in ("line", "grid"):
            done.notes.extend(stats_lines(r.outcome))
    return done


@dataclass
class Summary:
    statuses: Counter[str] = field(default_factory=Counter)
    failures: Counter[str] = field(default_factory=Counter)
    puzzles: int = 0
    slowest: Slowest | None = None
    seconds: float = 0.0
    interrupted: bool = False
    stopped: bool = False
    """A task stopped the run (generate's deadline)."""
    failure: str = ""
    """Why the run stopped early (worker processes kept dying), if it did."""

    def add(self, done: Done) -> None:
        self.statuses.update(done.statuses)
        self.failures.update(done.failures)
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


def describe(task: Task) -> str:
    chunk = task[0]
    return f"{chunk.source} from line {chunk.first_line()}"
