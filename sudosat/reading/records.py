"""sudosat's own records read back: what ``--format json``, ``jsonl`` and ``csv``
write, so that every structured output is input again.

A record is a JSON object with a ``puzzle`` (a line of cells or a link), and
what else sudosat wrote with it: ``rules`` (a variant's statements, as
:mod:`ruletext` reads them; a list, or one string with ``;`` between them),
``name``, and ``solution`` (the expected one, as a CSV's solution column). The
other fields (status, time, ...) are answers, not input, and are passed over.
``jsonl`` is one record a line; ``json`` of many is a list with a record a
line; ``json`` of one puzzle is one indented record, read whole.
"""

from __future__ import annotations

import re
from typing import Any, NamedTuple

from sudosat.core.errors import InputError
from sudosat.core.jsonobject import JsonObject
from sudosat.core.notation import PUZZLE_KEYS, SOLUTION_KEYS
from sudosat.reading.jsontext import BadJson, load, load_at
from sudosat.rules.index import FIELDS

ABOUT = re.compile(r"\s*(title|author|ruleset)\s*:", re.IGNORECASE)
"""A statement of what a puzzle says about itself, whose text may hold ``;``."""
RECORD_LINE = re.compile(r"\s*\{.*\}\s*,?\s*")
"""A line holding one JSON object (a json list's item ends with a comma)."""


class Record(NamedTuple):
    """What one record holds as input; ``error`` when it holds no puzzle."""

    puzzle: str = ""
    solution: str | None = None
    rules: tuple[str, ...] = ()
    name: str = ""
    error: str = ""
    column: int = 1


def one_line(text: str) -> bool:
    """Whether a line of a json list is an item of its own (a record or a broken
    one), as sudosat writes them, or the list's end: not a piece of an indented one."""
    stripped = text.strip()
    return is_bracket(stripped) or (stripped.startswith("{") and stripped.rstrip(",") != "{")


def is_record_line(text: str) -> bool:
    """Whether a line is a record of sudosat's: a JSON object that is no f-puzzles
    JSON (one without its puzzle field is a record that says so)."""
    if not RECORD_LINE.fullmatch(text):
        return False
    found = _object(text)
    return isinstance(found, dict) and not _is_fpuzzles(found)


def check_json(text: str, source: str) -> None:
    """InputError when a whole input that opens an object is no JSON (a record's or
    an f-puzzles', whichever it meant to be)."""
    try:
        load(text)
    except BadJson as err:
        raise InputError(source, 1, err.column, f"JSON: {err}") from None


BRACKETS = ("[", "]", "],", "[]")
"""A json list's opening and closing lines, between its records."""


def is_bracket(text: str) -> bool:
    return text.strip() in BRACKETS


def opens_list(text: str) -> bool:
    """Whether a first line opens a json list of records, one a line (a record
    that cannot be read is then an error of its own, not the list's)."""
    return text.strip() == "["


def read_line(text: str) -> Record:
    """The record of one line (a json list's item: its comma passed over)."""
    try:
        found = load(text.strip().removesuffix(","))
    except BadJson as err:
        at = err.column + len(text) - len(text.lstrip())
        return Record(error=f"a JSON record that does not parse: {err}", column=at)
    if not isinstance(found, dict):
        return Record(error="a JSON record: expected one object with a puzzle")
    return of(found)


class Item(NamedTuple):
    """A record of a document, and where it starts (1-based)."""

    line: int
    column: int
    record: Record


RECORD_START = re.compile(r"[\[,]\s*(?=\{)")
"""Where a list's next object may start: after its bracket or a comma."""


