"""Reading input: files and stdin holding one puzzle, one per line, tdoku's
``puzzle:count:solution`` lines, or a CSV; one puzzle or many, told apart by
the input alone.

Many puzzles are read lazily in chunks of lines (smaller ones from a pipe, so
answers start before the stream ends); each line is parsed where it is solved.
:func:`read_puzzles` is the library's way in::

    for entry in read_puzzles(["puzzles/tdoku-magictour-25.txt"]):
        ...  # a Puzzle, or an InputError naming file:line:col
"""

from __future__ import annotations

import csv
import io
import os
import queue
import stat
import sys
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from itertools import chain
from typing import IO, Any, NamedTuple

from sudosat.core.errors import InputError
from sudosat.core.notation import PUZZLE_KEYS, SOLUTION_KEYS, format_line
from sudosat.core.puzzle import Puzzle
from sudosat.reading.cells import Row
from sudosat.reading.formats import decode_text, header_name, is_content, read_text, stream_header
from sudosat.reading.lines import NO_VARIANTS, LineReader, Variants, fits, maybe_fpuzzles
from sudosat.reading.ruletext import is_statement
from sudosat.system.signals import quiet_thread

CHUNK = 128
"""Lines in the first chunk from a file; a pipe gives what has arrived, up to this
many. Later chunks double up to MAX_CHUNK: the first answers come at once, and
the front end works on arrays big enough to pay for numpy's calls."""
MAX_CHUNK = 2048
PUZZLE_COLUMNS, SOLUTION_COLUMNS = PUZZLE_KEYS, SOLUTION_KEYS


MAX_LINE = 2 * 1024 * 1024
"""Bytes in one input line at most. The longest real one, a 400x400 in numbers
with its solution in a CSV column, is about 1.3 MB."""
MAX_SKIP = 64 * 1024 * 1024
"""Bytes of an overlong line skipped to reach the next line, before giving up."""
MAX_WHOLE = 8 * 1024 * 1024
"""Bytes in an input read whole (grids) at most: a 400x400 grid is about 0.7 MB."""
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


def _csv_header(text: str, source: str = "", number: int = 1) -> Columns | None:
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


def _records(lines: Lines) -> bool:
    """Whether an input is sudosat's records a line (jsonl, or a json list's items)."""
    first = lines.peek_content(1)  # one line: a pipe's first puzzle is answered as it comes
    if not first or not first[0][1].lstrip().startswith(("{", "[")):
        return False  # decided without loading the module
    from sudosat.reading import records

    if records.opens_list(first[0][1]):  # a json list: a record a line, read or not...
        second = lines.peek_content(2)[1:]  # ...unless indented: read whole, item by item
        return not second or records.one_line(second[0][1])
    return bool(first) and records.is_record_line(first[0][1])


def _is_stream(lines: Lines, rank: int | None, layout: str, lines_needed: int) -> bool:
    """Whether the input is one puzzle per line: a CSV, or whole puzzles on the first
    ``lines_needed`` content lines. What was peeked at stays in ``lines``."""
    if layout == "grid":
        return False
    first = lines.peek_content(lines_needed)
    if _records(lines):
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
    return len(first) == lines_needed and whole


def _pipe_batches(lines: Lines) -> Iterator[list[tuple[int, str]]]:
    """Lines as they arrive from a pipe: a batch is what has come, up to the next
    chunk size."""
    arrived: queue.Queue[tuple[int, str] | None] = queue.Queue(maxsize=MAX_CHUNK * 8)
    sizes = _chunk_sizes()

    def pump() -> None:
        while True:
            item = lines.next()
            arrived.put(item)
            if item is None:
                return

    quiet_thread(pump, "sudosat-stdin")
    while True:
        item = arrived.get()
        if item is None:
            return
        batch = [item]
        size = next(sizes)
        while len(batch) < size:
            try:
                item = arrived.get_nowait()
            except queue.Empty:
                break
            if item is None:
                yield batch
                return
            batch.append(item)
        yield batch


def _file_batches(lines: Lines) -> Iterator[list[tuple[int, str]]]:
    batch: list[tuple[int, str]] = []
    sizes = _chunk_sizes()
    size = next(sizes)
    while (item := lines.next()) is not None:
        batch.append(item)
        if len(batch) == size:
            yield batch
            batch = []
            size = next(sizes)
    if batch:
        yield batch


def _chunk_sizes() -> Iterator[int]:
    size = CHUNK
    while True:
        yield size
        size = min(2 * size, MAX_CHUNK)


