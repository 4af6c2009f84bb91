"""f-puzzles, the exchange format of variant Sudoku: JSON, in a link or bare.

A puzzle comes as the JSON itself (a ``.json`` file), as a link holding it
(``https://f-puzzles.com/?load=<data>``; SudokuPad's ``...fpuzzles<data>``),
or as the bare ``<data>``: the JSON compressed with lz-string's
``compressToBase64`` (decoded by :mod:`sudosat.reading.lz`). Links
that went through a form or a chat arrive with ``+`` turned into spaces and
``%``-escapes; both are undone.

The JSON: ``size``, ``grid`` (rows of cells: ``value``, ``given``,
``region``), and a field per kind of constraint, read by the rule that owns
it (see :mod:`rules`). Only a cell marked ``given: true`` is a given: other
values and pencil marks are the solver's scribbles (``values_as_givens``
takes filled values too). Drawing-only fields are accepted and kept out of
the rules; any other field is an error that names it, since solving without
one of the setter's rules would give a wrong "unique".
"""

from __future__ import annotations

import json
import re
from functools import lru_cache
from typing import Any
from urllib.parse import unquote

from sudosat.core.errors import InputError
from sudosat.core.jsonobject import JsonObject
from sudosat.core.notation import DIGITS, FPUZZLES_LINK, is_link
from sudosat.core.puzzle import MAX_SIZE, Layout, Puzzle, Rules
from sudosat.reading.jsontext import BadJson, load
from sudosat.reading.lz import TooLong, decompress_base64
from sudosat.rules import BY_CELL, BY_FIELD, Rule, Where
from sudosat.rules.index import IN_CELLS

DRAWING = frozenset(
    {
        "cage",
        "line",
        "text",
        "circle",
        "rectangle",
        "title",
        "author",
        "ruleset",
        "solution",
        "highlightConflicts",
        "disabledlogic",
        "truecandidatesoptions",
        "fogofwar",
        "foglight",
        "triggereffect",
        "metadata",
    }
)
"""Fields that carry no rule: pictures, words, settings of the f-puzzles page,
and the setter's own solution."""
SCRIBBLES = frozenset(
    {"centerPencilMarks", "cornerPencilMarks", "candidates", "c", "cArray", "highlight"}
)
"""Keys of a grid cell that carry no rule: the solver's pencil marks and the cell's
colours (``given`` and ``value`` make a given; ``region`` a jigsaw's region)."""
SHAPES = ("line", "cage", "circle", "rectangle", "text")
"""The drawing-only fields a setter may draw a rule with (a whispers line as a
plain ``line``): named on stderr when such a puzzle comes out not unique."""
NATIVE = frozenset(
    {
        *("thermometer", "arrow", "killercage", "littlekillersum", "sandwichsum"),
        *("difference", "ratio", "xv", "palindrome", "betweenline", "clone", "extraregion"),
        *("minimum", "maximum", "odd", "even", "quadruple", "diagonal+", "diagonal-"),
        *("antiknight", "antiking", "nonconsecutive", "disjointgroups", "negative"),
    }
)
"""The constraints f-puzzles (1.11.2) itself knows and draws. A link out writes every
other rule under its own field (which sudosat and f-puzzles' new-constraints
script read) and also as setters draw it where f-puzzles has no such rule, as
that script does: a line as a plain ``line`` (a slow thermometer's bulb as a
``circle``), an outside clue as ``text`` in the ring around the grid, a rule of
cells as a ``rectangle`` on each, each marked ``isNewConstraint`` (and passed
over when read), and its meaning written into the rules text."""
LINE_WIDTH = 0.3
"""A cell's share a copied line is wide (the script's whispers)."""
COPIED = "isNewConstraint"


def _drawn(shapes: Any) -> bool:
    """Whether a drawing field holds a shape of the setter's (not a copy of a rule)."""
    if not isinstance(shapes, list):
        return bool(shapes)
    copied = ("isNewConstraint", "isLLConstraint")
    return any(not (isinstance(s, dict) and any(s.get(k) for k in copied)) for s in shapes)


