"""Issue 36: is the search on hard killers and renban a matter of propagation,
of the solver, or of the puzzles themselves? Three measurements:

* ``propagator``: the compiled IPASIR-UP propagator of benchmarks/setprop (each
  killer cage and renban line generalised arc consistent), beside sudosat's CNF
  (``with``) and in place of the rules' clauses (``instead``), against the CNF
  alone (``plain``): seconds and conflicts of the solve and the proof of
  uniqueness, CaDiCaL 1.9.5 in stable mode as sudosat runs it. Build it first
  with benchmarks/setprop/build.sh.
* ``cubes``: cube and conquer on one cage's digit sets (the cage whose number of
  sets is nearest ``--sets``), the cubes shared between two workers, each an
  incremental solver taking its cubes in turn (run here one after the other:
  CPU is their sum, wall the longer of the two), against one solver on the whole.
* ``designs``: clauses added to every killer (each a design of issue 36, none
  kept): the 45 rule over any set of rows, columns or boxes with each cage taken
  inside or outside, whichever leaves fewer cells (sums of cells with signs,
  as order-encoded additions); order literals for every cell; "exactly t cells
  of a house hold 1..t" and "exactly (N+1)/2 odd cells"; locked candidates (a
  literal "d is where a box and a line meet"). Conflicts and CPU seconds of
  ``sudosat.solve`` (the engine as it runs) over the first ``--count`` puzzles.
* ``dfs``: a depth-first search with strong propagation (naked and hidden
  singles, each rule exact) and fewest-candidates branching, as the fastest
  JavaScript variant solver searches: its nodes against CaDiCaL's conflicts
  (pure Python: slow; cages and renban lines only); ``--sums K`` adds the
  designs' signed 45-rule sums of up to K cells, bounds consistent.

    python benchmarks/search_floor.py propagator [FILE ...]
    python benchmarks/search_floor.py cubes [FILE ...] [--sets 12]
    python benchmarks/search_floor.py designs [FILE ...] [--count 6] [--only WORDS]
    python benchmarks/search_floor.py dfs FILE [--count 1] [--sums 6]

Default files: the hard renban and Mathemagic killers (../shared/puzzles/iss)
and puzzles/killer-16x16.links.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from itertools import combinations, islice
from pathlib import Path

from pysat.solvers import Solver

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import ROOT, SHARED

from sudosat import solve
from sudosat.core.puzzle import Layout, Puzzle
from sudosat.reading.inputs import read_puzzles
from sudosat.rules.killer import KillerCage, signed_sum
from sudosat.rules.renban import Renban
from sudosat.sat.arith import cell_int, complement, digit_sets, equals_constant, total
from sudosat.sat.builder import Builder, Lit
from sudosat.sat.cnf import Cnf, Encoding, Pairwise
from sudosat.sat.encoding import encode
from sudosat.sat.solvers.pysat_backend import TUNING
from sudosat.solving.deduce import deduce

FILES = [
    SHARED / "iss" / "hard_renban.links",
    SHARED / "iss" / "mathemagic_killers.links",
    ROOT / "puzzles" / "killer-16x16.links",
]
SETPROP = ROOT / "build" / "setprop" / "setprop"
SET_FAMILIES = (KillerCage.family, Renban.family)


@dataclass
class Encoded:
    puzzle: Puzzle
    grid: tuple[int, ...]
    cnf: Cnf

    @property
    def clauses(self) -> list[list[int]]:
        return list(self.cnf.iter_clauses())


def encoded(path: Path, count: int | None = None) -> Iterator[Encoded]:
    """Each puzzle as sudosat's engine encodes it: singles first, then the CNF."""
    for puzzle in islice(read_puzzles(str(path)), count):
        assert isinstance(puzzle, Puzzle), puzzle
        deduced = deduce(puzzle)
        target = replace(puzzle, cells=deduced.grid)
        cnf = encode(target, Encoding(), compact=True, masks=deduced.masks)
        yield Encoded(puzzle, deduced.grid, cnf)


