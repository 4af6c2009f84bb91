"""What a command asks of each puzzle: one typed task per mode.

A :class:`Task` answers one puzzle (:meth:`Task.answer`, a :class:`Result`),
renders a chunk of results in a view's format (:meth:`Task.render`) and says
what goes to stderr (:meth:`Task.note`). ``solve`` runs :class:`Solve` (or
:class:`Estimate`), ``rate`` :class:`Rate`, ``explain`` :class:`Explain`,
``candidates`` :class:`Candidates`, ``steps`` :class:`Steps`; ``generate``
makes puzzles from seeds with :class:`Generate`. :class:`Certified` wraps any
of the first five to write each answer's certificate.

A new mode is one class here and the command that builds it; :mod:`batch`
runs any task the same way, and :class:`View` keeps only how it is shown.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar, NamedTuple

from sudosat.core.errors import InputError, SolverError, SolverTimeout
from sudosat.core.puzzle import Puzzle
from sudosat.running.report import render, render_generated
from sudosat.sat.deadline import deadline_after, remaining
from sudosat.showing.text import note
from sudosat.showing.view import Payload, Result, View
from sudosat.solving.engine import Options, solve_or_error
from sudosat.solving.fast import NAME as ENGINE
from sudosat.solving.outcome import INTERRUPTED, Interrupted, Outcome, Status, status_of
from sudosat.system.process import signal_of

if TYPE_CHECKING:
    from sudosat.logic.rating import Rating
    from sudosat.making.generator import Asked, Generated

ANSWERS = frozenset({Status.UNIQUE, Status.NONE, Status.MULTIPLE})
"""Outcomes a certificate proves: an answer the engine gave, not a timeout or an error."""


class Place(NamedTuple):
    """Where a puzzle came from: its file, line, text as given, and name."""

    source: str
    line: int
    text: str
    name: str = ""

    def result(self, outcome: Outcome | None, error: str = "") -> Result:
        return Result(self.source, self.line, self.text, outcome, error, name=self.name)

    def failed(self, puzzle: Puzzle, reason: str, status: Status = Status.ERROR) -> Result:
        """A record saying why there is no answer; the batch goes on."""
        return self.result(Outcome(puzzle, status, reason=reason))

    def folder(self, root: str) -> Path:
        """The folder of this puzzle's certificate: its file's name and its line."""
        stem = "stdin" if self.source in ("-", "<stdin>") else Path(self.source).name
        return Path(root) / f"{stem}-{self.line}"


class Task:
    """One mode: how a puzzle is answered, and how its answers are shown.

    A task is a value: its fields are its ``__slots__``, set once by its
    ``__init__``, and its repr names them all (a shard's run is told by it).
    Plain classes, not dataclasses: nine dataclasses took 7 ms to define, a
    tenth of a classic ``solve``'s start."""

    __slots__: tuple[str, ...] = ()

    record: ClassVar[str] = "solution"
    """The kind of record its answers make (:attr:`View.record`)."""
    front_end: ClassVar[bool] = False
    """The batch front end (:mod:`vector`) may answer for it."""
    certifies: ClassVar[frozenset[Status]] = ANSWERS
    """The outcomes :class:`Certified` writes a certificate for."""
    partial: ClassVar[bool] = False
    """Ctrl-C during a search keeps a record of what it had found (a count's ``N+``)."""

    @property
    def logic(self) -> bool:
        """Whether it follows logical paths, which the compiled engine speeds up
        (a run without that engine says so once)."""
        return False

    def dear(self, options: Options) -> bool:
        """Whether a puzzle's answer takes long as a rule (milliseconds to minutes:
        a path, a count), so that a run's workers are handed puzzles by their cost
        from the start (:mod:`pacing`); a solve's uniqueness check is cheap."""
        return True

    def answer(self, puzzle: Puzzle, place: Place, options: Options) -> Result:
        raise NotImplementedError

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.__slots__)
        return f"{type(self).__name__}({fields})"

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and repr(other) == repr(self)

    def __hash__(self) -> int:
        return hash(repr(self))

    def shaped(self, view: View) -> View:
        """``view`` with this task's kind of record."""
        return replace(view, record=self.record)

    def render(self, results: list[Result], view: View) -> str:
        return render(results, view)

    def note(self, result: Result, view: View) -> str | None:
        return note(result, view)


