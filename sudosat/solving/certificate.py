"""Certificates of a puzzle's answer that anyone can check without trusting sudosat.

A certificate is a folder of standard files:

* ``puzzle.txt``: the puzzle, as sudosat reads it (its rules as statements);
* ``puzzle.cnf``: its full CNF in DIMACS (``sudosat cnf --full``: every rule's
  clauses, the givens as unit clauses);
* ``solution-K.txt`` and ``model-K.txt``: each solution found, as its values
  in numbers (a row a line) and as the solver's whole model (every variable,
  helper ones too);
* for "no more" (``unique``: the one solution, ``none``): ``claim.cnf``, the
  CNF with each solution found blocked (a clause "not this grid"), and
  ``claim.drup``, a DRUP proof that it is unsatisfiable, logged by CaDiCaL
  1.9.5 as it solved it (PySAT's ``with_proof``);
* ``manifest.json``: what is claimed, and each file's SHA-256.

:func:`check` asks of a folder what a reader would: the hashes, that the CNF
is the puzzle's (encoded again), that each model satisfies every clause and
spells its solution, that each solution keeps every rule by the rule's own
check, that ``claim.cnf`` is the CNF with exactly those solutions blocked, and
that the proof refutes it, by a checker that shares no code with sudosat or
the solver (``dratify``; ``drup``, extracted from verified Why3 code, as an
option). ``drat-trim claim.cnf claim.drup`` checks the same files.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import shutil
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from pysat.solvers import Solver

from sudosat.core.errors import InputError
from sudosat.core.notation import format_grid
from sudosat.core.puzzle import Grid, Puzzle, rank_for_cells, verify
from sudosat.reading import ruletext
from sudosat.sat.cnf import Encoding
from sudosat.sat.dimacs import clause_line, header, write_dimacs
from sudosat.sat.encoding import encode

FORMAT = "sudosat certificate 1"
PROVER = "cadical195"
"""PySAT's CaDiCaL 1.9.5: it logs a DRUP proof as it solves."""
CHECKERS = ("dratify", "drup")
STATUSES = ("unique", "none", "several")


@dataclass
class Certificate:
    """What a certificate holds, in memory."""

    puzzle_text: str
    cnf_text: str
    status: str
    """``unique``, ``none`` or ``several`` (two solutions found: no proof needed)."""
    solutions: list[Grid] = field(default_factory=list)
    models: list[list[int]] = field(default_factory=list)
    claim_text: str = ""
    """The CNF with each solution blocked (``unique``, ``none``): what the proof refutes."""
    proof: list[str] = field(default_factory=list)
    seconds: float = 0.0


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
    return [-(cell * n + value) for cell, value in enumerate(grid)]


def certify(puzzle: Puzzle) -> Certificate:
    """Solve ``puzzle``'s full CNF with a proof-logging solver: its solutions (two at
    most) and, when there are fewer, a proof that there are no more. One solver
    answers both questions: each solution's blocking clause is added as it is
    found, so the proof it logs refutes the CNF with those clauses, as the
    checker is given it."""
    start = time.perf_counter()
    clauses, text, nv = full_cnf(puzzle)
    solutions: list[Grid] = []
    models: list[list[int]] = []
    blocked: list[list[int]] = []
    with Solver(name=PROVER, bootstrap_with=clauses, with_proof=True) as solver:
        while len(solutions) < 2 and solver.solve():
            model = [lit for lit in solver.get_model() or [] if abs(lit) <= nv]
            grid = _grid(puzzle, model)
            solutions.append(grid)
            models.append(_whole(model, nv))
            blocked.append(blocking(puzzle, grid))
            solver.add_clause(blocked[-1])
        status = ("none", "unique", "several")[len(solutions)]
        found = Certificate(puzzle_text(puzzle), text, status, solutions, models)
        if status != "several":
            found.claim_text = _with(text, nv, len(clauses), blocked)
            found.proof = list(solver.get_proof() or [])
    found.seconds = time.perf_counter() - start
    return found


def _grid(puzzle: Puzzle, model: Sequence[int]) -> Grid:
    """The values a model's true cell literals put in the cells."""
    n = puzzle.size
    grid = [0] * (n * n)
    for lit in model:
        if 0 < lit <= n**3:
            cell, value = divmod(lit - 1, n)
            grid[cell] = value + 1
    return tuple(grid)


def _whole(model: Sequence[int], nv: int) -> list[int]:
    """A model of every variable 1..nv (one the solver left out is false: it is in
    no clause, or any value satisfies them)."""
    true = {lit for lit in model if lit > 0}
    return [v if v in true else -v for v in range(1, nv + 1)]


def _with(text: str, nv: int, count: int, extra: Sequence[Sequence[int]]) -> str:
    """A DIMACS text with more clauses, its header counting them."""
    lines = text.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("p cnf"))
    lines[at] = header(nv, count + len(extra))
    lines.append("c --- each solution found, blocked")
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
        if found.status != "several":
            files["claim.cnf"] = found.claim_text
            files["claim.drup"] = "".join(line.rstrip("\n") + "\n" for line in found.proof)
            claim |= {"cnf": "claim.cnf", "proof": "claim.drup"}
        for name, text in files.items():
            (made / name).write_text(text)
        manifest = {
            "format": FORMAT,
            "claim": claim,
            "says": SAYS[found.status],
            "prover": PROVER,
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
    "several": "puzzle.cnf has the two models, which spell two different solutions",
}


