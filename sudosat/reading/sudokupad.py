"""SudokuPad's own puzzle links: ``https://sudokupad.app/scl<data>`` (``ctc`` too).

The data is lz-string (``compressToBase64``) over SudokuPad's "zipped" JSON:
keys shortened by a fixed map (``ce`` for ``cells``, ``re`` for ``regions``,
``ca`` for ``cages``, ``v`` for ``value``...), keys and booleans unquoted
(``t``, ``f``), strings in single quotes, empty objects left out of arrays
(``[,,{v:5}]``) and colours shortened (``#0``, ``#F``, ``ff0000``). SudokuPad's
open-source loader (and the readers written from it) document the format.

What it states as rules is read: the grid's size, its givens (``cells``), its
regions (a jigsaw where they are not the boxes), killer cages with their sums
(``cages``), and global flags (``anti-knight``...). Everything else is a
drawing whose rule is only written in words (a line, a dot, a shaded cell), so
a puzzle that has one is refused, naming what it holds: solved without its
rule it would come out wrong.
"""

from __future__ import annotations

import json
import re
from typing import Any

from sudosat.core.errors import InputError
from sudosat.core.jsonobject import JsonObject
from sudosat.core.puzzle import Layout, Puzzle
from sudosat.reading.fpuzzles import decompress, puzzle_of
from sudosat.reading.jsontext import BadJson, load
from sudosat.reading.lz import TooLong

KEYS = {
    "c": "color",
    "ca": "cages",
    "ct": "center",
    "c1": "borderColor",
    "c2": "backgroundColor",
    "ce": "cells",
    "cs": "cellSize",
    "a": "arrows",
    "o": "overlays",
    "u": "underlays",
    "w": "width",
    "h": "height",
    "v": "value",
    "vd": "videos",
    "l": "lines",
    "r": "rounded",
    "re": "regions",
    "fs": "fontSize",
    "th": "thickness",
    "hl": "headLength",
    "wp": "wayPoints",
    "t": "title",
    "te": "text",
    "d": "duration",
    "d2": "d",
}
"""SudokuPad's short keys and the names they stand for."""
IGNORED = frozenset({"id", "cellSize", "metadata", "settings", "title", "author", "rules"})
"""Keys that carry no rule: the puzzle's name, its page's settings, its metadata."""
DRAWINGS = {
    "lines": "lines",
    "arrows": "arrows",
    "overlays": "overlays (dots, circles, text)",
    "underlays": "underlays (shaded cells, circles)",
    "foglight": "fog of war",
    "triggereffect": "fog of war",
    "videos": "videos",
}
GLOBALS = {"antiknight": "antiknight", "antiking": "antiking", "nonconsecutive": "nonconsecutive"}
"""Flags of the whole grid (SudokuPad's ``global``) and their f-puzzles fields."""
META = re.compile(r"^([A-Za-z]+):\s*(.*)$", re.DOTALL)
"""A cage without cells whose value says ``title: ...``: metadata, the older way."""
ABOUT = {"title": "title", "author": "author", "rules": "ruleset"}
"""SudokuPad's metadata, and f-puzzles' names for it."""
NUMBER = re.compile(r"-?[0-9]{1,9}")  # ASCII digits only, and no number of thousands of them


def read(data: str, source: str, line: int = 1) -> Puzzle:
    """The puzzle of a SudokuPad ``scl`` payload (the part after ``scl``); InputError
    naming what cannot be read or what it holds that sudosat cannot solve by."""
    try:
        zipped = decompress(data)
    except TooLong as err:
        raise InputError(source, line, 1, f"SudokuPad link: {err}") from None
    if zipped is None:
        raise InputError(source, line, 1, "a SudokuPad link whose data does not decode")
    try:
        raw = load(unzip(zipped))
    except BadJson as err:
        raise InputError(
            source, line, 1, f"a SudokuPad link whose puzzle is no JSON: {err}"
        ) from None
    if not isinstance(raw, dict):
        raise InputError(source, line, 1, "a SudokuPad link whose puzzle is no JSON object")
    return puzzle_of(as_fpuzzles(raw, source, line), source, line, False)


