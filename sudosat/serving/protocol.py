"""The f-puzzles solver plugin's websocket protocol, as plain data.

A frame in is one JSON object ``{nonce, command, dataType, data}``: ``data`` the
lz-string (base64) of the f-puzzles JSON, which the plugin extends with
``disabledlogic`` and ``truecandidatesoptions``. A reply out is one JSON object
with the request's ``nonce`` and a ``type``: ``canceled``, ``invalid``,
``truecandidates``, ``solved``, ``count``, ``estimate`` or ``logical``; fields
that are null are left out, and numbers that are not finite are written as
the strings ``"Infinity"``, ``"-Infinity"`` and ``"NaN"`` (the plugin reads
them so). ../shared/protocols/fpuzzles-solver.md describes it all.

This module turns a frame into a :class:`Job` (the puzzle read as the command
asks: givens only, or every cell) and replies into text; it does no solving.
"""

from __future__ import annotations

import hashlib
import json
import math
from dataclasses import dataclass, field, replace
from typing import Any

from sudosat.core.errors import InputError
from sudosat.core.jsonobject import JsonObject
from sudosat.core.masks import bit, from_values
from sudosat.core.puzzle import Grid, Puzzle
from sudosat.logic.techniques import left_out
from sudosat.reading.formats import parse
from sudosat.reading.fpuzzles import decompress, puzzle_of
from sudosat.reading.jsontext import MAX_DIGITS, BadJson, load
from sudosat.reading.lz import TooLong
from sudosat.sat.limits import BYTES_PER_CANDIDATE, BYTES_PER_CLAUSE, size

COMMANDS = ("truecandidates", "solve", "check", "count", "estimate", "solvepath", "step")
"""What the plugin asks; ``cancel`` is the server's own business."""
ALL_CELLS = frozenset({"estimate", "solvepath", "step"})
"""Commands that read every digit typed in and the centre marks, not the givens alone."""
PAGE = "sudosat"
"""The ``dataType`` of sudosat's own page: any puzzle sudosat reads, as text."""
PAGE_COMMANDS = ("page", "pagepath", "marks", "path", "read", "link", "picture")
"""The page's own commands (data for it to draw; ``page`` and ``pagepath`` draw
SVG, for a client that only shows pictures); the page asks the plugin's too."""
PLUGIN_LOGIC = {
    "tuples": "subsets",
    "pointing": "locked",
    "fishes": "fish",
    "wings": "wings",
    "aic": "chains",
    "contradictions": "forcing",
}
"""The plugin's ``disabledlogic`` names, and the technique families they leave out."""
OPTIONS = ("disabledlogic", "truecandidatesoptions")
"""Fields the plugin adds to the puzzle: settings, not rules."""
PICTURE_FORMATS = ("svg", "pdf", "png")
MAX_CAP = 100_000
"""Solutions counted per candidate at most (the plugin's option, the page's ``cap``)."""
LEGACY_CAP = 8
"""The cap the plugin's old ``colored`` option asks for."""


@dataclass(frozen=True)
class Request:
    """One frame: what was asked, and with what."""

    nonce: int
    command: str
    kind: str = ""
    """``dataType``: ``fpuzzles`` (the plugin), ``sudosat`` (the page), or none."""
    data: str = ""
    step: int = 0
    """The page's ``pagepath``: which step to draw."""
    cap: int = 1
    """The page's ``marks``: solutions counted per candidate, at most."""
    logical: bool = False
    """The page's ``marks``: the logical path's candidates too."""
    format: str = "svg"
    """The page's ``picture``: ``svg``, ``pdf`` or ``png``."""
    refused: str = ""
    """Why the request cannot be answered but ``invalid`` (a field it cannot read)."""


@dataclass(frozen=True)
class Job:
    """What a worker does for one request: plain data, sent to another process."""

    command: str
    puzzle: Puzzle
    marks: tuple[int, ...] | None = None
    """Every cell's candidates as the setter has them (:mod:`sudosat.core.masks`): a
    digit's own bit, its centre marks, 0 for a cell with neither (every-cell
    commands only)."""
    cap: int = 1
    """Solutions counted per candidate (``truecandidatesnumsolutions``)."""
    logical: bool = False
    """True candidates: also mark -1 where the logical path leaves a value no
    solution has."""
    without: frozenset[str] = frozenset()
    """Techniques the setter turned off (``disabledlogic``)."""
    known: dict[int, int] = field(default_factory=dict)
    """Values an earlier answer ruled out, for a puzzle this one only narrows:
    each cell's mask of what may still be (:mod:`sudosat.core.masks`)."""
    maybe: tuple[Grid, ...] = ()
    """Earlier answers' witnesses: those that are solutions of this puzzle need no solve."""
    key: str = ""
    """What identifies the answer (the command, the puzzle as read, the options)."""
    step: int = 0
    """The page's ``pagepath``: which step to draw."""
    memory: int = 0
    """About how many bytes the job takes at work (:func:`memory_of`)."""
    format: str = "svg"
    """The page's ``picture``: ``svg``, ``pdf`` or ``png``."""
    timeout: float | None = None
    """The server's limit on the job, in seconds: a path stops short of it and
    says how far it got."""


