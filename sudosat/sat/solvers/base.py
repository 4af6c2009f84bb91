"""What every solver backend is: the interface the engine drives."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    pass


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
"""The embedded solver that answers when none is asked for (above the batch engine's ranks)."""