BASE64_LINE = re.compile(r"[A-Za-z0-9+/= ]{40,}")


def looks_like(text: str) -> bool:
    """Whether ``text`` may be an f-puzzles puzzle: JSON, a link, or a bare string."""
    return text.strip().startswith("{") or looks_like_line(text)


def looks_like_line(text: str) -> bool:
    """Whether one line may be an f-puzzles puzzle: a link or a bare string."""
    stripped = text.strip()
    if is_link(stripped):
        return True
    if not BASE64_LINE.fullmatch(stripped) or not re.search("[A-Za-z]", stripped):
        return False  # lz-strings hold letters; a line of digits is a puzzle's
    try:
        return decompress(stripped) is not None
    except TooLong:  # an lz-string: read, it is refused as one
        return True


def read(text: str, source: str, line: int = 1, values_as_givens: bool = False) -> Puzzle:
    """The puzzle of an f-puzzles text (JSON, link or bare string); InputError
    naming what is wrong and where."""
    stripped = text.strip()
    if stripped.startswith("{"):
        raw = stripped
    else:
        match = FPUZZLES_LINK.search(stripped)
        data = match[1] if match else stripped
        try:
            found = decompress(unquote(data).replace(" ", "+"))
        except TooLong as err:
            raise InputError(source, line, 1, f"f-puzzles link: {err}") from None
        if found is None:
            raise InputError(source, line, 1, "an f-puzzles link or string that does not decode")
        raw = found
    try:
        data = load(raw)
    except BadJson as err:
        raise InputError(source, line, 1, f"f-puzzles JSON: {err}") from None
    if not isinstance(data, dict):
        raise InputError(source, line, 1, "f-puzzles JSON: expected an object")
    return puzzle_of(data, source, line, values_as_givens)


@lru_cache(maxsize=256)  # a line is looked at (the first lines of a file twice), then read
def decompress(data: str) -> str | None:
    """The JSON text of an f-puzzles payload (lz-string's
    ``decompressFromBase64``, :mod:`lz`), or None when it holds none."""
    found = decompress_base64(data)
    return found if found is not None and found.lstrip().startswith("{") else None


def puzzle_of(data: JsonObject, source: str, line: int, values_as_givens: bool) -> Puzzle:
    """The puzzle an f-puzzles object describes."""
    where = Where(source, line, 0)
    size = data.get("size", 9)
    if not isinstance(size, int) or not 3 <= size <= MAX_SIZE:
        raise where.error(f"size {size!r}: expected 3..{MAX_SIZE}")
    where.size = size
    cells, region_of, in_grid = _grid(data.get("grid"), size, where.at("grid"), values_as_givens)
    layout = Layout.jigsaw(region_of) if region_of else Layout.boxes(size)
    _check_regions(layout, where.at("regions"))
    where.layout = layout
    constraints = [r for kind, c, value, at in in_grid for r in kind.from_cell(c, value, at)]
    for key, value in data.items():
        if key in ("size", "grid") or key in DRAWING or value is None:
            continue  # null: f-puzzles' way of leaving a field out
        kind = BY_FIELD.get(key)
        if kind is None or kind.cell_key == key:
            raise where.error(
                f"unknown constraint {key!r}: sudosat cannot solve this puzzle by its rules"
            )
        constraints += kind.from_fpuzzles(value, where.at(key))
    drawn = tuple(key for key in SHAPES if _drawn(data.get(key)))
    name, author, ruleset = (
        data[key].strip() if isinstance(data.get(key), str) else ""
        for key in ("title", "author", "ruleset")
    )
    setters, _, added = ruleset.partition(ADDED_RULES)  # what a link out added: not the setter's
    rules = Rules.of(layout, constraints, drawn, _lost(added, constraints))
    alphabet = DIGITS[:size] if size <= 9 else ""
    return Puzzle(layout.rank, cells, alphabet, source, line, name, rules, author, setters.strip())


