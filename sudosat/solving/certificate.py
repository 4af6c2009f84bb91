"""Certificates of a puzzle's answer that anyone can check without trusting sudosat.

A certificate is a folder of standard files:

* ``puzzle.txt``: the puzzle, as sudosat reads it (its rules as statements);
* ``puzzle.cnf``: its full CNF in DIMACS (``sudosat cnf --full``: every rule's
  clauses, the givens as unit clauses);
* ``solution-K.txt`` and ``model-K.txt``: each solution found, as its values
  in numbers (a row a line) and as the solver's whole model (every variable,
  helper ones too);
* for "no more" (``unique``: the one solution, ``none``, ``exactly`` K):
  ``claim.cnf``, the CNF with each solution found blocked (a clause "not this
  grid"), and ``claim.drup``, a DRUP proof that it is unsatisfiable, logged by
  CaDiCaL 1.9.5 as it solved it (PySAT's ``with_proof``), or ``claim.drat``,
  the DRAT proof a solver program wrote (``--solver cadical``);
* for ``candidates``: ``candidates.txt`` (each cell's values), a solution and
  model witnessing each, and ``claim.cnf``: the CNF with one more clause, "some
  value not listed is in its cell", which the proof refutes;
* ``manifest.json``: what is claimed, and each file's SHA-256.

:func:`check` asks of a folder what a reader would: the hashes, that the CNF
is the puzzle's (encoded again), that each model satisfies every clause and
spells its solution, that each solution keeps every rule by the rule's own
check, that ``claim.cnf`` is the CNF with exactly those solutions blocked, and
that the proof refutes it, by a checker that shares no code with sudosat or
the solver (``dratify``, in Rust when ``cdclkit-native`` is installed; ``drup``,
extracted from verified Why3 code, as an option). ``drat-trim claim.cnf
claim.drup`` checks the same files.

Deletions in a proof are not applied when checking: CaDiCaL's proof of a 16x16
killer deletes clauses a later step needs (dratify rejects it with its
deletions, either engine, and accepts it without; drat-trim ignores deletions
of unit clauses for the same reason). Keeping every clause is sound: each was
in the formula or derived from it.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import os
import re
import shutil
import stat
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, Any

from pysat.solvers import Solver

from sudosat.core.errors import InputError, SolverError
from sudosat.core.jsonobject import JsonObject
from sudosat.core.masks import from_values
from sudosat.core.notation import format_grid
from sudosat.core.puzzle import Grid, Puzzle, rank_for_cells, verify
from sudosat.reading import ruletext
from sudosat.sat.cnf import Encoding, literal, model_grid
from sudosat.sat.cnf import ruled_out as ruled_out_literals
from sudosat.sat.dimacs import clause_line, header, write_dimacs
from sudosat.sat.encoding import encode

if TYPE_CHECKING:
    from sudosat.sat.solvers.programs import Program

FORMAT = "sudosat certificate 1"
PROVER = "cadical195"
"""PySAT's CaDiCaL 1.9.5: it logs a DRUP proof as it solves."""
CHECKERS = ("dratify", "dratify-python", "drup")
STATUSES = ("unique", "none", "several", "exactly", "candidates")
PROVEN = ("unique", "none", "exactly", "candidates")
"""The claims with a proof (``several`` needs none: its models show it)."""
BLOCKED = "c --- each solution found, blocked"
LEFT_OUT = "c --- some value left out"
"""The comment before the clauses a claim adds to the CNF (a count's, candidates')."""


@dataclass
class Certificate:
    """What a certificate holds, in memory."""

    puzzle_text: str
    cnf_text: str
    status: str
    """``unique``, ``none``, ``exactly`` (all K solutions found), ``several`` (as many
    found as asked for: at least that many, no proof needed) or ``candidates``."""
    solutions: list[Grid] = field(default_factory=list)
    models: list[list[int]] = field(default_factory=list)
    claim_text: str = ""
    """The CNF with the claim's clauses added: what the proof refutes."""
    proof: list[str] = field(default_factory=list)
    prover: str = PROVER
    candidates: tuple[tuple[int, ...], ...] = ()
    """``candidates``: per cell, the values some solution puts there."""
    seconds: float = 0.0

    @property
    def proof_name(self) -> str:
        """``claim.drup`` from CaDiCaL in process, ``claim.drat`` from a program."""
        return "claim.drup" if self.prover == PROVER else "claim.drat"


