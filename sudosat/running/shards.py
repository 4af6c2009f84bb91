"""Splitting a run over machines and joining the pieces again.

``--shard K/N`` takes every N-th puzzle (or seed), starting at the K-th, over
all inputs, so shard K holds the puzzles at places K-1, K-1+N, K-1+2N, ...
(0-based). A shard's JSON Lines output ends with a trailer saying which shard
it is, how many records it wrote, how many puzzles the whole input had, and
which run it belongs to (a digest of the command, its options and its inputs)::

    {"shard": "2/4", "records": 19, "of": 75, "run": "9f2c41d07ab35e10"}

:func:`merge` checks a set of shard outputs against their trailers (every
shard there once, each complete) and deals their records back in turn,
which is the single run's output, record for record (``--no-time`` makes
them equal byte for byte). A shard that stopped early (interrupted, a
deadline) writes no trailer, so it cannot be merged as if it were whole.
"""

from __future__ import annotations

import json
import re
import tempfile
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import ExitStack
from dataclasses import dataclass
from itertools import islice
from typing import IO, Any

from sudosat.core.errors import InputError, printable
from sudosat.reading.chunks import Chunk

Opener = Callable[[str], IO[bytes]]
"""How a shard output is opened (as bytes), given its path."""


@dataclass
class Shard:
    """Shard ``k`` of ``n`` (1-based); ``total`` counts every puzzle the run
    went past, in shards or not, once the inputs are used up."""

    k: int
    n: int
    total: int = 0
    run: str = ""
    """What identifies the run (see :func:`run_of`): shards of another run differ."""

    def mine(self, place: int) -> bool:
        """Whether the puzzle at ``place`` (0-based, over all inputs) is this shard's."""
        return place % self.n == self.k - 1

    def take(self, chunks: Iterable[Chunk]) -> Iterator[Chunk]:
        """This shard's puzzles of ``chunks``, counting all of them in ``total``."""
        for chunk in chunks:
            # a chunk holds rows or entries, never both: either counts from ``total``
            start, self.total = self.total, self.total + len(chunk)
            chunk.rows = [row for i, row in enumerate(chunk.rows, start) if self.mine(i)]
            chunk.entries = [e for i, e in enumerate(chunk.entries, start) if self.mine(i)]
            if chunk.rows or chunk.entries:
                yield chunk

    def seeds(self, seeds: range) -> range:
        """This shard's seeds of ``seeds`` (all of them counted in ``total``)."""
        self.total = len(seeds)
        return seeds[self.k - 1 :: self.n]

    def trailer(self, records: int) -> str:
        """The line that ends this shard's JSON Lines output."""
        shard = f"{self.k}/{self.n}"
        return json.dumps({"shard": shard, "records": records, "of": self.total, "run": self.run})


def run_of(command: str, settings: Iterable[Any], inputs: str = "") -> str:
    """A run's identity: a digest of its command, the settings its records depend
    on (options, never --jobs or --shard) and a digest of its inputs' bytes, so
    that shards of another file, other options or another command differ."""
    import hashlib  # here: only a shard's run pays for loading it

    said = repr((command, [repr(setting) for setting in settings], inputs))
    return hashlib.blake2b(said.encode(), digest_size=8).hexdigest()


def parse_shard(value: str) -> Shard:
    """``--shard K/N``; ValueError unless 1 <= K <= N."""
    k, _, n = value.partition("/")
    if not (k.isdigit() and n.isdigit() and 1 <= int(k) <= int(n)):
        raise ValueError(f"expected K/N with 1 <= K <= N, e.g. 1/4, not {value!r}")
    return Shard(int(k), int(n))


@dataclass
class Piece:
    """One shard output, read once to its trailer, its records kept in ``spool``."""

    path: str
    k: int
    n: int
    records: int
    total: int
    run: str
    spool: IO[bytes]


MAX_RECORD = 64 * 1024 * 1024
"""Bytes in one record at most (a 400x400's solve record is a few MB): a shard
that is one endless line (``/dev/zero``) is refused, not held in memory."""


