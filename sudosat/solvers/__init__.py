"""SAT solver backends behind one small interface.

A backend takes clauses, answers ``solve()`` and hands back the model, in
PySAT's vocabulary. The engine adds blocking clauses between solves, so every
backend must accept clauses after a solve (non-incremental ones rebuild).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable


class SolverError(RuntimeError):
    """A solver that is missing, crashed, or answered something that cannot be right."""


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


def open_solver(name: str) -> SatSolver:
    """A fresh solver by PySAT name or alias."""
    from .pysat_backend import PySatSolver, canonical_name

    return PySatSolver(canonical_name(name))
