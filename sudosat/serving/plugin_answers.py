"""The plugin's answers (and what the page's build on), in a worker process: the
library's engines, their results as the protocol's replies. Each is a function
of a :class:`~protocol.Job` and ``send``, which hands one reply back to the
server; a command that streams (``count``, ``estimate``) sends as it goes, at
most every :data:`PROGRESS` seconds, until it ends or the server kills the
worker."""

from __future__ import annotations

import math
import random
import re
import statistics
import time
from collections.abc import Callable, Sequence
from itertools import islice
from typing import Any

from sudosat.core.jsonobject import JsonObject
from sudosat.core.masks import from_values
from sudosat.core.masks import values as bits
from sudosat.core.puzzle import Puzzle
from sudosat.logic.board import Board, Step
from sudosat.logic.levels import End
from sudosat.logic.outright import candidates
from sudosat.logic.path import Pathfinder, truth_of
from sudosat.logic.solve_path import SolvePath
from sudosat.running.paths import sentence
from sudosat.sat.cnf import literal
from sudosat.serving.protocol import Job
from sudosat.showing.text import part_text
from sudosat.solving import progress
from sudosat.solving.candidates import AUTO, Candidates
from sudosat.solving.estimate import exp_or_inf, interval, ln_of, scientific, walks
from sudosat.solving.outcome import Status
from sudosat.solving.search import opened, solutions

Send = Callable[..., None]
"""``send(kind, **fields)``: one reply to the request being answered."""


PROGRESS = 0.5
"""Seconds between two progress replies, at least (the plugin's pace)."""


EXACT = 1000
"""An estimate first counts this many solutions: fewer, and the count is exact."""


NO_SOLUTIONS = "No solutions found."


def true_candidates(job: Job, send: Send) -> None:
    """``solutionsPerCandidate``: a number per cell and value, row-major: 0 for a
    value no solution holds, else the solutions holding it up to the cap (the cap
    itself: at least that many); -1 (``logical``) for a value no solution holds
    that the logical path cannot remove."""
    found = true_of(job, send)
    if found.outcome.status == Status.NONE:
        send("invalid", message=why_none(job.puzzle, found), why="none")
        return
    n, cap = job.puzzle.size, job.cap
    per = [0] * n**3  # the plugin's list: a candidate's literal - 1
    total = total_of(found, cap)
    for cell, values in enumerate(found.marks):
        for value in values:
            per[literal(n, cell, value) - 1] = shown_count(found, cell, value, cap, total)
    if job.logical:
        for cell, mask in enumerate(logical_masks(job, found)):
            for value in bits(mask & ~from_values(found.marks[cell])):
                per[literal(n, cell, value) - 1] = -1
    send("truecandidates", solutionsPerCandidate=per, **for_server(found))


def true_of(job: Job, send: Send, progress: Callable[[Any], None] | None = None) -> Candidates:
    """The true candidates of ``job`` (counted up to its cap less one: "more than
    cap - 1" is the cap, and no solution past it is sought), from what earlier
    answers ruled out and witnessed. A puzzle with no solution is said to have
    none in the time a solve takes (:func:`candidates` solves once first)."""
    counting = job.cap - 1 if job.cap > 1 else None
    return candidates(
        job.puzzle,
        count_each=counting,
        known=job.known,
        maybe=job.maybe,
        solver=AUTO,
        progress=progress,
    )


def shown_count(found: Candidates, cell: int, value: int, cap: int, total: int) -> int:
    """How many solutions hold a true candidate, as shown: 1 without a cap, else up
    to the cap (the cap: at least that many)."""
    if cap == 1:
        return 1
    counted = found.counts.get((cell, value))
    return min(cap, total if counted is None else int(counted) if counted.complete else cap)


def logical_masks(job: Job, found: Candidates) -> list[int]:
    """What the logical path (without the techniques the setter turned off) leaves
    of the true candidates: each cell's mask."""
    truth = [from_values(values) for values in found.marks]
    with Pathfinder(job.puzzle, without=job.without) as finder:
        return list(finder.path(truth).board.masks)


