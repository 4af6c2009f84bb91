"""An answer and how it is to be shown: a puzzle's :class:`Result` (its outcome,
its check, the one payload its task answered), the :class:`View` a command asks
for, the formats."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple, cast

from sudosat.core import StrEnum
from sudosat.solving.outcome import Outcome, Status

if TYPE_CHECKING:
    from sudosat.logic.rating import Rating
    from sudosat.logic.solve_path import SolvePath
    from sudosat.making.explain import Explanation
    from sudosat.solving.candidates import Candidates
    from sudosat.solving.estimate import Estimate


FORMATS = ("rich", "grid", "line", "json", "jsonl", "csv")
PICTURES = ("svg", "pdf", "png")
"""Formats drawn with :mod:`pictures`: a picture a puzzle, put together at the end."""
STEP_FORMATS = ("rich", "text", "json", "jsonl", "line", *PICTURES)
"""What ``steps`` writes (:mod:`sudosat.running.paths`)."""

PICTURE_BREAK, BACK = "\f", "\v"
"""Between the pictures of a rendered piece; between a picture and the one for the
back pages (a generated puzzle's solution)."""


STATUS_STYLE = {
    Status.UNIQUE: "bold green",
    Status.SOLVED: "green",
    Status.MULTIPLE: "bold yellow",
    Status.NONE: "bold red",
    Status.TIMEOUT: "bold red",
    Status.ERROR: "bold red",
}

OK, NO_EXPECTATION, UNREADABLE = "ok", "no expected solution", "expected solution unreadable"
"""--check verdicts besides the mismatches."""


class Check(NamedTuple):
    """How an answer compares with what the input expected (``--check``)."""

    verdict: str
    expected: str | None = None
    expected_count: int | None = None

    @property
    def failed(self) -> bool:
        """A mismatch, or an expected solution that cannot be read; no expectation is
        no failure."""
        return self.verdict not in (OK, NO_EXPECTATION)


class Payload(StrEnum):
    """What a task answers besides the outcome, by the word of its record."""

    RATING = "rating"
    EXPLANATION = "explanation"
    CANDIDATES = "candidates"
    ESTIMATE = "estimate"
    PATH = "path"


@dataclass
class Result:
    """One puzzle's answer, as records are made from it."""

    source: str
    line: int
    puzzle: str
    """The puzzle as the input gave it."""
    outcome: Outcome | None
    """None: the input could not be read (``error`` says why)."""
    error: str = ""
    check: Check | None = None
    """The solution expected of it (``--expect``), checked."""
    answered: Payload | None = None
    """Which payload its task answered with (None: none)."""
    payload: Any = None
    """That payload: one per result, read through the property of its name."""
    name: str = ""
    """The puzzle's name, from a header line above it."""
    spent: float | None = None
    """Seconds its whole answer took (the solve, and the rating, path or count its
    task made of it); None: the solve's time is all there is to it."""

    def answer(self, kind: Payload, payload: Any) -> None:
        """Its task's payload, of ``kind``."""
        self.answered, self.payload = kind, payload

    def _of(self, kind: Payload) -> Any:
        return self.payload if self.answered == kind else None

    @property
    def rating(self) -> Rating | None:
        return cast("Rating | None", self._of(Payload.RATING))

    @property
    def explanation(self) -> Explanation | None:
        return cast("Explanation | None", self._of(Payload.EXPLANATION))

    @property
    def candidates(self) -> Candidates | None:
        return cast("Candidates | None", self._of(Payload.CANDIDATES))

    @property
    def estimate(self) -> Estimate | None:
        return cast("Estimate | None", self._of(Payload.ESTIMATE))

    @property
    def path(self) -> SolvePath | None:
        return cast("SolvePath | None", self._of(Payload.PATH))

    @property
    def status(self) -> Status:
        return self.outcome.status if self.outcome else Status.ERROR

    @property
    def time(self) -> float:
        """Seconds the answer took: the whole task's, where it was measured."""
        if self.spent is not None:
            return self.spent
        return self.outcome.stats.time if self.outcome else 0.0

    def where(self) -> str:
        return f"{self.source}:{self.line}" + (f" ({self.name})" if self.name else "")


@dataclass(frozen=True)
class View:
    """How answers are shown: the format and what it includes."""

    fmt: str = "line"
    many: bool = False
    """Several puzzles (a header per puzzle in grid and rich, a list in json)."""
    record: str = "solution"
    """The kind of record: ``solution``, ``rating``, ``estimate``, ``explanation``,
    ``candidates``, ``path`` or ``generated`` (the task's, :mod:`running.tasks`)."""
    count: bool = False
    """Line and rich: the number of solutions (``N+``: at least), not the status."""
    check: bool = False
    """The ``--check`` verdict's columns."""
    stats: bool = False
    """The solver's statistics."""
    show_grid: bool = False
    """Steps: the pencil marks before the first step and after the last."""
    each_step: bool = False
    """Steps, pictures: one per step."""
    detail: bool = False
    """Steps, rich and text: every chain in full (each fact, each link's premises; a
    nested step's inner chains too), not the short line."""
    color_system: str | None = None
    """For rich: what the terminal takes (None: no styles), as rich's Console says."""
    no_color: bool = False
    width: int = 80
    solution: bool = False
    """Pictures: the solved grid (solve), the solutions at the back (generate)."""
    per_page: int = 1
    """Pictures: puzzles on a PDF page or in a row of an SVG sheet."""
    title: str | None = None
    """Pictures: the title over every grid (``--title``; "" for none, ``--no-title``);
    None: the puzzle's own title and author."""
    rules_text: bool | None = None
    """Pictures: the rules in words under the grid (None: where the puzzle has a ruleset)."""
    paper: str = "a4"
    """PDF: the pages' size, ``a4`` or ``letter``."""
    dpi: int = 150
    """PNG: dots an inch."""
    timed: bool = True
    """Records say how long each puzzle took (``--no-time``: null, so that runs
    compare byte for byte)."""
