"""DIMACS CNF out, solver models in."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable, Iterator
from typing import IO

from .encoding import Cnf

WriteFn = Callable[[IO[str]], None]


def dimacs_lines(cnf: Cnf) -> Iterator[str]:
    """The CNF as DIMACS lines (without newlines): comments, header, clauses."""
    for comment in cnf.comments():
        yield f"c {comment}"
    yield f"p cnf {cnf.nv} {len(cnf.clauses)}"
    for clause in cnf.clauses:
        yield " ".join(map(str, clause)) + " 0" if clause else "0"


def write_dimacs(cnf: Cnf, out: IO[str]) -> None:
    chunk: list[str] = []
    for line in dimacs_lines(cnf):
        chunk.append(line)
        if len(chunk) >= 65536:
            out.write("\n".join(chunk) + "\n")
            chunk.clear()
    if chunk:
        out.write("\n".join(chunk) + "\n")


def write_atomically(path: str, write: WriteFn) -> None:
    """Write a file through a temporary sibling and rename it into place.

    A reader never sees half a file, and a failed write leaves the old file as it was.
    """
    directory = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix=".sudosat-", suffix=".tmp", dir=directory)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            write(handle)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, 0o666 & ~_umask())
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
