"""A run's results rendered in the format asked for: each format's records and
sentences come from the showing floor (:mod:`sudosat.showing`), put together here
for one answer, a batch, generated puzzles and explanations.

A :class:`Result` is one puzzle's answer (or the reason its input could not be
read) with its ``--check`` verdict. It becomes one record in every format:

* ``line``: one line, the solution when the puzzle is unique (or solved with
  ``max_solutions=1``), else the status word (``multiple``, ``none``,
  ``timeout``, ``error``); with ``--count``, the count, ``N+`` when incomplete;
* ``grid``: the solutions found as grids (many puzzles: each after a
  ``# source:line: status`` comment line, which sudosat's reader skips);
* ``json``/``jsonl``/``csv``: :func:`record`, one schema for all three (json for
  many puzzles is the list of the jsonl objects);
* ``rich``: boxes and colours for people.
"""

from __future__ import annotations

import csv
import io
import json
from typing import TYPE_CHECKING

from sudosat.showing.records import (
    GENERATED_FIELDS,
    csv_row,
    explanation_record,
    generated_record,
    json_text,
    record,
)
from sudosat.showing.text import grid_of, grid_text, line_of, link_line, puzzle_line
from sudosat.showing.view import PICTURE_BREAK, PICTURES, Result, View
from sudosat.system.lazy import lazy

if TYPE_CHECKING:
    from sudosat.making.generator import Generated
    from sudosat.showing import captions, console
else:  # rich and pictures for their formats alone: a pipe does not pay for them
    captions = lazy("sudosat.showing.captions")
    console = lazy("sudosat.showing.console")


def render(results: list[Result], view: View) -> str:
    """The text of some consecutive results in ``view``'s format (json for many: the
    list's items, joined; :class:`Document` adds the brackets)."""
    fmt = view.fmt
    if fmt in PICTURES:
        return PICTURE_BREAK.join(captions.result_picture(r, view) for r in results)
    if fmt == "fpuzzles":
        return "".join(link_line(r.outcome.puzzle if r.outcome else None) for r in results)
    if view.record == "explanation":
        return _explanations(results, view)
    if fmt in ("json", "jsonl"):
        return json_text([record(r, view) for r in results], view)
    if fmt == "csv":
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerows(csv_row(r, view) for r in results)
        return out.getvalue()
    if fmt == "grid":
        return "\n".join(grid_of(r, view) for r in results) + ("\n" if view.many else "")
    if fmt == "rich":
        return console.rich_results(results, view)
    return "".join(line_of(r, view) + "\n" for r in results)


def render_generated(batch: list[Generated], view: View) -> str:
    """Generated puzzles in ``view``'s format: line (the puzzle), grid, jsonl, csv or rich."""
    fmt = view.fmt
    if fmt in PICTURES:
        return PICTURE_BREAK.join(captions.generated_picture(made, view) for made in batch)
    if fmt == "fpuzzles":
        return "".join(link_line(made.puzzle) for made in batch)
    if fmt == "jsonl":
        return "".join(json.dumps(generated_record(made)) + "\n" for made in batch)
    if fmt == "csv":
        out = io.StringIO()
        rows = ([generated_record(made)[name] for name in GENERATED_FIELDS] for made in batch)
        csv.writer(out, lineterminator="\n").writerows(rows)
        return out.getvalue()
    if fmt == "grid":
        return "".join(grid_text(made.puzzle) + "\n\n" for made in batch)
    if fmt == "rich":
        return console.rich_generated(batch, view)
    return "".join(puzzle_line(made.puzzle) + "\n" for made in batch)


def _explanations(results: list[Result], view: View) -> str:
    """Explanations in ``view``'s format: json, jsonl, text or rich."""
    if view.fmt in ("json", "jsonl"):
        return json_text([explanation_record(r) for r in results], view)
    blocks = []
    for result in results:
        head = f"# {result.where()}\n" if view.many else ""
        found = result.explanation
        if view.fmt == "rich":
            blocks.append(console.rich_explanation(result, view))
        else:
            body = f"error: {result.error}\n" if found is None else console.explanation_text(found)
            blocks.append(head + body + ("\n" if view.many else ""))
    return "".join(blocks)
