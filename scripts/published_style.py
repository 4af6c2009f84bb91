"""A published-style set of variant puzzles, made from seeds: the rule mixes setters
publish (renban with skyscrapers, arrows with little killers, kropki with XV,
thermometers with whispers, anti-knight and nonconsecutive with palindromes and
kropki, cages with arrows), each clue read off a solution grid and the givens
then taken away while the puzzle stays unique. Issue 59's published-style set
(``benchmarks/variant_steps.py``); written to puzzles/published-style.links.

    python scripts/published_style.py [--seeds 2] [--out puzzles/published-style.links]
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Callable, Sequence
from itertools import pairwise
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from sudosat import count, parse, solve  # noqa: E402
from sudosat.core.puzzle import Layout, Puzzle, cell_name  # noqa: E402
from sudosat.making.shapes import random_grid  # noqa: E402
from sudosat.reading.fpuzzles import link  # noqa: E402
from sudosat.system.writing import write_out  # noqa: E402

N = 9
Grid = Sequence[int]
Clues = Callable[[Grid, random.Random], list[str]]


def name(cell: int) -> str:
    return cell_name(N, cell)


def walk(rng: random.Random, length: int, diagonal: bool = True) -> list[int]:
    """A random path of ``length`` cells, each touching the one before (a king's
    move, or orthogonal), none twice (shorter where it runs into itself)."""
    steps = [(-1, 0), (1, 0), (0, -1), (0, 1)]
    if diagonal:
        steps += [(-1, -1), (-1, 1), (1, -1), (1, 1)]
    path = [rng.randrange(N * N)]
    while len(path) < length:
        r, c = divmod(path[-1], N)
        nxt = [(r + dr) * N + c + dc for dr, dc in steps if 0 <= r + dr < N and 0 <= c + dc < N]
        nxt = [x for x in nxt if x not in path]
        if not nxt:
            break
        path.append(rng.choice(nxt))
    return path


def lines(
    grid: Grid, rng: random.Random, keyword: str, most: int, sizes: range, holds: Callable
) -> list[str]:
    """Up to ``most`` paths (no cell on two) whose digits in ``grid`` hold ``holds``."""
    found: list[str] = []
    used: set[int] = set()
    for _ in range(4000):
        path = walk(rng, rng.choice(sizes))
        if len(path) in sizes and not used & set(path) and holds([grid[c] for c in path]):
            found.append(f"{keyword}: " + " ".join(map(name, path)))
            used.update(path)
            if len(found) == most:
                break
    return found


def renban(d: list[int]) -> bool:
    return len(set(d)) == len(d) and max(d) - min(d) == len(d) - 1


def thermo(d: list[int]) -> bool:
    return all(a < b for a, b in pairwise(d))


def whispers(d: list[int]) -> bool:
    return all(abs(a - b) >= 5 for a, b in pairwise(d))


def palindrome(d: list[int]) -> bool:
    return d == d[::-1]


def seen(line: list[int]) -> int:
    """How many skyscrapers ``line`` shows from its first cell."""
    tallest = shown = 0
    for digit in line:
        if digit > tallest:
            tallest, shown = digit, shown + 1
    return shown


def skyscrapers(grid: Grid, rng: random.Random, most: int) -> list[str]:
    clues = []
    for side in rng.sample(range(4 * N), most):
        kind, index = divmod(side, N)
        cells = [  # from the top, bottom, left, right
            [r * N + index for r in range(N)],
            [r * N + index for r in reversed(range(N))],
            [index * N + c for c in range(N)],
            [index * N + c for c in reversed(range(N))],
        ][kind]
        where = [f"r0c{index + 1}", f"r10c{index + 1}", f"r{index + 1}c0", f"r{index + 1}c10"][kind]
        clues.append(f"skyscraper {seen([grid[c] for c in cells])}: {where}")
    return clues


def little_killers(grid: Grid, rng: random.Random, most: int) -> list[str]:
    """Clues above the grid pointing down and right or down and left."""
    clues = []
    for column in rng.sample(range(1, N), most):
        way = rng.choice(["dr", "dl"])
        step = 1 if way == "dr" else -1
        start = column - 1 + step
        cells = [r * N + start + r * step for r in range(N) if 0 <= start + r * step < N]
        if len(cells) >= 3:
            clues.append(f"little-killer {sum(grid[c] for c in cells)}: r0c{column} {way}")
    return clues


def arrows(grid: Grid, rng: random.Random, most: int) -> list[str]:
    found: list[str] = []
    used: set[int] = set()
    for _ in range(4000):
        path = walk(rng, rng.choice([3, 3, 4]))
        if len(path) < 3 or used & set(path):
            continue
        if grid[path[0]] == sum(grid[c] for c in path[1:]):
            found.append(f"arrow: {name(path[0])} > " + " ".join(map(name, path[1:])))
            used.update(path)
            if len(found) == most:
                break
    return found


def dots(grid: Grid, rng: random.Random, share: float, kinds: Sequence[str]) -> list[str]:
    """Kropki dots and XV marks where ``grid`` has them, ``share`` of each kept."""
    found = []
    for cell in range(N * N):
        r, c = divmod(cell, N)
        for other in ([cell + 1] if c < N - 1 else []) + ([cell + N] if r < N - 1 else []):
            a, b = grid[cell], grid[other]
            marks = {
                "ratio": a == 2 * b or b == 2 * a,
                "difference": abs(a - b) == 1,
                "x": a + b == 10,
                "v": a + b == 5,
            }
            for kind in kinds:
                if marks[kind] and rng.random() < share:
                    found.append(f"{kind}: {name(cell)} {name(other)}")
                    break
    return found


def cages(grid: Grid, rng: random.Random, most: int) -> list[str]:
    found: list[str] = []
    used: set[int] = set()
    for _ in range(4000):
        path = walk(rng, rng.choice([2, 3, 4]), diagonal=False)
        digits = [grid[c] for c in path]
        if len(set(digits)) == len(digits) and not used & set(path):
            found.append(f"cage {sum(digits)}: " + " ".join(map(name, path)))
            used.update(path)
            if len(found) == most:
                break
    return found


STYLES: dict[str, tuple[str, Clues]] = {
    "renban and skyscrapers": (
        "",
        lambda g, r: lines(g, r, "renban", 5, range(3, 7), renban) + skyscrapers(g, r, 5),
    ),
    "arrows and little killers": ("", lambda g, r: arrows(g, r, 5) + little_killers(g, r, 4)),
    "kropki and XV": ("", lambda g, r: dots(g, r, 0.6, ["ratio", "difference", "x", "v"])),
    "thermometers and whispers": (
        "",
        lambda g, r: (
            lines(g, r, "thermo", 4, range(3, 6), thermo)
            + lines(g, r, "whispers", 3, range(3, 6), whispers)
        ),
    ),
    "anti-knight, nonconsecutive, palindromes and kropki": (
        "anti-knight, nonconsecutive",
        lambda g, r: (
            lines(g, r, "palindrome", 3, range(3, 6), palindrome) + dots(g, r, 0.5, ["ratio"])
        ),
    ),
    "cages and arrows": ("", lambda g, r: cages(g, r, 8) + arrows(g, r, 3)),
}


def solution(rules: str, rng: random.Random) -> Grid:
    """A random grid, or one of the global ``rules`` (random givens until one
    solution of those rules is left, then that solution)."""
    if not rules:
        return random_grid(Layout.boxes(N), rng)
    givens = ["."] * (N * N)
    while True:
        outcome = solve(parse(rules + "\n" + "".join(givens)))
        if len(outcome.solutions) == 1:
            return outcome.solutions[0]
        cell = rng.choice([c for c in range(N * N) if givens[c] == "."])
        trial = list(givens)
        trial[cell] = str(outcome.solutions[0][cell] if rng.random() < 0.3 else rng.randint(1, 9))
        if solve(parse(rules + "\n" + "".join(trial))).solutions:
            givens = trial


def made(style: str, seed: int) -> Puzzle:
    """One puzzle of ``style``: its clues off a solution, the fewest givens kept
    (each taken away in a random order while the puzzle stays unique)."""
    rng = random.Random(f"{style} {seed}")
    rules, clues = STYLES[style]
    grid = solution(rules, rng)
    text = "\n".join([f"title: {style} {seed}", *([rules] if rules else []), *clues(grid, rng)])
    givens = [str(d) for d in grid]
    for cell in rng.sample(range(N * N), N * N):
        trial = list(givens)
        trial[cell] = "."
        if count(parse(text + "\n" + "".join(trial))) == 1:
            givens = trial
    return parse(text + "\n" + "".join(givens))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=2, help="puzzles of each style")
    parser.add_argument("--out", default=str(ROOT / "puzzles" / "published-style.links"))
    args = parser.parse_args()
    rows = [
        "# A published-style variant set: the rule mixes setters publish, each clue read off",
        "# a solution grid, the givens then taken away while the puzzle stays unique.",
        "# Made by sudosat (scripts/published_style.py); one f-puzzles link a line.",
    ]
    for style in STYLES:
        for seed in range(args.seeds):
            puzzle = made(style, seed)
            givens = sum(1 for v in puzzle.cells if v)
            print(f"{style} {seed}: {givens} givens", file=sys.stderr)
            rows.append(link(puzzle))
    write_out(args.out, lambda handle: handle.write("\n".join(rows) + "\n"))


if __name__ == "__main__":
    main()