def puzzle_text(puzzle: Puzzle) -> str:
    """The puzzle as text sudosat reads back: its size when the grid does not say
    it, its grid, and a variant's rules as statements."""
    if puzzle.classic:
        return format_grid(puzzle) + "\n"
    sized = [] if rank_for_cells(puzzle.size**2) else [f"size {puzzle.size}"]
    return "\n".join([*sized, format_grid(puzzle), *ruletext.write(puzzle)]) + "\n"


def full_cnf(puzzle: Puzzle) -> tuple[list[list[int]], str, int]:
    """The puzzle's full CNF: its clauses, its DIMACS text, its variable count."""
    cnf = encode(puzzle, Encoding(reduced=False))
    out = io.StringIO()
    write_dimacs(cnf, out)
    return cnf.clauses, out.getvalue(), cnf.nv


def blocking(puzzle: Puzzle, grid: Grid) -> list[int]:
    """The clause "not this grid": one of the grid's values is elsewhere."""
    n = puzzle.size
    return [-literal(n, cell, value) for cell, value in enumerate(grid)]


def ruled_out(puzzle: Puzzle, marks: Sequence[Sequence[int]]) -> list[int]:
    """The clause "some value not in ``marks`` is in its cell"."""
    return [-lit for lit in ruled_out_literals(puzzle.size, map(from_values, marks))]


def certify(
    puzzle: Puzzle, most: int = 2, program: Program | None = None, timeout: float | None = None
) -> Certificate:
    """Solve ``puzzle``'s full CNF with a proof-logging solver: its solutions (up to
    ``most``) and, when there are fewer, a proof that there are no more. One
    solver answers both questions: each solution's blocking clause is added as
    it is found, so the proof it logs refutes the CNF with those clauses, as the
    checker is given it. ``program``: a solver program writes the proof (its
    models and proof are checked here: a program is not trusted), stopped after
    ``timeout`` seconds (SolverTimeout; CaDiCaL in process cannot be)."""
    start = time.perf_counter()
    most = max(most, 2)  # "unique" needs the search for a second
    clauses, text, nv = full_cnf(puzzle)
    solutions: list[Grid] = []
    models: list[list[int]] = []
    blocked: list[list[int]] = []
    with _prover(clauses, program, timeout) as solver:
        while len(solutions) < most and solver.solve():
            model = [lit for lit in solver.get_model() or [] if abs(lit) <= nv]
            grid = model_grid(puzzle.size, model)
            solutions.append(grid)
            models.append(_whole(model, nv))
            blocked.append(blocking(puzzle, grid))
            solver.add_clause(blocked[-1])
        if len(solutions) == most:
            status = "several"
        else:
            status = ("none", "unique")[len(solutions)] if len(solutions) < 2 else "exactly"
        found = Certificate(puzzle_text(puzzle), text, status, solutions, models)
        if status != "several":
            found.claim_text = _with(text, nv, len(clauses), blocked)
            found.proof = list(solver.get_proof() or [])
            found.prover = solver.name if program else PROVER
    if program is not None:
        _trusted(found, clauses, nv)
    found.seconds = time.perf_counter() - start
    return found


def certify_candidates(puzzle: Puzzle, marks: Sequence[Sequence[int]]) -> Certificate:
    """A certificate that ``marks`` are each cell's true candidates: a model of the
    full CNF holding each (the fewest the solver finds, each covering those not
    yet witnessed), and a proof that no solution puts any other value anywhere
    (the CNF and the clause of every value left out, unsatisfiable)."""
    start = time.perf_counter()
    clauses, text, nv = full_cnf(puzzle)
    n = puzzle.size
    wanted = {literal(n, cell, v) for cell, values in enumerate(marks) for v in values}
    solutions: list[Grid] = []
    models: list[list[int]] = []
    with Solver(name=PROVER, bootstrap_with=clauses, with_proof=True) as solver:
        while wanted:
            lit = min(wanted)  # a solution holding it; the phases favour the rest
            solver.set_phases(sorted(wanted))
            if not solver.solve(assumptions=[lit]):
                raise ValueError(f"no solution holds candidate {lit}: not true candidates")
            model = [x for x in solver.get_model() or [] if abs(x) <= nv]
            solutions.append(model_grid(puzzle.size, model))
            models.append(_whole(model, nv))
            wanted -= set(model)
        out = ruled_out(puzzle, marks)
        solver.add_clause(out)
        if solver.solve():
            raise ValueError("a solution puts a value left out in its cell: not true candidates")
        proof = list(solver.get_proof() or [])
    found = Certificate(puzzle_text(puzzle), text, "candidates", solutions, models)
    found.claim_text = _with(text, nv, len(clauses), [out], LEFT_OUT)
    found.proof, found.candidates = proof, tuple(tuple(v) for v in marks)
    found.seconds = time.perf_counter() - start
    return found


