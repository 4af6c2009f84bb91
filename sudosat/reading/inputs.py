"""Reading input: files and stdin holding one puzzle, one per line, tdoku's
``puzzle:count:solution`` lines, or a CSV; one puzzle or many, told apart by
the input alone.

Many puzzles are read lazily in chunks of lines (smaller ones from a pipe, so
answers start before the stream ends); each line is parsed where it is solved.
:func:`read_puzzles` is the library's way in::

    for entry in read_puzzles(["puzzles/tdoku-magictour-25.txt"]):
        ...  # a Puzzle, or an InputError naming file:line:col

Here: sources (files, stdin, pipes), telling one puzzle from many, and the
chunks of a batch; a line's reading, CSV columns and bounded lines: :mod:`chunks`.
"""

from __future__ import annotations

import io
import os
import queue
import stat
import sys
from collections.abc import Collection, Iterator, Sequence
from dataclasses import dataclass
from itertools import chain
from typing import IO, Any

from sudosat.core.errors import InputError, NoSuchFile
from sudosat.core.puzzle import Puzzle
from sudosat.reading.cells import Row
from sudosat.reading.chunks import (
    ARGUMENT,
    MAX_WHOLE,
    Chunk,
    Columns,
    Entry,
    Lines,
    csv_header,
    csv_record,
    is_csv,
    is_records,
    is_stream,
    read_bounded,
    record_row,
    split_row,
)
from sudosat.reading.formats import decode_text, header_name, is_content, read_text, stream_header
from sudosat.reading.lines import NO_VARIANTS, LineReader, Variants
from sudosat.system.signals import quiet_thread

CHUNK = 128
"""Lines in the first chunk from a file; a pipe gives what has arrived, up to this
many. Later chunks double up to MAX_CHUNK: the first answers come at once, and
the front end works on arrays big enough to pay for numpy's calls."""
MAX_CHUNK = 2048


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
    json_lines = is_records(lines)
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
                number, text, unclosed = csv_record(number, text, unclosed, last=not number)
                if unclosed is not None:
                    continue
            if not is_content(text):
                continue
            if json_lines:
                if not records.is_bracket(text):
                    rows.append(record_row(number, text))
                continue
            if not header_seen:
                header_seen = True
                try:
                    columns = csv_header(text, source, number) if csv else None
                except InputError as error:
                    yield Chunk(source, entries=[error])
                    return
                if columns is not None:
                    continue
            if columns is None and stream_header(text):
                name = header_name(text)
                continue
            row = split_row(number, text, columns)
            rows.append(row._replace(name=name or row.name))
            name = ""
        if not rows:
            continue
        if reader.first is None:
            reader.settle([Row(row.line, row.text) for row in rows])
        yield Chunk(source, rows, reader)


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
        raise NoSuchFile(source, 0, 0, "no such file") from None
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
        inline: Collection[str] = (),
    ) -> None:
        self.paths = list(paths) or ["-"]
        self.inline = frozenset(inline)
        """Paths that are a puzzle's text, given in place of a file (an argument)."""
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

    def total(self) -> int | None:
        """About how many puzzles the inputs hold, for a progress bar's total and
        time left: a line file's lines (less comments), a whole file's puzzles;
        None when an input is a pipe (its end is not known)."""
        opened = self._open_first()
        streaming = not isinstance(opened, InputError) and opened.streaming
        count = 0
        for index, path in enumerate(self.paths):
            if path in self.inline:
                count += 1
            elif path == "-" or (index == 0 and isinstance(opened, _Opened) and opened.piped):
                return None
            elif index == 0 and not streaming and not isinstance(opened, InputError):
                count += len(self._read_first_whole())
            elif streaming:
                count += _content_lines(path)
            else:
                count += 1  # a grid file: one puzzle, as a rule
        return count

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
            source = self._source(path)
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

    def _source(self, path: str) -> str:
        return ARGUMENT if path in self.inline else source_name(path)

    def _open(self, path: str, lines_needed: int) -> _Opened | InputError:
        try:
            stream = io.BytesIO(path.encode()) if path in self.inline else open_source(path)
        except NoSuchFile:
            return not_found(path, self.rank, self.alphabet, self.variants)
        except InputError as err:
            return err
        piped = path not in self.inline and _is_pipe(stream)
        opened = _Opened(stream, Lines(stream, self.digest), False, piped)
        try:
            opened.streaming = is_stream(opened.lines, self.rank, self.layout, lines_needed)
        except InputError as err:
            opened.close()
            return err
        return opened

    def _read_first_whole(self) -> list[Puzzle | InputError]:
        if self._whole is None:
            opened = self._open_first()
            assert isinstance(opened, _Opened)
            self._whole = self._whole_of(opened, self._source(self.paths[0]))
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


def _content_lines(path: str) -> int:
    """The lines of the file ``path`` that are not comments (``#``), counted a
    megabyte at a time (a second a gigabyte); 0 if it cannot be read."""
    lines = comments = 0
    try:
        with open(path, "rb") as handle:
            last = b"\n"
            while block := handle.read(1 << 20):
                lines += block.count(b"\n")
                comments += (last + block).count(b"\n#")
                last = block[-1:]
            lines += last != b"\n"
    except OSError:
        return 0
    return max(lines - comments, 0)


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
    try:
        source, text = read_source(path, limit=limit)
    except NoSuchFile:
        raise not_found(path, rank, alphabet, variants) from None
    return read_text(text, source, rank=rank, alphabet=alphabet, layout=layout, variants=variants)


def not_found(path: str, rank: int | None, alphabet: str | None, variants: Variants) -> InputError:
    """What to say of ``path``, which names no file: "no such file", or, when it
    reads as a puzzle's text that is wrong (a cell short, commas between cells),
    what is wrong with it."""
    from sudosat.reading.arguments import why_not_a_puzzle  # deferred: a name that is no file

    why = why_not_a_puzzle(path, rank=rank, alphabet=alphabet, variants=variants)
    said = "no such file" if why is None else f"not a file, and not a puzzle: {why}"
    return NoSuchFile(source_name(path), 0, 0, said)


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
