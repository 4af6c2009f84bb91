"""Work shared by its cost, not its lines: the chunks a pool of workers is handed
are cut to hold about :data:`TARGET` seconds of work each, by the time a puzzle
took in the answers heard so far.

Without it, a batch went out in the reader's chunks (128 lines, doubling to
2,048), and the hard end of a list sorted easy to hard (``rate`` of an SE-rated
list) fell on one worker while the other sat idle. Cut by cost, a chunk of
cheap puzzles stays large (a classic line costs microseconds: the reader's
chunk goes whole), and a chunk of hard ones shrinks to a puzzle, so that no
worker holds more than about TARGET seconds beyond the others' at the end.

A task dear as a rule (a rating, a path, a count: :attr:`Task.dear`) is paced
from its start: the first chunks, before any answer is heard, hold one puzzle,
and a size grows to at most twice the largest chunk heard of, because answers
come back several chunks behind the cutting (the pool keeps a few chunks a
worker in flight) and a size must not double again and again on what was heard
once. Any other task (a solve) starts with the reader's chunks, whole and
unbounded, and is cut only once its puzzles are heard to be dear (16x16s): a
classic solve's chunks stay exactly the reader's, as big as its numpy front end
wants them. A size is always judged by the last chunk heard of (a list sorted
by difficulty moves).

Cost alone cannot see a cliff: hard puzzles right after cheap ones fall in a
chunk cut for cheap ones. So in a dear task, where puzzles cost more than
:data:`DEAR` each and the input's length is known (a file, not a pipe), a chunk
also holds at most a ``2 x jobs``-th of the puzzles left: the chunks shrink as
the end nears. A solve never asks the length (a worker's first chunk, which
pays for its start, can look dear).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Iterator
from typing import Generic, Protocol, TypeVar

TARGET = 0.5
"""Seconds of work a chunk is cut to hold: a hundred times what a chunk costs
beyond its puzzles (handing it to a worker, the front end's arrays, its records:
a few milliseconds), and short enough not to matter at the end."""
DEAR = 0.001
"""Seconds a puzzle past which the puzzles left are counted (reading the input's
lines once more is then cheap beside answering them)."""


class Sized(Protocol):
    def __len__(self) -> int: ...


C = TypeVar("C", bound=Sized)


class Pacer(Generic[C]):
    """Cuts chunks to size by the cost heard so far (:meth:`heard`, called with each
    answer as it comes back, in the process that hands the chunks out)."""

    def __init__(
        self,
        split: Callable[[C, int], tuple[C, C]],
        jobs: int = 2,
        total: Callable[[], int | None] = lambda: None,
        dear: bool = True,
        target: float = TARGET,
    ) -> None:
        self.split = split
        self.dear = dear
        """Paced from the start; else the reader's chunks go whole until cost is heard."""
        self.jobs = jobs
        self.total = total
        """The puzzles of the whole input, if known: asked once, when they turn dear."""
        self.target = target
        self.per_puzzle: float | None = None
        """Seconds a puzzle of the last chunk heard of took."""
        self.heard_size = 0
        """Puzzles in the largest chunk heard of (a reader's chunk's short end sets no size)."""
        self.handed = 0
        """Puzzles handed out so far."""
        self.asked = False
        self.length: int | None = None
        """``total()``'s answer, once asked."""

    def heard(self, seconds: float, puzzles: int) -> None:
        """One chunk's answer: ``puzzles`` answered in ``seconds`` of a worker's time."""
        if puzzles > 0:
            self.per_puzzle = seconds / puzzles
            self.heard_size = max(self.heard_size, puzzles)

    def next_size(self) -> int:
        """Puzzles in the next chunk handed out."""
        if self.per_puzzle is None:
            return 1 if self.dear else sys.maxsize
        size = max(1, int(self.target / max(self.per_puzzle, 1e-9)))
        if self.dear:
            size = min(size, 2 * self.heard_size)
        left = self._left()
        return size if left is None else max(1, min(size, left // (2 * self.jobs)))

    def _left(self) -> int | None:
        """Puzzles not yet handed out, where they are dear and the input's length known."""
        if not self.asked:
            if not self.dear or self.per_puzzle is None or self.per_puzzle < DEAR:
                return None
            self.asked, self.length = True, self.total()
        return None if self.length is None else self.length - self.handed

    def cut(self, chunks: Iterable[C]) -> Iterator[C]:
        """``chunks`` again, each cut into pieces of the sizes asked for as they are taken."""
        for rest in chunks:
            while len(rest) > 0:
                size = self.next_size()
                chunk, rest = self.split(rest, min(size, len(rest)))
                self.handed += len(chunk)
                yield chunk
