"""Checking a certificate (:func:`check`, ``sudosat verify``) as a reader would,
with nothing of sudosat's solving in the way: hashes, the CNF encoded again,
each model and solution, the claim's blocked CNF, and the proof by a checker
that shares no code with sudosat or the solver. What a certificate holds:
:mod:`certificate`."""

from __future__ import annotations

import hashlib
import json
import os
import re
import stat
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, Any, BinaryIO

from sudosat.core.errors import InputError
from sudosat.core.jsonobject import JsonObject
from sudosat.core.puzzle import Grid, Puzzle, verify
from sudosat.sat.cnf import literal
from sudosat.solving.certificate import (
    BLOCKED,
    FORMAT,
    LEFT_OUT,
    PROVEN,
    STATUSES,
    blocking,
    full_cnf,
    read_marks,
    ruled_out,
    satisfied,
    with_blocked,
)
from sudosat.solving.proofs import Verdict, check_proof

if TYPE_CHECKING:
    pass


class NotACertificate(ValueError):
    """A folder with no readable manifest: bad input, not an invalid certificate."""


def found_in(folder: Path) -> list[Path]:
    """The certificates of ``folder``: itself, or its subfolders that are ones."""
    if (folder / "manifest.json").is_file():
        return [folder]
    found = sorted(p.parent for p in folder.glob("*/manifest.json")) if folder.is_dir() else []
    if not found:
        raise NotACertificate(f"{folder}: no certificate here (no manifest.json)")
    return found


MAX_FILE = 4 << 30
"""The largest file ``verify`` reads by default (4 GiB: far above any real proof)."""
MAX_MANIFEST = 64 << 20
"""The largest manifest read (a count's thousands of solutions are a few MB)."""


def check(folder: Path, checker: str = "dratify", max_file: int = MAX_FILE) -> Verdict:
    """Every claim of the certificate in ``folder``, checked (see the module). The
    folder is hostile input: only files inside it that the manifest hashes are
    read, none past ``max_file`` bytes, each hashed as it streams before it is
    read whole."""
    start = time.perf_counter()
    verdict = Verdict(folder)
    try:
        claim = Claim.of(_manifest(folder))
        held = _Held(max_file, max_file)
        texts = {name: _read(folder, name, digest, held) for name, digest in claim.files}
        for name, digest in claim.others:  # every entry answers for itself
            _read(folder, name, digest, held, keep=False)
    except Refused as err:
        verdict.problems.append(str(err))
        return _done(verdict, start)
    status = claim.status
    try:
        puzzle = _parse(texts["puzzle.txt"], folder)
    except InputError as err:
        verdict.problems.append(f"puzzle.txt cannot be read: {err}")
        return _done(verdict, start)
    clauses, text, nv = full_cnf(puzzle)
    if texts["puzzle.cnf"] != text:
        verdict.problems.append("puzzle.cnf is not the full CNF of puzzle.txt")
        return _done(verdict, start)
    grids = []
    for number, pair in enumerate(claim.solutions, 1):
        grids.append(_check_solution(puzzle, clauses, nv, texts, pair, number, verdict))
    if None in grids:
        return _done(verdict, start)
    found = [g for g in grids if g is not None]
    if status == "candidates":
        extra = _claimed_candidates(puzzle, found, texts[claim.candidates], verdict)
        why = LEFT_OUT
    else:
        extra = _counted(status, found, [blocking(puzzle, g) for g in found], verdict)
        why = BLOCKED
    if status in PROVEN and extra is not None:
        if texts[claim.cnf] != with_blocked(text, nv, len(clauses), extra, why):
            verdict.problems.append(f"claim.cnf is not puzzle.cnf with {CLAIMED[status]}")
        else:
            formula = (nv, [*clauses, *extra])
            check_proof(
                texts[claim.cnf], texts[claim.proof], checker, verdict, claim.proof, formula
            )
    verdict.status = status
    return _done(verdict, start)


class Refused(ValueError):
    """A manifest or a file the certificate cannot be checked with: it is not valid."""


