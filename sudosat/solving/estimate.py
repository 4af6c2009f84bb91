"""About how many solutions a puzzle has, when there are too many to count.

Up to :data:`EXACT_LIMIT` solutions are counted exactly (each found and blocked).
Past that, the default method is sampling, Knuth's estimator of a search tree's
leaves with true candidates as the branches:

* a sample walks from the puzzle to one solution: at each step it takes the open
  cell with the fewest candidates left by propagation, asks the solver which of
  them some solution still holds (a model found for one value shows which other
  values it witnesses), picks one of those uniformly and multiplies the estimate
  by how many there were. No walk reaches a dead end, so every sample is a
  product of branchings and the mean of the samples is an unbiased estimate;
* samples are drawn until the confidence interval (normal approximation, at
  confidence 1 - ``delta``) is within ``epsilon`` of the mean on either side.

The bound is statistical: a puzzle whose solutions hide in a rare branch can make
the samples miss them. ``method="approxmc"`` gives ApproxMC's guarantee instead
(the count within a factor 1 + ``epsilon`` with probability at least 1 - ``delta``,
hashing over the cell variables), which takes far longer (BENCHMARKS.md).
Either way the count is of grids: auxiliary variables never multiply it.
"""

from __future__ import annotations

import math
import multiprocessing
import random
import signal
import statistics
import time
from dataclasses import dataclass, replace
from typing import Any

from pysat.solvers import Minicard

from sudosat.core.errors import SolverError, SolverTimeout
from sudosat.core.puzzle import Grid, Puzzle
from sudosat.sat.cnf import Cnf, Encoding
from sudosat.sat.deadline import deadline_after, remaining, solve_by
from sudosat.sat.encoding import encode
from sudosat.sat.limits import check_solvable
from sudosat.solving.deduce import deduce
from sudosat.solving.fast import holding
from sudosat.solving.outcome import accept, forced_grid_breaks, why_none
from sudosat.system.signals import PR_SET_PDEATHSIG, prctl

EXACT_LIMIT = 1000
"""Up to this many solutions the count is exact (they are all found)."""
EPSILON = 0.2
"""Default: the interval reaches at most 20% either side of the estimate."""
DELTA = 0.05
"""Default: it holds with confidence 95%."""
MIN_SAMPLES = 30
"""Samples before the interval is trusted to say when to stop."""
METHODS = ("sampling", "approxmc")


@dataclass
class Estimate:
    """A number of solutions: ``exact`` (all were counted), or an ``estimate`` with
    its interval ``low``..``high`` at confidence 1 - ``delta``."""

    estimate: float
    low: float
    high: float
    exact: bool
    method: str
    epsilon: float
    delta: float
    samples: int = 0
    solves: int = 0
    time: float = 0.0
    converged: bool = True
    """False when time ran out before the interval was as narrow as asked."""
    solutions: tuple[Grid, ...] = ()
    """The solutions found while counting (all of them when ``exact``), each checked."""

    @property
    def at_least(self) -> bool:
        """Time ran out while counting: ``low`` solutions found, no upper bound."""
        return math.isinf(self.high)

    def as_dict(self) -> dict[str, Any]:
        return {
            "estimate": int(self.estimate) if self.exact else self.estimate,
            "low": int(self.low) if self.exact else self.low,
            "high": int(self.high) if self.exact else _finite(self.high),
            "exact": self.exact,
            "method": self.method,
            "epsilon": self.epsilon,
            "delta": self.delta,
            "confidence": None if self.exact else 1 - self.delta,
            "samples": self.samples,
            "converged": self.converged,
        }

    def text(self) -> str:
        """``7.02e+21 (6.1e+21 to 8.0e+21 at 95% confidence)``, or the exact count."""
        if self.exact:
            return str(int(self.estimate))
        if self.at_least:
            return f"at least {int(self.low)} (out of time while counting them)"
        sure = f"{(1 - self.delta) * 100:g}% confidence"
        said = f"about {self.estimate:.3g} ({self.low:.3g} to {self.high:.3g} at {sure}"
        if self.method == "approxmc":
            said += ", ApproxMC"
        return said + ("" if self.converged else "; out of time before it narrowed") + ")"


def _finite(value: float) -> float | None:
    """JSON has no infinity: None (no upper bound known)."""
    return None if math.isinf(value) else value