def digit_set_rules(puzzle: Puzzle) -> list[tuple[tuple[int, ...], list[frozenset[int]]]]:
    """The killer cages and renban lines as (cells, the digit sets they may hold)."""
    n, found = puzzle.size, []
    for rule in puzzle.rules.constraints if puzzle.rules else ():
        if isinstance(rule, KillerCage) and rule.value is not None:
            found.append((rule.group, list(digit_sets(n, len(rule.group), rule.value))))
        elif isinstance(rule, Renban):
            length = len(rule.group)
            runs = [frozenset(range(low, low + length)) for low in range(1, n - length + 2)]
            found.append((rule.group, runs))
    return found


def mask(digits: frozenset[int]) -> int:
    return sum(1 << d for d in digits)


def clauses_of(part: object) -> Iterator[list[int]]:
    if isinstance(part, Pairwise):
        for group in part.groups:
            yield from ([-a, -b] for a, b in combinations(group, 2))
    else:
        assert isinstance(part, list)
        yield from part


def write_dimacs(path: Path, top: int, clauses: list[list[int]]) -> None:
    with open(path, "w") as out:
        out.write(f"p cnf {top} {len(clauses)}\n")
        out.writelines(" ".join(map(str, c)) + " 0\n" for c in clauses)


def setprop_inputs(item: Encoded, folder: Path) -> tuple[Path, Path, Path]:
    """The CNF, the CNF without the killer and renban clauses, and the rules file."""
    every, rest = [], []
    for part, family in zip(item.cnf.parts, item.cnf.names, strict=True):
        clauses = list(clauses_of(part))
        every += clauses
        if family not in SET_FAMILIES:
            rest += clauses
    whole, without, rules = folder / "whole.cnf", folder / "rest.cnf", folder / "rules.txt"
    write_dimacs(whole, item.cnf.nv, every)
    write_dimacs(without, item.cnf.nv, rest)
    n = item.puzzle.size
    with open(rules, "w") as out:
        out.write(f"n {n} {item.cnf.nv}\n")
        for (cell, value), variable in sorted(item.cnf.literals().items()):
            out.write(f"m {cell} {value} {variable}\n")
        out.writelines(f"g {c} {v}\n" for c, v in enumerate(item.grid) if v)
        for cells, sets in digit_set_rules(item.puzzle):
            listed = " ".join(str(mask(s)) for s in sets)
            out.write("r " + " ".join(map(str, cells)) + f" | {listed}\n")
    return whole, without, rules


def run_setprop(mode: str, cnf: Path, rules: Path, timeout: float) -> tuple[float, int] | None:
    """Seconds and conflicts of one setprop run (None: over ``timeout``)."""
    try:
        done = subprocess.run(
            [str(SETPROP), mode, str(cnf), str(rules)],
            capture_output=True,
            text=True,
            timeout=timeout,
            check=True,
        )
    except subprocess.TimeoutExpired:
        return None
    lines = done.stdout.splitlines()
    head = next(line for line in lines if line.startswith(mode + " "))
    conflicts = next(line for line in lines if line.startswith("c conflicts:"))
    return float(head.split()[3]), int(conflicts.split()[2])


def propagator(files: Sequence[Path], timeout: float) -> None:
    if not SETPROP.exists():
        raise SystemExit("build the propagator first: benchmarks/setprop/build.sh")
    modes = ("plain", "with", "instead")
    print("puzzle | " + " | ".join(f"{m}: s, conflicts" for m in modes))
    for path in files:
        totals = {m: [0.0, 0] for m in modes}
        for number, item in enumerate(encoded(path), 1):
            with tempfile.TemporaryDirectory() as folder:
                whole, without, rules = setprop_inputs(item, Path(folder))
                cells = []
                for mode in modes:
                    found = run_setprop(
                        mode, without if mode == "instead" else whole, rules, timeout
                    )
                    if found is None:
                        cells.append(f"over {timeout:.0f} s")
                        totals[mode][0] += timeout
                        continue
                    cells.append(f"{found[0]:.2f} s, {found[1]:,}")
                    totals[mode][0] += found[0]
                    totals[mode][1] += found[1]
            print(f"{path.name} {number} | " + " | ".join(cells), flush=True)
        print(
            f"{path.name} all | "
            + " | ".join(f"{totals[m][0]:.1f} s, {int(totals[m][1]):,}" for m in modes),
            flush=True,
        )


