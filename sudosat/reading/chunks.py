"""A many-puzzle input line by line: its lines read with a bound on their
length (:class:`Lines`), whether it is a CSV or a stream of one-line puzzles,
each row's puzzle and what it expects (:class:`Entry`), and the chunks a batch
is answered in (:class:`Chunk`)."""

from __future__ import annotations

import csv
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from typing import IO, Any, NamedTuple

from sudosat.core.errors import InputError
from sudosat.core.notation import PUZZLE_KEYS, SOLUTION_KEYS, format_line
from sudosat.core.puzzle import Puzzle
from sudosat.reading.cells import Row
from sudosat.reading.formats import is_content, stream_header
from sudosat.reading.lines import LineReader, fits, four_by_four_lines, maybe_fpuzzles
from sudosat.reading.ruletext import is_statement

PUZZLE_COLUMNS, SOLUTION_COLUMNS = PUZZLE_KEYS, SOLUTION_KEYS
ARGUMENT = "<argument>"
"""How errors and records name a puzzle given as an argument in place of a file
(:mod:`arguments`)."""
MAX_WHOLE = 8 * 1024 * 1024
"""Bytes in an input read whole (grids) at most: a 400x400 grid is about 0.7 MB."""
MAX_LINE = 2 * 1024 * 1024
"""Bytes in one input line at most. The longest real one, a 400x400 in numbers
with its solution in a CSV column, is about 1.3 MB."""
MAX_SKIP = 64 * 1024 * 1024
"""Bytes of an overlong line skipped to reach the next line, before giving up."""
OVERLONG = b"\x00overlong"
"""What stands for a line longer than MAX_LINE (its bytes are skipped, never held)."""
_OVERLONG_TEXT = OVERLONG.decode()


class Entry(NamedTuple):
    """An input line holding a puzzle, with what the input expects of it."""

    line: int
    text: str
    expected: str | None = None
    """The expected solution, as text (a CSV column, or tdoku's third field)."""
    expected_count: int | None = None
    """The expected number of solutions (tdoku's second field)."""
    name: str = ""
    """The puzzle's name, from a header line above it."""
    rules: tuple[str, ...] = ()
    """Rule statements that come with the line (a record's or a CSV's ``rules``)."""
    error: str = ""
    """Why the line holds no puzzle, found while splitting it (a broken record)."""
    column: int = 1
    """Where on the line ``error`` lies."""


@dataclass
class Chunk:
    """Consecutive puzzles of one input: lines still to parse, or puzzles read whole."""

    source: str
    rows: list[Entry] = field(default_factory=list)
    reader: LineReader | None = None
    entries: list[Puzzle | InputError] = field(default_factory=list)
    """Puzzles read whole (a grid file), or the error that kept an input from being read."""

    def __len__(self) -> int:
        return len(self.rows) + len(self.entries)

    def split(self, size: int) -> tuple[Chunk, Chunk]:
        """The chunk's first ``size`` puzzles, and the rest, as two chunks of one input."""
        rows, entries = self.rows[:size], self.entries[: max(0, size - len(self.rows))]
        head = replace(self, rows=rows, entries=entries)
        tail = replace(self, rows=self.rows[size:], entries=self.entries[len(entries) :])
        return head, tail

    def first_line(self) -> int:
        if self.rows:
            return self.rows[0].line
        return self.entries[0].line if self.entries else 0

    def puzzles(self) -> Iterator[tuple[Entry, Puzzle | InputError]]:
        """Every puzzle of the chunk, parsed, with its input line."""
        for row in self.rows:
            yield self.parse(row)
        yield from self.whole()

    def parse(self, row: Entry) -> tuple[Entry, Puzzle | InputError]:
        """One of the chunk's lines, parsed (the entry of an overlong one loses its text)."""
        assert self.reader is not None
        if row.text == _OVERLONG_TEXT:
            return row._replace(text=""), overlong(self.source, row.line)
        if row.error:
            return row, InputError(self.source, row.line, row.column, row.error)
        puzzle = self.reader.read_row(Row(row.line, row.text), row.rules)
        if row.name and isinstance(puzzle, Puzzle):
            puzzle = replace(puzzle, name=row.name)
        return row, puzzle

    def whole(self) -> Iterator[tuple[Entry, Puzzle | InputError]]:
        """The puzzles read whole, with their lines."""
        for entry in self.entries:
            if isinstance(entry, InputError):
                yield Entry(entry.line, ""), entry
            else:
                yield Entry(entry.line, format_line(entry), name=entry.name), entry