def _rows(grid: Grid) -> str:
    """A grid as its values in numbers, a row a line (any size reads the same)."""
    n = round(len(grid) ** 0.5)
    return "".join(" ".join(map(str, grid[r * n : r * n + n])) + "\n" for r in range(n))


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


def check(folder: Path, checker: str = "dratify") -> Verdict:
    """Every claim of the certificate in ``folder``, checked (see the module)."""
    start = time.perf_counter()
    verdict = Verdict(folder)
    manifest = _manifest(folder)
    claim = manifest.get("claim") or {}
    files = manifest.get("sha256") or {}
    texts = {}
    for name, digest in files.items():
        path = folder / name
        if not path.is_file():
            verdict.problems.append(f"{name} is missing")
            continue
        texts[name] = path.read_text()
        if _sha(texts[name]) != digest:
            verdict.problems.append(f"{name} was changed: its SHA-256 is not the manifest's")
    status = claim.get("status")
    if status not in STATUSES:
        raise NotACertificate(f"{folder / 'manifest.json'}: no claim sudosat knows")
    if verdict.problems:
        return _done(verdict, start)
    try:
        puzzle = _parse(texts["puzzle.txt"], folder)
    except InputError as err:
        verdict.problems.append(f"puzzle.txt cannot be read: {err}")
        return _done(verdict, start)
    clauses, text, nv = full_cnf(puzzle)
    if texts.get("puzzle.cnf") != text:
        verdict.problems.append("puzzle.cnf is not the full CNF of puzzle.txt")
        return _done(verdict, start)
    grids = []
    for number, pair in enumerate(claim.get("solutions", []), 1):
        grids.append(_check_solution(puzzle, clauses, nv, texts, pair, number, verdict))
    wanted = {"unique": 1, "none": 0, "several": 2}[status]
    if len(grids) != wanted or (status == "several" and grids[0] == grids[1]):
        verdict.problems.append(f"a {status} claim needs {wanted} different solutions")
    if status != "several" and not verdict.problems:
        blocked = [blocking(puzzle, g) for g in grids if g is not None]
        if texts.get(claim.get("cnf", "")) != _with(text, nv, len(clauses), blocked):
            verdict.problems.append("claim.cnf is not puzzle.cnf with the solutions blocked")
        else:
            _check_proof(
                texts[claim["cnf"]], texts.get(claim.get("proof", ""), ""), checker, verdict
            )
    verdict.status = status
    return _done(verdict, start)


def _done(verdict: Verdict, start: float) -> Verdict:
    verdict.seconds = time.perf_counter() - start
    return verdict


def _manifest(folder: Path) -> dict:  # type: ignore[type-arg]
    path = folder / "manifest.json"
    try:
        found = json.loads(path.read_text())
    except (OSError, ValueError) as err:
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
    pair: dict[str, str],
    number: int,
    verdict: Verdict,
) -> Grid | None:
    """A solution kept by its rules' own checks and spelled by a model of the CNF."""
    n = puzzle.size
    words = texts.get(pair.get("solution", ""), "").split()
    values = [int(w) if w.isascii() and w.isdigit() else -1 for w in words]
    if len(values) != n * n or not all(1 <= v <= n for v in values):
        verdict.problems.append(f"solution-{number} is not a grid of {n}x{n} values")
        return None
    grid = tuple(values)
    for problem in verify(puzzle, grid):
        verdict.problems.append(f"solution-{number} breaks the puzzle: {problem}")
        return None
    try:
        model = [int(x) for x in texts.get(pair.get("model", ""), "").split()]
    except ValueError:
        verdict.problems.append(f"model-{number} is not a list of literals")
        return None
    true = {lit for lit in model if lit > 0}
    if sorted(abs(x) for x in model if x) != list(range(1, nv + 1)):
        verdict.problems.append(f"model-{number} does not give every variable 1..{nv} once")
        return None
    for index, clause in enumerate(clauses, 1):
        if not any((lit in true) if lit > 0 else (-lit not in true) for lit in clause):
            verdict.problems.append(f"model-{number} breaks clause {index} of puzzle.cnf")
            return None
    if any((c * n + grid[c]) not in true for c in range(n * n)):
        verdict.problems.append(f"model-{number} does not spell solution-{number}")
        return None
    return grid


def _check_proof(formula: str, proof: str, checker: str, verdict: Verdict) -> None:
    """The proof refutes the formula, by a checker of its own."""
    if checker == "drup":
        _check_by_drup(formula, proof, verdict)
        return
    from dratify import check_proof, parse_dimacs  # deferred: for verify alone

    try:
        result = check_proof(parse_dimacs(formula), proof, engine="python")
    except ValueError as err:
        verdict.problems.append(f"claim.drup is not a DRUP proof: {err}")
        return
    verdict.proven = (
        f"{result.steps} proof steps checked by dratify"
        if result.steps
        else "refuted by unit propagation alone (dratify)"
    )
    if not (result.ok and result.reached_empty):
        reason = result.reason or "it does not reach the empty clause"
        verdict.problems.append(f"claim.drup does not refute claim.cnf (dratify: {reason})")


def _check_by_drup(formula: str, proof: str, verdict: Verdict) -> None:
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
        verdict.problems.append(f"claim.drup is not a DRUP proof (drup: {err})")
        return
    verdict.proven = "proof checked by drup"
    if str(result.outcome).rsplit(".", 1)[-1] != "VALID":
        verdict.problems.append(f"claim.drup does not refute claim.cnf (drup: {result.outcome})")
