"""Rows of text taken apart into cells: the alphabets, and every reading of a
block of rows (characters, fixed-width, numbers), compared and chosen."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property

from sudosat.core.errors import AmbiguousInput, InputError, shorten
from sudosat.core.notation import BASE36, DIGITS, HEX, REXL
from sudosat.core.puzzle import Puzzle, rank_for_cells

NAMED_ALPHABETS = {"digits": DIGITS, "hex": HEX, "base36": BASE36, "rexl": REXL}
NUMBERS = "numbers"
"""The alphabet name for whitespace-separated integers (0 = blank)."""

BLANKS = "._*?"
"""Blank marks in every alphabet; ``0`` and space are blanks too where they are no symbol."""

NOT_A_CELL = re.compile(r"[\s|+\u2500-\u257f]")
"""White space, box separators and box-drawing borders (``|``, ``│``, ``║``)."""
A_WORD = re.compile(r"[^\s|+\u2500-\u257f]+")
DECORATION = r"\s|+=:*.'\-\u2500-\u257f"


MAX_CHAR_RANK = 6
"""One character per cell goes up to 36x36 (the 36-symbol alphabets); beyond, numbers."""
MAX_CHAR_CELLS = MAX_CHAR_RANK**4

HEADER_WORD = re.compile(r"[^\W\d_]{2,}")
"""Two letters in a row: a word, as in a header line (``Grid 01``, ``Puzzle 3``)."""


def looks_like_header(text: str) -> bool:
    """A line that may name the puzzle below it: ``[Puzzle]``, or one with a word
    in it (``Grid 01``). Whether it is one depends on the rows around it."""
    stripped = text.strip()
    bracketed = stripped.startswith("[") and stripped.endswith("]")
    return bracketed or bool(HEADER_WORD.search(stripped))


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


def numbers_of(cells: list[Cell], size: int, source: str) -> list[int] | InputError:
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


def symbols_of(cells: list[Cell], alpha: Alphabet, source: str) -> list[int] | InputError:
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


def plainly_numbers(rows: Sequence[Row]) -> bool:
    """Numbers of different widths ("12 0 3"): not one character per cell (but maybe fixed-width).

    Words of one width ("530 070 000") may be boxes of characters, so they stay open.
    """
    words = [word for row in rows for word in row.word_texts]
    numbers = all((w.isascii() and w.isdigit()) or w in BLANKS for w in words)
    return numbers and len({len(w) for w in words}) > 1


def readings_of(
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
    elif alphabet is None and plainly_numbers(rows):
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
            result = numbers_of(cells, size, source)
            readings.append(_reading(kind, cells, result))
            continue
        try:
            alphas = [lookup_alphabet(alphabet, size)] if alphabet else candidate_alphabets(size)
        except ValueError as err:
            first = cells[0]
            readings.append(Reading(kind, cells, error=InputError(source, first.line, 1, str(err))))
            continue
        for alpha in alphas:
            readings.append(_reading(kind, cells, symbols_of(cells, alpha, source), alpha))
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


def choose(
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
        hint = (
            _text_hint(odd)
            or _run_together_hint(rows)
            or (
                f"; a {width}x{width} grid has {width} rows of {width} cells"
                if rank_for_cells(width * width)
                else f"; one puzzle per line needs all its cells ({size_hint(rank)}) on that line"
            )
        )
        raise InputError(
            source,
            odd.number,
            1,
            f"row has {lengths[odd.number]} cells, expected {width} like line {rows[0].number}"
            + hint,
        )
    if alphabet in (None, NUMBERS) and plainly_numbers(rows):  # else cells are characters
        found = sum(len(row.word_texts) for row in rows)
    else:
        found = sum(row.char_count for row in rows)
    raise InputError(
        source,
        last.number,
        len(last.text) + 1,
        f"wrong number of cells: found {found}, expected {_expected(found, rank)}"
        + (_run_together_hint(rows) or _count_hint(found, rows)),
    )


def _run_together_hint(rows: Sequence[Row]) -> str:
    """Rows of numbers written without spaces (``1610...``): a 16x16 or bigger grid
    whose two-digit numbers cannot be told apart."""
    digits = [row.text.strip() for row in rows]
    if not all(re.fullmatch(r"[0-9.]+", text) for text in digits):
        return ""
    for rank in range(4, MAX_CHAR_RANK + 1):
        size = rank * rank
        if len(rows) == size and all(size < len(text) < 2 * size + 1 for text in digits):
            alphabet = "hex" if size == 16 else "base36"
            return (
                f"; {size} rows of run-together numbers? a {size}x{size} needs its cells "
                f"apart: separate them with spaces (1 16 . 3 ...), or write it in "
                f"{alphabet} (--alphabet {alphabet})"
            )
    return ""


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


def _expected(found: int, rank: int | None) -> str:
    """The sizes ``found`` cells may have been meant as: the one it is a few cells
    from (``81 for a 9x9: 1 short``), or every size."""
    sizes = [rank] if rank else range(2, MAX_CHAR_RANK + 1)
    for near in sizes:
        cells, side = near**4, near * near
        off = found - cells
        if off and abs(off) <= max(2, cells // 20):
            said = f"{abs(off)} short" if off < 0 else f"{off} too many"
            return f"{cells} for a {side}x{side}: {said}"
    return size_hint(rank)


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


def puzzle_of(reading: Reading, source: str, line: int) -> Puzzle:
    values = reading.values or []
    rank = rank_for_cells(len(values))
    assert rank is not None
    symbols = reading.alphabet.symbols if reading.alphabet else ""
    return Puzzle(rank, tuple(values), symbols, source, line)
