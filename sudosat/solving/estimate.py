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
* the interval is honest at the confidence asked (1 - ``delta``). A pilot of
  :data:`PILOT` samples only plans the run (how many samples the interval
  needs) and is set aside; then fresh samples are drawn and the interval is
  looked at after :data:`GROWTH` times more each time, until it reaches no
  more than ``epsilon`` of the mean on either side. Each look spends part of
  ``delta`` (:func:`look_deltas`: most on the first, which the pilot aims
  at, and shares of the rest that add up to it), so the chance that the
  interval the run stops on misses is at most ``delta`` however many looks
  it takes (stopping as soon as an interval from a few dozen samples looked
  narrow missed one time in ten). Each interval is a bootstrap-t interval:
  the samples are skewed (a product of branchings: rare walks count for
  much), and the normal interval misses mostly on the high side.

The bound is statistical: a puzzle whose solutions hide in a rare branch can make
the samples miss them. ``method="approxmc"`` gives ApproxMC's guarantee instead
(the count within a factor 1 + ``epsilon`` with probability at least 1 - ``delta``,
hashing over the cell variables), which takes far longer (BENCHMARKS.md).
Either way the count is of grids: auxiliary variables never multiply it.
"""

from __future__ import annotations

import itertools
import math
import multiprocessing
import random
import signal
import statistics
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from pysat.solvers import Minicard

from sudosat.core.errors import SolverError, SolverTimeout
from sudosat.core.jsonobject import JsonObject
from sudosat.core.puzzle import Grid, Puzzle
from sudosat.sat.cnf import Cnf
from sudosat.sat.deadline import deadline_after, remaining, solve_by
from sudosat.solving import progress
from sudosat.solving.fast import holding
from sudosat.solving.outcome import accept
from sudosat.solving.search import opened
from sudosat.system.signals import PR_SET_PDEATHSIG, prctl

EXACT_LIMIT = 1000
"""Up to this many solutions the count is exact (they are all found)."""
EPSILON = 0.2
"""Default: the interval reaches at most 20% either side of the estimate."""
DELTA = 0.05
"""Default: it holds with confidence 95%."""
PILOT = 30
"""Samples that plan the run (how many it needs), then are set aside."""
GROWTH = 2.0
"""Each look at the interval comes after this many times the samples of the last:
enough that the interval narrows from one look to the next although each look
spends less of ``delta`` (so its quantiles are wider)."""
FIRST_LOOK = 0.6
"""The share of ``delta`` the first look spends (the pilot aims it to be the last)."""
MARGIN = 1.2
"""How many more samples than the pilot's projection the first look takes."""
RESAMPLES = 2000
"""Bootstrap resamples of an interval, at least (more for a look that spends little)."""
MOST_RESAMPLES = 20_000
"""Bootstrap resamples at most: past its reach (a tiny ``delta``) the quantiles are
at least the normal ones."""
METHODS = ("sampling", "approxmc")
LEAST_SAMPLED_DELTA = 1e-6
"""The smallest ``delta`` a sampled interval is given for: past the resamples'
reach its tails are the normal ones, and no few hundred samples speak for odds
smaller than one in a million (ApproxMC's bound takes any ``delta``)."""


def confidence(delta: float) -> str:
    """``95%`` for ``delta`` 0.05, with the digits it needs (``99.9999%``), never
    rounded up to a certainty it is not."""
    digits = max(0, math.ceil(-math.log10(delta)) - 1)
    return f"{(1 - delta) * 100:.{digits}f}".rstrip("0").rstrip(".") + "%"


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

    def as_dict(self) -> JsonObject:
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
        sure = f"{confidence(self.delta)} confidence"
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
    exact_limit: int = EXACT_LIMIT,
) -> Estimate:
    """How many solutions ``puzzle`` has: exactly up to ``exact_limit`` (0: always
    estimated), else estimated (see the module's text). ``seed`` makes a run
    repeatable. With ``timeout``, sampling stops then with the interval it has
    (``converged`` False); the exact count and ApproxMC raise SolverTimeout."""
    if not 0 < epsilon < 1 or not 0 < delta < 1:
        raise ValueError("epsilon and delta must lie between 0 and 1")
    if method not in METHODS:
        raise ValueError(f"method must be one of {', '.join(METHODS)}")
    if method == "sampling" and delta < LEAST_SAMPLED_DELTA:
        raise ValueError(f"a sampled interval takes delta {LEAST_SAMPLED_DELTA:g} or more")
    start = time.perf_counter()
    deadline = deadline_after(timeout)
    if exact_limit < 0:
        raise ValueError("exact_limit must be at least 0")
    found = _estimate(puzzle, epsilon, delta, method, seed, deadline, exact_limit)
    found.time = time.perf_counter() - start
    return found


def _exact(count: int, epsilon: float, delta: float, solves: int, grids: list[Grid]) -> Estimate:
    found = Estimate(count, count, count, True, "exact", epsilon, delta, solves=solves)
    found.solutions = tuple(grids)
    return found


def _estimate(
    puzzle: Puzzle,
    epsilon: float,
    delta: float,
    method: str,
    seed: int,
    deadline: float | None,
    exact_limit: int,
) -> Estimate:
    ready = opened(puzzle)
    if ready.cnf is None:  # the givens or the singles decide it
        decided = [] if ready.grid is None else [ready.grid]
        return _exact(len(decided), epsilon, delta, 0, decided)
    cnf = ready.cnf
    search = holding(cnf)
    try:
        grids: list[Grid] = []
        solves = 0
        while len(grids) <= exact_limit:  # one more than the limit: then it is past it
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
            progress.tell("solutions counted", len(grids))
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