def unzip(text: str) -> str:
    """SudokuPad's zipped JSON as JSON, its short keys named in full."""
    if '"' not in text:  # strings in single quotes (an escaped one stays a quote)
        text = text.replace("\\'", "\x00").replace("'", '"').replace("\x00", "'")
    strings: list[str] = []

    def keep(match: re.Match[str]) -> str:
        strings.append(match[0])
        return f'"\x01{len(strings) - 1}\x01"'

    text = re.sub(r'"(?:[^"\\]|\\.)*"', keep, text)  # strings aside while the rest is mended
    text = re.sub(r"([,{\[])([A-Za-z0-9]+):", r'\1"\2":', text)  # unquoted keys
    text = re.sub(r"([,{\[])(?=[,}\]])", r"\1{}", text)  # empty objects left out
    text = re.sub(r"(:)f(?=[,}\]])", r"\1false", text)
    text = re.sub(r"(:)t(?=[,}\]])", r"\1true", text)
    text = re.sub(r"(:)#0(?=[,}\]])", r'\1"#000000"', text)
    text = re.sub(r"(:)#F(?=[,}\]])", r'\1"#FFFFFF"', text)
    text = re.sub(r"(:)([0-9a-fA-F]{6})(?=[,}\]])", r'\1"#\2"', text)
    text = re.sub(r'"\x01(\d+)\x01"', lambda m: strings[int(m[1])], text)
    return json.dumps(_named(load(text)))


def _named(value: Any) -> Any:
    """``value`` with SudokuPad's short keys replaced by their names."""
    if isinstance(value, list):
        return [_named(v) for v in value]
    if isinstance(value, dict):
        return {KEYS.get(k, k): _named(v) for k, v in value.items()}
    return value


def as_fpuzzles(raw: JsonObject, source: str, line: int) -> JsonObject:
    """The f-puzzles object of a SudokuPad puzzle, what it states as rules only."""

    def refuse(message: str) -> InputError:
        return InputError(source, line, 1, f"SudokuPad link: {message}")

    cells = raw.get("cells")
    if not isinstance(cells, list) or not cells or not all(isinstance(r, list) for r in cells):
        raise refuse("expected cells: rows of cells")
    size = len(cells)
    if any(len(row) != size for row in cells):
        raise refuse(f"a grid of {size} rows that is not {size} cells wide: not a Sudoku")
    drawn = sorted({DRAWINGS[k] for k, v in raw.items() if k in DRAWINGS and v})
    unknown = sorted(k for k in raw if k not in DRAWINGS and k not in KNOWN and k not in IGNORED)
    cages, about = _cages(raw.get("cages", []), size, refuse)
    if isinstance(raw.get("metadata"), dict):
        about |= {k: v for k, v in raw["metadata"].items() if k in ABOUT and isinstance(v, str)}
    if drawn or unknown:
        what = ", ".join(drawn + [f"'{k}'" for k in unknown])
        raise refuse(
            f"it holds {what}, whose rules a SudokuPad link does not state; sudosat reads "
            "its givens, regions, killer cages and global flags (use the setter's "
            "f-puzzles link or the text format for the rest)"
        )
    found: JsonObject = {"size": size, "grid": _grid(cells, raw.get("regions"), refuse)}
    if cages:
        found["killercage"] = cages
    found.update({ABOUT[key]: value.strip() for key, value in about.items() if value.strip()})
    flags = raw.get("global") or []
    if not isinstance(flags, list):
        raise refuse(f"expected global: a list of rules, found {str(flags)[:20]!r}")
    for flag in flags:
        field = GLOBALS.get(str(flag).lower())
        if field is None:
            raise refuse(f"a global rule {str(flag)[:20]!r} sudosat does not know")
        found[field] = True
    return found