def _line_chunks(
    source: str,
    lines: Lines,
    rank: int | None,
    alphabet: str | None,
    piped: bool,
    variants: Variants = NO_VARIANTS,
) -> Iterator[Chunk]:
    """The input's content lines in chunks; CSV columns split off; the first chunk
    settles the alphabet and the size for the rest."""
    reader = LineReader(source, rank, alphabet, variants)
    json_lines = _records(lines)
    if json_lines:
        from sudosat.reading import records  # deferred: records' inputs only
    csv = not json_lines and is_csv(lines)
    columns: Columns | None = None
    header_seen = False
    name = ""  # from a header line, for the next puzzle
    unclosed: tuple[int, str] | None = None  # a CSV record whose quoted field goes on
    batches = _pipe_batches(lines) if piped else _file_batches(lines)
    for batch in chain(batches, [[(0, "")]]):  # the last: where an unclosed record ends
        rows: list[Entry] = []
        for number, text in batch:
            if columns is not None:
                number, text, unclosed = _csv_record(number, text, unclosed, last=not number)
                if unclosed is not None:
                    continue
            if not is_content(text):
                continue
            if json_lines:
                if not records.is_bracket(text):
                    rows.append(_record_row(number, text))
                continue
            if not header_seen:
                header_seen = True
                try:
                    columns = _csv_header(text, source, number) if csv else None
                except InputError as error:
                    yield Chunk(source, entries=[error])
                    return
                if columns is not None:
                    continue
            if columns is None and stream_header(text):
                name = header_name(text)
                continue
            row = _split_row(number, text, columns)
            rows.append(row._replace(name=name or row.name))
            name = ""
        if not rows:
            continue
        if reader.first is None:
            reader.settle([Row(row.line, row.text) for row in rows])
        yield Chunk(source, rows, reader)


