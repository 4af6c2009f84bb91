"""SAT solver backends behind one small interface.

A backend takes clauses, answers ``solve()`` and hands back the model, in
PySAT's vocabulary. The engine adds blocking clauses between solves, so every
backend must accept clauses after a solve (non-incremental ones rebuild).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from sudosat.core.errors import SolverError
from sudosat.core.jsonobject import JsonObject
from sudosat.sat.solvers.base import DEFAULT_SOLVER, SatSolver

# The backends are imported where first used: a run that never starts a solver
# program should not pay for the program machinery at start-up.
if TYPE_CHECKING:
    from sudosat.sat.solvers.programs import Program

__all__ = ["DEFAULT_SOLVER", "SatSolver", "SolverSpec", "command_spec", "solver_spec", "trusting"]


@dataclass(frozen=True)
class SolverSpec:
    """Which solver to run: a PySAT solver (``program`` None), a solver program, or a
    portfolio: several of these raced in processes of their own (``members``)."""

    name: str
    program: Program | None = None
    members: tuple[SolverSpec, ...] = ()
    trusted: bool = False
    """A program's UNSATISFIABLE is taken on its word (else the embedded solver
    confirms it; see :class:`external.ExternalSolver`)."""

    @property
    def external(self) -> bool:
        return self.program is not None

    @property
    def programs(self) -> list[Program]:
        """The solver programs this runs (a portfolio's included)."""
        specs = self.members or (self,)
        return [spec.program for spec in specs if spec.program is not None]

    def open(self, deadline: float | None = None) -> SatSolver:
        """A fresh solver. Programs are killed at ``deadline`` (``time.monotonic()``)."""
        if self.members:
            raise SolverError(f"the portfolio {self.name} is raced by the engine, not opened")
        if self.program is None:
            from sudosat.sat.solvers.pysat_backend import PySatSolver

            return PySatSolver(self.name)
        from sudosat.sat.solvers.external import ExternalSolver

        return ExternalSolver(self.program, deadline, self.trusted)


def trusting(spec: SolverSpec) -> SolverSpec:
    """``spec`` with its programs' UNSATISFIABLE answers taken on their word."""
    members = tuple(trusting(member) for member in spec.members)
    return replace(spec, members=members, trusted=spec.program is not None)


def solver_spec(name: str) -> SolverSpec:
    """A solver by name: a known program (minisat, cadical, kissat, picosat,
    cryptominisat5, glucose) or a PySAT solver name or alias (cadical195, g4, ...);
    several, comma-separated, make a portfolio (``cadical195,glucose4``)."""
    if name == DEFAULT_SOLVER:  # named as PySAT names it: nothing to look up or load
        return SolverSpec(name)
    from sudosat.sat.solvers.programs import PROGRAMS
    from sudosat.sat.solvers.pysat_backend import canonical_name

    if "," in name:
        members = tuple(solver_spec(part.strip()) for part in name.split(",") if part.strip())
        if len({member.name for member in members}) < len(members):
            raise SolverError(f"a portfolio names each solver once, not {name!r}")
        if len(members) == 1:
            return members[0]
        return SolverSpec(",".join(member.name for member in members), members=members)
    if name in PROGRAMS:
        return SolverSpec(name, PROGRAMS[name])
    try:
        return SolverSpec(canonical_name(name))
    except SolverError as err:
        raise SolverError(f"{err}; solver programs: {', '.join(PROGRAMS)}") from None


def command_spec(command: str) -> SolverSpec:
    """A solver program given as a command line, following the competition convention."""
    from sudosat.sat.solvers.programs import command_program

    program = command_program(command)
    return SolverSpec(program.name, program)


def installed_solvers() -> list[JsonObject]:
    """What this installation can run, as ``sudosat solvers`` lists it: PySAT's
    solvers (in process), then the solver programs sudosat knows, found or not."""
    from sudosat.sat.solvers.external import external_programs
    from sudosat.sat.solvers.pysat_backend import pysat_solvers

    listing: list[JsonObject] = [
        {
            "name": i.name,
            "kind": "pysat",
            "aliases": list(i.aliases),
            "available": i.available,
            "class": i.backend_class,
            "incremental": i.incremental,
            "budgets": i.budgets,
            "interrupt": i.interrupt,
            "stats": i.stats,
            "note": i.note,
            "default": i.name == DEFAULT_SOLVER,
        }
        for i in pysat_solvers()
    ]
    listing += [
        {
            "name": p.name,
            "kind": "program",
            "available": p.path is not None,
            "path": p.path,
            "version": p.version if p.path else None,
            "convention": p.convention,
            "command": p.command,
            "default": False,
        }
        for p in external_programs()
    ]
    return listing
