"""Pictures of answers: a result's or a generated puzzle's picture with its caption."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from sudosat.core.puzzle import Puzzle
from sudosat.showing.console import shown_grid
from sudosat.showing.text import rules_in_words
from sudosat.showing.view import BACK, Result, View

if TYPE_CHECKING:
    from sudosat.making.generator import Generated
    from sudosat.showing.pictures import Caption


def result_picture(result: Result, view: View) -> str:
    """One puzzle's picture: the puzzle, its solved grid (``--solution``; in a PDF
    the puzzle, and its solution for the back), or what explains it (the cells it
    names shaded, its rules in red)."""
    from sudosat.showing.pictures import notice, picture  # deferred: drawsvg, for pictures only

    outcome = result.outcome
    if outcome is None:  # unreadable: a page that says so, in its place
        return notice(f"{result.where()}: error: {result.error}")
    puzzle, grid, marked, alert = outcome.puzzle, None, set[int](), list[Any]()
    if result.explanation is not None:
        grid, marked = shown_grid(result.explanation)
        named = (result.explanation.conflict or []) + (result.explanation.redundant or [])
        alert = [part for part in named if not isinstance(part, tuple)]
    elif view.solution and outcome.solutions and view.fmt != "pdf":
        grid = outcome.solutions[0]
    caption = caption_of(puzzle, view)
    if result.explanation is not None:  # what explain says is the point of its picture
        caption = replace(caption, title=f"{result.where()}: {outcome.status}")
    front = picture(puzzle, grid, marked, alert, caption)
    if view.fmt == "pdf" and view.solution and outcome.solutions and result.explanation is None:
        # a PDF is a book: the puzzles first, their solutions at the back
        return front + BACK + picture(puzzle, outcome.solutions[0], title=solution_caption(caption))
    return front


def caption_of(puzzle: Puzzle, view: View, title: str = "") -> Caption:
    """What a puzzle's page says: its title (``--title``, or its own, or ``title``)
    and author above the grid; its rules in words below (``--rules-text``: the
    setter's ruleset, or each rule's meaning when it has none)."""
    from sudosat.showing.pictures import Caption  # deferred: drawsvg, for pictures only

    if view.title is not None:
        title, byline = view.title, ""
    else:
        title, byline = puzzle.name or title, f"by {puzzle.author}" if puzzle.author else ""
    rules = ""
    if view.rules_text is not False:
        rules = puzzle.ruleset
    if view.rules_text and not rules:
        rules = rules_in_words(puzzle)
    return Caption(title, byline, rules)


def solution_caption(caption: Caption) -> Caption:
    """The caption of a solution at the back: the puzzle's title, said to be its
    solution, and no rules."""
    title = f"{caption.title}: solution" if caption.title else ""
    return replace(caption, title=title, rules="")


def generated_picture(made: Generated, view: View) -> str:
    """A generated puzzle's picture, and with ``solution`` its solution's for the back."""
    from sudosat.showing.pictures import picture  # deferred: drawsvg, for pictures only

    level = made.rating.named.capitalize() if made.rating else "Seed"
    caption = caption_of(made.puzzle, view, f"{level} ({made.seed})")
    front = picture(made.puzzle, None, title=caption)
    if not view.solution:
        return front
    return front + BACK + picture(made.puzzle, made.solution, title=solution_caption(caption))