def read_document(text: str) -> list[Item] | None:
    """The records of ``--format json`` output (one object, or a list of them), each
    with where it starts; None when ``text`` holds none (f-puzzles' JSON, a header
    such as ``[Puzzle]``). A list is read an item at a time, so that a broken item
    is a record of its own that says so, and those after it are read."""
    stripped = text.lstrip()
    if stripped.startswith("{"):
        found = _object(text)
        if not isinstance(found, dict) or _is_fpuzzles(found):
            return None
        return [Item(*_place(text, len(text) - len(stripped)), of(found))]
    if not stripped.startswith("["):
        return None
    items: list[Item] = []
    at = len(text) - len(stripped) + 1
    while (at := _next_value(text, at)) < len(text) and text[at] != "]":
        try:
            found, end = load_at(text, at)
        except BadJson as err:  # said where it breaks
            error = Record(error=f"a JSON record that does not parse: {err}")
            items.append(Item(*_place(text, max(err.position, at)), error))
            end = _resync(text, at + 1)
        else:
            if isinstance(found, dict) and _is_fpuzzles(found):
                return None  # a list of f-puzzles' JSON is none of ours
            record = of(found) if isinstance(found, dict) else Record(error=NO_OBJECT)
            items.append(Item(*_place(text, at), record))
        at = end
    return items if _ours(items, stripped) else None


NO_OBJECT = "a JSON record: expected one object with a puzzle"


def _next_value(text: str, at: int) -> int:
    """Where the next item of a list starts: past spaces and a comma."""
    while at < len(text) and (text[at].isspace() or text[at] == ","):
        at += 1
    return at


def _resync(text: str, start: int) -> int:
    """Where the first readable record after a broken item starts (an object with a
    puzzle, after a comma or the list's bracket); the end of ``text`` if none."""
    for match in RECORD_START.finditer(text, start):
        try:
            found, _ = load_at(text, match.end())
        except BadJson:
            continue
        if isinstance(found, dict) and _puzzle_key(found):
            return match.end()
    return len(text)


def _place(text: str, at: int) -> tuple[int, int]:
    """Line and column (1-based) of offset ``at``."""
    return text.count("\n", 0, at) + 1, at - (text.rfind("\n", 0, at) + 1) + 1


def _ours(items: list[Item], stripped: str) -> bool:
    """Whether a list's items are sudosat's records: one is, or the list opens with an
    object (a list of broken records is still one, not a grid)."""
    return any(not item.record.error for item in items) or stripped[1:].lstrip().startswith("{")


def of(found: JsonObject) -> Record:
    """The input fields of one record."""
    key = _puzzle_key(found)
    puzzle = found.get(key) if key else None
    if not isinstance(puzzle, str) or not puzzle.strip():
        return Record(error=f"a JSON record: expected a puzzle field ({', '.join(PUZZLE_KEYS)})")
    solution = next((found[k] for k in SOLUTION_KEYS if isinstance(found.get(k), str)), None)
    rules = found.get("rules") or ()
    if isinstance(rules, str):
        rules = split_rules(rules)
    if not isinstance(rules, list | tuple) or not all(isinstance(r, str) for r in rules):
        return Record(error="a JSON record's rules: expected a list of rule statements")
    name = found.get("name")
    return Record(puzzle, solution, tuple(rules), name if isinstance(name, str) else "")


def split_rules(text: str) -> tuple[str, ...]:
    """Rule statements written in one field (a CSV's ``rules``): a line each, or
    ``;`` between them; a ``ruleset:`` line is kept whole (its prose may hold ``;``)."""
    found: list[str] = []
    for line in text.splitlines():
        parts = [line] if ABOUT.match(line) else line.split(";")
        found += [part.strip() for part in parts if part.strip()]
    return tuple(found)


def join_rules(statements: list[str]) -> str:
    """A variant's statements in one field, as :func:`split_rules` reads them."""
    return ("\n" if any(ABOUT.match(s) for s in statements) else "; ").join(statements)


def _object(text: str) -> Any:
    try:
        return load(text.strip().removesuffix(","))
    except BadJson:
        return None


def _is_fpuzzles(found: JsonObject) -> bool:
    """An f-puzzles JSON, not a record: it has a grid or a size, which no record has,
    or, without a puzzle field, a field only f-puzzles has (a rule's: ``killercage``,
    ``antiknight``, ...; it then lacks its size, which its reader says)."""
    if "grid" in found or "size" in found:
        return True
    return not any(key in found for key in PUZZLE_KEYS) and any(key in FIELDS for key in found)


def _puzzle_key(found: JsonObject) -> str | None:
    if _is_fpuzzles(found):
        return None
    return next((k for k in PUZZLE_KEYS if isinstance(found.get(k), str)), None)
