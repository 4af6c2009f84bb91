"""Reading and writing puzzles as text.

A text is read in every way that could make sense (characters in one of the
known alphabets, whitespace-separated numbers, fixed-width rows with spaces
as blanks); the readings that fit are compared, and when two of them disagree
the reader stops and asks for an alphabet or a rank instead of guessing.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from functools import cached_property
from typing import TYPE_CHECKING, Any

from sudosat.core.errors import AmbiguousInput, InputError, shorten
from sudosat.core.notation import BASE36, DIGITS, HEX, REXL, is_link
from sudosat.core.puzzle import MAX_RANK, Layout, Puzzle, Rules, rank_for_cells
from sudosat.reading import ruletext

if TYPE_CHECKING:
    from sudosat.reading.records import Item

NAMED_ALPHABETS = {"digits": DIGITS, "hex": HEX, "base36": BASE36, "rexl": REXL}
NUMBERS = "numbers"
"""The alphabet name for whitespace-separated integers (0 = blank)."""

BLANKS = "._*?"
"""Blank marks in every alphabet; ``0`` and space are blanks too where they are no symbol."""

NOT_A_CELL = re.compile(r"[\s|+\u2500-\u257f]")
"""White space, box separators and box-drawing borders (``|``, ``│``, ``║``)."""
A_WORD = re.compile(r"[^\s|+\u2500-\u257f]+")
DECORATION = r"\s|+=:*.'\-\u2500-\u257f"


SEPARATOR_LINE = re.compile(rf"^[{DECORATION}]*[-+=\u2500-\u257f][{DECORATION}]*$")
"""A rule or border line, as people draw grids: ``------+------``, ``|---+---|``,
Sudoku Explainer's ``*-----------*``, HoDoKu's ``.-------.-------.`` and
``:-------+-------:``, box drawing ``┣━━━╋━━━┫``."""
HEADER_WORD = re.compile(r"[^\W\d_]{2,}")
"""Two letters in a row: a word, as in a header line (``Grid 01``, ``Puzzle 3``)."""
LAYOUTS = ("auto", "line", "grid")
MAX_CHAR_RANK = 6
"""One character per cell goes up to 36x36 (the 36-symbol alphabets); beyond, numbers."""
MAX_CHAR_CELLS = MAX_CHAR_RANK**4


@dataclass(frozen=True)
class Cell:
    text: str
    line: int
    col: int


@dataclass(frozen=True)
class Alphabet:
    """Symbols for values 1..N; ``symbols == ''`` means decimal numbers."""

    name: str
    symbols: str

    @property
    def folds_case(self) -> bool:
        return len(set(self.symbols.upper())) == len(self.symbols)

    def blanks(self) -> str:
        extra = "".join(ch for ch in "0 " if ch not in self.symbols)
        return BLANKS + extra

    def table(self) -> dict[str, int]:
        """Every symbol and blank mark, in both cases where case does not matter, to its value."""
        found = dict.fromkeys(self.blanks(), 0)
        for value, symbol in enumerate(self.symbols, 1):
            found[symbol] = value
            if self.folds_case:
                found[symbol.lower()] = found[symbol.upper()] = value
        return found

    def describe(self) -> str:
        shown = {"digits": f"1-{self.symbols[-1]}", "hex": "hex 0-f"}.get(self.name, self.symbols)
        return f"{shown} ({self.name})" if self.name not in ("digits", "hex", "custom") else shown


def lookup_alphabet(spec: str, size: int) -> Alphabet:
    """An alphabet by name (digits, hex, base36, rexl) or as its literal symbols."""
    if spec in NAMED_ALPHABETS:
        symbols = NAMED_ALPHABETS[spec]
        if len(symbols) < size:
            raise ValueError(f"alphabet {spec} has only {len(symbols)} symbols, {size} needed")
        if spec == "hex" and size != 16:
            raise ValueError("the hex alphabet is for 16x16 puzzles")
        return Alphabet(spec, symbols[:size])
    if len(spec) != size or len(set(spec)) != size:
        raise ValueError(f"an alphabet of {size} distinct symbols is needed, got {spec!r}")
    if any(ch in BLANKS or ch.isspace() for ch in spec):
        raise ValueError(f"an alphabet may not use the blank marks {BLANKS!r} or spaces")
    return Alphabet("custom", spec)


def candidate_alphabets(size: int) -> list[Alphabet]:
    """The alphabets tried, in this order, when none is given."""
    if size <= 9:
        return [Alphabet("digits", DIGITS[:size])]
    if size == 16:
        # Rexl's first 16 symbols are hex's in another order: hex wins for 16x16.
        return [Alphabet("hex", HEX), Alphabet("base36", BASE36[:16])]
    found = []
    if size <= len(BASE36):
        found.append(Alphabet("base36", BASE36[:size]))
    if size <= len(REXL):
        found.append(Alphabet("rexl", REXL[:size]))
    return found


def size_hint(rank: int | None) -> str:
    if rank:
        return f"{rank**4} cells (a {rank * rank}x{rank * rank} grid)"
    return "16, 81, 256, 625 or 1296 cells (4x4, 9x9, 16x16, 25x25 or 36x36)"


def looks_like_header(text: str) -> bool:
    """A line that may name the puzzle below it: ``[Puzzle]``, or one with a word
    in it (``Grid 01``). Whether it is one depends on the rows around it."""
    stripped = text.strip()
    bracketed = stripped.startswith("[") and stripped.endswith("]")
    return bracketed or bool(HEADER_WORD.search(stripped))


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


@dataclass(frozen=True)
class Row:
    """One line of input that may hold cells."""

    number: int
    text: str

    def chars(self) -> list[Cell]:
        """Every character but whitespace, box separators and borders is a cell."""
        return [
            Cell(ch, self.number, col)
            for col, ch in enumerate(self.text, 1)
            if not NOT_A_CELL.match(ch)
        ]

    def fixed(self) -> list[Cell]:
        """Every character is a cell, spaces included (blanks in fixed-width rows)."""
        return [
            Cell(ch, self.number, col)
            for col, ch in enumerate(self.text, 1)
            if ch != "|" and not "\u2500" <= ch <= "\u257f"
        ]

    def words(self) -> list[Cell]:
        return self._words

    @cached_property  # the numbers reading and the checks before it share it
    def _words(self) -> list[Cell]:
        return [Cell(m.group(), self.number, m.start() + 1) for m in A_WORD.finditer(self.text)]

    # Counts without a Cell per character: a megabyte line is refused in
    # milliseconds, not seconds.
    @cached_property
    def char_count(self) -> int:
        return len(NOT_A_CELL.sub("", self.text))

    @cached_property
    def word_texts(self) -> list[str]:
        return A_WORD.findall(self.text)


@dataclass
class Reading:
    """One way of taking rows apart into cells, with its result or its error."""

    kind: str  # "chars", "fixed", "numbers"
    cells: list[Cell]
    values: list[int] | None = None
    alphabet: Alphabet | None = None
    error: InputError | None = None

    def blank_marks(self) -> set[str]:
        return {cell.text for cell, v in zip(self.cells, self.values or (), strict=False) if not v}


def _split(rows: Sequence[Row], kind: str, grid: bool) -> list[Cell] | None:
    """Cells of ``rows`` read as ``kind``; None when the rows do not form a grid that way."""
    if kind == "chars":
        if sum(row.char_count for row in rows) > MAX_CHAR_CELLS:
            return None
        split = Row.chars
    elif kind == "numbers":
        if rank_for_cells(sum(len(row.word_texts) for row in rows)) is None:
            return None
        split = Row.words
    else:
        # Spaces are blanks only in rows of one width with a space inside, and
        # characters are cells only up to 36x36.
        width = len(rows[0].text)
        if (
            width * len(rows) > 2 * MAX_CHAR_CELLS
            or any(len(row.text) != width for row in rows)
            or not any(" " in row.text.strip() for row in rows)
        ):
            return None
        split = Row.fixed

    if grid and len(rows) > 1 and len(split(rows[0])) != len(rows):
        return None
    per_row = [split(row) for row in rows]
    if grid and len(rows) > 1 and any(len(cells) != len(rows) for cells in per_row):
        return None
    return [cell for cells in per_row for cell in cells]


def _numbers(cells: list[Cell], size: int, source: str) -> list[int] | InputError:
    values = []
    for cell in cells:
        if cell.text in BLANKS:
            values.append(0)
            continue
        text = cell.text
        if not (text.isascii() and text.isdigit()):  # "²" and "٣" pass isdigit()
            return InputError(source, cell.line, cell.col, f"{shorten(text)!r} is not a number")
        value = int(text) if len(text) <= 9 else size + 1  # int() refuses 4,300 digits
        if value > size:
            return InputError(
                source,
                cell.line,
                cell.col,
                f"value {shorten(text)} out of range: expected 1..{size}, or 0 for a blank",
            )
        values.append(value)
    return values


def _symbols(cells: list[Cell], alpha: Alphabet, source: str) -> list[int] | InputError:
    values = []
    table = alpha.table()
    for cell in cells:
        value = table.get(cell.text)
        if value is None:
            blanks = " ".join(repr(b) for b in alpha.blanks() if b != " ")
            return InputError(
                source,
                cell.line,
                cell.col,
                f"unknown symbol {cell.text!r}: expected {alpha.describe()} or a blank ({blanks})",
            )
        values.append(value)
    return values


def _plainly_numbers(rows: Sequence[Row]) -> bool:
    """Numbers of different widths ("12 0 3"): not one character per cell (but maybe fixed-width).

    Words of one width ("530 070 000") may be boxes of characters, so they stay open.
    """
    words = [word for row in rows for word in row.word_texts]
    numbers = all((w.isascii() and w.isdigit()) or w in BLANKS for w in words)
    return numbers and len({len(w) for w in words}) > 1


def _readings(
    rows: Sequence[Row],
    source: str,
    rank: int | None,
    alphabet: str | None,
    grid: bool,
) -> list[Reading]:
    """Every reading of ``rows`` as one puzzle whose cell count fits a rank."""
    kinds = ["numbers"] if alphabet == NUMBERS else ["chars", "fixed", "numbers"]
    if alphabet not in (None, NUMBERS):
        kinds = ["chars", "fixed"]
    elif alphabet is None and _plainly_numbers(rows):
        kinds = ["fixed", "numbers"]
    readings = []
    for kind in kinds:
        cells = _split(rows, kind, grid)
        if cells is None:
            continue
        found = rank_for_cells(len(cells))
        if (
            found is None
            or (rank and found != rank)
            or (kind != "numbers" and found > MAX_CHAR_RANK)
        ):
            continue
        size = found * found
        if kind == "numbers":
            result = _numbers(cells, size, source)
            readings.append(_reading(kind, cells, result))
            continue
        try:
            alphas = [lookup_alphabet(alphabet, size)] if alphabet else candidate_alphabets(size)
        except ValueError as err:
            first = cells[0]
            readings.append(Reading(kind, cells, error=InputError(source, first.line, 1, str(err))))
            continue
        for alpha in alphas:
            readings.append(_reading(kind, cells, _symbols(cells, alpha, source), alpha))
    return readings


def _clashing(values: tuple[int, ...]) -> bool:
    rank = rank_for_cells(len(values))
    return rank is not None and bool(Puzzle(rank, values).clashes())


def _reading(
    kind: str, cells: list[Cell], result: list[int] | InputError, alpha: Alphabet | None = None
) -> Reading:
    if isinstance(result, InputError):
        return Reading(kind, cells, alphabet=alpha, error=result)
    return Reading(kind, cells, values=result, alphabet=alpha)


def _choose(
    readings: list[Reading],
    rows: Sequence[Row],
    source: str,
    rank: int | None,
    alphabet: str | None = None,
) -> Reading:
    """The one reading that fits, or an error saying why none or several do."""
    good = [r for r in readings if r.values is not None]
    # A reading that needs two blank marks at once ('.' and '0') gives way to one that does not.
    if any(len(r.blank_marks()) <= 1 for r in good):
        good = [r for r in good if len(r.blank_marks()) <= 1]
    distinct: dict[tuple[int, ...], Reading] = {}
    for reading in good:
        distinct.setdefault(tuple(reading.values or ()), reading)
    if len(distinct) > 1:  # a reading whose givens clash gives way to those whose do not
        fine = {values: r for values, r in distinct.items() if not _clashing(values)}
        distinct = fine or distinct
    if len(distinct) == 1:
        return next(iter(distinct.values()))
    if len(distinct) > 1:
        names = [_reading_name(r) for r in distinct.values()]
        first = rows[0]
        raise AmbiguousInput(
            source,
            first.number,
            1,
            f"could be read as {' or as '.join(names)}; "
            "choose an alphabet (digits, hex, base36, rexl, numbers or the symbols)",
        )
    if readings:
        error = readings[0].error
        assert error is not None
        raise _with_hint(error, rows)
    last = rows[-1]
    counts = sorted({row.char_count for row in rows})
    if len(rows) > 1 and len(counts) > 1:
        lengths = {row.number: row.char_count for row in rows}
        odd = next(r for r in rows if lengths[r.number] != lengths[rows[0].number])
        width = lengths[rows[0].number]
        hint = _text_hint(odd) or (
            f"; a {width}x{width} grid has {width} rows of {width} cells"
            if rank_for_cells(width * width)
            else f"; one puzzle per line needs all its cells ({size_hint(rank)}) on that line"
        )
        raise InputError(
            source,
            odd.number,
            1,
            f"row has {lengths[odd.number]} cells, expected {width} like line {rows[0].number}"
            + hint,
        )
    if alphabet in (None, NUMBERS) and _plainly_numbers(rows):  # else cells are characters
        found = sum(len(row.word_texts) for row in rows)
    else:
        found = sum(row.char_count for row in rows)
    raise InputError(
        source,
        last.number,
        len(last.text) + 1,
        f"wrong number of cells: found {found}, expected {size_hint(rank)}"
        + _count_hint(found, rows),
    )


def _text_hint(row: Row) -> str:
    if looks_like_header(row.text):
        return "; a line of text? start it with #, or put the name alone on a line above the grid"
    return ""


def _with_hint(error: InputError, rows: Sequence[Row]) -> InputError:
    """``error``, saying what would work when its line looks like text."""
    row = next((r for r in rows if r.number == error.line), None)
    hint = _text_hint(row) if row is not None and len(rows) > 1 else ""
    if not hint:
        return error
    return type(error)(error.source, error.line, error.col, error.message + hint)


def _count_hint(found: int, rows: Sequence[Row]) -> str:
    """What would make ``found`` cells a puzzle, or several."""
    for rank in range(3, MAX_CHAR_RANK + 1):  # 4x4 lines are read only with --rank 2
        cells = rank**4
        if found > cells and found % cells == 0:
            return f"; {found // cells} puzzles of {cells} cells? put each on a line of its own"
    text = next((row for row in rows if looks_like_header(row.text)), None)
    if text is not None and len(rows) > 1:
        return _text_hint(text)
    width = rows[0].char_count
    if width >= 4 and rank_for_cells(width * width) and found == width * len(rows):
        return f"; a {width}x{width} grid has {width} rows of {width} cells, not {len(rows)}"
    return ""


def _reading_name(reading: Reading) -> str:
    if reading.kind == "numbers":
        return "numbers"
    assert reading.alphabet is not None
    return reading.alphabet.describe()


def _puzzle(reading: Reading, source: str, line: int) -> Puzzle:
    values = reading.values or []
    rank = rank_for_cells(len(values))
    assert rank is not None
    symbols = reading.alphabet.symbols if reading.alphabet else ""
    return Puzzle(rank, tuple(values), symbols, source, line)


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


@dataclass(frozen=True)
class Variants:
    """What turns puzzles into variants as they are read: rule statements from
    ``--rules`` and ``--rules-file`` (see :mod:`ruletext`), and whether an
    f-puzzles value that is not marked given counts as one."""

    statements: tuple[Any, ...] = ()
    values_as_givens: bool = False


NO_VARIANTS = Variants()


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
        return [_fpuzzles_row(row, source, variants) for row in rows]
    size = statements.size() if statements else None
    if size is not None and rank_for_cells(size * size) is None:  # a 6x6, an 8x8, ...
        grid = _sized_grid(rows, size, source, alphabet)
        return [_with_rules(grid, (statements, *variants.statements))]
    found = _read_classic(text, rows, source, rank, alphabet, layout)
    groups = (statements, *variants.statements) if statements else variants.statements
    return [_with_rules(entry, groups) for entry in found] if groups else found


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


def maybe_fpuzzles(text: str, json: bool = True) -> bool:
    """Whether a line may be an f-puzzles link or string (or, with ``json``, JSON):
    the module is asked only when the line could be one, so that reading a file
    of digits never loads it."""
    stripped = text.strip()
    named = (json and stripped.startswith("{")) or is_link(stripped)
    if not named and (len(stripped) < 40 or not any(char.isalpha() for char in stripped)):
        return False
    from sudosat.reading import fpuzzles  # deferred: rules and lz-string, for f-puzzles only

    return fpuzzles.looks_like(stripped) if json else fpuzzles.looks_like_line(stripped)


def _sized_grid(rows: list[Row], size: int, source: str, alphabet: str | None) -> Puzzle:
    """A grid of a size no rank has (a 6x6): N rows of N cells, digits with blanks
    up to 9x9, whitespace-separated numbers beyond (or with ``--alphabet numbers``)."""

    if alphabet == NUMBERS or size > 9:
        cells = [cell for row in rows for cell in row.words()]
        values = _numbers(cells, size, source)
        symbols = ""
    else:
        chosen = lookup_alphabet(alphabet, size) if alphabet else Alphabet("digits", DIGITS[:size])
        cells = [cell for row in rows for cell in row.chars()]
        values = _symbols(cells, chosen, source)
        symbols = chosen.symbols
    if isinstance(values, InputError):
        raise values
    if len(values) != size * size:
        last = rows[-1]
        raise InputError(
            source,
            last.number,
            len(last.text) + 1,
            f"wrong number of cells: found {len(values)}, expected {size * size} (size {size})",
        )
    layout = Layout.boxes(size)
    return Puzzle(layout.rank, tuple(values), symbols, source, rows[0].number, "", Rules(layout))


def _with_rules(entry: Puzzle | InputError, statements: Sequence[Any]) -> Puzzle | InputError:
    """A puzzle given the rules of ``statements``, or the InputError that stops it."""
    if isinstance(entry, InputError) or not statements:
        return entry
    try:
        return ruletext.apply(entry, statements)
    except InputError as err:
        return err


def _fpuzzles_row(row: Row, source: str, variants: Variants) -> Puzzle | InputError:
    """The f-puzzles puzzle on one line (a link or a bare string), with ``variants``."""
    from sudosat.reading import links  # deferred: rules and lz-string, for links only

    try:
        puzzle = links.read(row.text, source, row.number, variants.values_as_givens)
    except InputError as err:
        return err
    return _with_rules(puzzle, variants.statements)


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
        return list(_read_lines(rows, source, rank, alphabet))
    readings = _readings(rows, source, rank, alphabet, True)
    grids = _consecutive_grids(rows, alphabet)
    if any(r.values is not None for r in readings) or len(grids) == 1:
        reading = _choose(readings, rows, source, rank, alphabet)
        return [_puzzle(reading, source, rows[0].number)]
    found: list[Puzzle | InputError] = []
    for grid in grids:
        try:
            reading = _choose(_readings(grid, source, rank, alphabet, True), grid, source, rank)
        except InputError as err:
            found.append(err)
            continue
        found.append(_puzzle(reading, source, grid[0].number))
    return found


def _row_widths(rows: Sequence[Row], alphabet: str | None) -> list[int]:
    """Cells per row: words when the rows are numbers, else characters."""
    if alphabet == NUMBERS or (alphabet is None and _plainly_numbers(rows)):
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
    as_grid = any(r.values for r in _readings(rows, source, rank, alphabet, True))
    line_fits = [
        any(fits(count, rank) for count in (row.char_count, len(row.word_texts)))
        for row in rows[:50]
    ]
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


def fits(count: int, rank: int | None) -> bool:
    """Whether ``count`` cells make a whole puzzle (of ``rank``, or of rank 3 or more)."""
    found = rank_for_cells(count)
    return found is not None and (found == rank if rank else found >= 3)


def _read_lines(
    rows: Sequence[Row], source: str, rank: int | None, alphabet: str | None
) -> Iterator[Puzzle | InputError]:
    """One puzzle per row. The alphabet is settled once for the whole file."""
    return LineReader(source, rank, alphabet).read(rows)


class LineReader:
    """Reads a stream of one-puzzle lines, in pieces: the first piece settles the
    alphabet (from up to 200 rows) and the size (its first puzzle) for all that follow."""

    def __init__(
        self,
        source: str,
        rank: int | None,
        alphabet: str | None,
        variants: Variants = NO_VARIANTS,
    ) -> None:
        self.source, self.rank, self.alphabet = source, rank, alphabet
        self.variants = variants
        self.settled = alphabet is not None
        self.first: Puzzle | None = None
        self.fast: dict[str, int] = {}

    @property
    def classic(self) -> bool:
        """No rule statements apply: the puzzles read are classic ones."""
        return not self.variants.statements

    def read(self, rows: Sequence[Row]) -> Iterator[Puzzle | InputError]:
        self._settle_alphabet(rows)
        for row in rows:
            yield self.read_row(row)

    def settle(self, rows: Sequence[Row]) -> None:
        """Settle the alphabet and the size from ``rows`` (up to its first good puzzle),
        so that copies of this reader read any later piece the same way."""
        self._settle_alphabet(rows)
        for row in rows:
            if self.first is not None:
                return
            if not is_link(row.text):  # a link settles nothing: read it later
                self.read_row(row)

    def _settle_alphabet(self, rows: Sequence[Row]) -> None:
        if not self.settled:
            rows = [row for row in rows[:200] if not is_link(row.text)]
            sample = [_readings([row], self.source, self.rank, None, False) for row in rows]
            self.alphabet = _file_alphabet(sample)
            self.settled = True

    def read_row(self, row: Row, rules: Sequence[str] = ()) -> Puzzle | InputError:
        """One line's puzzle, with the rules of ``variants`` (and ``rules``: the
        statements of a record's or a CSV's ``rules``); an f-puzzles link is read
        as such."""
        if rules:
            return self._read_with_rules(row, rules)
        if is_link(row.text):  # a link is no row of cells: read it at once
            return _fpuzzles_row(row, self.source, self.variants)
        found = self._read_classic_row(row)
        if isinstance(found, InputError) and maybe_fpuzzles(row.text):
            return _fpuzzles_row(row, self.source, self.variants)
        return _with_rules(found, self.variants.statements)

    def _read_with_rules(self, row: Row, rules: Sequence[str]) -> Puzzle | InputError:
        statements = ruletext.Statements([(row.number, rule) for rule in rules], self.source)
        try:
            size = statements.size()
            if size is not None and rank_for_cells(size * size) is None:  # a 6x6
                found: Puzzle | InputError = _sized_grid([row], size, self.source, self.alphabet)
            else:
                found = self.read_row(row)
            return found if isinstance(found, InputError) else ruletext.apply(found, [statements])
        except InputError as err:
            return err

    def _read_classic_row(self, row: Row) -> Puzzle | InputError:
        first, source = self.first, self.source
        text = row.text.strip()
        if first is not None and self.fast and len(text) == len(first.cells):
            # The common case, decided without building a Reading: one line, known symbols.
            try:
                cells = tuple(map(self.fast.__getitem__, text))
            except KeyError:
                pass
            else:
                return Puzzle(first.rank, cells, first.alphabet, source, row.number)
        readings = _readings([row], source, self.rank, self.alphabet, False)
        try:
            reading = _choose(
                readings, [row], source, first.rank if first else self.rank, self.alphabet
            )
        except InputError as err:
            return err
        puzzle = _puzzle(reading, source, row.number)
        if first is None:
            self.first = puzzle
            if reading.alphabet is not None and reading.kind == "chars":
                self.fast = reading.alphabet.table()
        elif puzzle.rank != first.rank:
            return InputError(
                source,
                row.number,
                1,
                f"mixed sizes: this puzzle is {puzzle.size}x{puzzle.size}, "
                f"expected {first.size}x{first.size} like line {first.line}",
            )
        return puzzle


def _file_alphabet(per_row: list[list[Reading]]) -> str | None:
    """The alphabet that reads the most rows, when the rows use symbols at all;
    numbers when they read more rows than any alphabet (blank rows of "0 0 0"
    fit alphabets too, "13 0 7" only numbers)."""
    scores: dict[str, int] = {}
    for readings in per_row:
        for name in {_alphabet_name(r) for r in readings if r.values is not None}:
            scores[name] = scores.get(name, 0) + 1
    numbers = scores.pop(NUMBERS, 0)
    if not scores:
        return NUMBERS if numbers else None
    best = max(scores.values())
    if numbers > best:
        return NUMBERS
    winners = [name for name, score in scores.items() if score == best]
    return winners[0] if len(winners) == 1 else None


def _alphabet_name(reading: Reading) -> str:
    return reading.alphabet.name if reading.alphabet is not None else NUMBERS


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