def read_piece(path: str, stream: IO[bytes], spool: IO[bytes]) -> Piece:
    """One shard output, read once from ``stream``: its records (each a JSON
    object) copied into ``spool`` and checked against its trailer; InputError
    naming the file and line when it does not hold."""
    name = printable(path)
    last: object = None
    held = b""  # the last record seen: the trailer, unless another comes
    records, where = -1, 0
    for number, data in enumerate(_lines(stream, name), 1):
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            raise InputError(name, number, 1, "not UTF-8 text: no shard output") from None
        if not text.strip():
            continue
        try:
            found = json.loads(text)
        except (ValueError, RecursionError):
            raise InputError(name, number, 1, "expected a JSON record (a shard's jsonl)") from None
        if not isinstance(found, dict):
            raise InputError(name, number, 1, "expected a JSON object (a shard's jsonl)")
        spool.write(held)
        held = data if data.endswith(b"\n") else data + b"\n"
        last, where, records = found, number, records + 1
    trailer = _trailer(last)
    if trailer is None:
        raise InputError(
            name,
            where,
            1 if where else 0,
            "no shard trailer at the end: the shard did not finish, or ran "
            "without --shard K/N --format jsonl",
        )
    k, n, said, total, run = trailer
    expected = len(range(k - 1, total, n))
    if records != said or records != expected:
        raise InputError(
            name,
            where,
            1,
            f"{records} records, but shard {k}/{n} of {total} puzzles holds {expected} "
            f"(its trailer says {said})",
        )
    spool.seek(0)
    return Piece(path, k, n, records, total, run, spool)


def _lines(stream: IO[bytes], name: str) -> Iterator[bytes]:
    """The lines of a shard output, each at most MAX_RECORD bytes."""
    number = 0
    while data := stream.readline(MAX_RECORD + 1):
        number += 1
        if len(data) > MAX_RECORD:
            raise InputError(name, number, 1, f"a line of more than {MAX_RECORD:,} bytes")
        yield data


def _trailer(found: object) -> tuple[int, int, int, int, str] | None:
    """A trailer's shard K/N, records, puzzles in all and run; None for anything
    else (numbers must be whole numbers written as such, never 12.9 or "12")."""
    if not isinstance(found, dict) or set(found) != {"shard", "records", "of", "run"}:
        return None
    shard, records, total, run = found["shard"], found["records"], found["of"], found["run"]
    match = SHARD.fullmatch(shard) if isinstance(shard, str) else None
    if (
        match is None
        or not isinstance(run, str)
        or not all(type(x) is int for x in (records, total))
    ):
        return None
    k, n = int(match[1]), int(match[2])
    return (k, n, records, total, run) if 1 <= k <= n and records >= 0 <= total else None


SHARD = re.compile(r"([1-9][0-9]{0,9})/([1-9][0-9]{0,9})")


def check_set(pieces: Sequence[Piece]) -> None:
    """Every shard of one run there once; ValueError (one line) otherwise."""
    if not pieces:
        raise ValueError("no shard outputs to merge")
    first = pieces[0]
    seen: dict[int, Piece] = {}
    for piece in pieces:
        if (piece.n, piece.total, piece.run) != (first.n, first.total, first.run):
            raise ValueError(
                f"{printable(piece.path)} is shard {piece.k}/{piece.n} of {piece.total} "
                f"puzzles, {printable(first.path)} shard {first.k}/{first.n} of "
                f"{first.total}, of another run (command, options or input): not one run"
            )
        if piece.k in seen:
            raise ValueError(
                f"{printable(seen[piece.k].path)} and {printable(piece.path)} are both "
                f"shard {piece.k}/{piece.n}"
            )
        seen[piece.k] = piece
    if len(seen) < first.n:  # the first few missing (n may be claimed huge)
        missing = islice((k for k in range(1, first.n + 1) if k not in seen), 5)
        names = ", ".join(f"{k}/{first.n}" for k in missing)
        more = ", ..." if first.n - len(seen) > 5 else ""
        raise ValueError(f"shard {names}{more} missing: {len(pieces)} of {first.n} given")


def dealt(pieces: Sequence[Piece]) -> Iterator[str]:
    """The records of checked ``pieces`` in the single run's order: shard K's
    i-th record is the puzzle at place K-1 + i*N."""
    ordered = sorted(pieces, key=lambda piece: piece.k)
    streams = [iter(piece.spool) for piece in ordered]
    for place in range(ordered[0].total):
        yield next(streams[place % len(streams)]).decode("utf-8")


def merge(paths: Sequence[str], open_binary: Opener) -> Iterator[str]:
    """The single run's JSON Lines from the shard outputs at ``paths``, each read
    once, as a stream (a FIFO, a pipe), into a temporary spool: InputError for a
    file that is no complete shard output, ValueError for a set of them that is
    not one whole run. Nothing is given before every shard has been checked."""
    pieces: list[Piece] = []
    with ExitStack() as stack:
        for path in paths:
            spool = stack.enter_context(tempfile.TemporaryFile())
            with open_binary(path) as stream:
                pieces.append(read_piece(path, stream, spool))
        check_set(pieces)
        yield from dealt(pieces)