def _lost(added: str, constraints: list[Rule]) -> tuple[str, ...]:
    """The kinds of rule a link out named after ADDED_RULES (each drawn as shapes
    too) of which the link holds none now: an editor that does not know their
    fields (f-puzzles itself) dropped them and kept the shapes."""
    if not added.strip():
        return ()  # (the common case: no rule kinds to look up, none loaded)
    read = {type(rule).title.lower() for rule in constraints}
    titles = {kind.title.lower(): kind.title for kind in BY_FIELD.values() if kind.title}
    named = (line.partition(":")[0].strip().lower() for line in added.splitlines())
    return tuple(titles[t] for t in dict.fromkeys(named) if t in titles and t not in read)


CELL_RULES = frozenset(IN_CELLS)
"""The keys of f-puzzles' grid cells that hold rules (their classes in BY_CELL,
imported when met)."""
InGrid = tuple[type[Rule], int, Any, Where]
"""A rule kept in a cell of f-puzzles' grid: its kind, the cell, the value, where."""


def _grid(
    grid: Any, size: int, where: Where, values_as_givens: bool
) -> tuple[tuple[int, ...], list[int], list[InGrid]]:
    """The givens, each cell's region when the grid gives any, and the rules kept
    in its cells (given pencil marks)."""
    if not isinstance(grid, list) or len(grid) != size:
        raise where.error(f"expected {size} rows of cells")
    boxes = Layout.boxes(size).unit_index[2]
    cells: list[int] = []
    regions: list[int] = []
    in_grid: list[InGrid] = []
    custom = False
    for r, row in enumerate(grid):
        if not isinstance(row, list) or len(row) != size:
            raise where.error(f"row {r + 1}: expected {size} cells")
        for c, cell in enumerate(row):
            if not isinstance(cell, dict):
                raise where.error(f"R{r + 1}C{c + 1}: expected an object")
            name = f"R{r + 1}C{c + 1}"
            value = cell.get("value")
            marked = cell.get("given")
            if not (marked is None or isinstance(marked, bool)):  # "true", 1: refused, said
                raise where.error(f"{name}: given {str(marked)[:20]!r}: expected true or false")
            given = marked is True or (values_as_givens and value not in (None, ""))
            digit = where.number(value, 0) if given else 0
            if digit is not None and not 0 <= digit <= size:
                raise where.error(f"{name}: value {digit} outside 1..{size}")
            cells.append(digit or 0)
            for key, found in cell.items():
                if found is None or key in ("value", "given", "region") or key in SCRIBBLES:
                    continue  # null: f-puzzles' way of leaving a key out
                if key not in CELL_RULES:
                    unknown = f"unknown key {key!r}: sudosat cannot solve this puzzle by its rules"
                    raise where.error(f"{name}: {unknown}")
                in_grid.append((BY_CELL[key], r * size + c, found, where.at(f"{name} {key}")))
            if "region" in cell:
                custom = True
                regions.append(_region(cell["region"], where.at(name)))
            else:
                regions.append(boxes[r * size + c])
    return tuple(cells), regions if custom else [], in_grid


def _region(value: Any, where: Where) -> int:
    if value is None:  # f-puzzles: a cell taken out of every region
        raise where.error("in no region (region null): every cell must lie in one of the regions")
    if not isinstance(value, int) or value < 0:
        raise where.error(f"region {value!r}: expected a number from 0")
    return value


def _check_regions(layout: Layout, where: Where) -> None:
    n = layout.size
    if len(layout.regions) != n:
        raise where.error(f"{len(layout.regions)} regions, expected {n}")
    for index, region in enumerate(layout.regions, 1):
        if len(region) != n:
            raise where.error(f"region {index} has {len(region)} cells, expected {n}")