def estimate(
    puzzle: Puzzle,
    *,
    epsilon: float = EPSILON,
    delta: float = DELTA,
    method: str = "sampling",
    seed: int = 0,
    timeout: float | None = None,
) -> Estimate:
    """How many solutions ``puzzle`` has: exactly up to EXACT_LIMIT, else estimated
    (see the module's text). ``seed`` makes a run repeatable. With ``timeout``,
    sampling stops then with the interval it has (``converged`` False); the exact
    count and ApproxMC raise SolverTimeout."""
    if not 0 < epsilon < 1 or not 0 < delta < 1:
        raise ValueError("epsilon and delta must lie between 0 and 1")
    if method not in METHODS:
        raise ValueError(f"method must be one of {', '.join(METHODS)}")
    start = time.perf_counter()
    deadline = deadline_after(timeout)
    found = _estimate(puzzle, epsilon, delta, method, seed, deadline)
    found.time = time.perf_counter() - start
    return found


def _exact(count: int, epsilon: float, delta: float, solves: int, grids: list[Grid]) -> Estimate:
    found = Estimate(count, count, count, True, "exact", epsilon, delta, solves=solves)
    found.solutions = tuple(grids)
    return found


def _estimate(
    puzzle: Puzzle, epsilon: float, delta: float, method: str, seed: int, deadline: float | None
) -> Estimate:
    clashes, _ = why_none(puzzle, True)
    if clashes:
        return _exact(0, epsilon, delta, 0, [])
    deduced = deduce(puzzle)
    if deduced.contradiction:
        return _exact(0, epsilon, delta, 0, [])
    target = replace(puzzle, cells=deduced.grid)
    check_solvable(target, True)  # a one-line TooBig, not a MemoryError later
    cnf = encode(target, Encoding(), compact=True, masks=deduced.masks)
    if not cnf.open_cells:
        broken = forced_grid_breaks(puzzle, target.cells)
        return _exact(0 if broken else 1, epsilon, delta, 0, [] if broken else [target.cells])
    search = holding(cnf)
    try:
        grids: list[Grid] = []
        solves = 0
        while len(grids) <= EXACT_LIMIT:  # one more than the limit: then it is past it
            solves += 1
            try:
                if not solve_by(search, deadline):
                    return _exact(len(grids), epsilon, delta, solves, grids)
            except SolverTimeout:  # as many as were found, at least
                if not grids:
                    raise
                return _at_least(len(grids), epsilon, delta, solves, grids)
            grid = accept(puzzle, cnf.decode(search.get_model()), grids, "minicard")
            search.add_clause(cnf.blocking_clause(grid))
    finally:
        search.delete()
    if method == "approxmc":
        found = _approxmc(puzzle, cnf, epsilon, delta, seed, deadline)
    else:
        found = _Sampler(puzzle, cnf, seed, deadline).run(epsilon, delta)
    found.solves += solves
    found.solutions = tuple(grids)
    found.low = max(found.low, float(len(grids)))  # as many as were found, at least
    return found


def _at_least(count: int, epsilon: float, delta: float, solves: int, grids: list[Grid]) -> Estimate:
    """Out of time while counting: a lower bound and no more."""
    found = _exact(count, epsilon, delta, solves, grids)
    found.exact, found.high, found.converged = False, math.inf, False
    return found


