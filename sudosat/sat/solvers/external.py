"""Solver programs run as subprocesses on DIMACS files.

Each solve writes the clauses so far to a file in a private temporary
directory, runs the program there without a shell, in a session of its own
(so a timeout or Ctrl-C kills it and everything it started), and reads its
answer in one of two conventions:

* ``competition``: ``s SATISFIABLE`` / ``s UNSATISFIABLE`` and ``v ... 0`` lines
  on stdout, exit code 10 / 20 (the SAT competition's rules);
* ``result-file``: MiniSat's ``minisat in.cnf out.txt``, where out.txt holds
  ``SAT`` and the model, ``UNSAT`` or ``INDET``.
"""

from __future__ import annotations

import contextlib
import os
import shlex
import shutil
import signal
import subprocess
import tempfile
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from pysat.solvers import Solver

from sudosat.core.errors import InputError, SolverError, SolverTimeout
from sudosat.sat.deadline import solve_by
from sudosat.sat.dimacs import (
    SAT,
    UNKNOWN,
    UNSAT,
    Answer,
    clause_line,
    header,
    read_competition,
    read_result_file,
)
from sudosat.sat.solvers.base import DEFAULT_SOLVER, SatSolver
from sudosat.sat.solvers.programs import (
    COMPETITION,
    PROGRAMS,
    RESULT_FILE,
    Program,
    command_program,
)
from sudosat.system import janitor
from sudosat.system.signals import held

__all__ = ["COMPETITION", "PROGRAMS", "RESULT_FILE", "Program", "command_program"]

_EXIT_STATUS = {10: SAT, 20: UNSAT}


def executable(program: Program) -> str:
    """The program's full path; SolverError when it is not there."""
    found = shutil.which(program.argv[0])
    if found is None:
        where = "on PATH" if os.sep not in program.argv[0] else "or not executable"
        raise SolverError(f"solver {program.name}: program {program.argv[0]!r} not found {where}")
    return os.path.abspath(found)


@dataclass(frozen=True)
class ProgramInfo:
    name: str
    path: str | None
    version: str
    convention: str
    command: str


@cache
def program_version(path: str, args: tuple[str, ...]) -> str:
    """What the program says its version is, and its Debian package's version."""
    said = _own_version(path, args) if args else None
    package = _package_version(path)
    if said and package and package not in said:
        return f"{said} (Debian {package})"
    return said or (f"Debian {package}" if package else "?")