class Invalid(ValueError):
    """A request that gets an ``invalid`` reply, with the message the CLI would print."""


def request_of(frame: str | bytes) -> Request | None:
    """The request a frame holds; None for one that holds none (no JSON, no object,
    no whole-number nonce, no command), which gets no reply."""
    try:
        text = frame.decode("utf-8") if isinstance(frame, bytes) else frame
        found = json.loads(text, parse_int=_bounded)
    except (UnicodeDecodeError, ValueError, RecursionError):
        return None
    if not isinstance(found, dict):
        return None
    nonce, command = found.get("nonce"), found.get("command")
    if type(nonce) is not int or not isinstance(command, str):
        return None  # (a nonce of too many digits too: there is no nonce to answer)
    long = [f"{key}: {value}" for key, value in found.items() if isinstance(value, _TooLong)]
    kind, data, step = found.get("dataType"), found.get("data"), found.get("step")
    cap, logical, form = found.get("cap"), found.get("logical"), found.get("format")
    return Request(
        nonce,
        command,
        kind if isinstance(kind, str) else "",
        data if isinstance(data, str) else "",
        step if type(step) is int else 0,
        min(max(cap, 1), MAX_CAP) if type(cap) is int else 1,
        logical is True,
        form if form in PICTURE_FORMATS else "svg",
        refused="; ".join(long),
    )


class _TooLong:
    """A number of more than MAX_DIGITS digits in a frame: kept as what it is, so
    that the request is answered ``invalid`` naming it (its nonce is known)."""

    def __init__(self, digits: str) -> None:
        self.digits = len(digits.lstrip("-"))

    def __str__(self) -> str:
        return f"a number of {self.digits:,} digits (at most {MAX_DIGITS})"


def _bounded(digits: str) -> int | _TooLong:
    return int(digits) if len(digits.lstrip("-")) <= MAX_DIGITS else _TooLong(digits)


def make_job(request: Request) -> Job:
    """The job of a request, the plugin's or the page's, with what it takes in memory."""
    job = page_job(request) if request.kind == PAGE else job_of(request)
    return replace(job, memory=memory_of(job))


WORKER = 64 << 20
"""What a worker holds of its own beyond a job: the interpreter, sudosat, PySAT, its
warm caches."""
TWO_SOLVERS = frozenset({"solvepath", "step", "pagepath", "page", "path", "marks"})
"""Commands that hold two solvers of the puzzle at once (its true candidates, and the
logical path's or the count's)."""


SOLVE_NOTHING = frozenset({"read", "link", "picture"})
"""The page's commands that solve nothing: they hold the puzzle and what is drawn
or written of it, never a solver."""
PER_CELL = 2048
"""Bytes a cell costs a command that solves nothing: the puzzle's cell, its
text, its drawing (an SVG's digit and lines), with room to spare."""


def memory_of(job: Job) -> int:
    """About how many bytes ``job`` takes at work, by the estimate made before any
    solve (:mod:`limits`): what the server's budget counts. A command that solves
    nothing costs its cells alone (a 400x400 is read, linked and drawn)."""
    if job.command in SOLVE_NOTHING:
        return WORKER + PER_CELL * len(job.puzzle.cells)
    candidates, clauses = size(job.puzzle, reduced=True)
    copies = 2 if job.command in TWO_SOLVERS else 1
    return WORKER + copies * (candidates * BYTES_PER_CANDIDATE + clauses * BYTES_PER_CLAUSE)


def job_of(request: Request) -> Job:
    """The job of a plugin's request: its puzzle read as the command asks, with
    the plugin's settings. Invalid (one line, as the CLI says it) when the puzzle
    cannot be read or holds a rule sudosat cannot solve by."""
    data = _fpuzzles_data(request.data)
    every_cell = request.command in ALL_CELLS
    settings = {key: data.pop(key, None) for key in OPTIONS}
    marks = _marks(data, every_cell)
    asked = _as_asked(data, every_cell, marks_as_rules=request.command == "estimate")
    try:
        puzzle = puzzle_of(asked, "<f-puzzles>", 1, every_cell)
    except InputError as err:
        raise Invalid(err.message) from None
    cap, logical = _candidate_options(settings["truecandidatesoptions"])
    without = _without(settings["disabledlogic"])
    key = digest(request.command, asked, marks, cap, logical, sorted(without))
    return Job(request.command, puzzle, marks, cap, logical, without, key=key)


def page_job(request: Request) -> Job:
    """The job of sudosat's own page: a puzzle in any notation sudosat reads (a
    link, a line, a grid with rule statements)."""
    try:
        puzzle = parse(request.data, source="<page>")
    except InputError as err:
        raise Invalid(err.message if err.source == "<page>" else str(err)) from None
    asked = (request.step, request.cap, request.logical, request.format)
    key = digest(request.command, request.data, *asked)
    return Job(
        request.command,
        puzzle,
        cap=request.cap,
        logical=request.logical,
        key=key,
        step=request.step,
        format=request.format,
    )