def cadical(clauses: list[list[int]]) -> Solver:
    solver = Solver(name="cadical195", bootstrap_with=clauses)
    solver.configure(TUNING["cadical195"])
    return solver


def worker(item: Encoded, clauses: list[list[int]], cubes: list[list[list[int]]]) -> int:
    """Solutions found taking each cube in turn (each a set of clauses switched on by
    an assumed literal) in one incremental solver, stopping at two."""
    solver = cadical(clauses)
    top, switches = item.cnf.nv, []
    for cube in cubes:
        top += 1
        switches.append(top)
        for clause in cube:
            solver.add_clause([-top, *clause])
    found = 0
    for switch in switches:
        while found < 2 and solver.solve(assumptions=[switch]):
            found += 1
            solver.add_clause(item.cnf.blocking_clause(item.cnf.decode(solver.get_model())))
    solver.delete()
    return found


def timed_worker(item: Encoded, clauses: list[list[int]], cubes: list[list[list[int]]]) -> float:
    """The CPU seconds of :func:`worker`."""
    start = time.process_time()
    worker(item, clauses, cubes)
    return time.process_time() - start


def cubes(files: Sequence[Path], wanted: int) -> None:
    for path in files:
        whole_all = cpu_all = wall_all = 0.0
        for number, item in enumerate(encoded(path), 1):
            rules = digit_set_rules(item.puzzle)
            if not rules:
                continue
            cells, sets = min(rules, key=lambda rule: abs(len(rule[1]) - wanted))
            literals = item.cnf.literals()
            # the cube of a set: each of its digits on some cell of the rule
            each = [
                [[literals[c, d] for c in cells if (c, d) in literals] for d in s] for s in sets
            ]
            clauses = item.clauses
            whole = timed_worker(item, clauses, [[]])
            halves = [timed_worker(item, clauses, each[share::2]) for share in (0, 1)]
            whole_all, cpu_all, wall_all = (
                whole_all + whole,
                cpu_all + sum(halves),
                wall_all + max(halves),
            )
            print(
                f"{path.name} {number}: whole {whole:.2f} s; {len(sets)} cubes on two workers: "
                f"CPU {sum(halves):.2f} s, wall {max(halves):.2f} s",
                flush=True,
            )
        print(
            f"{path.name} all: whole {whole_all:.1f} s; cubes CPU {cpu_all:.1f} s "
            f"({cpu_all / whole_all:.2f}x), wall {wall_all:.1f} s ({wall_all / whole_all:.2f}x)",
            flush=True,
        )


# --- clause designs for killers ----------------------------------------------------