def _own_version(path: str, args: tuple[str, ...]) -> str | None:
    try:
        done = subprocess.run(
            [path, *args], capture_output=True, text=True, timeout=5, errors="replace"
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    for line in (done.stdout + done.stderr).splitlines():
        words = line.removeprefix("c ").split()
        if words:
            return words[-1] if "version" in line.lower() else " ".join(words)
    return None


def _package_version(path: str) -> str | None:
    try:
        owner = subprocess.run(
            ["dpkg-query", "-S", os.path.realpath(path)], capture_output=True, text=True, timeout=5
        )
        package = owner.stdout.split(":")[0].strip()
        if owner.returncode or not package:
            return None
        version = subprocess.run(
            ["dpkg-query", "-W", "-f", "${Version}", package],
            capture_output=True,
            text=True,
            timeout=5,
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    return version.stdout.strip() if version.returncode == 0 else None


def external_programs() -> list[ProgramInfo]:
    """The known solver programs, found on PATH or not, with their versions."""
    infos = []
    for program in PROGRAMS.values():
        path = shutil.which(program.argv[0])
        version = program_version(path, program.version_args) if path else "-"
        command = shlex.join(
            [*program.argv, "IN.cnf"] + (["OUT"] if _uses_result_file(program) else [])
        )
        infos.append(ProgramInfo(program.name, path, version, program.convention, command))
    return infos


def _uses_result_file(program: Program) -> bool:
    return program.convention == RESULT_FILE


CONFIRM_WITH_DEADLINE = "glucose4"
"""The solver that checks a program's UNSATISFIABLE when a deadline must hold."""


class ExternalSolver(SatSolver):
    """A solver program, re-run on the whole formula for every solve."""

    def __init__(
        self,
        program: Program,
        deadline: float | None = None,
        trusted: bool = False,
        proof: bool = False,
    ) -> None:
        self.name = program.name
        self.program = program
        self.deadline = deadline
        """``time.monotonic()`` after which a run is killed and SolverTimeout raised."""
        self.trusted = trusted
        """Take UNSATISFIABLE on the program's word (else :meth:`_confirm` checks it)."""
        if proof and not program.proves:
            raise SolverError(
                f"solver {program.name} writes no DRAT proof: certify with cadical, kissat or "
                "the embedded solver"
            )
        self.proof = proof
        """Each run writes a DRAT proof (read by :meth:`get_proof`)."""
        self._path = executable(program)
        self._base: list[str] = []  # clause lines
        self._nv = 0
        self._clauses = 0
        self._model: list[int] = []
        self._dir = tempfile.mkdtemp(prefix="sudosat-")
        janitor.watch_directory(self._dir)

    def add_clauses(self, clauses: Iterable[list[int]]) -> None:
        for clause in clauses:
            self._base.append(clause_line(clause))
            self._clauses += 1
            if clause:
                self._nv = max(self._nv, max(map(abs, clause)))

    def add_clause(self, clause: list[int]) -> None:
        self.add_clauses([clause])

    def solve(self) -> bool:
        directory = Path(self._dir)
        problem, result = directory / "problem.cnf", directory / "result.txt"
        with problem.open("w") as handle:
            handle.write(header(self._nv, self._clauses) + "\n")
            handle.write("\n".join(self._base))
            handle.write("\n")
        result.unlink(missing_ok=True)
        argv = [self._path, *self.program.argv[1:], str(problem)]
        if _uses_result_file(self.program):
            argv.append(str(result))
        elif self.proof:
            (directory / "proof.drat").unlink(missing_ok=True)
            argv.append(str(directory / "proof.drat"))
        code, out, err = self._run(argv, directory)
        answer = self._answer(code, out, err, result)
        if answer.status == UNKNOWN:
            raise SolverTimeout(f"solver {self.name} gave no answer (UNKNOWN)")
        if answer.status == UNSAT and not self.trusted:
            self._confirm()
        self._model = answer.model
        bad = next((lit for lit in self._model if abs(lit) > self._nv), None)
        if bad is not None:
            raise SolverError(
                f"solver {self.name} returned a bad model: variable {abs(bad)} "
                f"is beyond the formula's {self._nv}"
            )
        return answer.status == SAT

    def _confirm(self) -> None:
        """A program's UNSATISFIABLE, checked by the embedded solver on the same
        clauses: a wrong one would make a puzzle "unique" or "no solution". With a
        deadline the check is Glucose, which can be interrupted there (PySAT's
        CaDiCaL cannot)."""
        name = DEFAULT_SOLVER if self.deadline is None else CONFIRM_WITH_DEADLINE
        clauses = ([int(lit) for lit in line.split()[:-1]] for line in self._base)
        with Solver(name=name, bootstrap_with=clauses) as check:
            try:
                found = solve_by(check, self.deadline)
            except SolverTimeout:
                raise SolverTimeout(
                    f"solver {self.name}'s UNSATISFIABLE was not confirmed in time"
                ) from None
        if found:
            raise SolverError(
                f"solver {self.name} ({self._path}) answered UNSATISFIABLE, but "
                f"{name} satisfies the same formula (--trust-solver skips this check)"
            )

    def _run(self, argv: Sequence[str], directory: Path) -> tuple[int, str, str]:
        """Run the program to its end (or the deadline); its exit code, stdout and stderr."""
        out_path, err_path = directory / "stdout.txt", directory / "stderr.txt"
        with out_path.open("wb") as out, err_path.open("wb") as err:
            try:
                process = subprocess.Popen(
                    argv,
                    stdin=subprocess.DEVNULL,
                    stdout=out,
                    stderr=err,
                    start_new_session=True,
                )
            except OSError as error:
                raise SolverError(f"solver {self.name}: cannot start {argv[0]}: {error}") from None
            janitor.watch_group(process.pid)
            try:
                process.wait(None if self.deadline is None else self._remaining())
            except subprocess.TimeoutExpired:
                raise SolverTimeout(f"solver {self.name} was stopped at the deadline") from None
            finally:
                _kill_group(process)  # also whatever it started and left behind
        try:
            return process.returncode, _answer_lines(out_path), _tail(err_path)
        except OSError as error:  # the program removed or broke its own directory
            raise SolverError(
                f"solver {self.name} ({self._path}): its output cannot be read "
                f"({error.strerror or error}); did it remove {directory}?"
            ) from None

    def _remaining(self) -> float:
        assert self.deadline is not None
        return max(self.deadline - time.monotonic(), 0.001)

    def _answer(self, code: int, out: str, err: str, result: Path) -> Answer:
        if code < 0:
            raise self._failure(f"was killed by {_signal_name(-code)}", err)
        try:
            if _uses_result_file(self.program):
                if not result.exists():
                    raise self._failure(f"exited with code {code} and wrote no result file", err)
                answer = read_result_file(result.read_text(errors="replace"), "result file")
            else:
                answer = read_competition(out, "output")
        except InputError as error:
            if code not in (0, 10, 20):
                raise self._failure(f"exited with code {code}", err) from None
            raise self._failure(f"printed no answer it could read ({error})", err) from None
        if _EXIT_STATUS.get(code, answer.status) != answer.status:
            raise self._failure(f"answered {answer.status} but exited with code {code}", err)
        return answer

    def _failure(self, what: str, err: str) -> SolverError:
        last = next((line.strip() for line in reversed(err.splitlines()) if line.strip()), "")
        detail = f": {last[:200]}" if last else ""
        return SolverError(f"solver {self.name} ({self._path}) {what}{detail}")

    def get_model(self) -> list[int]:
        return list(self._model)

    def get_proof(self) -> list[str]:
        """The last run's DRAT proof, as text lines (a binary one decoded)."""
        try:
            data = (Path(self._dir) / "proof.drat").read_bytes()
        except OSError:
            raise SolverError(f"solver {self.name} ({self._path}) wrote no proof") from None
        try:
            return drat_lines(data)
        except ValueError as err:
            raise SolverError(f"solver {self.name}'s proof cannot be read: {err}") from None

    def accum_stats(self) -> dict[str, int]:
        return {}

    def close(self) -> None:
        with held():
            shutil.rmtree(self._dir, ignore_errors=True)
            janitor.forget_directory(self._dir)


def drat_lines(data: bytes) -> list[str]:
    """A DRAT proof as text lines, comments dropped. Binary DRAT (CaDiCaL's and
    Kissat's default; it holds NUL bytes, text never does) is decoded: ``a`` or
    ``d``, then each literal as 2v or 2v+1 (negative) in 7-bit groups, low first,
    and 0 to end the clause."""
    if b"\0" not in data:
        text = data.decode("ascii", errors="replace").splitlines()
        return [line.strip() for line in text if line.strip() and not line.startswith("c")]
    lines, at = [], 0
    try:
        while at < len(data):
            kind, at = data[at], at + 1
            if kind not in b"ad":
                raise ValueError(f"byte {at - 1} is {kind:#x}, not 'a' or 'd'")
            lits = []
            while True:
                value = shift = 0
                while True:
                    byte, at = data[at], at + 1
                    value |= (byte & 0x7F) << shift
                    shift += 7
                    if byte < 0x80:
                        break
                if not value:
                    break
                lits.append(-(value >> 1) if value & 1 else value >> 1)
            lines.append(("d " if kind == ord("d") else "") + " ".join(map(str, [*lits, 0])))
    except IndexError:
        raise ValueError("the binary proof ends inside a clause") from None
    return lines


def _answer_lines(path: Path) -> str:
    """The ``s`` and ``v`` lines of a program's output, read in bounded pieces:
    a program that prints gigabytes of comments costs disk, not memory."""
    kept: list[bytes] = []
    at_start, keeping = True, False
    with path.open("rb") as out:
        while piece := out.readline(1 << 20):
            if at_start:
                keeping = piece[:1] in (b"s", b"v")
            if keeping:
                kept.append(piece)
            at_start = piece.endswith(b"\n")
    return b"".join(kept).decode(errors="replace")


def _tail(path: Path, size: int = 4096) -> str:
    """The last ``size`` bytes of a file: all that errors quote of a program's stderr."""
    with path.open("rb") as err:
        err.seek(max(path.stat().st_size - size, 0))
        return err.read().decode(errors="replace")


def _kill_group(process: subprocess.Popen[bytes]) -> None:
    with held():
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait()
        janitor.forget_group(process.pid)


def _signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"
