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

:func:`checking.check` asks of a folder what a reader would: the hashes, that the CNF
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
import shutil
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pysat.solvers import Solver

from sudosat.core.errors import SolverError
from sudosat.core.masks import from_values
from sudosat.core.puzzle import Grid, Puzzle
from sudosat.reading.ruletext import puzzle_text
from sudosat.sat.cnf import Encoding, literal, model_grid
from sudosat.sat.cnf import ruled_out as ruled_out_literals
from sudosat.sat.dimacs import clause_line, header, write_dimacs
from sudosat.sat.encoding import encode
from sudosat.solving.proofs import Verdict, check_proof

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
            found.claim_text = with_blocked(text, nv, len(clauses), blocked)
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
    found.claim_text = with_blocked(text, nv, len(clauses), [out], LEFT_OUT)
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
        if not all(satisfied(clause, true) for clause in clauses):
            raise SolverError(f"solver {found.prover}'s model {number} breaks the CNF")
    if found.status in PROVEN:
        verdict = Verdict(Path("."))
        proof = "\n".join(found.proof) + "\n"
        check_proof(found.claim_text, proof, "dratify", verdict, found.proof_name)
        if verdict.problems:
            raise SolverError(f"solver {found.prover}'s proof does not refute its formula")


def satisfied(clause: Sequence[int], true: set[int]) -> bool:
    return any((lit in true) if lit > 0 else (-lit not in true) for lit in clause)


def _whole(model: Sequence[int], nv: int) -> list[int]:
    """A model of every variable 1..nv (one the solver left out is false: it is in
    no clause, or any value satisfies them)."""
    true = {lit for lit in model if lit > 0}
    return [v if v in true else -v for v in range(1, nv + 1)]


def with_blocked(
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


def read_marks(text: str, n: int) -> list[tuple[int, ...]] | None:
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