def _fpuzzles_data(payload: str) -> JsonObject:
    """The f-puzzles object of a request's ``data``: lz-string base64, after
    anything up to ``?load=`` (a whole link works too)."""
    packed = payload.split("?load=", 1)[-1].strip()
    try:
        text = decompress(packed) if packed else None
    except TooLong as err:
        raise Invalid(f"f-puzzles data: {err}") from None
    if text is None:
        raise Invalid("f-puzzles data that is no lz-string of a puzzle")
    try:
        found = load(text)
    except BadJson as err:
        raise Invalid(f"f-puzzles JSON: {err}") from None
    if not isinstance(found, dict):
        raise Invalid("f-puzzles JSON: expected an object")
    return found


def _as_asked(data: JsonObject, every_cell: bool, marks_as_rules: bool) -> JsonObject:
    """The f-puzzles object as a command reads it: the givens alone (typed digits and
    centre marks dropped), or every digit (as a given); ``marks_as_rules``: the
    centre marks replace the given marks where there are some (a path takes them
    as its start instead, :attr:`Job.marks`)."""
    grid = data.get("grid")
    if not isinstance(grid, list):
        return data  # the reader says what is wrong with it
    rows = []
    for row in grid:
        if not isinstance(row, list):
            return data
        cells = []
        for cell in row:
            if not isinstance(cell, dict):
                return data
            kept = {k: v for k, v in cell.items() if k not in ("centerPencilMarks", "value")}
            if every_cell or cell.get("given") is True:
                kept["value"] = cell.get("value")
            centre = cell.get("centerPencilMarks")
            if marks_as_rules and centre and not cell.get("value"):
                kept["givenPencilMarks"] = centre
            cells.append(kept)
        rows.append(cells)
    return {**data, "grid": rows}


def _marks(data: JsonObject, every_cell: bool) -> tuple[int, ...] | None:
    """Each cell's candidates as the setter has them (see :attr:`Job.marks`)."""
    grid = data.get("grid")
    if not every_cell or not isinstance(grid, list):
        return None
    found: list[int] = []
    for row in grid:
        for cell in row if isinstance(row, list) else ():
            if not isinstance(cell, dict):
                return None
            value, centre = cell.get("value"), cell.get("centerPencilMarks")
            if type(value) is int and 0 < value < 64:
                found.append(bit(value))
            elif isinstance(centre, list) and all(type(v) is int and 0 < v < 64 for v in centre):
                found.append(from_values(centre))
            else:
                found.append(0)
    return tuple(found)


def _candidate_options(options: Any) -> tuple[int, bool]:
    """The solution cap and the logical flag of ``truecandidatesoptions``."""
    cap, logical = 1, False
    for option in options if isinstance(options, list) else ():
        text = str(option)
        if text == "logical":
            logical = True
        elif text == "colored":
            cap = LEGACY_CAP
        elif text.startswith("truecandidatesnumsolutions="):
            number = text.split("=", 1)[1]
            if number.isascii() and number.isdigit() and int(number[:6]) > 0:
                cap = min(int(number[:6]), MAX_CAP)
    return cap, logical


def _without(disabled: Any) -> frozenset[str]:
    """The techniques the plugin's ``disabledlogic`` leaves out (names it does not
    know are passed over: a newer plugin may send more)."""
    if not isinstance(disabled, list):
        return frozenset()
    return left_out(PLUGIN_LOGIC[d] for d in disabled if d in PLUGIN_LOGIC)


def digest(*parts: Any) -> str:
    """A key for what an answer depends on (JSON of ``parts``, keys sorted)."""
    text = json.dumps(parts, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode()).hexdigest()


# --- replies ---------------------------------------------------------------------


def reply(nonce: int, kind: str, **fields: Any) -> str:
    """A reply's text: ``nonce``, ``type``, the fields that are not None, numbers
    that are not finite as strings (fields named ``_...`` are the server's own)."""
    return with_nonce(nonce, body(kind, **fields))


def body(kind: str, **fields: Any) -> str:
    """A reply's text without its nonce: what the cache keeps (:func:`with_nonce`)."""
    found: JsonObject = {"type": kind}
    found.update(
        {k: _finite(v) for k, v in fields.items() if v is not None and not k.startswith("_")}
    )
    return json.dumps(found, separators=(",", ":"))


def with_nonce(nonce: int, text: str) -> str:
    """A reply's text, its nonce first, from :func:`body`'s."""
    return f'{{"nonce":{nonce},{text[1:]}'


def _finite(value: Any) -> Any:
    if isinstance(value, float) and not math.isfinite(value):
        return "NaN" if math.isnan(value) else ("Infinity" if value > 0 else "-Infinity")
    return value


def canceled(nonce: int) -> str:
    return reply(nonce, "canceled")


WHY = ("read", "none", "busy", "limit", "error")
"""Why a request was answered ``invalid``, for the page (the plugin reads the
message alone): its puzzle could not be read, it has no solution, the server was
busy, its job was stopped at the server's time limit, or a bug."""


def invalid(nonce: int, message: str, why: str = "read") -> str:
    return reply(nonce, "invalid", message=message, why=why)