KNOWN = frozenset({"cells", "regions", "cages", "global"})


def _grid(cells: list[list[Any]], regions: Any, refuse: Any) -> list[list[JsonObject]]:
    """f-puzzles' grid: each cell's given, and its region where they are no boxes."""
    size = len(cells)
    grid: list[list[JsonObject]] = []
    for r, row in enumerate(cells):
        out: list[JsonObject] = []
        for c, cell in enumerate(row):
            value = cell.get("value") if isinstance(cell, dict) else None
            if value in (None, ""):
                out.append({})
                continue
            if not NUMBER.fullmatch(str(value)):
                raise refuse(f"R{r + 1}C{c + 1}: a given {str(value)[:10]!r} is no digit")
            out.append({"value": int(value), "given": True})
        grid.append(out)
    if regions in (None, []):
        return grid
    if not isinstance(regions, list):
        raise refuse("expected regions: lists of cells")
    region_of = [-1] * (size * size)
    for index, region in enumerate(regions):
        for cell in region if isinstance(region, list) else [None]:
            place = _cell(cell, size, refuse)
            if region_of[place] != -1:
                raise refuse(f"R{place // size + 1}C{place % size + 1} is in two regions")
            region_of[place] = index
    if -1 in region_of:
        missing = region_of.index(-1)
        raise refuse(f"R{missing // size + 1}C{missing % size + 1} is in no region")
    if tuple(region_of) != _boxes(size):
        for place, index in enumerate(region_of):
            grid[place // size][place % size]["region"] = index
    return grid


def _boxes(size: int) -> tuple[int, ...]:
    try:
        return tuple(Layout.boxes(size).unit_index[2])
    except ValueError:  # no boxes of that size: every region is a jigsaw's
        return ()


def _cell(cell: Any, size: int, refuse: Any) -> int:
    """A cell index from SudokuPad's ``[row, column]`` (0-based)."""
    if (
        not isinstance(cell, list)
        or len(cell) != 2
        or not all(type(x) is int and 0 <= x < size for x in cell)  # not True, not 1.0
    ):
        raise refuse(f"expected a cell [row, column] inside the grid, found {str(cell)[:20]}")
    row, col = cell
    return int(row) * size + int(col)


def _cages(cages: Any, size: int, refuse: Any) -> tuple[list[JsonObject], dict[str, str]]:
    """f-puzzles' killer cages of SudokuPad's cages, and what metadata cages say
    (title, author, rules). A cage drawn with another style is a drawing, and is
    refused."""
    if not isinstance(cages, list):
        raise refuse("expected cages: a list")
    found: list[JsonObject] = []
    about: dict[str, str] = {}
    for cage in cages:
        if not isinstance(cage, dict):
            raise refuse("expected each cage to be an object")
        value = cage.get("value")
        members = cage.get("cells") or []
        meta = META.match(str(value)) if isinstance(value, str) else None
        if not members and meta:
            if meta[1].lower() in ABOUT:
                about[meta[1].lower()] = meta[2]
            continue
        if cage.get("style") not in (None, "killer") or cage.get("hidden"):
            raise refuse(
                f"a cage drawn as {cage.get('style') or 'hidden'}, whose rule it does not state"
            )
        names = [
            f"R{p // size + 1}C{p % size + 1}" for p in (_cell(x, size, refuse) for x in members)
        ]
        if not names:
            raise refuse("a cage with no cells")
        entry: JsonObject = {"cells": names}
        total = cage.get("sum", value)
        if total not in (None, ""):
            if not NUMBER.fullmatch(str(total)):
                raise refuse(f"a cage whose sum {str(total)[:10]!r} is no number")
            entry["value"] = str(total)
        elif not cage.get("unique", False):
            raise refuse("a cage with neither a sum nor distinct digits: a drawing")
        if cage.get("unique") is False:
            raise refuse("a cage whose digits may repeat, which sudosat has no rule for")
        found.append(entry)
    return found, about