def _csv_record(
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


def _record_row(number: int, text: str) -> Entry:
    """The entry of a record's line (jsonl, or a json list's item)."""
    from sudosat.reading import records  # deferred: records' inputs only

    found = records.read_line(text)
    if found.error:
        return Entry(number, text, error=found.error, column=found.column)
    return Entry(number, found.puzzle, found.solution, None, found.name, found.rules)


def _split_row(number: int, text: str, columns: Columns | None) -> Entry:
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


def _is_pipe(stream: IO[bytes]) -> bool:
    try:
        return not stat.S_ISREG(os.fstat(stream.fileno()).st_mode)
    except (OSError, ValueError, io.UnsupportedOperation):
        return True


def source_name(path: str) -> str:
    """How errors and records name ``path``: ``-`` is ``<stdin>``."""
    return "<stdin>" if path == "-" else path


def open_source(path: str, expected: str = "puzzle text") -> IO[bytes]:
    """``path`` (``-``: stdin) opened for reading bytes; InputError if it cannot be."""
    if path == "-":
        return sys.stdin.buffer
    source = source_name(path)
    try:
        return open(path, "rb")
    except FileNotFoundError:
        raise InputError(source, 0, 0, "no such file") from None
    except IsADirectoryError:
        raise InputError(source, 0, 0, f"is a directory, expected {expected}") from None
    except OSError as err:
        raise InputError(source, 0, 0, err.strerror or "cannot be read") from None


def read_source(
    path: str, expected: str = "puzzle text", limit: int | None = MAX_WHOLE
) -> tuple[str, str]:
    """The name to report and the text of ``path`` (``-``: stdin); InputError if
    unreadable or longer than ``limit`` bytes."""
    source = source_name(path)
    stream = open_source(path, expected)
    try:
        data = read_bounded(stream, limit, source)
    except OSError as err:
        raise InputError(source, 0, 0, err.strerror or "cannot be read") from None
    finally:
        if path != "-":
            stream.close()
    return source, decode_text(data, source, expected)


@dataclass
class _Opened:
    stream: IO[bytes]
    lines: Lines
    streaming: bool
    piped: bool
    """Not a regular file: a pipe's lines come when they come (asked once, at opening,
    as the stream is closed once read)."""

    def close(self) -> None:
        """The file closed once its puzzles are read (stdin, not ours, stays open)."""
        if self.stream is not sys.stdin.buffer:
            self.stream.close()


class Inputs:
    """The puzzles of some files (``-``: stdin), one or many, read as they are needed.

    ``rank``, ``alphabet`` (a name or the symbols) and ``layout`` (``auto``, ``grid``:
    a file is one puzzle, ``line``: one puzzle per line) are the reading options of
    :func:`formats.read_text`. ``lines_to_tell``: how many whole-puzzle lines make a
    single input a stream of many (2; 1 where one puzzle and many look the same, so
    that a pipe is answered from its first line).
    """

    def __init__(
        self,
        paths: Sequence[str],
        *,
        rank: int | None = None,
        alphabet: str | None = None,
        layout: str = "auto",
        lines_to_tell: int = 2,
        variants: Variants = NO_VARIANTS,
        digest: bool = False,
    ) -> None:
        self.paths = list(paths) or ["-"]
        self.rank, self.alphabet, self.layout = rank, alphabet, layout
        self.variants = variants
        self.lines_to_tell = lines_to_tell
        self._first: _Opened | InputError | None = None
        self._whole: list[Puzzle | InputError] | None = None
        self.digest = _digest() if digest else None
        """With ``digest``: every byte read from the inputs, in order (what a shard's
        run identity takes)."""

    @property
    def many(self) -> bool:
        """More than one puzzle: several inputs, or one that holds several puzzles (a CSV,
        lines of whole puzzles, or a file read whole that holds more than one)."""
        if len(self.paths) > 1:
            return True
        opened = self._open_first()
        if isinstance(opened, InputError):
            return False
        return opened.streaming or len(self._read_first_whole()) > 1

    @property
    def regular(self) -> bool:
        """The first input is a regular file, read as fast as asked (a pipe's lines
        come when they come)."""
        opened = self._open_first()
        return not isinstance(opened, InputError) and not opened.piped

    def single(self) -> Puzzle | InputError:
        """The one puzzle of an input that is not :attr:`many`."""
        opened = self._open_first()
        if isinstance(opened, InputError):
            return opened
        return self._read_first_whole()[0]

    def chunks(self) -> Iterator[Chunk]:
        """Every input's puzzles in chunks, in order; an input that cannot be read is a
        chunk holding its InputError."""
        for index, path in enumerate(self.paths):
            source = source_name(path)
            opened = self._open_first() if index == 0 else self._open(path, 1)
            if isinstance(opened, InputError):
                yield Chunk(source, entries=[opened])
                continue
            if opened.streaming:
                ended = False
                try:
                    yield from _line_chunks(
                        source, opened.lines, self.rank, self.alphabet, opened.piped, self.variants
                    )
                    ended = True
                finally:  # a file the reader stops early in too; a pipe's reader thread
                    if ended or not opened.piped:  # may still be reading it
                        opened.close()
                continue
            entries = self._read_first_whole() if index == 0 else self._whole_of(opened, source)
            yield Chunk(source, entries=entries)

    def puzzles(self) -> Iterator[Puzzle | InputError]:
        """Every puzzle, parsed, in order; a broken line is an InputError."""
        for chunk in self.chunks():
            for _, entry in chunk.puzzles():
                yield entry

    def _open_first(self) -> _Opened | InputError:
        if self._first is None:
            # With several inputs one whole-puzzle line makes a stream (answers start
            # with the first line).
            self._first = self._open(
                self.paths[0], 1 if len(self.paths) > 1 else self.lines_to_tell
            )
        return self._first

    def _open(self, path: str, lines_needed: int) -> _Opened | InputError:
        try:
            stream = open_source(path)
        except InputError as err:
            return err
        opened = _Opened(stream, Lines(stream, self.digest), False, _is_pipe(stream))
        try:
            opened.streaming = _is_stream(opened.lines, self.rank, self.layout, lines_needed)
        except InputError as err:
            opened.close()
            return err
        return opened

    def _read_first_whole(self) -> list[Puzzle | InputError]:
        if self._whole is None:
            opened = self._open_first()
            assert isinstance(opened, _Opened)
            self._whole = self._whole_of(opened, source_name(self.paths[0]))
        return self._whole

    def _whole_of(self, opened: _Opened, source: str) -> list[Puzzle | InputError]:
        """The puzzles of an input that was peeked at, read whole."""
        try:
            try:
                data = opened.lines.rest(source)
            finally:
                opened.close()
            text = decode_text(data, source)
            return read_text(
                text,
                source,
                rank=self.rank,
                alphabet=self.alphabet,
                layout=self.layout,
                variants=self.variants,
            )
        except InputError as err:
            return [err]


def _digest() -> Any:
    import hashlib  # here: only a shard's run pays for loading it (2 ms)

    return hashlib.blake2b(digest_size=16)


def read_file(
    path: str,
    *,
    rank: int | None = None,
    alphabet: str | None = None,
    layout: str = "auto",
    limit: int | None = None,
    variants: Variants = NO_VARIANTS,
) -> list[Puzzle | InputError]:
    """Every puzzle of the file ``path`` (``-``: stdin), read whole as
    :func:`formats.read_text` does; InputError when the file cannot be read at all
    or holds more than ``limit`` bytes (None: no limit; :func:`read_puzzles`
    streams a big file instead)."""
    source, text = read_source(path, limit=limit)
    return read_text(text, source, rank=rank, alphabet=alphabet, layout=layout, variants=variants)


def read_puzzles(
    paths: str | Sequence[str],
    *,
    rank: int | None = None,
    alphabet: str | None = None,
    layout: str = "auto",
    variants: Variants = NO_VARIANTS,
) -> Iterator[Puzzle | InputError]:
    """Every puzzle of ``paths`` (a path, ``-`` for stdin, or a list of them), lazily and
    in order, as the CLI reads them; a line that cannot be read is an InputError."""
    paths = [paths] if isinstance(paths, str) else paths
    inputs = Inputs(paths, rank=rank, alphabet=alphabet, layout=layout, variants=variants)
    return inputs.puzzles()
