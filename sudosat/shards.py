"""Splitting a run over machines and joining the pieces again.

``--shard K/N`` takes every N-th puzzle (or seed), starting at the K-th, over
all inputs, so shard K holds the puzzles at places K-1, K-1+N, K-1+2N, ...
(0-based). A shard's JSON Lines output ends with a trailer saying which shard
it is, how many records it wrote and how many puzzles the whole input had::

    {"shard": "2/4", "records": 19, "of": 75}

:func:`merge` checks a set of shard outputs against their trailers (every
shard there once, each complete) and deals their records back in turn,
which is the single run's output, record for record. A shard that stopped
early (interrupted, a deadline) writes no trailer, so it cannot be merged as
if it were whole.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import ExitStack
from dataclasses import dataclass
from typing import IO

from .formats import InputError, printable
from .inputs import Chunk

Opener = Callable[[str], IO[str]]
"""How a shard output is opened (as text), given its path."""


@dataclass
class Shard:
    """Shard ``k`` of ``n`` (1-based); ``total`` counts every puzzle the run
    went past, in shards or not, once the inputs are used up."""

    k: int
    n: int
    total: int = 0

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
        return json.dumps({"shard": f"{self.k}/{self.n}", "records": records, "of": self.total})


def parse_shard(value: str) -> Shard:
    """``--shard K/N``; ValueError unless 1 <= K <= N."""
    k, _, n = value.partition("/")
    if not (k.isdigit() and n.isdigit() and 1 <= int(k) <= int(n)):
        raise ValueError(f"expected K/N with 1 <= K <= N, e.g. 1/4, not {value!r}")
    return Shard(int(k), int(n))


@dataclass(frozen=True)
class Piece:
    """One shard output, read to its trailer."""

    path: str
    k: int
    n: int
    records: int
    total: int


def read_piece(path: str, lines: Iterable[str]) -> Piece:
    """The trailer of one shard output, checked against its records (each a
    JSON object); InputError naming the file and line when it does not hold."""
    records, last, where = -1, None, 0  # the last object read is the trailer, not a record
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            last, where, records = json.loads(line), number, records + 1
        except ValueError:
            raise InputError(path, number, 1, "expected a JSON record (a shard's jsonl)") from None
        if not isinstance(last, dict):
            raise InputError(path, number, 1, "expected a JSON object (a shard's jsonl)")
    trailer = _trailer(last)
    if trailer is None:
        raise InputError(
            path,
            where,
            1 if where else 0,
            "no shard trailer at the end: the shard did not finish, or ran "
            "without --shard K/N --format jsonl",
        )
    k, n, said, total = trailer
    expected = len(range(k - 1, total, n))
    if records != said or records != expected:
        raise InputError(
            path,
            where,
            1,
            f"{records} records, but shard {k}/{n} of {total} puzzles holds {expected} "
            f"(its trailer says {said})",
        )
    return Piece(path, k, n, records, total)


def _trailer(found: object) -> tuple[int, int, int, int] | None:
    """A trailer's shard K/N, records and puzzles in all; None for anything else."""
    try:
        k, n = (int(x) for x in found["shard"].split("/"))  # type: ignore[index]
        records, total = int(found["records"]), int(found["of"])  # type: ignore[index]
    except (KeyError, TypeError, ValueError, AttributeError):
        return None
    return (k, n, records, total) if 1 <= k <= n and records >= 0 <= total else None


def check_set(pieces: Sequence[Piece]) -> None:
    """Every shard of one run there once; ValueError (one line) otherwise."""
    if not pieces:
        raise ValueError("no shard outputs to merge")
    first = pieces[0]
    seen: dict[int, Piece] = {}
    for piece in pieces:
        if (piece.n, piece.total) != (first.n, first.total):
            raise ValueError(
                f"{printable(piece.path)} is shard {piece.k}/{piece.n} of {piece.total} "
                f"puzzles, but {printable(first.path)} is shard {first.k}/{first.n} of "
                f"{first.total}: not one run"
            )
        if piece.k in seen:
            raise ValueError(
                f"{printable(seen[piece.k].path)} and {printable(piece.path)} are both "
                f"shard {piece.k}/{piece.n}"
            )
        seen[piece.k] = piece
    missing = [k for k in range(1, first.n + 1) if k not in seen]
    if missing:
        names = ", ".join(f"{k}/{first.n}" for k in missing)
        raise ValueError(f"shard {names} missing: {len(pieces)} of {first.n} given")


def dealt(pieces: Sequence[Piece], open_text: Opener) -> Iterator[str]:
    """The records of checked ``pieces`` in the single run's order: shard K's
    i-th record is the puzzle at place K-1 + i*N."""
    ordered = sorted(pieces, key=lambda piece: piece.k)
    total = ordered[0].total
    with ExitStack() as stack:
        streams = [_records(stack.enter_context(open_text(p.path))) for p in ordered]
        for place in range(total):
            yield next(streams[place % len(streams)])


def _records(handle: IO[str]) -> Iterator[str]:
    """The record lines of a checked shard output (its trailer left out)."""
    for line in handle:
        if line.strip():
            yield line if line.endswith("\n") else line + "\n"


def merge(paths: Sequence[str], open_text: Opener) -> Iterator[str]:
    """The single run's JSON Lines from the shard outputs at ``paths``: each is
    read once to check it, then once more to deal out its records. InputError
    for a file that is no complete shard output, ValueError for a set of them
    that is not one whole run."""
    pieces = []
    for path in paths:
        with open_text(path) as handle:
            pieces.append(read_piece(path, handle))
    check_set(pieces)
    return dealt(pieces, open_text)
