"""A solver of PySAT's C module called directly, without PySAT's Python layer.

The batch engine answers a classic puzzle with Glucose 4.1's propagation and a
small Minicard search; the general engine tries a variant with a quick
Minicard search first. Through PySAT's classes that meant importing
``pysat.solvers`` (with ``pysat.formula``, ``decimal`` and a probe for
``pycryptosat``): 7-9 ms of a one-puzzle ``solve`` (BENCHMARKS.md, "Start in
half the time"). :class:`Native` makes the very calls PySAT's class of the
same solver makes (python-sat is pinned), for the methods the engine and
:mod:`deadline` use; everything else keeps PySAT's classes. Loading a
Minicard, PySAT's or this one, is here too (:func:`load_cnf`): a call into C
for each group and clause, with no wrapper between.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import cache
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any

import pysolvers
from pysat._utils import MainThread

from sudosat.sat.cnf import Cnf, literal

if TYPE_CHECKING:  # (pysat.solvers is not loaded at start: see the module's docstring)
    from pysat.solvers import Minicard

FUNCTIONS = (
    *("new", "add_cl", "solve", "solve_lim", "propagate", "model", "acc_stats"),
    *("cbudget", "interrupt", "clearint", "del"),
)
"""The C functions of one solver used here: ``pysolvers.<name>_<function>``."""


@cache
def _functions(name: str) -> SimpleNamespace:
    """The solver's C functions by their suffix (``del`` as ``delete``: a keyword)."""
    found = {f: getattr(pysolvers, f"{name}_{f}") for f in FUNCTIONS}
    found["delete"] = found.pop("del")
    return SimpleNamespace(**found)


class Native:
    """A solver of PySAT's C module by its name there (``glucose41``, ``minicard``),
    with PySAT's method names and answers for what it offers."""

    def __init__(self, name: str, clauses: Iterable[list[int]] = ()) -> None:
        self.c = _functions(name)
        self.handle: Any = self.c.new()
        self.status: bool | None = None
        add = self.c.add_cl
        for clause in clauses:
            add(self.handle, clause)

    def add_clause(self, clause: list[int]) -> None:
        self.c.add_cl(self.handle, clause)

    def solve(self, assumptions: Iterable[int] = ()) -> bool:
        self.status = self.c.solve(self.handle, list(assumptions), _main_thread())
        return bool(self.status)

    def solve_limited(
        self, assumptions: Iterable[int] = (), expect_interrupt: bool = False
    ) -> bool | None:
        found: bool | None = self.c.solve_lim(
            self.handle, list(assumptions), _main_thread(), int(expect_interrupt)
        )
        self.status = found
        return found

    def propagate(
        self, assumptions: Iterable[int] = (), phase_saving: int = 0
    ) -> tuple[bool, list[int]]:
        ok, implied = self.c.propagate(self.handle, list(assumptions), phase_saving, _main_thread())
        return bool(ok), implied if implied is not None else []

    def get_model(self) -> list[int] | None:
        return self.c.model(self.handle) if self.status else None

    def conf_budget(self, budget: int) -> None:
        self.c.cbudget(self.handle, budget)

    def interrupt(self) -> None:
        self.c.interrupt(self.handle)

    def clear_interrupt(self) -> None:
        self.c.clearint(self.handle)

    def accum_stats(self) -> dict[str, int]:
        return self.c.acc_stats(self.handle)  # type: ignore[no-any-return]

    def __del__(self) -> None:  # as PySAT's classes: the C solver freed with its object
        if hasattr(self, "handle"):  # (not when __init__ failed before making one)
            self.delete()

    def delete(self) -> None:
        if self.handle is not None:
            self.c.delete(self.handle)
            self.handle = None


Propagate = Callable[[list[int]], tuple[bool, list[int]]]


def propagator(solver: Minicard) -> Propagate:
    """``solver.propagate(assumptions=...)`` of a PySAT Minicard, its C function
    called directly: the nested chains follow hundreds of thousands of branches
    of a few microseconds each, and PySAT's wrapper (a main-thread check each
    call) was a quarter of their time. SIGINT is not trapped inside one call
    (microseconds): Python sees it between calls."""
    handle, propagate = solver.minicard, pysolvers.minicard_propagate

    def run(assumptions: list[int]) -> tuple[bool, list[int]]:
        ok, implied = propagate(handle, assumptions, 0, 0)
        return bool(ok), implied or []

    return run


def _main_thread() -> int:
    """Whether PySAT's C code may trap SIGINT (it can only in the main thread)."""
    return int(MainThread.check())


def load_exactly_one(handle: Any, groups: Iterable[list[int]]) -> None:
    """Minicard ``handle`` gets "exactly one" of each group: a clause and a native
    cardinality constraint, PySAT's C functions called directly (building this is
    most of a small search's cost)."""
    add_clause, add_atmost = pysolvers.minicard_add_cl, pysolvers.minicard_add_am
    for group in groups:
        add_clause(handle, group)
        add_atmost(handle, group, 1)


def load_cnf(handle: Any, cnf: Cnf) -> None:
    """Minicard ``handle`` gets ``cnf``: its "exactly one" groups and a variant's
    "at most one" groups as native constraints, its other clauses as they are,
    and (the full encoding) its givens; PySAT's C functions called directly."""
    load_exactly_one(handle, cnf.groups)
    add_clause, add_atmost = pysolvers.minicard_add_cl, pysolvers.minicard_add_am
    for group in cnf.atmost:
        add_atmost(handle, group, 1)
    for clause in cnf.extra:
        add_clause(handle, clause)
    if not cnf.encoding.reduced:  # (reduced, a given is no variable at all)
        n = cnf.puzzle.size
        for cell, value in cnf.puzzle.givens:
            add_clause(handle, [literal(n, cell, value)])