def for_server(found: Candidates) -> JsonObject:
    """What the server keeps of a true-candidates answer, for the next to start from."""
    return {
        "_masks": [from_values(values) for values in found.marks],
        "_witnesses": found.found[:WITNESSES],
    }


WITNESSES = 64
"""Witnesses handed back to the server, for the next request to start from."""


def total_of(found: Candidates, cap: int) -> int:
    """How many solutions there are, up to ``cap`` (what a cell with one candidate
    shows): the counts of a cell with several, added up."""
    if found.outcome.status == Status.UNIQUE:
        return 1
    open_cells = found.open_cells()
    if not open_cells or cap == 1:
        return cap
    counts = [c for (cell, _), c in found.counts.items() if cell == open_cells[0]]
    return sum(counts) if all(c.complete for c in counts) else cap


def conflict_cells(puzzle: Puzzle, found: Candidates) -> list[int]:
    """The cells of what cannot all hold: the clash's, the conflict's clues and the
    cells of its rules (the page draws them as the problem)."""
    cells: set[int] = set()
    for clash in found.outcome.clashes:
        cells.update((clash.first, clash.second))
    for part in found.conflict or ():
        cells.update((part[0],) if isinstance(part, tuple) else part.cells())
    return sorted(cell for cell in cells if 0 <= cell < len(puzzle.cells))


def sentence_start(text: str) -> str:
    """``text`` begun with a capital, unless it begins with a cell's name, which is
    written the one way everywhere (``r9c8 has no candidate left``)."""
    if re.match(r"r\d+c\d+\b", text):
        return text
    return text[:1].upper() + text[1:]


def why_none(puzzle: Puzzle, found: Candidates) -> str:
    """``No solutions found.``, and why: the clash, or the clues and rules that
    cannot all hold."""
    if found.outcome.reason:
        return f"{NO_SOLUTIONS} {sentence_start(found.outcome.reason)}."
    if found.conflict:
        parts = ", ".join(part_text(puzzle, part) for part in found.conflict)
        return f"{NO_SOLUTIONS} These cannot all hold: {parts}."
    if found.conflict == []:  # no clue or rule in it: the regions alone
        from sudosat.sat.leftovers import ALONE, no_solution

        why = no_solution(puzzle.layout)
        return f"{NO_SOLUTIONS} {sentence_start(ALONE)}{': ' + why if why else ''}."
    return NO_SOLUTIONS


def solve(job: Job, send: Send) -> None:
    """A solution, a random one (as the plugin's own solver gives)."""
    seed = int.from_bytes(job.key[:8].encode(), "big") ^ time.monotonic_ns()
    grid = next(solutions(job.puzzle, seed=seed), None)
    if grid is None:
        send("invalid", message=_none_of(job.puzzle), why="none")
        return
    send("solved", solution=list(grid))


def count(job: Job, send: Send, limit: int | None = None) -> None:
    """Solutions counted, a progress reply at most every PROGRESS seconds when one
    more was found, then the count (``check``: up to 2)."""
    found = 0
    last = time.monotonic()
    for _ in solutions(job.puzzle):
        found += 1
        if limit is not None and found >= limit:
            break
        if time.monotonic() - last >= PROGRESS:
            send("count", count=found, inProgress=True)
            last = time.monotonic()
    send("count", count=found, inProgress=False)


def check(job: Job, send: Send) -> None:
    count(job, send, limit=2)


def _none_of(puzzle: Puzzle) -> str:
    ready = opened(puzzle)
    return f"{NO_SOLUTIONS} {ready.none}" if ready.none else NO_SOLUTIONS


