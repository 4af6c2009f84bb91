"""Issue 59's variant targets: how variant steps are named, and how big they get.

Every puzzle's logical path (``logical_path``, one process, a time limit each)
is taken apart by the technique of each step:

* named: a technique of the documented list (the classic ones, each rule's own
  setters' name, the 45 rule, cage in its house);
* bare: ``rule``, a rule that has no name of its own;
* generic: a question over rules and houses named by its parts (``rule and 2
  units``, ``3 rules together``, ``2 rules and 1 unit``).

It reports the share of each, the largest step (removals, and its parts: the
rules and houses its reason names) and the path's CPU time, per set: the
bundled variants (puzzles/), the published-style set made by
scripts/published_style.py (puzzles/published-style.links: the rule mixes
setters publish), ISS's hard renban and Mathemagic killers
(../shared/puzzles/iss, skipped where absent) and generated killers, jigsaws
and X-sudokus at each level.

    python benchmarks/variant_steps.py [--limit SECONDS] [--seeds N] [--sets bundled,renban]
        [--show-generic]
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))
from common import SHARED  # noqa: E402

from sudosat.core.puzzle import Puzzle  # noqa: E402
from sudosat.logic.path import logical_path  # noqa: E402
from sudosat.logic.solve_path import technique_of  # noqa: E402
from sudosat.making.generator import VARIANT_LEVELS, Asked  # noqa: E402
from sudosat.making.variant_generator import make_variant  # noqa: E402
from sudosat.reading.inputs import read_puzzles  # noqa: E402

BUNDLED = [
    "variants.links",
    "killer.txt",
    "published-killer.txt",
    "miracle.txt",
    "thermo-arrow.json",
    "kropki-6x6.txt",
    "jigsaw.txt",
]
GENERIC = re.compile(r"^(rule and|rules together|\d+ rules)")
SWEEPING = {"thermometer bounds", "cage combinations", "arrow sums", "renban run"}
"""Techniques whose first steps may sweep a long line or a big cage: allowed past 20
removals (the issue's "first bounds of a long thermometer"); so is a cage's set of
digits leaving the rest of its houses (``cage in its house``, ``cage in 2 houses``).
docs/reference/techniques.md marks them."""


def sweeping(name: str) -> bool:
    return name in SWEEPING or name.startswith("cage in ")


def kind(name: str) -> str:
    if name == "rule":
        return "bare"
    return "generic" if GENERIC.match(name) else "named"


def puzzles(seeds: int) -> Iterator[tuple[str, Puzzle]]:
    for name in BUNDLED:
        for entry in read_puzzles([str(ROOT / "puzzles" / name)]):
            if isinstance(entry, Puzzle) and entry.rules is not None:
                yield "bundled", entry
    for entry in read_puzzles([str(ROOT / "puzzles" / "published-style.links")]):
        if isinstance(entry, Puzzle):
            yield "published-style", entry
    for name in ("hard_renban.links", "mathemagic_killers.links"):
        path = SHARED / "iss" / name
        if path.exists():
            for entry in read_puzzles([str(path)]):
                if isinstance(entry, Puzzle):
                    yield "iss " + name.split(".")[0], entry
    for variant in ("killer", "jigsaw", "x"):
        for level in VARIANT_LEVELS:
            for seed in range(seeds):
                made = make_variant(seed, Asked(level=level, variant=variant))
                yield f"generated {variant}", made.puzzle


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=float, default=60.0, help="seconds a path at most")
    parser.add_argument("--seeds", type=int, default=2, help="generated puzzles a level")
    parser.add_argument(
        "--sets", default="", help="only the sets whose names hold one of these words (a,b)"
    )
    parser.add_argument(
        "--show-generic", action="store_true", help="print each generic or bare step as found"
    )
    args = parser.parse_args()
    wanted = [w for w in args.sets.split(",") if w]
    kinds: dict[str, Counter[str]] = {}
    largest: dict[str, tuple[int, str]] = {}
    parts: dict[str, tuple[int, str]] = {}
    seconds: dict[str, list[float]] = {}
    for group, puzzle in puzzles(args.seeds):
        if wanted and not any(w in group for w in wanted):
            continue
        start = time.process_time()
        path = logical_path(puzzle, timeout=args.limit)
        seconds.setdefault(group, []).append(time.process_time() - start)
        counts = kinds.setdefault(group, Counter())
        for step in path.steps:
            technique = technique_of(step)
            counts[kind(technique.name)] += 1
            if args.show_generic and kind(technique.name) != "named":
                print(f"{group}: {technique.name}: {step.reason[:160]}", file=sys.stderr)
            if not sweeping(technique.name) and not step.placements:
                size = len(step.eliminations)
                if size > largest.get(group, (0, ""))[0]:
                    largest[group] = (size, f"{technique.name}: {step.reason[:80]}")
            if technique.family in ("rule", "rules together"):
                many = len(step.houses)
                if many > parts.get(group, (0, ""))[0]:
                    parts[group] = (many, step.name)
        counts[f"end {path.end}"] += 1
    print(
        "| set | puzzles | steps | named | bare | generic | ends | largest | most parts "
        "| CPU median, worst |"
    )
    print("|---|---:|---:|---:|---:|---:|---|---|---|---|")
    for group, counts in kinds.items():
        steps = counts["named"] + counts["bare"] + counts["generic"]
        share = {k: f"{100 * counts[k] / max(steps, 1):.1f}%" for k in ("named", "bare", "generic")}
        ends = ", ".join(f"{k[4:]} {n}" for k, n in sorted(counts.items()) if k.startswith("end"))
        times = sorted(seconds[group])
        cpu = f"{times[len(times) // 2]:.2f} s, {times[-1]:.2f} s"
        big = largest.get(group, (0, ""))
        most = parts.get(group, (0, ""))
        print(
            f"| {group} | {len(times)} | {steps} | {share['named']} | {share['bare']} | "
            f"{share['generic']} | {ends} | {big[0]} ({big[1]}) | {most[0]} ({most[1]}) | {cpu} |"
        )


if __name__ == "__main__":
    main()