def _prover(clauses: list[list[int]], program: Program | None, timeout: float | None) -> Any:
    """A solver that logs a proof: CaDiCaL in process, or ``program`` writing one."""
    if program is None:
        return Solver(name=PROVER, bootstrap_with=clauses, with_proof=True)
    from sudosat.sat.deadline import deadline_after
    from sudosat.sat.solvers.external import ExternalSolver  # deferred: programs alone

    solver = ExternalSolver(program, deadline_after(timeout), trusted=True, proof=True)
    solver.add_clauses(clauses)
    return contextlib.closing(solver)


def _trusted(found: Certificate, clauses: list[list[int]], nv: int) -> None:
    """A program's certificate, checked before it is written: each model satisfies
    the CNF and the proof refutes the claim (SolverError when not)."""
    true_sets = [{lit for lit in model if lit > 0} for model in found.models]
    for number, true in enumerate(true_sets, 1):
        if not all(_satisfied(clause, true) for clause in clauses):
            raise SolverError(f"solver {found.prover}'s model {number} breaks the CNF")
    if found.status in PROVEN:
        verdict = Verdict(Path("."))
        proof = "\n".join(found.proof) + "\n"
        _check_proof(found.claim_text, proof, "dratify", verdict, found.proof_name)
        if verdict.problems:
            raise SolverError(f"solver {found.prover}'s proof does not refute its formula")


def _satisfied(clause: Sequence[int], true: set[int]) -> bool:
    return any((lit in true) if lit > 0 else (-lit not in true) for lit in clause)


def _whole(model: Sequence[int], nv: int) -> list[int]:
    """A model of every variable 1..nv (one the solver left out is false: it is in
    no clause, or any value satisfies them)."""
    true = {lit for lit in model if lit > 0}
    return [v if v in true else -v for v in range(1, nv + 1)]


def _with(
    text: str,
    nv: int,
    count: int,
    extra: Sequence[Sequence[int]],
    why: str = BLOCKED,
) -> str:
    """A DIMACS text with more clauses, its header counting them."""
    lines = text.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("p cnf"))
    lines[at] = header(nv, count + len(extra))
    lines.append(why)
    lines += [clause_line(clause) for clause in extra]
    return "\n".join(lines) + "\n"


# --- the folder ---------------------------------------------------------------------


def write(found: Certificate, folder: Path) -> None:
    """The certificate's files in ``folder``, made whole elsewhere and moved in at
    once (a folder of that name is replaced)."""
    folder.parent.mkdir(parents=True, exist_ok=True)
    made = Path(tempfile.mkdtemp(prefix=f".{folder.name}.", dir=folder.parent))
    try:
        files = {"puzzle.txt": found.puzzle_text, "puzzle.cnf": found.cnf_text}
        claim: dict[str, object] = {"status": found.status, "solutions": []}
        for index, (grid, model) in enumerate(zip(found.solutions, found.models, strict=True)):
            names = (f"solution-{index + 1}.txt", f"model-{index + 1}.txt")
            files[names[0]] = _rows(grid)
            files[names[1]] = " ".join(map(str, model)) + " 0\n"
            claim["solutions"].append({"solution": names[0], "model": names[1]})  # type: ignore[attr-defined]
        if found.status == "candidates":
            files["candidates.txt"] = _marks(found.candidates)
            claim["candidates"] = "candidates.txt"
        if found.status in PROVEN:
            files["claim.cnf"] = found.claim_text
            files[found.proof_name] = "".join(line.rstrip("\n") + "\n" for line in found.proof)
            claim |= {"cnf": "claim.cnf", "proof": found.proof_name}
        for name, text in files.items():
            (made / name).write_text(text)
        manifest = {
            "format": FORMAT,
            "claim": claim,
            "says": SAYS[found.status].replace("claim.drup", found.proof_name),
            "prover": found.prover,
            "sha256": {name: _sha(text) for name, text in files.items()},
        }
        (made / "manifest.json").write_text(json.dumps(manifest, indent=2) + "\n")
        if folder.exists():
            shutil.rmtree(folder)
        os.replace(made, folder)
    except BaseException:
        shutil.rmtree(made, ignore_errors=True)
        raise