def estimate(job: Job, send: Send) -> None:
    """About how many solutions, sent every PROGRESS seconds until the server stops
    it: exact when there are few; else Knuth's samples, their mean, its standard
    error and a 95% bootstrap-t interval (a skewed sample's interval is lopsided:
    the plugin shows it as it is). Worked out in logs (a blank 36x36 has about
    e^2200 solutions, past any float): a number past 1.8e308 is sent as its text
    (``1.49E+888``), as the protocol sends Infinity. The first message comes
    within PROGRESS seconds however long a count or a walk takes: what is known
    by then (at least so many; no bounds before FEWEST samples)."""
    puzzle = job.puzzle
    ready = opened(puzzle)
    if ready.cnf is None:
        exact = 0 if ready.grid is None else 1
        send("estimate", **_numbers(ln_of(exact), 0.0, 1, ln_of(exact), ln_of(exact)))
        return
    last = time.monotonic()
    found: list[float] = []  # the walks' logs
    counted = 0

    def tell(what: str, done: int) -> None:  # inside a long count or a long walk
        nonlocal last, counted
        if what == "solutions":
            counted = done
        if time.monotonic() - last >= PROGRESS:
            last = time.monotonic()
            # in progress until it is cancelled (a page's Cancel stays on); an exact
            # count, below, is the answer
            if found:
                send("estimate", **_sampled(found, few), inProgress=True)
            else:  # so many at least, and no upper bound yet
                at_least = _numbers(ln_of(counted), math.inf, counted, ln_of(counted), math.inf)
                send("estimate", **at_least, inProgress=True)

    few = 0  # the solutions seen: no bound or estimate says fewer
    with progress.watched(tell):
        for _ in islice(solutions(puzzle), EXACT + 1):
            few += 1
            tell("solutions", few)
        if few <= EXACT:
            send("estimate", **_numbers(ln_of(few), 0.0, few, ln_of(few), ln_of(few)))
            return
        for log in walks(puzzle, ready.cnf, seed=1):
            found.append(log)
            tell("walks", len(found))


def _sampled(logs: Sequence[float], seen: int = 0) -> JsonObject:
    """The plugin's six numbers of Knuth's samples given as logs (mean, standard
    error, 95% interval): none of them overflows, and no bound is NaN. ``seen``:
    the solutions counted before the samples, so many at least (the estimate and
    its bounds are never fewer)."""
    n = len(logs)
    mean, low, high = (max(x, ln_of(seen)) for x in interval(logs, 0.05, random.Random(n)))
    top = max(logs)
    values = [math.exp(x - top) for x in logs]
    spread = statistics.stdev(values) / math.sqrt(n) if n >= 2 else math.inf
    ln_error = (
        top + math.log(spread)
        if 0 < spread < math.inf
        else (-math.inf if spread == 0 else math.inf)
    )
    return _numbers(mean, ln_error, n, low, high)


def _numbers(
    ln_value: float, ln_error: float, samples: int, ln_low: float, ln_high: float
) -> JsonObject:
    """The plugin's estimate fields, from natural logs: numbers, or past a float
    their text (``1.49E+888``); Infinity where there is no bound."""
    relative = exp_or_inf(ln_error - ln_value) if ln_value > -math.inf else 0.0
    return {
        "estimate": _plugin_number(ln_value),
        "stderr": _plugin_number(ln_error),
        "iterations": samples,
        "ci95_lower": _plugin_number(ln_low),
        "ci95_upper": _plugin_number(ln_high),
        "relErrPercent": 100 * 1.96 * relative,
    }


def _plugin_number(ln: float) -> float | str:
    """A count as the plugin takes it: a float, or its text past what a float holds
    (the userscript reads numbers and strings alike)."""
    if ln == math.inf:
        return math.inf  # sent as "Infinity"
    found = exp_or_inf(ln)
    return found if found < math.inf else scientific(ln, 4).replace("e", "E")


def solve_path(job: Job, send: Send) -> None:
    """The whole logical path from where the setter is (digits and centre marks):
    a step a line, then where it ended."""
    puzzle = job.puzzle
    with Pathfinder(puzzle, without=job.without) as finder:
        path = _path(finder, job, hint=False, place_lone=False)
    lines = [step_line(puzzle, s) for s in path.steps]
    if path.end == End.CONTRADICTION:
        lines.append(f"Board is invalid! {path.reason}".rstrip())
    elif not path.steps and path.end != End.SOLVED:
        lines.append("No logical steps found.")
    send("logical", **_logical(path.board, lines, path.end != End.CONTRADICTION))


