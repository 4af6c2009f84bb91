"""Showing logical solve paths (``sudosat steps``) in every format.

* ``rich`` / ``text``: each step as a short sentence: its number, the technique,
  why, what it places and removes; then where the path ended, its level and
  rating; ``--grid`` adds the pencil marks before the first step and after the
  last;
* ``json`` / ``jsonl``: :func:`path_record`, a list of steps a web page can
  replay (technique, cells, values, houses and rules, placements, eliminations);
* ``line``: ``END LEVEL RATING STEPS HARDEST`` a puzzle, for logs;
* ``svg`` / ``pdf`` / ``png``: the candidates where the path ended (or after the
  hint); ``--each-step``: a picture per step, the justifying cells shaded, the
  removed candidates struck in red, the placed value ringed.
"""

from __future__ import annotations

import functools
import io
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from rich.console import Console
from rich.text import Text

from sudosat.core.jsonobject import JsonObject
from sudosat.core.masks import bit
from sudosat.core.masks import values as bits
from sudosat.core.puzzle import Puzzle, cell_name
from sudosat.logic.chains import ending, fact_text, written
from sudosat.logic.levels import End
from sudosat.running.marks import rich_pencil_grid
from sudosat.showing.captions import caption_of
from sudosat.showing.console import rich_each
from sudosat.showing.records import json_text, record_head
from sudosat.showing.view import PICTURE_BREAK, PICTURES, STATUS_STYLE, Result, View

if TYPE_CHECKING:
    from sudosat.logic.board import Chain, Step
    from sudosat.logic.rating import Rating
    from sudosat.logic.solve_path import SolvePath

ENDS = {
    End.SOLVED: "solved by logic",
    End.STUCK: "stuck: no technique of the path applies (--bifurcation N guesses)",
    End.CONTRADICTION: "a contradiction: the puzzle has no solution",
    End.HINT: "the next step",
    End.TIMEOUT: "out of time",
}


def rating_of(path: SolvePath) -> Rating | None:
    """The rating the path earns (None: it ended in a contradiction or ran out)."""
    from sudosat.logic.rating import path_rating  # deferred: steps only

    if path.end not in (End.SOLVED, End.STUCK):
        return None
    return path_rating(path)


def _candidate(puzzle: Puzzle, candidate: tuple[int, int]) -> JsonObject:
    cell, value = candidate
    return {"cell": cell_name(puzzle.size, cell), "value": puzzle.symbol(value)}


def step_record(puzzle: Puzzle, step: Step, chains: Sequence[Chain] = ()) -> JsonObject:
    """One step as JSON (``chains``: the chains it follows, written out)."""
    n = puzzle.size
    data: JsonObject = {
        "technique": step.name,
        "placements": [_candidate(puzzle, x) for x in step.placements],
        "eliminations": [_candidate(puzzle, x) for x in step.eliminations],
        "cells": [cell_name(n, c) for c in step.cells],
        "values": [puzzle.symbol(v) for v in step.values],
        "houses": list(step.houses),
        "reason": step.reason,
    }
    if step.depth:
        data["depth"] = step.depth
    if chains:
        data["chains"] = [chain_record(puzzle, chain) for chain in chains]
    return data


def chain_record(puzzle: Puzzle, chain: Chain) -> JsonObject:
    """A chain as data: its facts in order, each with its link and the earlier facts
    (their indices) it follows from (``strong``/``weak`` in an alternating chain:
    the fact before); the links again as a list; how it breaks the grid, named,
    with the cells where; written out, short and in full."""
    n = puzzle.size
    facts: list[JsonObject] = []
    for index, (c, v, holds) in enumerate(chain.facts):
        fact: JsonObject = {"cell": cell_name(n, c), "value": puzzle.symbol(v), "holds": holds}
        if index and chain.premises:
            fact["link"] = chain.links[index - 1]
            fact["premises"] = list(chain.premises[index - 1])
        facts.append(fact)
    data: JsonObject = {"facts": facts, "links": list(chain.links)}
    if chain.proves:
        data["proves"] = list(chain.proves)
    if len(chain.links) == len(chain.facts):
        data["contradiction"] = {
            "text": ending(chain).removeprefix("contradiction: "),
            "link": chain.links[-1],
            "premises": list(chain.premises[-1]) if chain.premises else [],
            "cells": [cell_name(n, c) for c in chain.broken_cells],
        }
    data["text"] = written(puzzle, chain)
    if chain.premises and not set(chain.links) <= {"strong", "weak"}:
        data["detail"] = written(puzzle, chain, detail=True)
    if chain.inside:
        data["inside"] = True
    if chain.inside > 1:
        data["depth"] = chain.inside + 1  # (a chain inside an inner chain: depth three)
    return {"title": chain.title, **data} if chain.title else data