class _Sampler:
    """Knuth's estimator over the reduced CNF, on one Minicard."""

    def __init__(self, puzzle: Puzzle, cnf: Cnf, seed: int, deadline: float | None) -> None:
        self.puzzle, self.cnf, self.deadline = puzzle, cnf, deadline
        self.rng = random.Random(seed)
        literals = cnf.literals()
        self.cells: dict[int, list[int]] = {}
        for (cell, _), lit in literals.items():
            self.cells.setdefault(cell, []).append(lit)
        self.solves = 0

    def run(self, epsilon: float, delta: float) -> Estimate:
        z = statistics.NormalDist().inv_cdf(1 - delta / 2)
        logs: list[float] = []
        converged = False
        search = holding(self.cnf)
        try:
            while True:
                try:
                    logs.append(self._sample(search))
                except SolverTimeout:
                    if len(logs) < 2:
                        raise
                    break
                if len(logs) >= MIN_SAMPLES:
                    mean, half = _interval(logs, z)
                    if half <= epsilon * mean:
                        converged = True
                        break
        finally:
            search.delete()
        mean, half = _interval(logs, z)
        low, high = max(mean - half, 0.0), mean + half
        found = Estimate(mean, low, high, False, "sampling", epsilon, delta, len(logs), self.solves)
        found.converged = converged
        return found

    def _sample(self, search: Minicard) -> float:
        """One walk to a solution; the log of the product of its branchings."""
        chosen: list[int] = []
        product = 0.0
        while True:
            remaining(self.deadline)
            _, implied = search.propagate(assumptions=chosen)
            true = {lit for lit in implied if lit > 0}
            false = {-lit for lit in implied if lit < 0}
            best: list[int] | None = None
            for lits in self.cells.values():
                if any(lit in true for lit in lits):
                    continue
                left = [lit for lit in lits if lit not in false]
                if best is None or len(left) < len(best):
                    best = left
                    if len(left) == 2:
                        break
            if best is None:  # every cell holds a value: a solution
                return product
            holds = self._holding(search, chosen, best)
            product += math.log(len(holds))
            chosen.append(self.rng.choice(holds))

    def _holding(self, search: Minicard, chosen: list[int], values: list[int]) -> list[int]:
        """The values of ``values`` that some solution still holds."""
        witnessed: set[int] = set()
        holds = []
        for lit in values:
            if lit in witnessed:
                holds.append(lit)
                continue
            self.solves += 1
            if solve_by(search, self.deadline, [*chosen, lit]):
                holds.append(lit)
                witnessed.update(x for x in search.get_model() if x > 0)
        if not holds:  # propagation and the solver disagree: a bug, never a guess
            raise AssertionError("a walk reached a cell with no value some solution holds")
        return holds


def _interval(logs: list[float], z: float) -> tuple[float, float]:
    """The mean of the samples (given as logs) and the half-width of its interval."""
    top = max(logs)
    values = [math.exp(x - top) for x in logs]
    mean = statistics.fmean(values)
    spread = statistics.stdev(values) if len(values) > 1 else mean
    scale = math.exp(top)
    return mean * scale, z * spread / math.sqrt(len(values)) * scale


def _approxmc(
    puzzle: Puzzle, cnf: Cnf, epsilon: float, delta: float, seed: int, deadline: float | None
) -> Estimate:
    """ApproxMC over the reduced CNF, projected on the cell variables. It holds the
    interpreter until it is done, so with a deadline it counts in a child process,
    killed when the deadline passes (SolverTimeout)."""
    if deadline is None:
        cells, hashes = _approxmc_count(cnf, epsilon, delta, seed)
    else:
        cells, hashes = _approxmc_by(deadline, cnf, epsilon, delta, seed)
    count = float(cells * 2**hashes)
    return Estimate(
        count, count / (1 + epsilon), count * (1 + epsilon), False, "approxmc", epsilon, delta
    )


def _approxmc_count(cnf: Cnf, epsilon: float, delta: float, seed: int) -> tuple[int, int]:
    import pyapproxmc  # deferred: for this method alone

    counter = pyapproxmc.Counter(seed=seed + 1, epsilon=epsilon, delta=delta)
    counter.add_clauses(list(cnf.iter_clauses()))
    cells, hashes = counter.count(list(cnf.literals().values()))
    return int(cells), int(hashes)


def _approxmc_by(
    deadline: float, cnf: Cnf, epsilon: float, delta: float, seed: int
) -> tuple[int, int]:
    context = multiprocessing.get_context("fork")
    receive, send = context.Pipe(duplex=False)
    child = context.Process(target=_approxmc_child, args=(send, cnf, epsilon, delta, seed))
    child.start()
    send.close()
    try:
        if not receive.poll(remaining(deadline)):
            raise SolverTimeout("deadline passed")
        try:
            found: tuple[int, int] = receive.recv()
        except EOFError:
            raise SolverError(f"ApproxMC died (exit code {child.exitcode})") from None
        return found
    finally:
        if child.is_alive():
            child.kill()
        child.join()
        receive.close()


def _approxmc_child(send: Any, cnf: Cnf, epsilon: float, delta: float, seed: int) -> None:
    prctl(PR_SET_PDEATHSIG, signal.SIGKILL)  # never outlive the run that asked
    send.send(_approxmc_count(cnf, epsilon, delta, seed))
    send.close()
