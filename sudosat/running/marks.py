"""Showing true candidates (``sudosat candidates``) in every format.

* ``line``: one line a puzzle, a token per cell in row-major order: its
  candidates in the puzzle's symbols (joined by commas where a symbol has
  several characters); ``none``, ``timeout`` or ``error`` when there are none;
* ``grid``: the same tokens as a grid, padded, boxes ruled (Norvig's display);
* ``json``/``jsonl``/``csv``: :func:`candidates_record`;
* ``rich``: pencil marks in the cells, as setters draw them;
* ``svg``/``pdf``: the picture with small digits in the cells;
* ``fpuzzles``: a link whose cells hold the candidates as centre pencil marks.
"""

from __future__ import annotations

import csv
import io
import math
from typing import TYPE_CHECKING

from rich.console import Console
from rich.text import Text

from sudosat.core.jsonobject import JsonObject
from sudosat.core.puzzle import Puzzle, cell_name
from sudosat.showing.captions import caption_of
from sudosat.showing.console import rich_each
from sudosat.showing.records import CANDIDATE_FIELDS, csv_value, json_text, record_head
from sudosat.showing.text import part_text
from sudosat.showing.view import PICTURE_BREAK, PICTURES, STATUS_STYLE, Result, View
from sudosat.solving.outcome import Status

if TYPE_CHECKING:
    from sudosat.solving.candidates import Candidates


def tokens(puzzle: Puzzle, marks: tuple[tuple[int, ...], ...]) -> list[str]:
    """A token per cell: its candidates written in the puzzle's symbols."""
    return [puzzle.spell(values) or "-" for values in marks]


def summary(found: Candidates) -> str:
    """The candidates in one sentence."""
    outcome = found.outcome
    status = outcome.status
    if status == Status.UNIQUE:
        return "unique: every cell has one candidate, the solution"
    if status == Status.MULTIPLE:
        cells = len(found.open_cells())
        total = sum(len(values) for values in found.marks)
        return (
            f"multiple: {cells} cells have several candidates ({total} in all, "
            f"witnessed by {found.witnesses} solutions)"
        )
    if status == Status.NONE:
        said = "none: no solution, so no candidates"
        if found.conflict:
            parts = ", ".join(part_text(outcome.puzzle, part) for part in found.conflict)
            said += f"; these cannot all hold: {parts}"
        elif outcome.reason:
            said += f" ({outcome.reason})"
        return said
    return f"{status}: {outcome.reason}" if outcome.reason else str(status)


def candidates_record(result: Result, view: View, counted: bool = False) -> JsonObject:
    """One puzzle's candidates as JSON: cell name to values; with ``--count-each``,
    cell name to value to the number of solutions holding it (``"12+"``: at least)."""
    data = record_head(result)
    found = result.candidates
    if found is None:  # input that could not be read, or a solver's failure
        reason = result.error or (result.outcome.reason if result.outcome else "")
        return {**data, "candidates": None, "reason": reason or None}
    p = found.outcome.puzzle
    n = p.size
    data["candidates"] = (
        {cell_name(n, c): list(v) for c, v in enumerate(found.marks)} if any(found.marks) else None
    )
    data["open"] = [cell_name(n, c) for c in found.open_cells()]
    data["witnesses"] = found.witnesses
    if found.undecided and any(found.undecided):
        data["undecided"] = {cell_name(n, c): list(v) for c, v in enumerate(found.undecided) if v}
    if counted:
        counts: dict[str, dict[str, int | str]] = {}
        for (cell, value), count in found.counts.items():
            shown: int | str = int(count) if count.complete else f"{int(count)}+"
            counts.setdefault(cell_name(n, cell), {})[str(value)] = shown
        data["counts"] = counts
    data["conflict"] = (
        None if found.conflict is None else [part_text(p, part) for part in found.conflict]
    )
    data["timed_out"] = found.timed_out
    data["reason"] = found.outcome.reason or None
    data["solver"] = found.outcome.solver or None
    data["time"] = round(found.outcome.stats.time, 6) if view.timed else None
    return data


def candidates_note(result: Result, view: View) -> str | None:
    """The line for stderr: one puzzle in line and grid format always, many only where
    one is not unique."""
    if result.candidates is None:
        return f"Error: {result.where()}: {result.error or _reason(result)}"
    if view.fmt not in ("line", "grid"):
        return None
    if view.many and result.status == Status.UNIQUE:
        return None
    where = f"{result.where()}: " if view.many else ""
    return where + summary(result.candidates)


def _reason(result: Result) -> str:
    return result.outcome.reason if result.outcome else "error"


def render_candidates(results: list[Result], view: View, counted: bool = False) -> str:
    """The text (or pictures, joined) of some consecutive results in ``view``'s format."""
    fmt = view.fmt
    if fmt in PICTURES:
        return PICTURE_BREAK.join(_picture(r, view) for r in results)
    if fmt == "fpuzzles":
        return "".join(_link(r) for r in results)
    if fmt in ("json", "jsonl"):
        return json_text([candidates_record(r, view, counted) for r in results], view)
    if fmt == "csv":
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        for r in results:
            data = candidates_record(r, view, counted)
            found = r.candidates
            data["candidates"] = (
                " ".join(tokens(found.outcome.puzzle, found.marks)) if found else None
            )
            writer.writerow([csv_value(data.get(k)) for k in CANDIDATE_FIELDS])
        return out.getvalue()
    if fmt == "rich":
        return _rich(results, view)
    if fmt == "grid":
        return "".join(_grid_block(r, view) for r in results)
    return "".join(_line(r) + "\n" for r in results)