def walks(puzzle: Puzzle, cnf: Cnf, seed: int = 0) -> Iterator[float]:
    """Knuth's samples of ``puzzle`` (the logs of the walks' products), one walk
    each, without end: for a caller that decides when to stop (``cnf``: the
    puzzle's :func:`search.opened` CNF)."""
    sampler = _Sampler(puzzle, cnf, seed, None)
    search = holding(cnf)
    try:
        while True:
            yield sampler._sample(search)
    finally:
        search.delete()


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
        search = holding(self.cnf)
        try:
            return self._looks(search, epsilon, delta)
        finally:
            search.delete()

    def _looks(self, search: Minicard, epsilon: float, delta: float) -> Estimate:
        """The pilot, then fresh samples and a look at each planned size (see the
        module's text); out of time, the interval of the samples drawn, at the
        next look's confidence (``converged`` False)."""
        deltas = look_deltas(delta)
        pilot = self._draw(search, [], PILOT, allow_short=False)
        if len(pilot) < PILOT:  # out of time in the pilot: what it has, at the first look's
            return self._result(pilot, next(deltas), epsilon, delta, converged=False)
        _, values = _scaled(pilot)
        mean, low, high = bootstrap_t(values, FIRST_LOOK * delta, self.rng)
        size = PILOT
        if mean > 0:  # the samples the first look needs, by the square root law
            wide = max(high - mean, mean - low) / (epsilon * mean)
            size = max(size, math.ceil(PILOT * wide**2 * MARGIN))
        logs: list[float] = []
        for look in deltas:
            logs = self._draw(search, logs, size, allow_short=True)
            if len(logs) < size:  # out of time before this look
                kept = logs if len(logs) >= 2 else pilot
                return self._result(kept, look, epsilon, delta, converged=False)
            found = self._result(logs, look, epsilon, delta, converged=True)
            if found.high - found.estimate <= epsilon * found.estimate and (
                found.estimate - found.low <= epsilon * found.estimate
            ):
                return found
            size = math.ceil(size * GROWTH)
        raise AssertionError("looks never end")  # look_deltas is endless

    def _draw(
        self, search: Minicard, logs: list[float], size: int, allow_short: bool
    ) -> list[float]:
        """``logs`` and more samples, ``size`` in all, or fewer when time runs out
        (at least two first, unless ``allow_short``: SolverTimeout then)."""
        logs = list(logs)
        while len(logs) < size:
            try:
                logs.append(self._sample(search))
            except SolverTimeout:
                if len(logs) < 2 and not allow_short:
                    raise
                break
            progress.tell("walks sampled", len(logs))
        return logs

    def _result(
        self, logs: list[float], look: float, epsilon: float, delta: float, converged: bool
    ) -> Estimate:
        if len(logs) < 2:
            raise SolverTimeout("out of time before two samples")
        scale, values = _scaled(logs)
        mean, low, high = bootstrap_t(values, look, self.rng)
        found = Estimate(
            mean * scale,
            max(low, 0.0) * scale,
            high * scale,
            False,
            "sampling",
            epsilon,
            delta,
            len(logs),
            self.solves,
        )
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


def _scaled(logs: list[float]) -> tuple[float, list[float]]:
    """Samples given as logs as a scale and values up to 1 (a 36x36's counts
    overflow a float)."""
    top = max(logs)
    return math.exp(top), [math.exp(x - top) for x in logs]


def look_deltas(delta: float) -> Iterator[float]:
    """What each look at the interval spends of ``delta``: FIRST_LOOK of it on the
    first, then the rest in shares 6/(pi^2 k^2), k = 1, 2, ..., which add up to
    it (so the chance that any look's interval misses is at most ``delta``)."""
    yield FIRST_LOOK * delta
    for k in itertools.count(1):
        yield (1 - FIRST_LOOK) * delta * 6 / (math.pi**2 * k * k)


def bootstrap_t(
    values: Sequence[float], delta: float, rng: random.Random
) -> tuple[float, float, float]:
    """The mean of ``values`` and its bootstrap-t interval at confidence 1 - ``delta``:
    the Student statistic's quantiles from resamples, not the normal ones, so a
    skewed sample gets the lopsided interval it needs (second-order accurate)."""
    import numpy as np  # deferred: for estimates alone

    data = np.asarray(values, dtype=float)
    n = len(data)
    mean, spread = float(data.mean()), float(data.std(ddof=1))
    if spread == 0.0:
        return mean, mean, mean
    wanted = math.ceil(40 / delta)  # dozens beyond each tail's quantile
    resamples = min(MOST_RESAMPLES, max(RESAMPLES, wanted))
    generator = np.random.default_rng(rng.getrandbits(64))
    stats = []
    for start in range(0, resamples, 1000):  # bounded memory: 1,000 resamples at a time
        picked = data[generator.integers(0, n, (min(1000, resamples - start), n))]
        gaps, spreads = picked.mean(axis=1) - mean, picked.std(axis=1, ddof=1)
        flat = spreads == 0  # a resample of one value repeated: infinitely far, or no gap
        stats.append(np.where(flat, np.copysign(np.where(gaps == 0, 0, np.inf), gaps), 0.0))
        stats[-1][~flat] = gaps[~flat] / spreads[~flat]
    t = np.concatenate(stats) * math.sqrt(n)
    low_t, high_t = np.quantile(t, [delta / 2, 1 - delta / 2])
    if wanted > resamples:  # tails the resamples do not reach: no narrower than normal
        z = -statistics.NormalDist().inv_cdf(delta / 2)
        low_t, high_t = min(low_t, -z), max(high_t, z)
    error = spread / math.sqrt(n)
    return mean, mean - float(high_t) * error, mean - float(low_t) * error


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
