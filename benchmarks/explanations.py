"""Issue 78's targets: whether a path's explanations can be published.

For each step of each path (``logical_path``, then its chains written out as
``steps`` shows them) it measures:

* filler: the facts of a chain that nothing after them needs (by the premises
  each fact lists; a ``cell`` link, a placement's own removal, counts as one
  too), as a share of all facts in chains (target 0);
* named: the share of chains ending in a contradiction that say what breaks
  (the cell, the house, the rule; target 100%);
* facts per chain on the hard list, median and worst, nested steps left out
  (target <= 12 / <= 40): in the net (every fact, as ``-f json`` and
  ``--detail`` give it) and as the short line shows it (placements and the
  removals no placement shows);
* local: the share of rule steps named for a rule and a house whose chains use
  only that rule, those houses, peers and naked singles (target >= 95%);
* text: characters of text a step, its sentence and the lines under it, the
  95th percentile and the largest (target <= 600);
* techniques: how often each technique names a step (``--techniques``).

Sets: eleven's hardest (``se-rated/eleven_dev.tsv``, ER 10.6-11.9, PER of each
ER drawn with SEED), magictour's top (tdoku, the paths of ER 6.5-8.5, the first
MID), and the bundled variants. A tree before issue 78 (no premises, no
names) is measured too: its filler is its ``cell`` links.

    python benchmarks/explanations.py [--per 2] [--mid 20] [--seed 7] [--sets hard,mid,variants]
        [--techniques]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))
from common import SHARED  # noqa: E402
from variant_steps import BUNDLED as VARIANTS  # noqa: E402  (the bundled variants)

from sudosat import parse  # noqa: E402
from sudosat.core.puzzle import Puzzle  # noqa: E402
from sudosat.logic.chains import written  # noqa: E402
from sudosat.logic.path import logical_path  # noqa: E402
from sudosat.reading.inputs import read_puzzles  # noqa: E402
from sudosat.running import paths  # noqa: E402

ALLOWED = {"assumed", "peer", "cell", "naked single", "contradiction"}


def hard(per: int, seed: int) -> list[Puzzle]:
    path = SHARED / "se-rated" / "eleven_dev.tsv"
    if not path.exists():
        return []
    by_er: dict[str, list[str]] = defaultdict(list)
    for line in path.read_text().splitlines():
        if line and not line.startswith("#"):
            grid, er = line.split("\t")[:2]
            by_er[er].append(grid)
    chosen = random.Random(seed)
    return [parse(g) for er in sorted(by_er) for g in chosen.sample(by_er[er], per)]


def mid(count: int) -> Iterator[Puzzle]:
    path = SHARED / "tdoku" / "puzzles3_magictour_top1465"
    if not path.exists():
        return
    found = 0
    for line in path.read_text().splitlines():
        if found >= count:
            return
        if line and not line.startswith("#"):
            puzzle = parse(line.split()[0])
            er = logical_path(puzzle).explainer()
            if er is not None and 6.5 <= er[0] <= 8.5:
                found += 1
                yield puzzle


def variants() -> Iterator[Puzzle]:
    for name in VARIANTS:
        for entry in read_puzzles([str(ROOT / "puzzles" / name)]):
            if isinstance(entry, Puzzle):
                yield entry


def needed(chain: Any) -> set[int]:
    """The facts of a chain its end needs, by the premises each lists."""
    premises = getattr(chain, "premises", ())
    last = len(chain.facts) - 1
    if not premises:  # (a tree before issue 78: every fact but its cell links)
        return {i for i in range(last + 1) if i == 0 or i == last or chain.links[i - 1] != "cell"}
    broken = len(chain.links) == len(chain.facts)
    todo = list(premises[-1]) if broken else list(getattr(chain, "proves", ()) or [last])
    found = {0}
    while todo:
        i = todo.pop()
        if i not in found:
            found.add(i)
            todo.extend(premises[i - 1] if i else ())
    ends = set(getattr(chain, "proves", ())) | {last}
    return {i for i in found if not (i and chain.links[i - 1] == "cell" and i not in ends)}


def local(step: Any, chains: Sequence[Any]) -> bool:
    """Whether a rule step's chains use only its own rules and houses."""
    named = set(step.houses)
    for chain in chains:
        for link in chain.links:
            inner = link.removeprefix("contradiction (").removesuffix(")")
            for head in (
                "hidden single in ",
                "locked candidates, ",
                "naked pair, ",
                "hidden pair, ",
            ):
                inner = inner.removeprefix(head)
            if link in ALLOWED or inner in named or any(inner.startswith(h) for h in named):
                continue
            return False
    return True