def _line(result: Result) -> str:
    found = result.candidates
    if found is None:
        return "error"
    if found.outcome.status in (Status.NONE, Status.ERROR) or not any(found.marks):
        return str(found.outcome.status)
    return " ".join(tokens(found.outcome.puzzle, found.marks))


def pencil_grid(puzzle: Puzzle, marks: tuple[tuple[int, ...], ...]) -> str:
    """Every cell's candidates, padded to the widest, boxes ruled (Norvig's display)."""
    n = puzzle.size
    words = tokens(puzzle, marks)
    width = max(len(w) for w in words)
    rows, cols = puzzle.layout.box or (n, n)
    lines = []
    for r in range(n):
        if r and r % rows == 0:
            lines.append("-+-".join("-" * ((width + 1) * cols - 1) for _ in range(n // cols)))
        boxes = [
            " ".join(w.ljust(width) for w in words[r * n + b * cols : r * n + b * cols + cols])
            for b in range(n // cols)
        ]
        lines.append(" | ".join(boxes).rstrip())
    return "\n".join(lines)


def _grid_block(result: Result, view: View) -> str:
    found = result.candidates
    head = f"# {result.where()}: {summary(found)}\n" if view.many and found else ""
    if found is None:
        body = "error"
    elif not any(found.marks):
        body = str(found.outcome.status)
    else:
        body = pencil_grid(found.outcome.puzzle, found.marks)
    return head + body + "\n" + ("\n" if view.many else "")


def _rich(results: list[Result], view: View) -> str:
    def show(console: Console, result: Result) -> None:
        found = result.candidates
        if found is None:  # the solver failed
            console.print(Text(f"error: {_reason(result)}", style="bold red"))
            return
        if any(found.marks):
            console.print(rich_pencil_grid(found.outcome.puzzle, found.marks), end="")
        console.print(Text(summary(found), style=STATUS_STYLE[found.outcome.status]))

    return rich_each(results, view, show)


def rich_pencil_grid(puzzle: Puzzle, marks: tuple[tuple[int, ...], ...]) -> Text:
    """Pencil marks in the cells: each cell a small square of its candidates, each
    value in its own place (1 top left); a given bold in the middle, a cell with one
    candidate cyan in the middle."""
    n = puzzle.size
    side = math.isqrt(n - 1) + 1  # values per row of a cell's square
    symbols = [puzzle.symbol(v) for v in range(1, n + 1)]
    width = max(len(s) for s in symbols)
    cell_width = side * width + (side - 1)
    rows, cols = puzzle.layout.box or (n, n)
    text = Text()

    def rule(left: str, mid: str, right: str, fill: str) -> None:
        box = fill * ((cell_width + 1) * cols + 1)
        text.append(left + mid.join(box for _ in range(n // cols)) + right + "\n", style="dim")

    rule("┏", "┳", "┓", "━")
    for r in range(n):
        if r and r % rows == 0:
            rule("┣", "╋", "┫", "━")
        elif r:
            rule("┃", "┃", "┃", " ")
        for line in range(side):
            text.append("┃", style="dim")
            for c in range(n):
                cell = r * n + c
                text.append(" ")
                _cell_line(text, puzzle, cell, marks[cell], line, side, symbols, width)
                if c % cols == cols - 1:
                    text.append(" ┃", style="dim")
            text.append("\n")
    rule("┗", "┻", "┛", "━")
    return text


def _cell_line(
    text: Text,
    puzzle: Puzzle,
    cell: int,
    values: tuple[int, ...],
    line: int,
    side: int,
    symbols: list[str],
    width: int,
) -> None:
    """One line of one cell's square."""
    cell_width = side * width + (side - 1)
    if len(values) == 1:
        shown = symbols[values[0] - 1] if line == side // 2 else ""
        style = "bold" if puzzle.cells[cell] else "bold cyan"
        text.append(shown.center(cell_width), style=style)
        return
    parts = []
    for v in range(line * side + 1, line * side + side + 1):
        parts.append(symbols[v - 1].rjust(width) if v in values else " " * width)
    text.append(" ".join(parts), style="yellow")


def _picture(result: Result, view: View) -> str:
    from sudosat.showing.pictures import notice, picture  # deferred: drawsvg, for pictures only

    found = result.candidates
    if found is None:
        return notice(f"{result.where()}: error: {result.error or _reason(result)}")
    puzzle = found.outcome.puzzle
    alert = [part for part in found.conflict or () if not isinstance(part, tuple)]
    marked = {part[0] for part in found.conflict or () if isinstance(part, tuple)}
    return picture(puzzle, None, marked, alert, caption_of(puzzle, view), pencil=found.marks)


def _link(result: Result) -> str:
    """An f-puzzles link whose cells hold their candidates as centre pencil marks
    (a cell with one candidate holds it as a digit)."""
    found = result.candidates
    if found is None:
        return "error\n"
    from sudosat.reading.fpuzzles import pack, write
    from sudosat.rules.base import NoField

    puzzle = found.outcome.puzzle
    try:
        data = write(puzzle)
    except NoField:
        return "error\n"
    n = puzzle.size
    for cell, values in enumerate(found.marks):
        if puzzle.cells[cell] or not values:
            continue
        entry = data["grid"][cell // n][cell % n]
        if len(values) == 1:
            entry["value"] = values[0]
        else:
            entry["centerPencilMarks"] = list(values)
    return pack(data) + "\n"
