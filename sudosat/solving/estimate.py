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
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from pysat.solvers import Minicard

from sudosat.core.errors import SolverError, SolverTimeout
from sudosat.core.jsonobject import JsonObject
from sudosat.core.puzzle import Grid, Puzzle, a_puzzle
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


LN_MAX = math.log(sys.float_info.max)
"""The largest natural log whose number a float holds (about 709.8: 1.8e308)."""
FEWEST = 4
"""Samples an interval needs: with fewer, the bootstrap's resamples are mostly one
value repeated and its quantiles mean nothing; the estimate has no bounds."""


def exp_or_inf(ln: float) -> float:
    """``e**ln`` as a float; inf past what a float holds."""
    return math.inf if ln > LN_MAX else math.exp(ln)


def ln_of(count: float) -> float:
    """The natural log of a count; -inf for 0."""
    return math.log(count) if count > 0 else -math.inf


def scientific(ln: float, digits: int = 3) -> str:
    """``e**ln`` written as a float is (``7.02e+21``, ``0.5``), at any size
    (``1.49e+888``); ``0`` for -inf, ``inf`` for inf."""
    if ln == -math.inf:
        return "0"
    if ln == math.inf:
        return "inf"
    if ln <= LN_MAX:
        return f"{math.exp(ln):.{digits}g}"
    power = ln / math.log(10)
    exponent = math.floor(power)
    mantissa = f"{10 ** (power - exponent):.{digits}g}"
    if float(mantissa) >= 10:  # 9.9996 rounded up
        exponent += 1
        mantissa = f"{10 ** (power - exponent):.{digits}g}"
    return f"{mantissa}e+{exponent}"


@dataclass
class Estimate:
    """A number of solutions: ``exact`` (all were counted), or an estimate with
    its interval at confidence 1 - ``delta``. Held as natural logs
    (``ln_estimate``, ``ln_low``, ``ln_high``) end to end: a 36x36 has far more
    solutions than a float holds. ``ln_low`` -inf: no lower bound above 0;
    ``ln_high`` inf: no upper bound."""

    ln_estimate: float
    ln_low: float
    ln_high: float
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
    counted: int | None = None
    """The solutions counted one by one (all when ``exact``), as a whole number."""

    @property
    def estimate(self) -> float:
        """The estimate as a float: inf past 1.8e308 (``ln_estimate`` holds it)."""
        return float(self.counted) if self.counted is not None else exp_or_inf(self.ln_estimate)

    @property
    def low(self) -> float:
        return float(self.counted) if self.counted is not None else exp_or_inf(self.ln_low)

    @property
    def high(self) -> float:
        return (
            float(self.counted)
            if self.exact and self.counted is not None
            else exp_or_inf(self.ln_high)
        )

    @property
    def count(self) -> int:
        """The exact count (or, out of time while counting, those found)."""
        return self.counted or 0

    @property
    def at_least(self) -> bool:
        """Time ran out while counting: ``low`` solutions found, no upper bound."""
        return self.method == "exact" and not self.exact

    def as_dict(self) -> JsonObject:
        """The record's fields: numbers where a float holds them (null past it, and
        for a bound there is none of), and their base-10 logs at any size."""
        if self.exact:
            numbers: dict[str, Any] = dict.fromkeys(("estimate", "low", "high"), self.count)
        else:
            numbers = {
                "estimate": _number(self.ln_estimate),
                "low": _number(self.ln_low) if self.ln_low > -math.inf else 0.0,
                "high": _number(self.ln_high),
            }
        return {
            **numbers,
            "log10_estimate": _log10(self.ln_estimate),
            "log10_low": _log10(self.ln_low),
            "log10_high": _log10(self.ln_high),
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
            return str(self.count)
        if self.at_least:
            return f"at least {self.count} (out of time while counting them)"
        about = f"about {scientific(self.ln_estimate)}"
        if self.ln_high == math.inf:
            return about + f" (after {self.samples} samples; too few for an interval)"
        sure = f"{confidence(self.delta)} confidence"
        low, high = scientific(self.ln_low), scientific(self.ln_high)
        said = f"{about} ({low} to {high} at {sure}"
        if self.method == "approxmc":
            said += ", ApproxMC"
        return said + ("" if self.converged else "; out of time before it narrowed") + ")"


def _number(ln: float) -> float | None:
    """A count as JSON holds it: a float, or None past 1.8e308 (and for no bound)."""
    return None if ln > LN_MAX else math.exp(ln)


def _log10(ln: float) -> float | None:
    """A count's base-10 log, rounded to what a count needs; None for 0 or no bound."""
    return None if math.isinf(ln) else round(ln / math.log(10), 6)


def interval(logs: Sequence[float], delta: float, rng: random.Random) -> tuple[float, float, float]:
    """The mean of samples given as logs (Knuth's walks' products) and its
    bootstrap-t interval at confidence 1 - ``delta``, all as natural logs: the
    samples are taken relative to the largest, so no count overflows. With fewer
    than FEWEST samples (or none spread), no bounds: -inf and inf."""
    top = max(logs)
    values = [math.exp(x - top) for x in logs]
    if len(values) < FEWEST:
        return top + math.log(statistics.fmean(values)), -math.inf, math.inf
    mean, low, high = bootstrap_t(values, delta, rng)
    if math.isnan(low) or math.isnan(high):
        return top + math.log(mean), -math.inf, math.inf
    return top + math.log(mean), top + ln_of(low), top + ln_of(high)


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
    puzzle = a_puzzle(puzzle, "estimate")
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
    ln = ln_of(count)
    found = Estimate(ln, ln, ln, True, "exact", epsilon, delta, solves=solves, counted=count)
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
    found.ln_low = max(found.ln_low, ln_of(len(grids)))  # as many as were found, at least
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
    found.exact, found.ln_high, found.converged = False, math.inf, False
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
        mean, low, high = interval(pilot, FIRST_LOOK * delta, self.rng)
        # the samples the first look needs, by the square root law (widths as ratios)
        wide = max(exp_or_inf(high - mean) - 1, 1 - math.exp(low - mean)) / epsilon
        size = PILOT if math.isinf(wide) else max(PILOT, math.ceil(PILOT * wide**2 * MARGIN))
        logs: list[float] = []
        for look in deltas:
            logs = self._draw(search, logs, size, allow_short=True)
            if len(logs) < size:  # out of time before this look
                kept = logs if len(logs) >= 2 else pilot
                return self._result(kept, look, epsilon, delta, converged=False)
            found = self._result(logs, look, epsilon, delta, converged=True)
            up, down = found.ln_high - found.ln_estimate, found.ln_estimate - found.ln_low
            if up <= math.log1p(epsilon) and down <= -math.log1p(-epsilon):
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
        mean, low, high = interval(logs, look, self.rng)
        found = Estimate(
            mean,
            low,
            high,
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
            progress.tell("cells placed in this walk", len(chosen))  # a 36x36's walk is long

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
    ln = ln_of(cells) + hashes * math.log(2)  # 2**hashes past a float on a big grid
    return Estimate(
        ln, ln - math.log1p(epsilon), ln + math.log1p(epsilon), False, "approxmc", epsilon, delta
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
