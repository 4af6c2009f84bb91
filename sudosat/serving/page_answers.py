"""The setter's page's answers, in a worker process: its true candidates (marks),
its logical path as data, a puzzle read from text or a link, a link made, a
picture; each a function of a :class:`~protocol.Job` and ``send``, built on
the plugin's (:mod:`plugin_answers`)."""

from __future__ import annotations

import time
from collections.abc import Sequence
from itertools import islice

from sudosat.core.jsonobject import JsonObject
from sudosat.core.masks import values as bits
from sudosat.core.puzzle import Puzzle, box_shape
from sudosat.logic.board import Step
from sudosat.logic.levels import End
from sudosat.logic.outright import candidates
from sudosat.logic.solve_path import SolvePath
from sudosat.running.paths import sentence
from sudosat.serving.plugin_answers import (
    PROGRESS,
    Send,
    conflict_cells,
    for_server,
    logical_masks,
    notes_of,
    shown_count,
    total_of,
    true_of,
    why_none,
)
from sudosat.serving.protocol import Job
from sudosat.showing.text import lost_words
from sudosat.solving.candidates import AUTO
from sudosat.solving.outcome import Status
from sudosat.solving.search import solutions


def page(job: Job, send: Send) -> None:
    """The page's view of a puzzle: its true candidates drawn (sudosat's SVG), the
    status, and how many solutions (up to PAGE_COUNT); while the candidates
    are found, the ones witnessed so far (``inProgress``, every PROGRESS
    seconds at most: a big grid's take seconds)."""
    from sudosat.showing.pictures import picture  # deferred: drawsvg, for the page only

    puzzle = job.puzzle

    def progress(marks: tuple[tuple[int, ...], ...]) -> None:  # witnessed so far
        said = [list(values) for values in marks]
        send("page", inProgress=True, size=puzzle.size, candidates=said)

    found = candidates(puzzle, solver=AUTO, progress=progress)
    status = found.outcome.status
    counted = sum(1 for _ in islice(solutions(puzzle), PAGE_COUNT + 1))
    message = why_none(puzzle, found) if status == Status.NONE else ""
    send(
        "page",
        status=str(status),
        count=min(counted, PAGE_COUNT),
        countComplete=counted <= PAGE_COUNT,
        size=puzzle.size,
        candidates=[list(values) for values in found.marks],
        svg=picture(puzzle, None, (), (), puzzle.name, pencil=found.marks),
        message=message,
    )


PAGE_COUNT = 1000
"""The page counts solutions up to this many."""


PATHS: dict[tuple[Puzzle, frozenset[str]], SolvePath] = {}
"""Whole logical paths the worker made, the last few: the page's "next" asks for the
same path again at the next step (a puzzle with several solutions takes seconds)."""


KEPT_PATHS = 8


def _short_of(timeout: float | None) -> float | None:
    """The time a path may take of the server's limit: a tenth (a second at least,
    half at most) is left for its last step and the reply that says how far it got."""
    return None if timeout is None else timeout - min(max(1.0, timeout / 10), timeout / 2)


def _path_of(job: Job, send: Send, kind: str = "pagepath") -> SolvePath:
    """The page's path: the worker's own when it made it whole, else made now, the
    steps so far sent (as replies of ``kind``, in words) at most every PROGRESS
    seconds, stopped short of the server's limit (``timeout``, with the steps made)."""
    from sudosat.logic.path import logical_path  # deferred: as page_path's

    key = (job.puzzle, job.without)
    if key in PATHS:
        return PATHS[key]
    puzzle, made, steps, last = job.puzzle, [], [], time.monotonic()

    def progress(found: Step, start: tuple[int, ...]) -> None:
        nonlocal last
        made.append(sentence(puzzle, found))
        steps.append(found)
        if time.monotonic() - last < PROGRESS:
            return
        last = time.monotonic()
        if kind == "path":  # the path so far as data: what the server sends at its limit
            send(kind, **_path_fields(puzzle, start, steps, made), end="working", inProgress=True)
        else:
            send(kind, steps=made, end="working", reason="", step=0, inProgress=True)

    timeout = _short_of(job.timeout)
    path = logical_path(puzzle, without=job.without, timeout=timeout, on_step=progress)
    if path.end != End.TIMEOUT:
        PATHS[key] = path
        while len(PATHS) > KEPT_PATHS:
            del PATHS[next(iter(PATHS))]
    return path


def page_path(job: Job, send: Send) -> None:
    """The page's logical path: every step in words, where it ended, and the
    picture of step ``job.step`` (0: the start), the cells that justify it shaded."""
    from sudosat.running.paths import masks_before, step_picture
    from sudosat.showing.pictures import picture  # deferred: drawsvg, for the page only

    puzzle = job.puzzle
    path = _path_of(job, send)
    shown = min(max(job.step, 0), len(path.steps))
    if shown == 0:
        start = [tuple(bits(m)) for m in path.start or path.board.masks]
        svg = picture(puzzle, None, (), (), puzzle.name, pencil=start)
    else:
        before = masks_before(path, shown - 1)
        svg = step_picture(
            path, path.steps[shown - 1], before, f"{shown}. {path.steps[shown - 1].name}"
        )
    send(
        "pagepath",
        steps=[sentence(puzzle, s) for s in path.steps],
        end=path.end,
        reason=path.reason,
        step=shown,
        svg=svg,
        _partial=path.end == End.TIMEOUT,  # not kept: the next ask may have more time
    )


FLAGS = (
    "anti-knight",
    "anti-king",
    "nonconsecutive",
    "diagonal+",
    "diagonal-",
    "disjoint-groups",
    "negative: ratio",
    "negative: xv",
)
"""The page's switches: whole-grid rules, as the text format writes them."""