def write(puzzle: Puzzle) -> JsonObject:
    """The f-puzzles object of a puzzle (classic or variant): what
    :func:`puzzle_of` reads back as the same puzzle."""
    layout, n = puzzle.layout, puzzle.size
    regions = layout.unit_index[2]
    jigsaw = layout.irregular
    grid = []
    for r in range(n):
        row = []
        for c in range(n):
            value = puzzle.cells[r * n + c]
            cell: JsonObject = {"value": value, "given": True} if value else {}
            if jigsaw:
                cell["region"] = regions[r * n + c]
            row.append(cell)
        grid.append(row)
    data: JsonObject = {"size": n, "grid": grid}
    about = {"title": puzzle.name, "author": puzzle.author, "ruleset": puzzle.ruleset}
    data.update({key: value for key, value in about.items() if value})
    for rule in puzzle.constraints:
        kept = rule.grid_entry()
        if kept is not None:
            at, found = kept
            grid[at // n][at % n].update(found)
            continue
        key, entry = rule.to_fpuzzles(n)
        if entry is True:
            data[key] = True
        elif key == "negative":
            data.setdefault("negative", []).extend(entry)
        else:
            data.setdefault(key, []).append(entry)
        if key not in NATIVE:
            _as_drawn(data, rule, entry)
    for shape in SHAPES:  # in one order, whatever the rules' (a link read back writes the same)
        if shape in data:
            data[shape].sort(key=json.dumps)
    _rules_text(data, puzzle)
    return data


def _as_drawn(data: JsonObject, rule: Any, entry: Any) -> None:
    """``rule``, which f-puzzles does not know, as setters draw it there (NATIVE)."""
    colour = getattr(rule, "colour", None) or "#A0A0A0"

    def drawn(kind: str, shape: JsonObject) -> None:
        data.setdefault(kind, []).append({**shape, COPIED: True})

    if isinstance(entry, dict) and "lines" in entry:
        drawn("line", {"lines": entry["lines"], "outlineC": colour, "width": LINE_WIDTH})
        if getattr(rule, "strict", True) is False and entry["lines"][0]:  # a slow thermo's bulb
            bulb = {"cells": [entry["lines"][0][0]], "baseC": colour, "outlineC": colour}
            drawn("circle", {**bulb, "width": 0.75, "height": 0.75})
    elif isinstance(entry, dict) and "cell" in entry and getattr(rule, "outside", False):
        value = str(entry.get("value", ""))
        drawn("text", {"cells": [entry["cell"]], "value": value, "fontC": "#000000", "size": 0.6})
    elif isinstance(entry, dict) and "cells" in entry:
        for cell in entry["cells"]:
            shade = {"cells": [cell], "baseC": "#D8D8F0", "outlineC": "#D8D8F0"}
            drawn("rectangle", {**shade, "width": 1, "height": 1})


ADDED_RULES = "Rules f-puzzles draws as shapes:"
"""The line after which a link out adds meanings to the setter's rules text: read
back, the text stops there (the setter's own is what the puzzle keeps)."""


def _rules_text(data: JsonObject, puzzle: Puzzle) -> None:
    """The meaning of each rule f-puzzles does not know, once a kind, added to the
    rules text after ADDED_RULES (unless the setter's text says it already): what
    f-puzzles shows of a rule it cannot draw or check."""
    said = data.get("ruleset", "")
    added = []
    for kind in dict.fromkeys(type(r) for r in puzzle.constraints):
        field, meaning = kind.field, kind.meaning
        title = kind.title[:1].upper() + kind.title[1:]
        if field and field not in NATIVE and meaning and f"{title}:" not in said:
            added.append(f"{title}: {meaning}")
    if added:
        data["ruleset"] = "\n".join([*([said, ""] if said else []), ADDED_RULES, *added])


def link(puzzle: Puzzle) -> str:
    """The f-puzzles link of a puzzle."""
    return pack(write(puzzle))


def pack(data: JsonObject) -> str:
    """The f-puzzles link of an f-puzzles object."""
    import lzstring  # deferred: only links out need it

    packed = lzstring.LZString().compressToBase64(json.dumps(data))
    return f"https://f-puzzles.com/?load={packed}"