@dataclass
class Claim:
    """What a manifest claims, and the files it needs, each with its hash."""

    status: str
    solutions: list[tuple[str, str]]
    """Each solution's file and its model's."""
    cnf: str = ""
    proof: str = ""
    candidates: str = ""
    files: list[tuple[str, str]] = field(default_factory=list)
    """Every file the claim needs (``puzzle.txt`` and ``puzzle.cnf`` too), with its
    SHA-256 from the manifest."""
    others: list[tuple[str, str]] = field(default_factory=list)
    """The manifest's other files: none is read as a claim's, but each is held to
    its hash and must lie inside the folder, as the claim's are."""

    @classmethod
    def of(cls, manifest: JsonObject) -> Claim:
        """The claim of a manifest; Refused, saying what is wrong with it."""
        claim, hashes = manifest.get("claim"), manifest.get("sha256")
        if not isinstance(claim, dict):
            raise Refused("the manifest's claim is not an object")
        if not isinstance(hashes, dict):
            raise Refused("the manifest's sha256 is not an object of file names and hashes")
        status = claim.get("status")
        if status not in STATUSES:
            raise Refused(
                f"the manifest claims {str(status)[:20]!r}: none of {', '.join(STATUSES)}"
            )
        listed = claim.get("solutions", [])
        if not isinstance(listed, list) or not all(
            isinstance(p, dict) and _names(p.get("solution"), p.get("model")) for p in listed
        ):
            raise Refused("the manifest's solutions are not a list of solution and model files")
        found = cls(status, [(p["solution"], p["model"]) for p in listed])
        needed = ["puzzle.txt", "puzzle.cnf", *(name for pair in found.solutions for name in pair)]
        if status == "candidates":
            found.candidates = _named(claim, "candidates")
            needed.append(found.candidates)
        if status in PROVEN:
            found.cnf, found.proof = _named(claim, "cnf"), _named(claim, "proof")
            needed += [found.cnf, found.proof]
        for name in dict.fromkeys(needed):
            digest = hashes.get(name)
            if not isinstance(digest, str) or not re.fullmatch("[0-9a-f]{64}", digest):
                raise Refused(f"{name} has no SHA-256 in the manifest")
            found.files.append((name, digest))
        for name, digest in hashes.items():
            if name in needed:
                continue
            if not isinstance(digest, str) or not re.fullmatch("[0-9a-f]{64}", digest):
                raise Refused(f"{name[:60]!r} has no SHA-256 in the manifest")
            found.others.append((name, digest))
        return found


def _names(*names: Any) -> bool:
    return all(isinstance(name, str) and name for name in names)


def _named(claim: JsonObject, key: str) -> str:
    """The file a claim names under ``key``; Refused when it names none."""
    name = claim.get(key)
    if not _names(name):
        raise Refused(f"the manifest's claim names no {key} file")
    return str(name)


CHUNK = 1 << 20


@dataclass
class _Held:
    """What the files of one certificate hold in memory, all together: at most
    ``cap`` bytes (--max-size) across them, ``left`` still to spare, and each
    file read once however many names lead to it."""

    cap: int
    left: int
    read: dict[tuple[int, int], tuple[str, str]] = field(default_factory=dict)
    """The files read, by device and inode: their hash and their text."""


def _read(folder: Path, name: str, digest: str, held: _Held, keep: bool = True) -> str:
    """The text of a file of the certificate, once it is shown to lie inside
    ``folder`` (no absolute path, no ``..``, no link out), to be a regular file
    that fits in what ``held`` has left, and to have the manifest's hash
    (streamed, before it is read whole); Refused otherwise. A file reached by
    two names is read once. Not ``keep``: hashed alone ("" for its text)."""
    if PurePosixPath(name).is_absolute() or ".." in PurePosixPath(name).parts or "\0" in name:
        raise Refused(f"{name[:60]!r} is not a file of the certificate's folder")
    with _opened(folder, name) as (file, info):
        known = held.read.get((info.st_dev, info.st_ino))
        if known is not None:
            if known[0] != digest:
                raise Refused(f"{name} was changed: its SHA-256 is not the manifest's")
            return known[1]
        cap = held.cap
        if info.st_size > held.left:
            raise Refused(
                f"{name} is {info.st_size:,} bytes, past the cap of {cap:,} (--max-size) "
                "on the certificate's files together"
            )
        streamed, size = hashlib.sha256(), 0
        while chunk := file.read(CHUNK):
            size += len(chunk)
            if size > held.left:
                raise Refused(f"{name} grew past the cap of {cap:,} bytes (--max-size)")
            streamed.update(chunk)
        if streamed.hexdigest() != digest:
            raise Refused(f"{name} was changed: its SHA-256 is not the manifest's")
        if not keep:
            held.left -= size
            return ""
        file.seek(0)
        try:
            data = file.read(size + 1)  # as big as the file: never a buffer of the cap's size
            text = data.decode()
        except MemoryError:
            raise Refused(f"{name} is too big to check in this machine's memory") from None
        except UnicodeDecodeError:
            raise Refused(f"{name} is not UTF-8 text") from None
    if hashlib.sha256(data).hexdigest() != digest:  # changed while being read
        raise Refused(f"{name} was changed: its SHA-256 is not the manifest's")
    held.left -= len(data)
    held.read[(info.st_dev, info.st_ino)] = (digest, text)
    return text