class Solve(Task):
    """``sudosat solve``: the solutions, checked against what the input expects
    (``check``)."""

    __slots__ = ("check",)
    front_end: ClassVar[bool] = True
    partial: ClassVar[bool] = True

    def __init__(self, check: bool = False) -> None:
        self.check = check

    def dear(self, options: Options) -> bool:
        return options.max_solutions > 2  # a count; else paced once heard to be dear

    def answer(self, puzzle: Puzzle, place: Place, options: Options) -> Result:
        return place.result(solve_or_error(puzzle, options))

    def shaped(self, view: View) -> View:
        return replace(view, record=self.record, check=self.check)


class Rate(Task):
    """``sudosat rate``: each unique puzzle's rating, by its logical path or by
    the engine's ``search``, ``without`` the technique families named."""

    __slots__ = ("by", "without")
    record: ClassVar[str] = "rating"
    partial: ClassVar[bool] = True

    def __init__(self, by: str = "path", without: frozenset[str] = frozenset()) -> None:
        self.by, self.without = by, without

    def answer(self, puzzle: Puzzle, place: Place, options: Options) -> Result:
        deadline = deadline_after(options.timeout)
        outcome = solve_or_error(puzzle, options)
        found = place.result(outcome)
        if outcome.status == Status.UNIQUE:
            try:
                found.answer(Payload.RATING, self.rating(puzzle, outcome, remaining(deadline)))
            except SolverTimeout:
                outcome.status = Status.TIMEOUT
                outcome.reason = f"no rating within {options.timeout:g} s"
            except Interrupted:
                raise
            except KeyboardInterrupt as stop:  # SIGTERM, SIGHUP too: a record that says so
                outcome.reason = f"{INTERRUPTED} before its rating was found"
                raise Interrupted(outcome, signal_of(stop)) from None
        return found

    @property
    def logic(self) -> bool:
        return self.by == "path"

    def rating(self, puzzle: Puzzle, outcome: Outcome, timeout: float | None) -> Rating:
        """By the logical path up to 36x36; past that, and ``by`` search, by the
        search's effort (the engine's own, when it found the answer)."""
        searched = outcome if outcome.solver == ENGINE else None
        if self.by == "path":
            from sudosat.logic.rating import rate  # deferred: rate alone

            return rate(puzzle, outcome.solutions[0], timeout, self.without, searched)
        from sudosat.logic.rating import rate_by_search  # deferred: rate alone

        return rate_by_search(puzzle, searched, timeout)


class Explain(Task):
    """``sudosat explain``: why a puzzle has no solution, or several, or how hard it is."""

    __slots__ = ()
    record: ClassVar[str] = "explanation"
    certifies: ClassVar[frozenset[Status]] = frozenset({Status.NONE})

    @property
    def logic(self) -> bool:
        return True  # a unique puzzle's rating

    def answer(self, puzzle: Puzzle, place: Place, options: Options) -> Result:
        from sudosat.making.explain import explain  # deferred: PySAT's RC2

        try:
            found = explain(puzzle, options.timeout)
        except SolverError as err:
            return place.failed(puzzle, str(err))
        result = place.result(found.outcome)
        result.answer(Payload.EXPLANATION, found)
        return result