SAYS = {
    "unique": "puzzle.cnf has the model of solution-1 and claim.cnf (it, with that "
    "solution blocked) is unsatisfiable: claim.drup refutes it",
    "none": "puzzle.cnf is unsatisfiable: claim.cnf is it, and claim.drup refutes it",
    "several": "puzzle.cnf has these models, which spell as many different solutions: "
    "at least that many",
    "exactly": "puzzle.cnf has these models, which spell as many different solutions, "
    "and claim.cnf (it, with each of them blocked) is unsatisfiable: claim.drup refutes it",
    "candidates": "puzzle.cnf has these models, whose solutions put each value of "
    "candidates.txt in its cell, and claim.cnf (it, and a clause that some value not in "
    "candidates.txt is in its cell) is unsatisfiable: claim.drup refutes it",
}


def _rows(grid: Grid) -> str:
    """A grid as its values in numbers, a row a line (any size reads the same)."""
    n = round(len(grid) ** 0.5)
    return "".join(" ".join(map(str, grid[r * n : r * n + n])) + "\n" for r in range(n))


def _marks(marks: Sequence[Sequence[int]]) -> str:
    """Each cell's candidates, a cell a line: ``r1c2: 4 7``."""
    n = round(len(marks) ** 0.5)
    return "".join(
        f"r{cell // n + 1}c{cell % n + 1}: {' '.join(map(str, values))}".rstrip() + "\n"
        for cell, values in enumerate(marks)
    )


def _read_marks(text: str, n: int) -> list[tuple[int, ...]] | None:
    """``candidates.txt`` read back; None when it is not ``n``x``n`` cells in order."""
    lines = text.splitlines()
    if len(lines) != n * n:
        return None
    marks = []
    for cell, line in enumerate(lines):
        name, _, values = line.partition(":")
        if name != f"r{cell // n + 1}c{cell % n + 1}":
            return None
        words = values.split()
        if not all(w.isascii() and w.isdigit() and 1 <= int(w) <= n for w in words):
            return None
        marks.append(tuple(sorted({int(w) for w in words})))
    return marks


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


# --- checking ------------------------------------------------------------------------


