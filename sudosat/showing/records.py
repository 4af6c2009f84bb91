"""Answers as data: one record schema for json, jsonl and csv, generated puzzles' and
explanations' records, and the streamed output :class:`Document`."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from sudosat.core.jsonobject import JsonObject
from sudosat.core.notation import format_line
from sudosat.core.puzzle import Puzzle, cell_name
from sudosat.showing.text import clue_text, differ, part_text, puzzle_line, rule_statements
from sudosat.showing.view import BACK, NO_EXPECTATION, PICTURE_BREAK, PICTURES, Check, Result, View

if TYPE_CHECKING:
    from sudosat.making.explain import Explanation
    from sudosat.making.generator import Generated


CSV_FIELDS = (
    "source",
    "line",
    "name",
    "puzzle",
    "status",
    "unique",
    "solution",
    "count",
    "count_complete",
    "time",
    "reason",
    "rules",
)


CHECK_FIELDS = ("expected", "expected_count", "check")


ESTIMATE_FIELDS = (
    *("estimate", "estimate_low", "estimate_high", "estimate_exact"),
    *("estimate_log10", "estimate_log10_low", "estimate_log10_high"),
)
"""(A count past 1.8e308 is empty in its number's column, and written in its log's.)"""


RATE_FIELDS = (
    "level",
    "rating",
    "conflicts",
    "technique",
    "er",
    "ep",
    "ed",
    "er_not_computed",
    "engine",
)


RATING_NONE = dict.fromkeys(RATE_FIELDS)


STATS_FIELDS = (
    "deduced",
    "ruled_out",
    "variables",
    "clauses",
    "solves",
    "conflicts",
    "decisions",
    "propagations",
)


def record_head(result: Result) -> JsonObject:
    """What every record of a puzzle starts with: where it came from, the puzzle as
    given with its rules, the status."""
    return {
        "source": result.source,
        "line": result.line,
        "name": result.name or None,
        "puzzle": result.puzzle,
        "rules": rule_statements(result.outcome.puzzle if result.outcome else None, result.puzzle),
        "status": result.status,
    }


def record(result: Result, view: View) -> JsonObject:
    """The JSON object of one puzzle: the one schema of json, jsonl and csv."""
    outcome = result.outcome
    solutions = [format_line(outcome.puzzle, g) for g in outcome.solutions] if outcome else []
    data: JsonObject = {
        "source": result.source,
        "line": result.line,
        "name": result.name or None,
        "puzzle": result.puzzle,
        "rules": rule_statements(outcome.puzzle if outcome else None, result.puzzle),
        "rank": outcome.puzzle.rank if outcome else None,
        "status": result.status,
        "unique": outcome.unique if outcome else None,
        "solution": solutions[0] if solutions else None,
        "solutions": solutions,
        "count": len(solutions),
        "count_complete": outcome.exhausted if outcome else False,
        "differ": differ(outcome) if outcome else [],
        "clashes": [c.describe(outcome.puzzle) for c in outcome.clashes] if outcome else [],
        "reason": (outcome.reason if outcome else result.error) or None,
        "solver": (outcome.solver or None) if outcome else None,
        "time": round(result.time, 6) if view.timed else None,
    }
    if view.check:
        check = result.check or Check(NO_EXPECTATION)
        data.update(expected=check.expected, expected_count=check.expected_count)
        data["check"] = check.verdict
    if view.record == "rating":
        data.update(result.rating.as_dict() if result.rating else RATING_NONE)
    if view.record == "estimate":
        data["estimate"] = result.estimate.as_dict() if result.estimate else None
    if view.stats and outcome is not None:
        data["stats"] = outcome.stats.as_dict()
        data["stats"]["encoding"] = outcome.encoding.describe() if outcome.encoding else None
    return data


CANDIDATE_FIELDS = (
    *("source", "line", "name", "puzzle", "status", "candidates", "witnesses", "reason", "rules"),
)
"""The csv columns of ``sudosat candidates`` (candidates: the line format's tokens)."""


def csv_header(view: View) -> str:
    fields: tuple[str, ...] | list[str] = csv_fields(view)
    if view.record in ("generated", "candidates"):
        fields = GENERATED_FIELDS if view.record == "generated" else CANDIDATE_FIELDS
    return ",".join(fields) + "\n"  # plain names: nothing to quote


def csv_fields(view: View) -> list[str]:
    extra = (CHECK_FIELDS if view.check else ()) + (RATE_FIELDS if view.record == "rating" else ())
    extra += STATS_FIELDS if view.stats else ()
    extra += ESTIMATE_FIELDS if view.record == "estimate" else ()
    return [*CSV_FIELDS, *extra]


def csv_row(result: Result, view: View) -> list[Any]:
    data = record(result, view)
    data.update(data.pop("stats", None) or {})
    found = data.pop("estimate", None) or {}
    data.update({f"estimate_{key}": found.get(key) for key in ("low", "high", "exact")})
    for column, key in zip(ESTIMATE_FIELDS[4:], ("estimate", "low", "high"), strict=True):
        data[column] = found.get(f"log10_{key}")
    data["estimate"] = found.get("estimate")
    return [csv_value(data.get(name)) for name in csv_fields(view)]


def csv_value(value: Any) -> Any:
    if value is None:
        return ""
    if isinstance(value, list):  # a variant's rules
        from sudosat.reading.records import join_rules  # deferred: variants' rules only

        return join_rules(value)
    return str(value).lower() if isinstance(value, bool) else value


def json_text(records: list[JsonObject], view: View) -> str:
    """Records as jsonl (a line each), or as json: one puzzle indented, many as the
    list's items, joined (:class:`Document` adds the brackets)."""
    if view.fmt == "jsonl":
        return "".join(json.dumps(data) + "\n" for data in records)
    if not view.many:
        return "".join(json.dumps(data, indent=2) + "\n" for data in records)
    return ",\n".join(json.dumps(data) for data in records)


class Document:
    """Puts rendered pieces together into one output: a CSV header, json's brackets,
    pictures on a sheet (SVG) or on pages (PDF, bytes)."""

    def __init__(self, view: View) -> None:
        self.view = view
        self.started = False
        self.fronts: list[str] = []
        self.backs: list[str] = []

    def head(self) -> str:
        if self.view.fmt == "csv":
            return csv_header(self.view)
        return "[\n" if self.view.fmt == "json" and self.view.many else ""

    def piece(self, text: str) -> str:
        if not text:
            return ""
        if self.view.fmt in PICTURES:  # put together at the end
            for picture in text.split(PICTURE_BREAK):
                front, _, back = picture.partition(BACK)
                self.fronts.append(front)
                self.backs += [back] if back else []
            return ""
        joined = ",\n" if self.started and self.view.fmt == "json" and self.view.many else ""
        self.started = True
        return joined + text

    def tail(self) -> str | bytes:
        if self.view.fmt in PICTURES:
            from sudosat.showing.pictures import (  # deferred: drawsvg, for pictures only
                page_scale,
                pages,
                pdf,
                png,
                sheet,
            )

            view = self.view
            if view.fmt == "pdf":
                per_page, paper = view.per_page, view.paper
                scale = page_scale([*self.fronts, *self.backs], per_page, paper)
                return pdf(
                    pages(self.fronts, per_page, paper, scale)
                    + pages(self.backs, per_page, paper, scale)
                )
            if not self.fronts:
                return ""
            if len(self.fronts) == 1 and not self.backs:
                picture = self.fronts[0]
            else:
                picture = sheet([*self.fronts, *self.backs], view.per_page)
            return png(picture, view.dpi / 96) if view.fmt == "png" else picture
        return "\n]\n" if self.view.fmt == "json" and self.view.many else ""


GENERATED_FIELDS = ("puzzle", "solution", "clues", "seed", "rating", "level")


def generated_record(made: Generated) -> JsonObject:
    """The JSON object of a generated puzzle."""
    rating = made.rating
    return {
        "puzzle": puzzle_line(made.puzzle),
        "solution": format_line(made.puzzle, made.solution),
        "clues": made.clues,
        "seed": made.seed,
        "rating": rating.rating if rating else None,
        "level": rating.level if rating else None,
        "conflicts": rating.conflicts if rating else None,
        "rank": made.puzzle.rank,
    }


def explanation_json(found: Explanation) -> JsonObject:
    """The JSON object of an explanation (null where a field does not apply)."""
    outcome, p = found.outcome, found.outcome.puzzle
    fill = found.best_fill
    return {
        "status": outcome.status,
        "puzzle": format_line(p),
        "rules": rule_statements(p, ""),
        "clashes": [c.describe(p) for c in outcome.clashes],
        "conflict": None if found.conflict is None else [part_text(p, c) for c in found.conflict],
        "fewest_removed": found.fewest_removed,
        "best_fill": None
        if fill is None
        else {"filled": found.filled, "grid": format_line(p, fill)},
        "differ": None if found.differ is None else [cell_name(p.size, c) for c in found.differ],
        "add": None if found.add is None else [clue_text(p, *c) for c in found.add],
        "redundant": _parts_text(p, found.redundant),
        "minimal": _parts_text(p, found.minimal),
        "rating": found.rating.rating if found.rating else None,
        "level": found.rating.level if found.rating else None,
        "timed_out": found.timed_out,
        "reason": outcome.reason or None,
        "notes": found.notes,
    }


def _parts_text(puzzle: Puzzle, parts: list[Any] | None) -> list[str] | None:
    return None if parts is None else [part_text(puzzle, part) for part in parts]


def explanation_record(result: Result) -> JsonObject:
    """One puzzle's explanation as JSON: where it came from, then what explains it."""
    data: JsonObject = {
        "source": result.source,
        "line": result.line,
        "name": result.name or None,
    }
    if result.explanation is None:  # input that could not be read
        reason = result.error or (result.outcome.reason if result.outcome else "")
        return {**data, "puzzle": result.puzzle, "status": result.status, "reason": reason}
    return {**data, **explanation_json(result.explanation)}
