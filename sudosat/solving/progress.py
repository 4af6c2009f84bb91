"""What a long search has done so far, for whoever watches: the command line's
progress line on a terminal (``solve --count``, ``--estimate``). Nobody watches
by default, and then telling costs one test.

    with watched(lambda what, done: print(what, done)):
        solve(puzzle, max_solutions=10**6)  # "solutions 1", "solutions 2", ...
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

Watcher = Callable[[str, int], None]
"""Told what is being done (``solutions`` counted, ``walks`` sampled) and how many."""

watcher: Watcher | None = None


def tell(what: str, done: int) -> None:
    if watcher is not None:
        watcher(what, done)


@contextmanager
def watched(by: Watcher) -> Iterator[None]:
    """``by`` told of the searches of this process while the block runs."""
    global watcher
    before, watcher = watcher, by
    try:
        yield
    finally:
        watcher = before