class Candidates(Task):
    """``sudosat candidates``: each puzzle's true candidates; with ``count_each``,
    the solutions holding each one, counted up to it."""

    __slots__ = ("count_each",)
    record: ClassVar[str] = "candidates"

    def __init__(self, count_each: int | None = None) -> None:
        self.count_each = count_each

    def answer(self, puzzle: Puzzle, place: Place, options: Options) -> Result:
        from sudosat.solving.candidates import candidates  # deferred: the workbench

        try:
            found = candidates(puzzle, count_each=self.count_each, timeout=options.timeout)
        except SolverError as err:
            return place.failed(puzzle, str(err))
        result = place.result(found.outcome)
        result.answer(Payload.CANDIDATES, found)
        return result

    def render(self, results: list[Result], view: View) -> str:
        from sudosat.running import marks  # deferred: candidates alone

        return marks.render_candidates(results, view, counted=self.count_each is not None)

    def note(self, result: Result, view: View) -> str | None:
        from sudosat.running import marks  # deferred: candidates alone

        return marks.candidates_note(result, view)


class Steps(Task):
    """``sudosat steps``: each puzzle's logical path (or its next step, ``hint``),
    guessing up to ``bifurcation`` deep, from pencil ``marks`` (their source's
    name, their text), ``without`` the technique families named."""

    __slots__ = ("bifurcation", "hint", "marks", "without")
    record: ClassVar[str] = "path"

    def __init__(
        self,
        hint: bool = False,
        bifurcation: int = 0,
        marks: tuple[str, str] | None = None,
        without: frozenset[str] = frozenset(),
    ) -> None:
        self.hint, self.bifurcation, self.marks, self.without = hint, bifurcation, marks, without

    @property
    def logic(self) -> bool:
        return True

    def answer(self, puzzle: Puzzle, place: Place, options: Options) -> Result:
        from sudosat.logic.path import MarksError, logical_path  # deferred: steps alone
        from sudosat.reading.pencil import read_marks

        try:
            marks = read_marks(self.marks[1], self.marks[0], puzzle) if self.marks else None
            found = logical_path(
                puzzle,
                bifurcation=self.bifurcation,
                marks=marks,
                hint=self.hint,
                timeout=options.timeout,
                without=self.without,
            )
        except (MarksError, InputError) as err:
            return place.result(None, str(err))
        except SolverError as err:
            return place.failed(puzzle, str(err))
        result = place.result(found.outcome)
        result.answer(Payload.PATH, found)
        return result

    def render(self, results: list[Result], view: View) -> str:
        from sudosat.running import paths  # deferred: steps alone

        return paths.render_steps(results, view)

    def note(self, result: Result, view: View) -> str | None:
        from sudosat.running import paths  # deferred: steps alone

        return paths.steps_note(result, view)


class Estimate(Task):
    """``solve --estimate``: each puzzle's number of solutions, exact when small,
    else within ``epsilon`` with confidence ``1 - delta``, by ``method`` from ``seed``."""

    __slots__ = ("delta", "epsilon", "method", "seed")
    record: ClassVar[str] = "estimate"

    def __init__(self, epsilon: float, delta: float, method: str, seed: int) -> None:
        self.epsilon, self.delta, self.method, self.seed = epsilon, delta, method, seed

    def answer(self, puzzle: Puzzle, place: Place, options: Options) -> Result:
        from sudosat.solving.estimate import estimate  # deferred: --estimate alone

        timeout = options.timeout
        try:
            found = estimate(
                puzzle,
                epsilon=self.epsilon,
                delta=self.delta,
                method=self.method,
                seed=self.seed,
                timeout=timeout,
            )
        except SolverTimeout as err:
            return place.failed(puzzle, f"no count within {timeout:g} s ({err})", Status.TIMEOUT)
        except SolverError as err:
            return place.failed(puzzle, str(err))
        status = status_of(found.count, True) if found.exact else Status.MULTIPLE
        outcome = Outcome(
            puzzle, status, list(found.solutions), exhausted=found.exact, solver="minicard"
        )
        outcome.stats.time, outcome.stats.solves = found.time, found.solves
        if not found.converged:
            late = "while counting" if found.at_least else "before the interval narrowed"
            outcome.status, outcome.reason = Status.TIMEOUT, f"out of time {late}"
        result = place.result(outcome)
        result.answer(Payload.ESTIMATE, found)
        return result