@contextmanager
def _opened(folder: Path, name: str) -> Iterator[tuple[BinaryIO, os.stat_result]]:
    """``folder/name`` open for reading, with its stat, once it is shown to be a
    regular file inside ``folder`` (links followed as the kernel follows them);
    Refused otherwise."""
    try:
        fd = os.open(folder / name, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except FileNotFoundError:
        raise Refused(f"{name} is missing") from None
    except OSError as err:
        raise Refused(f"{name} cannot be read ({err.strerror})") from None
    info = os.fstat(fd)
    if not stat.S_ISREG(info.st_mode):  # a folder, a FIFO that never ends, a device
        os.close(fd)
        raise Refused(f"{name} is not a regular file")
    with os.fdopen(fd, "rb") as file:
        if not _inside(fd, folder / name, folder):
            raise Refused(f"{name} leads out of the certificate's folder")
        yield file, info


def _inside(fd: int, path: Path, folder: Path) -> bool:
    """Whether the file open as ``fd`` lies inside ``folder`` (as the kernel names
    it: links followed, and no name swapped after the open)."""
    proc = Path(f"/proc/self/fd/{fd}")
    real = Path(os.readlink(proc)) if proc.is_symlink() else path.resolve()
    return real.is_relative_to(folder.resolve())


CLAIMED = {
    "unique": "the solutions blocked",
    "none": "the solutions blocked",
    "exactly": "the solutions blocked",
    "candidates": "the clause of the values left out",
}


def _counted(
    status: str, grids: list[Grid], blocked: list[list[int]], verdict: Verdict
) -> list[list[int]] | None:
    """The blocking clauses of a count's solutions, when there are as many different
    ones as the claim says (else a problem, and None)."""
    fewest, most = {"unique": (1, 1), "none": (0, 0)}.get(status, (2, None))
    if len(set(grids)) != len(grids):
        verdict.problems.append("two solutions are the same grid")
    elif len(grids) < fewest or (most is not None and len(grids) > most):
        wanted = f"{fewest}" if fewest == most else f"{fewest} or more"
        verdict.problems.append(f"a {status} claim needs {wanted} different solutions")
    else:
        return blocked
    return None


def _claimed_candidates(
    puzzle: Puzzle, grids: list[Grid], text: str | None, verdict: Verdict
) -> list[list[int]] | None:
    """The clause of the values ``candidates.txt`` leaves out, when the witnesses put
    exactly its values in the cells (else a problem, and None)."""
    marks = read_marks(text or "", puzzle.size)
    if marks is None:
        verdict.problems.append(f"candidates.txt is not {puzzle.size}x{puzzle.size} cells in order")
        return None
    held = [tuple(sorted({g[cell] for g in grids})) for cell in range(len(marks))]
    wrong = next((cell for cell, values in enumerate(marks) if held[cell] != values), None)
    if wrong is not None:
        n = puzzle.size
        verdict.problems.append(
            f"candidates.txt lists {list(marks[wrong])} in r{wrong // n + 1}c{wrong % n + 1}, "
            f"the solutions put {list(held[wrong])} there"
        )
        return None
    return [ruled_out(puzzle, marks)]


def _done(verdict: Verdict, start: float) -> Verdict:
    verdict.seconds = time.perf_counter() - start
    return verdict


def _manifest(folder: Path) -> JsonObject:
    """The manifest, a regular file inside ``folder`` (a link out of it is not
    followed); NotACertificate when there is none to read (bad input, exit 2)."""
    path = folder / "manifest.json"
    try:
        with _opened(folder, "manifest.json") as (file, info):
            if info.st_size > MAX_MANIFEST:
                size = info.st_size
                raise NotACertificate(f"{path}: {size:,} bytes, past a manifest's {MAX_MANIFEST:,}")
            found = json.loads(file.read(MAX_MANIFEST + 1))
    except NotACertificate:
        raise
    except Refused as err:
        raise NotACertificate(f"{path}: no certificate here ({err})") from None
    except (OSError, ValueError, RecursionError) as err:
        raise NotACertificate(f"{path}: no certificate here ({err.__class__.__name__})") from None
    if not isinstance(found, dict) or found.get("format") != FORMAT:
        raise NotACertificate(f"{path}: not a {FORMAT}")
    return found


def _parse(text: str, folder: Path) -> Puzzle:
    from sudosat.reading.formats import parse  # deferred: the readers, for checking alone

    return parse(text, source=str(folder / "puzzle.txt"))


def _check_solution(
    puzzle: Puzzle,
    clauses: list[list[int]],
    nv: int,
    texts: dict[str, str],
    pair: tuple[str, str],
    number: int,
    verdict: Verdict,
) -> Grid | None:
    """A solution kept by its rules' own checks and spelled by a model of the CNF."""
    n = puzzle.size
    words = texts[pair[0]].split()
    values = [int(w) if w.isascii() and w.isdigit() else -1 for w in words]
    if len(values) != n * n or not all(1 <= v <= n for v in values):
        verdict.problems.append(f"solution-{number} is not a grid of {n}x{n} values")
        return None
    grid = tuple(values)
    for problem in verify(puzzle, grid):
        verdict.problems.append(f"solution-{number} breaks the puzzle: {problem}")
        return None
    try:
        model = [int(x) for x in texts[pair[1]].split()]
    except ValueError:
        verdict.problems.append(f"model-{number} is not a list of literals")
        return None
    true = {lit for lit in model if lit > 0}
    if sorted(abs(x) for x in model if x) != list(range(1, nv + 1)):
        verdict.problems.append(f"model-{number} does not give every variable 1..{nv} once")
        return None
    for index, clause in enumerate(clauses, 1):
        if not satisfied(clause, true):
            verdict.problems.append(f"model-{number} breaks clause {index} of puzzle.cnf")
            return None
    if any(literal(n, c, grid[c]) not in true for c in range(n * n)):
        verdict.problems.append(f"model-{number} does not spell solution-{number}")
        return None
    return grid