def path_record(result: Result, view: View) -> JsonObject:
    """One puzzle's path as JSON: where it came from, its status, how the path
    ended, its rating, the steps."""
    data = record_head(result)
    path = result.path
    if path is None:
        reason = result.error or (result.outcome.reason if result.outcome else "")
        return {**data, "end": None, "reason": reason or None, "steps": None}
    rating = rating_of(path) if not path.hint else None
    hardest = path.hardest()
    data.update(
        {
            "end": path.end,
            "reason": path.reason or None,
            "level": rating.level if rating else None,
            "rating": rating.rating if rating else None,
            "hardest": hardest.name if hardest and path.end == End.SOLVED else None,
            "techniques": path.counts(),
            "steps": [step_record(path.puzzle, s, chains) for s, chains in path.written()],
            "time": round(path.seconds, 6) if view.timed else None,
        }
    )
    return data


def steps_note(result: Result, view: View) -> str | None:
    """The line for stderr: errors always; with many puzzles in line format, the
    ones whose path did not solve them."""
    if result.path is None and result.error.startswith(result.source):
        return f"Error: {result.error}"  # it names its place
    if result.path is None:
        return f"Error: {result.where()}: {result.error or _reason(result)}"
    return None


def _reason(result: Result) -> str:
    return result.outcome.reason if result.outcome else "error"


def render_steps(results: list[Result], view: View) -> str:
    """The text (or pictures, joined) of some consecutive results in ``view``'s format."""
    fmt = view.fmt
    if fmt in PICTURES:
        return PICTURE_BREAK.join(p for r in results for p in _pictures(r, view))
    if fmt in ("json", "jsonl"):
        return json_text([path_record(r, view) for r in results], view)
    if fmt == "line":
        return "".join(_line(r, view) + "\n" for r in results)
    if fmt == "text":
        out = io.StringIO()
        console = Console(file=out, no_color=True, highlight=False, soft_wrap=True)
        for r in results:
            if view.many:
                console.print(r.where(), markup=False)
            _show(console, r, view)
        return out.getvalue()
    return rich_each(results, view, lambda console, r: _show(console, r, view))


def _line(result: Result, view: View) -> str:
    path = result.path
    if path is None:
        return "error"
    rating = rating_of(path) if not path.hint else None
    hardest = path.hardest()
    words: list[str] = [path.end]
    if rating is not None:
        words += [rating.named, f"{rating.rating:g}"]
    words.append(str(len(path.steps)))
    if hardest is not None and path.end in (End.SOLVED, End.HINT):
        words.append(hardest.name)
    return " ".join(words)


def sentence(puzzle: Puzzle, step: Step) -> str:
    """A step in words: the technique, why, what it does."""
    said = f"{step.name}: {step.reason}" if step.reason else step.name
    done = [f"{cell_name(puzzle.size, c)}={puzzle.symbol(v)}" for c, v in step.placements]
    if done:
        said += f"; place {', '.join(done)}"
    obvious = step.placements or step.tells_what_is_left  # json lists the removals anyway
    removed = "" if obvious else _removals(puzzle, step.eliminations)
    if removed:
        said += f"; remove {removed}"
    return said


def _removals(puzzle: Puzzle, eliminations: Sequence[tuple[int, int]]) -> str:
    """``5 from r1c2, r1c3; 7 from r2c2``: by value, when there are three values or
    fewer; else by cell, ``3,5 from r1c2; 5 from r2c2``."""
    name = functools.partial(cell_name, puzzle.size)
    groups: dict[int, list[int]] = {}
    by_value = len({v for _, v in eliminations}) <= 3
    for cell, value in eliminations:
        groups.setdefault(value if by_value else cell, []).append(cell if by_value else value)
    if by_value:
        return "; ".join(
            f"{puzzle.symbol(v)} from {', '.join(name(c) for c in cells)}"
            for v, cells in sorted(groups.items())
        )
    return "; ".join(f"{puzzle.spell(held)} from {name(c)}" for c, held in sorted(groups.items()))


def _show(console: Console, result: Result, view: View) -> None:
    path = result.path
    if path is None:
        console.print(Text(f"error: {result.error or _reason(result)}", style="bold red"))
        return
    puzzle = path.puzzle
    if view.show_grid and path.start:
        console.print(rich_pencil_grid(puzzle, tuple(tuple(bits(m)) for m in path.start)), end="")
    width = len(str(len(path.steps)))
    for number, (step, chains) in enumerate(path.written(), 1):
        line = Text(f"{number:>{width}}. ", style="dim")
        line.append(step.name, style="bold")
        line.append(sentence(puzzle, step)[len(step.name) :])
        console.print(line)
        for depth, said in chain_lines(puzzle, step, chains, view.detail):
            indent = " " * (width + 4 * depth)
            console.print(Text(f"{indent}{said}", style="dim"))
    if view.show_grid and path.steps:
        marks = tuple(tuple(bits(m)) for m in path.board.masks)
        console.print(rich_pencil_grid(puzzle, marks), end="")
    console.print(Text(summary(path, view), style=_style(path)))