@dataclass
class Verdict:
    """What checking a certificate found."""

    folder: Path
    status: str = ""
    problems: list[str] = field(default_factory=list)
    proven: str = ""
    """How the proof was checked, in words ("" for a claim with none)."""
    seconds: float = 0.0

    @property
    def valid(self) -> bool:
        return bool(self.status) and not self.problems


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
        texts = {name: _read(folder, name, digest, max_file) for name, digest in claim.files}
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
        if texts[claim.cnf] != _with(text, nv, len(clauses), extra, why):
            verdict.problems.append(f"claim.cnf is not puzzle.cnf with {CLAIMED[status]}")
        else:
            formula = (nv, [*clauses, *extra])
            _check_proof(
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


def _read(folder: Path, name: str, digest: str, cap: int) -> str:
    """The text of a file of the certificate, once it is shown to lie inside
    ``folder`` (no absolute path, no ``..``, no link out), to be a regular file of
    at most ``cap`` bytes, and to have the manifest's hash (streamed, before it is
    read whole); Refused otherwise."""
    if PurePosixPath(name).is_absolute() or ".." in PurePosixPath(name).parts or "\0" in name:
        raise Refused(f"{name[:60]!r} is not a file of the certificate's folder")
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
        if info.st_size > cap:
            raise Refused(f"{name} is {info.st_size:,} bytes, past the cap of {cap:,} (--max-size)")
        streamed, size = hashlib.sha256(), 0
        while chunk := file.read(CHUNK):
            size += len(chunk)
            if size > cap:
                raise Refused(f"{name} grew past the cap of {cap:,} bytes (--max-size)")
            streamed.update(chunk)
        if streamed.hexdigest() != digest:
            raise Refused(f"{name} was changed: its SHA-256 is not the manifest's")
        file.seek(0)
        try:
            data = file.read(cap + 1)
            text = data.decode()
        except MemoryError:
            raise Refused(f"{name} is too big to check in this machine's memory") from None
        except UnicodeDecodeError:
            raise Refused(f"{name} is not UTF-8 text") from None
    if hashlib.sha256(data).hexdigest() != digest:  # changed while being read
        raise Refused(f"{name} was changed: its SHA-256 is not the manifest's")
    return text


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
    marks = _read_marks(text or "", puzzle.size)
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
    """The manifest; NotACertificate when there is none to read (bad input, exit 2)."""
    path = folder / "manifest.json"
    try:
        size = path.stat().st_size
        if size > MAX_MANIFEST:
            raise NotACertificate(f"{path}: {size:,} bytes, past a manifest's {MAX_MANIFEST:,}")
        found = json.loads(path.read_text())
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
        if not _satisfied(clause, true):
            verdict.problems.append(f"model-{number} breaks clause {index} of puzzle.cnf")
            return None
    if any(literal(n, c, grid[c]) not in true for c in range(n * n)):
        verdict.problems.append(f"model-{number} does not spell solution-{number}")
        return None
    return grid


def _check_proof(
    formula: str,
    proof: str,
    checker: str,
    verdict: Verdict,
    name: str = "claim.drup",
    clauses: tuple[int, Sequence[Sequence[int]]] | None = None,
) -> None:
    """The proof refutes the formula, by a checker of its own (deletions not applied:
    see the module). ``clauses``: the formula's variable count and clauses, when
    they are known to be its text's (read faster than the text)."""
    if checker == "drup":
        _check_by_drup(formula, proof, verdict, name)
        return
    from dratify import check_proof, parse_dimacs  # deferred: for verify alone

    engine = "python" if checker == "dratify-python" else _native_engine()
    cnf = parse_dimacs(formula) if clauses is None else _dratify_cnf(*clauses)
    try:
        result = check_proof(cnf, proof, engine=engine, apply_deletions=False)
    except ValueError as err:
        verdict.problems.append(f"{name} is not a DRAT proof: {err}")
        return
    by = f"dratify{' (Rust)' if engine == 'native' else ''}"
    verdict.proven = (
        f"{result.steps} proof steps checked by {by}"
        if result.steps
        else f"refuted by unit propagation alone ({by})"
    )
    if not (result.ok and result.reached_empty):
        reason = result.reason or "it does not reach the empty clause"
        verdict.problems.append(f"{name} does not refute claim.cnf (dratify: {reason})")


def _dratify_cnf(nv: int, clauses: Sequence[Sequence[int]]) -> Any:
    """dratify's formula of DIMACS clauses, built at once (its reader spends ten
    times the native check on a 16x16's text). Its literals: 2(v-1), +1 when
    negative; a literal repeated in a clause is kept once, as its reader does."""
    from dratify import CNF

    cnf = CNF(nv)
    cnf.clauses = [
        tuple(dict.fromkeys(2 * lit - 2 if lit > 0 else -2 * lit - 1 for lit in clause))
        for clause in clauses
    ]
    return cnf


def _native_engine() -> str:
    """dratify's Rust engine when cdclkit-native is installed (10x faster), else Python."""
    import dratify

    try:
        import cdclkit_native
    except ImportError:
        return "python"
    dratify.register_native(cdclkit_native)
    return "native"


def _check_by_drup(formula: str, proof: str, verdict: Verdict, name: str) -> None:
    """The proof checked by drup (its reader takes no comments in the formula and no
    deletions in the proof: a proof without its deletions is as valid, if slower
    to check)."""
    try:
        from drup import check_proof_from_strings  # deferred: an option, and slow
    except ImportError:
        verdict.problems.append("drup is not installed (pip install 'sudosat[drup]')")
        return
    clauses = "\n".join(line for line in formula.splitlines() if not line.startswith("c"))
    added = "".join(line + "\n" for line in proof.splitlines() if not line.startswith("d"))
    try:
        result = check_proof_from_strings(clauses + "\n", added)
    except ValueError as err:
        verdict.problems.append(f"{name} is not a DRUP proof (drup: {err})")
        return
    verdict.proven = "proof checked by drup"
    if str(result.outcome).rsplit(".", 1)[-1] != "VALID":
        verdict.problems.append(f"{name} does not refute claim.cnf (drup: {result.outcome})")