def step(job: Job, send: Send) -> None:
    """One step, as the path lists them; but first, when the setter's candidates are
    not yet the path's start (a cell without centre marks, a mark the givens rule
    out), those candidates alone (``Initial candidates.``), so that the next press
    really steps. A lone mark is an open cell with one candidate: the step that
    places it is a naked single, named like every other placement. Candidates
    that break the grid are ``Board is invalid!``."""
    puzzle = job.puzzle
    with Pathfinder(puzzle, without=job.without) as finder:
        start = finder.board(_usable(job.marks), place_lone=False)
        broken = start.contradiction()
        if broken:
            send("logical", **_logical(start, [f"Board is invalid! {broken}"], False))
            return
        if job.marks is not None and tuple(start.masks) != job.marks:
            send("logical", **_logical(start, ["Initial candidates."], True))
            return
        path = _path(finder, job, hint=True, place_lone=False)
    if path.end == End.CONTRADICTION:
        lines = [f"Board is invalid! {path.reason}".rstrip()]
    elif not path.steps:
        lines = [] if path.end == End.SOLVED else ["No logical steps found."]
    else:
        lines = [step_line(puzzle, path.steps[0])]
    send("logical", **_logical(path.board, lines, path.end != End.CONTRADICTION))


def _usable(marks: tuple[int, ...] | None) -> tuple[int, ...] | None:
    """The setter's marks as the path's start: a cell with none is unmarked."""
    if marks is None:
        return None
    return tuple(mark or -1 for mark in marks)


def _path(finder: Pathfinder, job: Job, hint: bool, place_lone: bool = True) -> SolvePath:
    """The path from the setter's marks, each step checked against the truth: the
    solutions that keep the marks (which the setter may have narrowed by hand,
    as the plugin's solver allows)."""
    marks = _usable(job.marks)
    truth = truth_of(_kept(job.puzzle, job.marks))
    return finder.path(truth, marks, hint=hint, place_lone=place_lone)


def _kept(puzzle: Puzzle, marks: tuple[int, ...] | None) -> Puzzle:
    """``puzzle`` with the setter's centre marks as clues (given pencil marks)."""
    from dataclasses import replace

    from sudosat.core.puzzle import Rules
    from sudosat.rules.marks import GivenMarks

    if not marks:
        return puzzle
    kept = [
        GivenMarks(cell, tuple(bits(mark)))
        for cell, mark in enumerate(marks)
        if mark and not puzzle.cells[cell]
    ]
    if not kept:
        return puzzle
    rules = puzzle.constraints
    return replace(puzzle, rules=Rules.of(puzzle.layout, [*rules, *kept]))


def step_line(puzzle: Puzzle, found: Step) -> str:
    """A step as the plugin writes one: ``Hidden Single: ...``."""
    said = sentence(puzzle, found)
    name = found.name
    return f"{_title(name)}{said[len(name) :]}"


def _title(name: str) -> str:
    return " ".join(w[:1].upper() + w[1:] for w in name.split(" "))


def _logical(board: Board, lines: list[str], valid: bool) -> JsonObject:
    cells: list[JsonObject] = []
    for cell, mask in enumerate(board.masks):
        placed = board.placed[cell]
        if placed:
            cells.append({"value": placed})
        else:
            cells.append({"value": 0, "candidates": list(bits(mask))})
    message = "".join(line + "\n" for line in lines)
    return {"cells": cells, "message": message, "isValid": valid}


def notes_of(puzzle: Puzzle) -> str:
    """What the page says once beside the answer: the parts still being drawn."""
    rules = puzzle.constraints
    return "; ".join(said for rule in rules if (said := rule.note(puzzle.size)))