def signed_sums(
    cages: Sequence[KillerCage], layout: Layout, most: int
) -> dict[tuple[tuple[int, ...], tuple[int, ...]], int]:
    """The 45 rule over every set of rows, of columns or of boxes (sudosat's
    :func:`killer.signed_sums` takes bands of consecutive ones only), each cage
    counted in or out as there: (added, taken away) -> what they make, for at
    most ``most`` cells."""
    n = layout.size
    cage_of = {cell: cage for cage in cages for cell in cage.group}
    units = [frozenset(u) for u in layout.units]
    found = {}
    for family in (units[:n], units[n : 2 * n], units[2 * n :]):
        for count in range(1, n):
            for chosen in combinations(family, count):
                area = frozenset().union(*chosen)
                inside = Counter(cage_of[c] for c in area if c in cage_of)
                added, taken, value = signed_sum(area, inside, cage_of, count * n * (n + 1) // 2)
                if 0 < len(added) + len(taken) <= most:
                    found[added, taken] = value
    return found


def add_signed_sums(b: Builder, cages: Sequence[KillerCage], most: int) -> None:
    for (plus, minus), value in signed_sums(cages, b.cnf.puzzle.layout, most).items():
        terms = [cell_int(b, c) for c in plus] + [complement(b, c) for c in minus]
        equals_constant(b, total(b, terms), value + (b.size + 1) * len(minus))


def add_order_literals(b: Builder) -> None:
    for cell in range(b.size * b.size):
        for value in range(2, b.size + 1):
            b.ge(cell, value)


def one_of(b: Builder, lits: Sequence[Lit]) -> Lit:
    """A literal for "one of ``lits`` holds"."""
    free = [x for x in lits if x is not False]
    if any(x is True for x in free) or not free:
        return bool(free)
    either = b.new()
    for x in free:
        b.implies([x], [either])
    b.implies([either], free)
    return either


def add_counts(b: Builder, parity: bool) -> None:
    """Per house: exactly t cells hold 1..t (each t), or exactly (N+1)/2 odd cells."""
    from pysat.card import CardEnc, EncType

    n = b.size
    for unit in b.cnf.puzzle.layout.units:
        classes = [range(1, n + 1, 2)] if parity else [range(1, t + 1) for t in range(1, n)]
        for digits in classes:
            held = [one_of(b, [b.lit(c, d) for d in digits]) for c in unit]
            count = len(digits) - sum(1 for x in held if x is True)
            free = [x for x in held if not isinstance(x, bool)]
            if count < 0 or count > len(free):
                b.clause([])
            elif count in (0, len(free)):
                for x in free:
                    b.clause([x if count else -x])
            else:
                made = CardEnc.equals(free, count, top_id=b.top, encoding=EncType.seqcounter)
                b.top = max(b.top, made.nv)
                for clause in made.clauses:
                    b.clause(clause)


def add_locked(b: Builder) -> None:
    """Where a box and a row or column meet: "d is there"; when not, d is elsewhere
    in the box and elsewhere in the line."""
    n, units = b.size, [frozenset(u) for u in b.cnf.puzzle.layout.units]
    for box in units[2 * n :]:
        for line in units[: 2 * n]:
            meet = box & line
            if len(meet) < 2:
                continue
            for d in range(1, n + 1):
                there = one_of(b, [b.lit(c, d) for c in sorted(meet)])
                b.implies([b.neg(there)], [b.lit(c, d) for c in sorted(box - line)])
                b.implies([b.neg(there)], [b.lit(c, d) for c in sorted(line - box)])


Design = Callable[[Builder, list[KillerCage]], object] | None


DESIGNS: dict[str, Design] = {
    "as is": None,
    "signed 45-rule sums, 3 cells": lambda b, cages: add_signed_sums(b, cages, 3),
    "signed 45-rule sums, 4 cells": lambda b, cages: add_signed_sums(b, cages, 4),
    "signed 45-rule sums, 5 cells": lambda b, cages: add_signed_sums(b, cages, 5),
    "signed 45-rule sums, 6 cells": lambda b, cages: add_signed_sums(b, cages, 6),
    "order literals for every cell": lambda b, cages: add_order_literals(b),
    "order literals, signed sums of 6": lambda b, cages: (
        add_order_literals(b),
        add_signed_sums(b, cages, 6),
    ),
    "odd cells counted per house": lambda b, cages: add_counts(b, parity=True),
    "cells of 1..t counted per house": lambda b, cages: add_counts(b, parity=False),
    "locked candidates": lambda b, cages: add_locked(b),
}


def with_design(original: Callable[..., None], name: str, design: Design) -> Callable[..., None]:
    """KillerCage.encode_all, then ``design``'s clauses."""

    def encode_all(cls: type, rules: Sequence[object], b: Builder) -> None:
        original(cls, rules, b)
        cages = [r for r in rules if isinstance(r, KillerCage) and r.value is not None]
        if design is not None and cages:
            b.family(f"issue 36 design: {name}")
            design(b, cages)

    return encode_all


def designs(files: Sequence[Path], count: int, only: str | None) -> None:
    original = KillerCage.encode_all.__func__  # type: ignore[attr-defined]
    chosen = {k: v for k, v in DESIGNS.items() if only is None or only in k or v is None}
    for path in files:
        puzzles = [p for p in islice(read_puzzles(str(path)), count) if isinstance(p, Puzzle)]
        for name, design in chosen.items():
            KillerCage.encode_all = classmethod(with_design(original, name, design))  # type: ignore[assignment]
            try:
                start, conflicts = time.process_time(), 0
                for puzzle in puzzles:
                    outcome = solve(puzzle)
                    assert outcome.status.value == "unique", outcome.status
                    conflicts += outcome.stats.conflicts or 0
                took = time.process_time() - start
            finally:
                KillerCage.encode_all = classmethod(original)  # type: ignore[assignment]
            print(f"{path.name}, {len(puzzles)}: {name}: {conflicts:,} conflicts, {took:.2f} s")


# --- a depth-first search as a propagation-based variant solver does it -----------------


class Search:
    """Candidates as bit masks (bit v for digit v); propagation: naked and hidden
    singles, and each digit-set rule exact (a digit stays in a cell when some
    assignment of the rule's cells to distinct digits making an allowed set has it);
    with ``sums``, the signed 45-rule sums of up to that many cells (the designs'
    :func:`signed_sums`) bounds consistent, as innies and outies."""

    def __init__(self, puzzle: Puzzle, sums: int = 0) -> None:
        n = self.n = puzzle.size
        self.units = [tuple(u) for u in puzzle.layout.units]
        peers: list[set[int]] = [set() for _ in range(n * n)]
        for unit in self.units:
            for cell in unit:
                peers[cell].update(unit)
        self.peers = [tuple(p - {c}) for c, p in enumerate(peers)]
        self.rules = [(cells, {mask(s) for s in sets}) for cells, sets in digit_set_rules(puzzle)]
        self.rules_of: list[list[int]] = [[] for _ in range(n * n)]
        for index, (cells, _) in enumerate(self.rules):
            for cell in cells:
                self.rules_of[cell].append(index)
        cages = [r for r in puzzle.rules.constraints if isinstance(r, KillerCage) and r.value]
        found = signed_sums(cages, puzzle.layout, sums) if sums and cages else {}
        self.sums = [(plus, minus, value) for (plus, minus), value in found.items()]
        self.sums_of: list[list[int]] = [[] for _ in range(n * n)]
        for index, (plus, minus, _) in enumerate(self.sums):
            for cell in plus + minus:
                self.sums_of[cell].append(index)
        full = (1 << (n + 1)) - 2
        self.start = [1 << v if v else full for v in puzzle.cells]
        self.nodes = 0

    def exact(self, masks: list[int], index: int) -> list[int] | None:
        """What each cell of the rule can hold (None: nothing)."""
        cells, allowed = self.rules[index]
        count = len(cells)
        memo: dict[tuple[int, int], bool] = {}

        def completes(i: int, used: int) -> bool:
            if i == count:
                return used in allowed
            key = (i, used)
            if key not in memo:
                rest, memo[key] = masks[cells[i]] & ~used, False
                while rest and not memo[key]:
                    bit = rest & -rest
                    rest ^= bit
                    memo[key] = completes(i + 1, used | bit)
            return memo[key]

        held, level = [0] * count, {0}
        for i in range(count):
            following = set()
            for used in level:
                rest = masks[cells[i]] & ~used
                while rest:
                    bit = rest & -rest
                    rest ^= bit
                    if completes(i + 1, used | bit):
                        held[i] |= bit
                        following.add(used | bit)
            level = following
        return held if level else None

    def bounded(self, masks: list[int], index: int) -> list[tuple[int, int]] | None:
        """Each cell's digits that keep ``plus - minus == value`` within the others'
        bounds (None: out of reach)."""
        plus, minus, value = self.sums[index]
        terms = [(c, 1, *bounds(masks[c])) for c in plus]
        terms += [(c, -1, -bounds(masks[c])[1], -bounds(masks[c])[0]) for c in minus]
        low, high = sum(t[2] for t in terms), sum(t[3] for t in terms)
        if not low <= value <= high:
            return None
        kept = []
        for cell, sign, lo, hi in terms:
            least, most = value - (high - hi), value - (low - lo)
            if sign < 0:
                least, most = -most, -least
            keep = sum(1 << v for v in range(max(1, least), min(self.n, most) + 1))
            kept.append((cell, keep))
        return kept

    def propagate(self, masks: list[int], changed: list[int]) -> bool:
        cells, rules, sums = list(changed), set(), set()
        while True:
            while cells:
                cell = cells.pop()
                rules.update(self.rules_of[cell])
                sums.update(self.sums_of[cell])
                value = masks[cell]
                if value & (value - 1):
                    continue
                for peer in self.peers[cell]:
                    if masks[peer] & value:
                        masks[peer] &= ~value
                        if not masks[peer]:
                            return False
                        cells.append(peer)
            for unit in self.units:
                for v in range(1, self.n + 1):
                    bit = 1 << v
                    places = [c for c in unit if masks[c] & bit]
                    if not places:
                        return False
                    if len(places) == 1 and masks[places[0]] != bit:
                        masks[places[0]] = bit
                        cells.append(places[0])
            if cells:
                continue
            if rules:
                index = rules.pop()
                held = self.exact(masks, index)
                kept = None if held is None else zip(self.rules[index][0], held, strict=True)
            elif sums:
                kept = self.bounded(masks, sums.pop())
            else:
                return True
            if kept is None:
                return False
            for cell, keep in kept:
                if masks[cell] & ~keep:
                    masks[cell] &= keep
                    if not masks[cell]:
                        return False
                    cells.append(cell)

    def solutions(self, masks: list[int], changed: list[int], found: list[list[int]]) -> None:
        self.nodes += 1
        if len(found) >= 2 or not self.propagate(masks, changed):
            return
        open_cells = [c for c, m in enumerate(masks) if m & (m - 1)]
        if not open_cells:
            found.append(masks)
            return
        cell = min(open_cells, key=lambda c: masks[c].bit_count())
        rest = masks[cell]
        while rest and len(found) < 2:
            bit = rest & -rest
            rest ^= bit
            child = list(masks)
            child[cell] = bit
            self.solutions(child, [cell], found)


def bounds(digits: int) -> tuple[int, int]:
    """The smallest and largest digit of a candidate mask."""
    return (digits & -digits).bit_length() - 1, digits.bit_length() - 1


def dfs(path: Path, count: int, sums: int) -> None:
    for number, item in enumerate(encoded(path, count), 1):
        if any(
            not isinstance(rule, KillerCage | Renban)
            for rule in (item.puzzle.rules.constraints if item.puzzle.rules else ())
        ):
            print(f"{path.name} {number}: other rules than cages and renban lines, skipped")
            continue
        solver = cadical(item.clauses)
        found = 0
        while found < 2 and solver.solve():
            found += 1
            solver.add_clause(item.cnf.blocking_clause(item.cnf.decode(solver.get_model())))
        conflicts = solver.accum_stats()["conflicts"]
        solver.delete()
        search = Search(item.puzzle, sums)
        start = time.process_time()
        grids: list[list[int]] = []
        search.solutions(list(search.start), list(range(item.puzzle.size**2)), grids)
        took = time.process_time() - start
        print(
            f"{path.name} {number}: CaDiCaL {conflicts:,} conflicts ({found} solutions); "
            f"depth-first {search.nodes:,} nodes ({len(grids)} solutions, {took:.0f} s"
            f"{f', signed sums of {sums} cells' if sums else ''})",
            flush=True,
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", choices=["propagator", "cubes", "designs", "dfs"])
    parser.add_argument("files", nargs="*", type=Path)
    parser.add_argument("--sets", type=int, default=12, help="cubes: the digit sets wanted")
    parser.add_argument("--count", type=int, default=None, help="designs, dfs: puzzles a file")
    parser.add_argument("--sums", type=int, default=0, help="dfs: signed sums of this many cells")
    parser.add_argument("--only", help="designs: those whose name has these words")
    parser.add_argument("--timeout", type=float, default=300.0, help="propagator: a run's limit")
    args = parser.parse_args()
    files = [f for f in (args.files or FILES) if f.exists()]
    if args.what == "propagator":
        propagator(files, args.timeout)
    elif args.what == "cubes":
        cubes(files, args.sets)
    elif args.what == "designs":
        killers = [f for f in files if "renban" not in f.name]
        designs(killers if not args.files else files, args.count or 6, args.only)
    else:
        dfs(files[0], args.count or 1, args.sums)


if __name__ == "__main__":
    main()