class Lines:
    """Numbered text lines of a binary stream, with the first few peeked at."""

    def __init__(self, stream: IO[bytes], digest: Any = None) -> None:
        self.stream = stream
        self.digest = digest
        """A hashlib object fed every byte read (a shard's run identity), or None."""
        self._read: Callable[[int], bytes] = stream.readline if digest is None else self._digested
        self.number = 0
        self.pushed: list[tuple[int, bytes]] = []  # peeked at, as read
        self.ended = False

    def next(self) -> tuple[int, str] | None:
        item = self._raw()
        return None if item is None else (item[0], _text(*item))

    def _raw(self) -> tuple[int, bytes] | None:
        if self.pushed:
            return self.pushed.pop(0)
        if self.ended:
            return None
        data = self._read(MAX_LINE + 1)
        if not data:
            return None
        self.number += 1
        if len(data) > MAX_LINE:
            skipped = len(data)
            while data and not data.endswith(b"\n"):  # skip the rest, in bounded pieces
                if skipped > MAX_SKIP:  # no end in sight (/dev/zero): stop reading
                    self.ended = True
                    break
                data = self._read(MAX_LINE)
                skipped += len(data)
            return self.number, OVERLONG
        if b"\r" in data.rstrip(b"\r\n"):  # old Mac line ends: CR alone
            first, *more = data.rstrip(b"\r\n").split(b"\r")
            self.pushed[:0] = [(self.number + i, part) for i, part in enumerate(more, 1)]
            self.number += len(more)
            return self.number - len(more), first
        return self.number, data

    def _digested(self, limit: int) -> bytes:
        data = self.stream.readline(limit)
        self.digest.update(data)
        return data

    def peek_content(self, count: int) -> list[tuple[int, str]]:
        """The first ``count`` lines that are neither blank nor ``#`` comments."""
        seen: list[tuple[int, bytes]] = []
        content: list[tuple[int, str]] = []
        while len(content) < count:
            item = self._raw()
            if item is None:
                break
            seen.append(item)
            text = _text(*item)
            if is_content(text):
                content.append((item[0], text))
        self.pushed = seen + self.pushed
        return content

    def rest(self, source: str) -> bytes:
        """Everything not yet taken, as it was; InputError beyond MAX_WHOLE bytes."""
        for number, data in self.pushed:
            if data == OVERLONG:
                raise overlong(source, number)
        head = b"".join(data for _, data in self.pushed)
        self.pushed = []
        rest = read_bounded(self.stream, MAX_WHOLE - len(head), source)
        if self.digest is not None:
            self.digest.update(rest)
        return head + rest


csv.field_size_limit(MAX_LINE)


def csv_fields(text: str, source: str, number: int) -> list[str]:
    """The fields of one CSV line; InputError for one that is no CSV."""
    try:
        return next(csv.reader([text]), [])
    except csv.Error as err:
        raise InputError(source, number, 1, f"CSV: {err}") from None


def overlong(source: str, line: int) -> InputError:
    return InputError(
        source, line, 1, f"line longer than {MAX_LINE:,} bytes: no puzzle is that long"
    )


def read_bounded(stream: IO[bytes], limit: int | None, source: str) -> bytes:
    """All of ``stream``, or InputError when it holds more than ``limit`` bytes."""
    if limit is None:
        return stream.read()
    data = stream.read(limit + 1)
    if len(data) > limit:
        raise InputError(source, 0, 0, f"more than {limit:,} bytes: too big to be read whole")
    return data


def _text(number: int, data: bytes) -> str:
    """A line as text; bytes that are not UTF-8 become U+FFFD, reported where they are."""
    text = data.decode("utf-8", errors="replace").rstrip("\r\n")
    return text.removeprefix("\ufeff") if number == 1 else text


def _whole_puzzle(text: str, rank: int | None) -> bool:
    """Whether one line holds a whole puzzle (symbols, or whitespace-separated numbers,
    maybe followed by tdoku's ``:count:solution``; or an f-puzzles link)."""
    stripped = text.partition(":")[0].strip()
    if fits(len(stripped), rank) or fits(len(stripped.split()), rank):
        return True
    return maybe_fpuzzles(text, json=False)


class Columns(NamedTuple):
    """Where a CSV's fields are: the puzzle's, and those of what comes with it."""

    puzzle: int
    solution: int | None = None
    rules: int | None = None
    name: int | None = None


def csv_header(text: str, source: str = "", number: int = 1) -> Columns | None:
    """The columns a CSV header names; None when ``text`` is no CSV. A header that
    names no puzzle column is an InputError."""
    if "," not in text:
        return None
    names = [name.strip().lower() for name in csv_fields(text, source, number)]
    puzzle = next((names.index(n) for n in PUZZLE_COLUMNS if n in names), None)
    if puzzle is None:
        raise InputError(
            source,
            number,
            1,
            f"a CSV header naming no puzzle column; expected one of {', '.join(PUZZLE_COLUMNS)}",
        )
    solution = next((names.index(n) for n in SOLUTION_COLUMNS if n in names), None)
    rules = names.index("rules") if "rules" in names else None
    return Columns(puzzle, solution, rules, names.index("name") if "name" in names else None)


