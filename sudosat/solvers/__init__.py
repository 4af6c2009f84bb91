"""SAT solver backends behind one small interface.

A backend takes clauses, answers ``solve()`` and hands back the model, in
PySAT's vocabulary. The engine adds blocking clauses between solves, so every
backend must accept clauses after a solve (non-incremental ones rebuild).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .external import Program


class SolverError(RuntimeError):
    """A solver that is missing, crashed, or answered something that cannot be right."""


class SolverTimeout(SolverError):
    """A solver stopped at the deadline, or one that answered UNKNOWN."""


class SatSolver(ABC):
    """One solver instance holding a growing set of clauses."""

    name: str

    @abstractmethod
    def add_clauses(self, clauses: Iterable[list[int]]) -> None: ...

    @abstractmethod
    def solve(self) -> bool:
        """True when the clauses so far are satisfiable, False when not."""

    @abstractmethod
    def get_model(self) -> list[int]:
        """The literals of the last satisfying assignment."""

    @abstractmethod
    def accum_stats(self) -> dict[str, int]:
        """Conflicts, decisions, propagations, restarts summed over all solves (what is known)."""

    def close(self) -> None:  # noqa: B027 - most backends have nothing to free
        """Free the solver."""

    def __enter__(self) -> SatSolver:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


DEFAULT_SOLVER = "cadical195"


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
            from .pysat_backend import PySatSolver

            return PySatSolver(self.name)
        from .external import ExternalSolver

        return ExternalSolver(self.program, deadline, self.trusted)


def trusting(spec: SolverSpec) -> SolverSpec:
    """``spec`` with its programs' UNSATISFIABLE answers taken on their word."""
    members = tuple(trusting(member) for member in spec.members)
    return replace(spec, members=members, trusted=spec.program is not None)


def solver_spec(name: str) -> SolverSpec:
    """A solver by name: a known program (minisat, cadical, kissat, picosat,
    cryptominisat5, glucose) or a PySAT solver name or alias (cadical195, g4, ...);
    several, comma-separated, make a portfolio (``cadical195,glucose4``)."""
    from .external import PROGRAMS
    from .pysat_backend import canonical_name

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
    from .external import command_program

    program = command_program(command)
    return SolverSpec(program.name, program)