def lines(puzzle: Puzzle, step: Any, chains: Sequence[Any]) -> str:
    said = paths.sentence(puzzle, step)
    if hasattr(paths, "chain_lines"):
        under = [text for _, text in paths.chain_lines(puzzle, step, chains)]
    else:  # (a tree before issue 78)
        under = [written(puzzle, c) for c in chains if written(puzzle, c) != step.reason]
    return "\n".join([said, *under])


def measure(name: str, puzzles: Iterator[Puzzle] | list[Puzzle], count: Counter[str]) -> None:
    facts = filler = broken = named = rule_steps = local_steps = 0
    sizes: list[int] = []
    shown: list[int] = []
    texts: list[int] = []
    seconds: list[float] = []
    worst_text = (0, "")
    for puzzle in puzzles:
        start = time.process_time()
        path = logical_path(puzzle)
        written_out = list(path.written())
        for step, chains in written_out:
            count[step.name] += 1
            text = lines(puzzle, step, chains)
            texts.append(len(text))
            worst_text = max(worst_text, (len(text), text[:160]))
            for chain in chains:
                if set(chain.links) <= {"strong", "weak"}:
                    facts += len(chain.facts)
                    if not step.inside:
                        sizes.append(len(chain.facts))
                        shown.append(len(chain.facts))
                    continue
                keep = needed(chain)
                facts += len(chain.facts)
                filler += len(chain.facts) - len(keep)
                if not step.inside:
                    sizes.append(len(chain.facts))
                    line = written(puzzle, chain).split(" -> ")
                    shown.append(len(line) - (len(chain.links) == len(chain.facts)))
                if len(chain.links) == len(chain.facts):
                    broken += 1
                    named += bool(getattr(chain, "broken", ""))
            family = step.technique.family if step.technique else ""
            if family in ("rule", "rules together") and chains:
                rule_steps += 1
                local_steps += local(step, chains)
        seconds.append(time.process_time() - start)
    if not seconds:
        print(f"| {name} | 0 | (absent) |")
        return
    texts.sort()
    sizes.sort()
    shown.sort()
    p95 = texts[min(len(texts) - 1, int(0.95 * len(texts)))]
    size = f"{statistics.median(sizes):g} / {sizes[-1]}" if sizes else "-"
    if shown:
        size += f" (shown {statistics.median(shown):g} / {shown[-1]})"
    print(
        f"| {name} | {len(seconds)} | {len(texts)} | {100 * filler / max(facts, 1):.1f}% "
        f"| {named}/{broken} | {size} | {local_steps}/{rule_steps} | {p95} / {texts[-1]} "
        f"| {statistics.median(seconds):.2f} / {max(seconds):.2f} s |"
    )
    print(f"  largest text: {worst_text[1]!r}", file=sys.stderr)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per", type=int, default=2, help="hard puzzles of each ER")
    parser.add_argument("--mid", type=int, default=20, help="magictour puzzles of ER 6.5-8.5")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--sets", default="hard,mid,variants")
    parser.add_argument("--techniques", action="store_true", help="the steps of each technique")
    args = parser.parse_args()
    sets = args.sets.split(",")
    print(
        "| set | puzzles | steps | filler | contradictions named | facts a chain, median / "
        "worst | local rule steps | text a step, p95 / largest | CPU a path, median / worst |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    count: Counter[str] = Counter()
    if "hard" in sets:
        measure("eleven's hardest, ER 10.6-11.9", hard(args.per, args.seed), count)
    if "mid" in sets:
        measure("magictour, ER 6.5-8.5", mid(args.mid), count)
    if "variants" in sets:
        measure("bundled variants", variants(), count)
    if args.techniques:
        for technique, many in count.most_common():
            print(f"{many:6} {technique}")


if __name__ == "__main__":
    main()