def marks(job: Job, send: Send) -> None:
    """The page's true candidates, as data: each cell's values; with a cap over 1,
    the solutions holding each, up to it (``counts``, the cap: at least); with
    ``logical``, what the logical path leaves (a value there and not in
    ``candidates`` is one logic alone cannot remove). While they are found, the
    ones witnessed so far (``inProgress``: a big grid's take seconds)."""

    def progress(witnessed: tuple[tuple[int, ...], ...]) -> None:
        send("marks", inProgress=True, candidates=[list(values) for values in witnessed])

    found = true_of(job, send, progress)
    if found.outcome.status == Status.NONE:  # read, and no solution: said as such
        cells = conflict_cells(job.puzzle, found)
        send("marks", status="none", message=why_none(job.puzzle, found), cells=cells)
        return
    counts = None
    if job.cap > 1:
        total = total_of(found, job.cap)
        counts = [
            [shown_count(found, cell, value, job.cap, total) for value in values]
            for cell, values in enumerate(found.marks)
        ]
    logical = [bits(mask) for mask in logical_masks(job, found)] if job.logical else None
    send(
        "marks",
        status=str(found.outcome.status),
        candidates=[list(values) for values in found.marks],
        counts=counts,
        logical=logical,
        notes=notes_of(job.puzzle) or None,
        **for_server(found),
    )


def path_data(job: Job, send: Send) -> None:
    """The page's logical path, as data: the candidates it starts from, each step's
    technique, cells, removals and placements (cells as indexes, values as
    numbers), each step in words, and how it ended; the page replays and draws
    them."""
    puzzle = job.puzzle
    found = _path_of(job, send, "path")
    start = found.start or tuple(found.board.masks)
    sentences = [sentence(puzzle, step) for step in found.steps]
    send(
        "path",
        **_path_fields(puzzle, start, found.steps, sentences),
        end=found.end,
        reason=found.reason or None,
        status=str(found.outcome.status) if found.outcome else None,
        _partial=found.end == End.TIMEOUT,
    )


def _path_fields(
    puzzle: Puzzle, start: Sequence[int], steps: Sequence[Step], sentences: list[str]
) -> JsonObject:
    """A path as the page replays it: the candidates it starts from, each step's
    technique, cells, removals and placements, and each step in words."""
    return {
        "start": [bits(mask) for mask in start],
        "steps": [
            {
                "technique": step.name,
                "cells": list(step.cells),
                "eliminations": [list(x) for x in step.eliminations],
                "placements": [list(x) for x in step.placements],
            }
            for step in steps
        ],
        "sentences": sentences,
    }


def read(job: Job, send: Send) -> None:
    """A puzzle taken apart as the page draws it: its size, its regions (a jigsaw's:
    each cell's region; None: the usual boxes of its size), givens, killer cages, the switches
    that are on, and every other rule as text."""
    from sudosat.rules.killer import KillerCage  # deferred: the page alone

    puzzle = job.puzzle
    n = puzzle.size
    layout = puzzle.layout
    regions = None
    if layout.box != box_shape(n):  # a jigsaw's, or boxes of another shape
        regions = [0] * (n * n)
        for index, region in enumerate(layout.regions):
            for cell in region:
                regions[cell] = index
    cages, flags, others = [], [], []
    for rule in puzzle.constraints:
        if isinstance(rule, KillerCage):
            cages.append({"cells": list(rule.group), "sum": rule.value})
        elif rule.text(n) in FLAGS:
            flags.append(rule.text(n))
        else:
            others.append(rule.text(n))
    send(
        "read",
        size=n,
        regions=regions,
        givens=list(puzzle.cells),
        cages=cages,
        flags=flags,
        rules="\n".join(others),
        title=puzzle.name or None,
        author=puzzle.author or None,
        ruleset=puzzle.ruleset or None,
        lost=lost_words(puzzle.rules.lost) if puzzle.rules and puzzle.rules.lost else None,
    )


def link(job: Job, send: Send) -> None:
    """The puzzle as an f-puzzles link (which SudokuPad opens too; None with the
    reason when a rule of it has no f-puzzles field) and as sudosat's own text."""
    from sudosat.reading.ruletext import puzzle_text
    from sudosat.showing.text import unlinkable

    puzzle = job.puzzle
    why = unlinkable(puzzle)
    found = None
    if not why:
        from sudosat.reading.fpuzzles import link as fpuzzles_link  # deferred: lz-string

        found = fpuzzles_link(puzzle)
    send("link", fpuzzles=found, reason=why or None, text=puzzle_text(puzzle))


def picture_of(job: Job, send: Send) -> None:
    """The puzzle as sudosat draws it (``solve --format svg``), asked for once, not
    per edit: ``svg`` as text, ``pdf`` and ``png`` as base64 (the ``pdf`` extra)."""
    import base64

    from sudosat.showing import pictures  # deferred: drawsvg, for pictures only
    from sudosat.showing.captions import caption_of
    from sudosat.showing.view import View

    puzzle = job.puzzle
    drawn = pictures.picture(puzzle, None, (), (), caption_of(puzzle, View()))
    try:
        if job.format == "pdf":
            data = pictures.pdf(pictures.pages([drawn], 1))
        elif job.format == "png":
            data = pictures.png(drawn, 2.0)
        else:
            send("picture", format="svg", svg=drawn)
            return
    except pictures.MissingExtra as err:
        send("invalid", message=str(err))
        return
    send("picture", format=job.format, base64=base64.b64encode(data).decode("ascii"))