class Certified(Task):
    """Any task, with each answer's certificate written in a folder of ``root``
    (named by :meth:`Place.folder`); an answer the certificate does not prove
    becomes an error."""

    __slots__ = ("root", "task")

    def __init__(self, task: Task, root: str) -> None:
        self.task, self.root = task, root

    def dear(self, options: Options) -> bool:
        return self.task.dear(options)

    def answer(self, puzzle: Puzzle, place: Place, options: Options) -> Result:
        result = self.task.answer(puzzle, place, options)
        outcome = result.outcome
        if outcome is None or outcome.status not in self.task.certifies:
            return result
        folder = place.folder(self.root)
        if result.candidates is not None:
            _certified_candidates(puzzle, result, folder)
        else:
            _certified(puzzle, outcome, options, folder)
        return result

    def shaped(self, view: View) -> View:
        return self.task.shaped(view)

    def render(self, results: list[Result], view: View) -> str:
        return self.task.render(results, view)

    def note(self, result: Result, view: View) -> str | None:
        return self.task.note(result, view)


def _certified(puzzle: Puzzle, outcome: Outcome, options: Options, folder: Path) -> None:
    """Write the puzzle's certificate, its proof from the solver program asked for,
    if one, else from CaDiCaL in process; an outcome it does not prove becomes an
    error."""
    from sudosat.solving.certificate import certify  # deferred: --certify alone

    spec = options.solver
    try:
        if spec is not None and spec.members:
            raise SolverError("a portfolio writes no one proof: certify with one solver")
        program = spec.program if spec is not None else None
        found = certify(puzzle, options.max_solutions, program, options.timeout)
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


def _certified_candidates(puzzle: Puzzle, result: Result, folder: Path) -> None:
    """Write the certificate of a puzzle's candidates (every value decided)."""
    from sudosat.solving.certificate import certify_candidates  # deferred: --certify alone

    found = result.candidates
    assert found is not None
    marks = found.marks or tuple(() for _ in range(puzzle.size**2))
    try:
        _written(certify_candidates(puzzle, marks), found.outcome, folder)
    except ValueError as err:  # the proof-logging solver disagrees: no certificate
        found.outcome.status, found.outcome.reason = Status.ERROR, f"no certificate: {err}"


def _written(found: object, outcome: Outcome, folder: Path) -> None:
    """A certificate written to ``folder``; a failure makes the outcome an error."""
    from sudosat.solving.certificate import Certificate, write  # deferred: --certify alone

    assert isinstance(found, Certificate)
    try:
        write(found, folder)
    except OSError as err:
        outcome.status = Status.ERROR
        outcome.reason = f"cannot write the certificate {folder}: {err.strerror}"


class Generate(Task):
    """``sudosat generate``: a puzzle made from each seed as ``asked`` (made, not
    answered: :meth:`make` for :meth:`Task.answer`)."""

    __slots__ = ("asked",)
    record: ClassVar[str] = "generated"

    def __init__(self, asked: Asked) -> None:
        self.asked = asked

    @property
    def logic(self) -> bool:
        return self.asked.rated or self.asked.level is not None

    def make(self, seeds: list[int], deadline: float | None) -> tuple[list[Generated], bool]:
        """The puzzles of ``seeds``, in order, and whether ``deadline`` stopped the
        work before the last (then the list holds those finished before it)."""
        made: list[Generated] = []
        asked = self.asked
        for seed in seeds:
            try:
                if asked.variant != "classic":
                    from sudosat.making.variant_generator import make_variant  # deferred

                    made.append(make_variant(seed, asked, deadline))
                    continue
                from sudosat.making import generator  # deferred: generate alone

                made.append(
                    generator.generator(asked.rank).generate(
                        seed,
                        symmetry=asked.symmetry,
                        clues=asked.clues,
                        level=asked.level,
                        alphabet=asked.symbols,
                        deadline=deadline,
                        rated=asked.rated,
                    )
                )
            except SolverTimeout:
                return made, True
        return made, False

    def render(self, made: list[Generated], view: View) -> str:  # type: ignore[override]
        return render_generated(made, view)
