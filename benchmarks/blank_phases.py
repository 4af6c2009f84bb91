"""Where an edit's time goes, setting from a blank grid (issue 57).

Each state of a bundled puzzle built up from blank (``from_blank``) answered in
process as the server answers it: the request read from what the plugin sends,
started from the last answers (the server's own ``Answers``), the true
candidates, the reply's text. Each phase timed by wrapping the library's own
functions: reading, deduce, encode, loading the solver, the solves (SAT: a
witness found; UNSAT: the last values proved impossible), the witnesses
(decode, the rules' check, marking, blocking).

    python benchmarks/blank_phases.py killer.txt [--cap 8] [--limit 30] [-v]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.serve import first, payload
from sudosat.making.setting import from_blank
from sudosat.serving import answers
from sudosat.serving.protocol import Request, body, make_job
from sudosat.serving.server import Answers
from sudosat.solving import candidates as marking

SPENT: defaultdict[str, float] = defaultdict(float)
CALLS: defaultdict[str, int] = defaultdict(int)


def timed(name: str, function: Callable[..., Any]) -> Callable[..., Any]:
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        start = time.perf_counter()
        try:
            return function(*args, **kwargs)
        finally:
            SPENT[name] += time.perf_counter() - start
            CALLS[name] += 1

    return wrapper


def solve(original: Callable[..., bool]) -> Callable[..., bool]:
    def wrapper(self: Any, assumptions: list[int]) -> bool:
        start = time.perf_counter()
        holds = original(self, assumptions)
        name = "solve sat" if holds else "solve unsat"
        SPENT[name] += time.perf_counter() - start
        CALLS[name] += 1
        return holds

    return wrapper


def instrument() -> None:
    marking.deduce = timed("deduce", marking.deduce)  # type: ignore[attr-defined]
    marking.encode = timed("encode", marking.encode)  # type: ignore[attr-defined]
    marking.holding = timed("load minicard", marking.holding)  # type: ignore[attr-defined]
    marking._Marking._other = timed("load cadical", marking._Marking._other)  # type: ignore[method-assign]
    marking._Marking._solve = solve(marking._Marking._solve)  # type: ignore[method-assign]
    marking._Marking._witness = timed("witnesses", marking._Marking._witness)  # type: ignore[method-assign]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("puzzle", help="A file of puzzles/ or of ../shared/puzzles (its first).")
    parser.add_argument("--cap", type=int, default=1, help="The plugin's solution cap.")
    parser.add_argument("--limit", type=int, default=10_000, help="At most this many edits.")
    parser.add_argument("-v", "--verbose", action="store_true", help="Each edit's phases.")
    args = parser.parse_args()
    puzzle = first(args.puzzle)
    if puzzle is None:
        print(f"{args.puzzle}: not here")
        return 0
    instrument()
    options = [f"truecandidatesnumsolutions={args.cap}"] if args.cap > 1 else []
    recent = Answers(256 << 20)
    per: list[float] = []
    totals: defaultdict[str, float] = defaultdict(float)
    counts: defaultdict[str, int] = defaultdict(int)
    for nonce, state in enumerate(from_blank(puzzle)[: args.limit], 1):
        start = time.perf_counter()
        data = payload(state, truecandidatesoptions=options)
        job = timed("read", make_job)(Request(nonce, "truecandidates", "fpuzzles", data))
        job = recent.start(job)
        sent: list[tuple[str, dict[str, Any]]] = []
        answers.answer(job, lambda kind, **fields: sent.append((kind, fields)))  # noqa: B023
        kind, fields = sent[-1]
        timed("reply text", body)(kind, **fields)
        if kind == "truecandidates":
            recent.remember(job.puzzle, {k: v for k, v in fields.items() if k.startswith("_")})
        per.append(time.perf_counter() - start)
        if args.verbose:
            phases = ", ".join(f"{k} {SPENT[k]:.3f} s ({CALLS[k]})" for k in SPENT)
            print(f"edit {nonce}: {per[-1]:.3f} s: {phases}", flush=True)
        for name in SPENT:
            totals[name] += SPENT[name]
            counts[name] += CALLS[name]
        SPENT.clear()
        CALLS.clear()
    print(
        f"{args.puzzle}, cap {args.cap}: {len(per)} edits, median {statistics.median(per):.3f} s, "
        f"worst {max(per):.3f} s, all {sum(per):.2f} s"
    )
    for name in sorted(totals, key=lambda k: -totals[k]):
        print(f"  {name:14} {totals[name]:8.3f} s {counts[name]:7}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