def chain_lines(
    puzzle: Puzzle, step: Step, chains: Sequence[Chain], detail: bool = False
) -> list[tuple[int, str]]:
    """The lines under a step's sentence, each with its depth (1: the step's own
    chains; 2, 3: chains inside them): a line a chain (a branch, to what it
    proves); a nested step's inner chains by their assumptions and how they end,
    unless in ``detail`` (every chain in full)."""
    lines = []
    for chain in chains:
        said = written(puzzle, chain, detail)
        if said == step.reason:  # (an AIC is its reason already)
            continue
        if step.inside and not detail:
            said = _summary(puzzle, chain)
        title = f"{chain.title}: " if chain.inside else ""
        lines.append((1 + chain.inside, f"{title}{said}"))
    return lines


def _summary(puzzle: Puzzle, chain: Chain) -> str:
    """A nested step's chain in short: its assumption, the removals the chains
    inside it prove, how many facts lead to what breaks."""
    inner = [
        fact_text(puzzle, fact)
        for fact, link in zip(chain.facts[1:], chain.links, strict=False)
        if link == "contradiction chain inside"
    ]
    said = f"{fact_text(puzzle, chain.facts[0])}: " if not chain.inside else ""
    if inner:
        said += f"{', '.join(inner)} by the chains inside; then "
    return f"{said}{len(chain.facts)} facts to {ending(chain)}"


def summary(path: SolvePath, view: View) -> str:
    """Where the path ended, in one sentence, with its rating."""
    status = path.outcome.status if path.outcome else ""
    said = ENDS.get(path.end, path.end)
    if path.end == End.CONTRADICTION and path.reason:
        said = f"a contradiction: {path.reason}"
    if path.end == End.STUCK and status == "multiple":
        said = "stuck, as it must be: the puzzle has several solutions"
    said += f" ({len(path.steps)} step{'s' if len(path.steps) != 1 else ''})"
    rating = rating_of(path) if not path.hint else None
    if rating is not None:
        said += f"; {rating.said()}"
        if rating.technique:
            said += f", hardest: {rating.technique}"
        if rating.explainer:
            said += f" ({rating.explained()})"
    return f"{status}: {said}" if status else said


def _style(path: SolvePath) -> str:
    if path.outcome is None:
        return "bold red"
    return STATUS_STYLE[path.outcome.status]


def _pictures(result: Result, view: View) -> list[str]:
    from sudosat.showing.pictures import notice, picture  # deferred: drawsvg, for pictures only

    path = result.path
    if path is None:
        return [notice(f"{result.where()}: error: {result.error or _reason(result)}")]
    puzzle = path.puzzle
    caption = caption_of(puzzle, view)
    if not view.each_step:
        marks = [tuple(bits(m)) for m in path.board.masks]
        last = path.steps[-1] if path.hint and path.steps else None
        if last is not None:
            return [step_picture(path, last, masks_before(path, len(path.steps) - 1), caption)]
        return [picture(puzzle, None, (), (), caption, pencil=marks)]
    masks = list(path.start or path.board.masks)  # (a path that ran out of time has no start)
    if not path.steps:  # nothing to step through: the start, as it is
        return [picture(puzzle, None, (), (), caption, pencil=[tuple(bits(m)) for m in masks])]
    drawn = []
    for number, step in enumerate(path.steps, 1):
        titled = caption_of(puzzle, view, f"{number}. {step.name}")
        drawn.append(step_picture(path, step, masks, titled))
        masks = _after(masks, step)
    return drawn


def step_picture(path: SolvePath, step: Step, masks: Sequence[int], caption: Any) -> str:
    from sudosat.showing.pictures import JUSTIFYING, picture

    marks = [tuple(bits(m)) for m in masks]
    links = [
        ((a[0], a[1]), (b[0], b[1]), link == "strong")
        for chain in step.chains
        for a, b, link in zip(chain.facts, chain.facts[1:], chain.links, strict=False)
    ]
    return picture(
        path.puzzle,
        None,
        step.cells,
        (),
        caption,
        pencil=marks,
        struck=step.eliminations,
        ringed=step.placements,
        shade=JUSTIFYING,
        links=links,
    )


def masks_before(path: SolvePath, index: int) -> list[int]:
    masks = list(path.start)
    for step in path.steps[:index]:
        masks = _after(masks, step)
    return masks


def _after(masks: list[int], step: Step) -> list[int]:
    masks = list(masks)
    for cell, value in step.eliminations:
        masks[cell] &= ~bit(value)
    for cell, value in step.placements:
        masks[cell] = bit(value)
    return masks