def is_csv(lines: Lines) -> bool:
    """Whether an input is a CSV: a first line naming a puzzle column, or fields
    above more fields. A rule statement (``anti-knight, diagonals``) or a title
    (``AI Escargot, 2006``) above a grid holds a comma too, and makes no CSV. The
    second line is waited for only when the first leaves it open, so that a pipe's
    first puzzle is answered as it comes."""
    first = lines.peek_content(1)
    if not first or "," not in first[0][1] or is_statement(first[0][1]):
        return False
    names = {name.strip().strip('"').lower() for name in first[0][1].split(",")}
    if names & set(PUZZLE_COLUMNS):
        return True
    second = lines.peek_content(2)[1:]
    return bool(second) and "," in second[0][1] and not is_statement(second[0][1])


def is_records(lines: Lines) -> bool:
    """Whether an input is sudosat's records a line (jsonl, or a json list's items)."""
    first = lines.peek_content(1)  # one line: a pipe's first puzzle is answered as it comes
    if not first or not first[0][1].lstrip().startswith(("{", "[")):
        return False  # decided without loading the module
    from sudosat.reading import records

    if records.opens_list(first[0][1]):  # a json list: a record a line, read or not...
        second = lines.peek_content(2)[1:]  # ...unless indented: read whole, item by item
        return not second or records.one_line(second[0][1])
    return bool(first) and records.is_record_line(first[0][1])


def is_stream(lines: Lines, rank: int | None, layout: str, lines_needed: int) -> bool:
    """Whether the input is one puzzle per line: a CSV, or whole puzzles on the first
    ``lines_needed`` content lines. What was peeked at stays in ``lines``."""
    if layout == "grid":
        return False
    first = lines.peek_content(lines_needed)
    if is_records(lines):
        return True
    if first and first[0][1].lstrip().startswith("{"):
        return False  # an f-puzzles JSON file, or a record of one puzzle: read whole
    if is_csv(lines):
        return True
    if layout == "line":
        return True
    if any(stream_header(text) for _, text in first):  # a name above each puzzle line
        more = lines.peek_content(2 * lines_needed)
        first = [(n, text) for n, text in more if not stream_header(text)][:lines_needed]
    whole = all(_whole_puzzle(text, rank) for _, text in first)
    if not whole and rank is None and four_by_four_lines([text for _, text in first]):
        # 4x4 lines, or a 16x16 grid's first rows: its first 16 rows tell
        rows = [text for _, text in lines.peek_content(16)]
        return len(rows) >= lines_needed and four_by_four_lines(rows)
    return len(first) == lines_needed and whole


def csv_record(
    number: int, text: str, unclosed: tuple[int, str] | None, last: bool
) -> tuple[int, str, tuple[int, str] | None]:
    """RFC 4180: a quoted field may hold line breaks, so a record whose quotes are
    not closed at the end of its line goes on over the next. Returns the line
    number and text of the record so far, and what is still unclosed (None once
    the record is whole, at the end of input, or too long to be a puzzle's)."""
    if unclosed is not None:
        number, text = unclosed[0], f"{unclosed[1]}\n{text}" if not last else unclosed[1]
    if not last and text.count('"') % 2 and len(text) <= MAX_LINE:
        return number, text, (number, text)
    return number, text, None


def record_row(number: int, text: str) -> Entry:
    """The entry of a record's line (jsonl, or a json list's item)."""
    from sudosat.reading import records  # deferred: records' inputs only

    found = records.read_line(text)
    if found.error:
        return Entry(number, text, error=found.error, column=found.column)
    return Entry(number, found.puzzle, found.solution, None, found.name, found.rules)


def split_row(number: int, text: str, columns: Columns | None) -> Entry:
    """The puzzle and what is expected of it: CSV columns, or tdoku's
    ``puzzle:count[:solution]``."""
    if columns is None:
        if ":" not in text or "://" in text:  # a link's colon is no tdoku field
            return Entry(number, text)
        puzzle, _, rest = text.partition(":")
        count, _, given = rest.partition(":")
        expected = int(count) if count.strip().isdigit() else None
        return Entry(number, puzzle, given or None, expected)
    try:
        fields = csv_fields(text, "", number)
    except InputError:  # a broken row: its puzzle text is what the reader will refuse
        fields = [text]

    def field(at: int | None) -> str | None:
        return fields[at] if at is not None and at < len(fields) else None

    said = field(columns.rules)
    rules: tuple[str, ...] = ()
    if said:
        from sudosat.reading.records import split_rules  # deferred: rules' columns only

        rules = split_rules(said)
    name = field(columns.name) or ""
    return Entry(number, field(columns.puzzle) or "", field(columns.solution), None, name, rules)
