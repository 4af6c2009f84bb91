"""The in-process backend: every SAT solver that PySAT was built with."""

from __future__ import annotations

import contextlib
import gc
import os
import sys
import warnings
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from functools import cache
from typing import Any

import pysolvers
from pysat.solvers import Solver, SolverNames

from sudosat.core.errors import SolverError
from sudosat.sat.deadline import interruptible
from sudosat.sat.solvers.base import SatSolver

NON_INCREMENTAL = {"kissat404"}
"""Kissat in PySAT ignores assumptions and aborts on clauses added after a solve."""
NO_BUDGETS = {"lingeling", "kissat404"}
TUNING = {"cadical195": {"stabilizeonly": 1}}
"""Options set on a new solver. CaDiCaL in stable mode only (no focused phases):
hard 25x25s are settled about a quarter sooner (BENCHMARKS.md, Large grids)."""
INTERRUPTIBLE_PREFIXES = ("minisat", "glucose", "gluecard", "maple", "minicard", "mergesat")


@dataclass(frozen=True)
class SolverInfo:
    name: str
    aliases: tuple[str, ...]
    available: bool
    backend_class: str
    note: str = ""

    @property
    def incremental(self) -> bool:
        return self.name not in NON_INCREMENTAL

    @property
    def budgets(self) -> bool:
        return self.name not in NO_BUDGETS

    @property
    def interrupt(self) -> bool:
        return self.name.startswith(INTERRUPTIBLE_PREFIXES)

    @property
    def stats(self) -> bool:
        return self.name != "kissat404"


@contextlib.contextmanager
def _quiet_stderr() -> Iterator[None]:
    """Some PySAT classes print from their destructors when their package is missing."""
    saved = os.dup(2)
    devnull = os.open(os.devnull, os.O_WRONLY)
    hook = sys.unraisablehook
    try:
        os.dup2(devnull, 2)
        sys.unraisablehook = lambda _: None
        yield
        gc.collect()  # half-built solvers complain in __del__: let them do it here
    finally:
        sys.unraisablehook = hook
        os.dup2(saved, 2)
        os.close(saved)
        os.close(devnull)


def _creation_name(aliases: tuple[str, ...]) -> str | None:
    for alias in aliases:
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                solver = Solver(name=alias, bootstrap_with=[[1, 2], [-1]])
                works = solver.solve() and 2 in (solver.get_model() or [])
                solver.delete()
            if works:
                return alias
        except Exception:
            continue
    return None


@cache
def pysat_solvers() -> tuple[SolverInfo, ...]:
    """Every solver name PySAT knows, and whether this installation can run it."""
    found = []
    with _quiet_stderr():
        for name, aliases in _names().items():
            created = _creation_name(aliases)
            cls = ""
            if created:
                solver = Solver(name=created)
                cls = type(solver.solver).__name__
                solver.delete()
            note = {
                "kissat404": "no assumptions or added clauses: rebuilt for every solve",
                "lingeling": "no budgets or interrupt",
            }.get(name, "")
            found.append(SolverInfo(name, aliases, created is not None, cls, note))
    return tuple(sorted(found, key=lambda info: info.name))


def _names() -> dict[str, tuple[str, ...]]:
    return {
        name: aliases
        for name, aliases in vars(SolverNames).items()
        if not name.startswith("_") and isinstance(aliases, tuple)
    }


def canonical_name(name: str) -> str:
    """The PySAT solver a name or alias means (``cd19`` -> ``cadical195``)."""
    for canonical, aliases in _names().items():
        if name == canonical or name in aliases:
            return canonical
    known = ", ".join(info.name for info in pysat_solvers() if info.available)
    raise SolverError(f"unknown solver {name!r}; installed PySAT solvers: {known}")


@cache
def _creation_alias(name: str) -> str:
    with _quiet_stderr():
        created = _creation_name(_names()[name])
    if created is None:
        raise SolverError(f"PySAT solver {name} is not available in this installation")
    return created


def _raw_adder(inner: Any) -> tuple[Callable[[Any, list[int]], Any], Any] | None:
    """PySAT's C function that adds a clause, and the solver's handle: a big CNF
    loads in half the time without the Python wrapper around each clause (its
    ``add_clause`` does nothing else). None when the wrapper is not the usual one
    (python-sat is pinned; this keeps working, slower, if that changes)."""
    names = type(inner).add_clause.__code__.co_names
    function = next((n for n in names if n.endswith("_add_cl") and hasattr(pysolvers, n)), None)
    handle = next(
        (getattr(inner, n) for n in names if type(getattr(inner, n, None)).__name__ == "PyCapsule"),
        None,
    )
    if function is None or handle is None:
        return None
    return getattr(pysolvers, function), handle


def _solve(solver: Solver) -> bool:
    return bool(interruptible(solver.solve))


class PySatSolver(SatSolver):
    """A PySAT solver held in process. Non-incremental solvers are rebuilt per solve."""

    def __init__(self, name: str) -> None:
        self.name = name
        self._alias = _creation_alias(name)
        self._incremental = name not in NON_INCREMENTAL
        self._clauses: list[list[int]] = []
        self._solver: Solver | None = Solver(name=self._alias) if self._incremental else None
        if self._solver is not None and name in TUNING:
            self._solver.solver.configure(TUNING[name])
        self._model: list[int] = []
        self._stats: dict[str, int] = {}

    def add_clauses(self, clauses: Iterable[list[int]]) -> None:
        if self._solver is None:
            self._clauses.extend(clauses)
            return
        raw = _raw_adder(self._solver.solver)
        if raw is None:
            self._solver.append_formula(clauses)
            return
        add, handle = raw
        for clause in clauses:
            if add(handle, clause) is False:  # unsatisfiable already: the rest changes nothing
                self._solver.add_clause(clause)  # so that PySAT knows it too
                return

    def solve(self) -> bool:
        if self._solver is not None:
            result = _solve(self._solver)
            self._model = (self._solver.get_model() or []) if result else []
            return result
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            solver = Solver(name=self._alias, bootstrap_with=self._clauses)
            try:
                result = _solve(solver)
                self._model = (solver.get_model() or []) if result else []
            finally:
                solver.delete()
        return result

    def get_model(self) -> list[int]:
        return list(self._model)

    def accum_stats(self) -> dict[str, int]:
        if self._solver is None:
            return {}
        try:
            return dict(self._solver.accum_stats())
        except NotImplementedError:
            return {}

    def close(self) -> None:
        if self._solver is not None:
            self._solver.delete()
            self._solver = None
