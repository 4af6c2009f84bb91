"""Reading and writing puzzles as text.

A text is read in every way that could make sense (characters in one of the
known alphabets, whitespace-separated numbers, fixed-width rows with spaces
as blanks); the readings that fit are compared, and when two of them disagree
the reader stops and asks for an alphabet or a rank instead of guessing.

Here: a text as a whole (headers, grids, blocks, JSON and f-puzzles documents).
How rows become cells, and which reading is chosen: :mod:`cells`; a stream of
one-line puzzles: :mod:`lines`.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from sudosat.core.errors import AmbiguousInput, InputError
from sudosat.core.puzzle import MAX_RANK, Puzzle, rank_for_cells
from sudosat.reading import ruletext
from sudosat.reading.cells import (
    DECORATION,
    NAMED_ALPHABETS,
    NOT_A_CELL,
    NUMBERS,
    Row,
    choose,
    looks_like_header,
    plainly_numbers,
    puzzle_of,
    readings_of,
    size_hint,
)
from sudosat.reading.lines import (
    NO_VARIANTS,
    LineReader,
    Variants,
    fits,
    four_by_four_lines,
    fpuzzles_row,
    maybe_fpuzzles,
    read_lines,
    sized_grid,
    with_rules,
)

if TYPE_CHECKING:
    from sudosat.reading.records import Item

SEPARATOR_LINE = re.compile(rf"^[{DECORATION}]*[-+=\u2500-\u257f][{DECORATION}]*$")
"""A rule or border line, as people draw grids: ``------+------``, ``|---+---|``,
Sudoku Explainer's ``*-----------*``, HoDoKu's ``.-------.-------.`` and
``:-------+-------:``, box drawing ``┣━━━╋━━━┫``."""
LAYOUTS = ("auto", "line", "grid")
STREAM_HEADER = re.compile(r"^\s*(\[.*\]|[^\W\d_]{2,}\S*(\s+\S+)*\s+#?\d+\s*:?|\S.*:)\s*$")
"""A header line between one-line puzzles, where a broken line must stay an
error: ``[Puzzle]``, words then a number (``Grid 01``, ``Puzzle #7``), or a
line ending in a colon."""


def stream_header(text: str) -> bool:
    """Whether a line between one-line puzzles names the puzzle below it."""
    return bool(STREAM_HEADER.match(text)) and not fits(len(NOT_A_CELL.sub("", text)), None)


def header_name(text: str) -> str:
    """The name a header line gives: its text, without brackets or a final colon."""
    stripped = text.strip()
    if stripped.startswith("[") and stripped.endswith("]"):
        stripped = stripped[1:-1].strip()
    return stripped.removesuffix(":").strip()


def decode_text(data: bytes, source: str, expected: str = "puzzle text") -> str:
    """UTF-8 text; NUL bytes and undecodable bytes are binary data, reported where they are."""
    bad = data.find(b"\x00")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        bad = err.start if bad < 0 else min(bad, err.start)
    if bad < 0:
        return text
    line = data.count(b"\n", 0, bad) + 1
    col = bad - (data.rfind(b"\n", 0, bad) + 1) + 1
    raise InputError(source, line, col, f"binary data, expected {expected}")


def _reject_binary(text: str, source: str) -> None:
    for line_no, line in enumerate(text.splitlines(), 1):
        if line.isprintable():
            continue
        col = next((i for i, ch in enumerate(line, 1) if not (ch.isprintable() or ch.isspace())), 0)
        if col:  # tabs and other white space are fine
            raise InputError(source, line_no, col, "binary data, expected puzzle text")


def _content_rows(text: str) -> list[Row]:
    """Lines that may hold cells: not blank, not ``#`` comments, not ``+---+`` rules."""
    rows = []
    for number, line in enumerate(text.splitlines(), 1):
        if is_content(line) and not SEPARATOR_LINE.match(line):
            rows.append(Row(number, line))
    return rows


def is_content(line: str) -> bool:
    """Neither blank nor a ``#`` comment."""
    stripped = line.strip()
    return bool(stripped) and not stripped.startswith("#")


def read_text(
    text: str,
    source: str = "<stdin>",
    *,
    rank: int | None = None,
    alphabet: str | None = None,
    layout: str = "auto",
    variants: Variants = NO_VARIANTS,
) -> list[Puzzle | InputError]:
    """Every puzzle in ``text``, in order; a broken line of a many-puzzle file, or a
    broken grid of a many-grid file, is an InputError.

    ``layout`` is ``grid`` (puzzles are grids: one, or several one after another
    or each under a header line), ``line`` (one puzzle per line) or ``auto``
    (one puzzle per line when the lines are whole puzzles, else grids).
    A header line (``Grid 01``, ``[Puzzle]``: a line with words in it that is no
    row of the grid below) starts a puzzle and names it. An f-puzzles puzzle
    (JSON, or links one per line) is read as such; rule statements in the text
    (see :mod:`ruletext`) and in ``variants`` apply to its puzzles. Raises
    InputError when the text as a whole cannot be read.
    """
    _reject_binary(text, source)
    if text.lstrip().startswith(("{", "[")):
        from sudosat.reading import records  # deferred: JSON input only

        if text.lstrip().startswith("{"):  # JSON, or nothing: what is wrong with it, said once
            records.check_json(text, source)
        items = records.read_document(text)
        if items is not None:  # sudosat's own --format json
            return _read_records(items, source, rank, alphabet, variants)
    if text.lstrip().startswith("{"):  # an f-puzzles JSON file
        from sudosat.reading import fpuzzles  # deferred: rules and lz-string, for f-puzzles only

        puzzle = fpuzzles.read(text, source, 1, variants.values_as_givens)
        return [ruletext.apply(puzzle, variants.statements)]
    statements, text = ruletext.split(text, source)
    rows = _content_rows(text)
    if not rows and statements:  # rules alone: an empty grid of their size
        return [ruletext.apply(ruletext.read_empty(statements, source), variants.statements)]
    if rows and maybe_fpuzzles(rows[0].text):  # links, one per line
        return [fpuzzles_row(row, source, variants) for row in rows]
    size = statements.size() if statements else None
    if size is not None and rank_for_cells(size * size) is None:  # a 6x6, an 8x8, ...
        grid = sized_grid(rows, size, source, alphabet)
        return [with_rules(grid, (statements, *variants.statements))]
    found = _read_classic(text, rows, source, rank, alphabet, layout)
    groups = (statements, *variants.statements) if statements else variants.statements
    return [with_rules(entry, groups) for entry in found] if groups else found


def _read_records(
    items: list[Item], source: str, rank: int | None, alphabet: str | None, variants: Variants
) -> list[Puzzle | InputError]:
    """The puzzles of ``--format json`` output, each with its rules and name; a
    record that cannot be read is an error of its own."""
    reader = LineReader(source, rank, alphabet, variants)
    found: list[Puzzle | InputError] = []
    for line, column, record in items:
        if record.error:
            found.append(InputError(source, line, column, record.error))
            continue
        puzzle = reader.read_row(Row(line, record.puzzle), record.rules)
        found.append(replace(puzzle, name=record.name) if isinstance(puzzle, Puzzle) else puzzle)
    return found


def _read_classic(
    text: str,
    rows: list[Row],
    source: str,
    rank: int | None,
    alphabet: str | None,
    layout: str,
) -> list[Puzzle | InputError]:
    """:func:`read_text` of puzzles as text: grids, lines, headers."""
    if rank is not None and not 2 <= rank <= MAX_RANK:
        raise InputError(source, 1, 1, f"rank {rank} is outside 2..{MAX_RANK}")
    if rank is None and alphabet and alphabet not in NAMED_ALPHABETS:
        rank = _rank_of_alphabet(alphabet, source)
    if not rows:
        raise InputError(source, 1, 1, f"empty input: expected a puzzle of {size_hint(rank)}")
    blocks = _headed_blocks(rows)
    if len(blocks) == 1 and not blocks[0][0]:  # no header: the text as a whole
        return _read_block(rows, source, rank, alphabet, layout)
    found: list[Puzzle | InputError] = []
    for name, block in blocks:
        try:
            read = _read_block(block, source, rank, alphabet, layout)
        except InputError as err:
            found.append(err)
            continue
        first = read[0]
        found.append(replace(first, name=name) if isinstance(first, Puzzle) and name else first)
        found.extend(read[1:])
    return found


def _read_block(
    rows: Sequence[Row], source: str, rank: int | None, alphabet: str | None, layout: str
) -> list[Puzzle | InputError]:
    """The puzzles of some rows: a grid, grids one after another, or one per line."""
    if layout == "auto":
        layout = _guess_layout(rows, source, rank, alphabet)
    if layout != "grid":
        return list(read_lines(rows, source, rank, alphabet))
    readings = readings_of(rows, source, rank, alphabet, True)
    grids = _consecutive_grids(rows, alphabet)
    if any(r.values is not None for r in readings) or len(grids) == 1:
        reading = choose(readings, rows, source, rank, alphabet)
        return [puzzle_of(reading, source, rows[0].number)]
    found: list[Puzzle | InputError] = []
    for grid in grids:
        try:
            reading = choose(readings_of(grid, source, rank, alphabet, True), grid, source, rank)
        except InputError as err:
            found.append(err)
            continue
        found.append(puzzle_of(reading, source, grid[0].number))
    return found


def _row_widths(rows: Sequence[Row], alphabet: str | None) -> list[int]:
    """Cells per row: words when the rows are numbers, else characters."""
    if alphabet == NUMBERS or (alphabet is None and plainly_numbers(rows)):
        return [len(row.word_texts) for row in rows]
    return [row.char_count for row in rows]


def _consecutive_grids(rows: Sequence[Row], alphabet: str | None) -> list[Sequence[Row]]:
    """Rows of several grids one after another (N rows of N cells each, as in a
    file of grids separated by blank lines), split into grids; else ``[rows]``."""
    widths = set(_row_widths(rows, alphabet))
    if len(widths) != 1:
        return [rows]
    width = widths.pop()
    if rank_for_cells(width * width) is None or len(rows) <= width or len(rows) % width:
        return [rows]
    return [rows[start : start + width] for start in range(0, len(rows), width)]


def _headed_blocks(rows: Sequence[Row]) -> list[tuple[str, Sequence[Row]]]:
    """The rows split at header lines, each block with its header's name ("" for
    rows before the first header). A line is a header when it looks like one
    (:func:`looks_like_header`) and is no row like the others: its cells, counted
    as characters or as words, match no other line's."""
    plain = [row for row in rows if not looks_like_header(row.text)]
    widths = {row.char_count for row in plain}
    widths |= {len(row.word_texts) for row in plain if len(row.word_texts) > 1}
    # between one-line puzzles a broken line must stay an error: headers look stricter there
    lines = any(fits(width, None) for width in widths)
    heads = [
        i
        for i, row in enumerate(rows)
        if (stream_header(row.text) if lines else looks_like_header(row.text))
        and row.char_count not in widths
        and len(row.word_texts) not in widths
        and not fits(row.char_count, None)
    ]
    if not heads:
        return [("", rows)]
    blocks: list[tuple[str, Sequence[Row]]] = []
    if heads[0] > 0:
        blocks.append(("", rows[: heads[0]]))
    for at, end in zip(heads, [*heads[1:], len(rows)], strict=True):
        if end > at + 1:  # a header with nothing under it names nothing
            blocks.append((header_name(rows[at].text), rows[at + 1 : end]))
    return blocks or [("", rows)]


def _rank_of_alphabet(spec: str, source: str) -> int | None:
    """A literal alphabet of N symbols fixes the size; N must be a square."""
    if spec == NUMBERS:
        return None
    root = math.isqrt(len(spec))
    if root * root != len(spec) or root < 2:
        raise InputError(
            source, 1, 1, f"the alphabet has {len(spec)} symbols; N must be 4, 9, 16, 25 or 36"
        )
    return root


def _guess_layout(rows: Sequence[Row], source: str, rank: int | None, alphabet: str | None) -> str:
    if len(rows) == 1:
        return "grid"
    as_grid = any(r.values for r in readings_of(rows, source, rank, alphabet, True))
    line_fits = [
        any(fits(count, rank) for count in (row.char_count, len(row.word_texts)))
        for row in rows[:50]
    ]
    if rank is None and four_by_four_lines([row.text for row in rows[:50]]):
        return "line"
    if as_grid and any(line_fits):
        raise AmbiguousInput(
            source,
            rows[0].number,
            1,
            "could be one grid or one puzzle per line; choose a rank or a layout",
        )
    if as_grid or not any(line_fits):
        return "grid"
    return "line"


def parse(
    text: str,
    *,
    rank: int | None = None,
    alphabet: str | None = None,
    layout: str = "auto",
    source: str = "<text>",
) -> Puzzle:
    """The single puzzle in ``text``; raises InputError for anything else.

    ``alphabet``: a name (digits, hex, base36, rexl, numbers) or the N symbols in
    value order; ``rank``: the box size; both are found from the text when not given.
    """
    found = read_text(text, source, rank=rank, alphabet=alphabet, layout=layout)
    if len(found) != 1:
        raise InputError(source, 1, 1, f"expected one puzzle, found {len(found)}")
    entry = found[0]
    if isinstance(entry, InputError):
        raise entry
    return entry
