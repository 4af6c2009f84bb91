"""``sudosat serve`` while a setter sets (issues 47 and 57): true candidates after each edit.

Setting from a blank grid (``--part blank``, issue 57): each scenario's puzzle
built up from a blank grid a part at a time, as a setter sets it
(:func:`sudosat.making.setting.from_blank`: cages or lines in reading order of
their first cell, then the givens row by row), its true candidates asked for
after each edit with the plugin's solution cap 1 and 8; a cold server per
scenario, cap and tree (its cache as a setter has it: no state comes twice).
Reported: the median and the worst time from send to reply, the share under
250 ms, beside ``--before TREE`` (today's tree) in the same run. Targets
(issue 57): 9x9s at most 25 ms median and 100 ms worst (cap 8: 50 / 250
ms), the 16x16 killer 0.5 / 3 s, the 25x25 killer 2 / 10 s.

A setter's last 20 edits (``--part edits``, issue 47): a real server process; a
client that sends what the f-puzzles plugin sends (the lz-string of the
f-puzzles export, rising nonces) for a setter's last 20 edits of a puzzle:
the finished puzzle with 5 of its parts (givens, cages, lines) taken away in a
seeded order, put back one a request, then one part at a time taken away and
put back (tweaking the finished puzzle); each request 250 ms after the last
reply (the plugin's debounce). Each reply's time is from the send to the
reply. Beside it, in the same run: ``sudosat candidates`` of the same 20
puzzles, a process each (what a setter without the server pays), and the
library's ``candidates`` in process (what the work alone costs). Targets: a
9x9 classic, a 9x9 killer and a 9x9 with lines at most 100 ms median; a
16x16 killer at most 1 s.

    python benchmarks/serve.py [--part blank|edits|all] [--before TREE]
        [--only TEXT] [--limit EDITS] [--timeout SECONDS] [--edits 20] [--no-cli]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

import lzstring

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from websockets.asyncio.client import connect  # noqa: E402

from benchmarks.common import load  # noqa: E402
from sudosat import parse  # noqa: E402
from sudosat.core.puzzle import Puzzle, Rules  # noqa: E402
from sudosat.making.setting import from_blank  # noqa: E402
from sudosat.reading.fpuzzles import link, write  # noqa: E402
from sudosat.solving.candidates import candidates  # noqa: E402

SUDOSAT = str(Path(sys.executable).with_name("sudosat"))
WORKLOADS = {
    "9x9 classic (royle17 #1)": ("royle17/sudoku17_royle49151.txt", 0.1),
    "9x9 killer (puzzles/killer.txt)": ("killer.txt", 0.1),
    "9x9 thermometers and arrows (puzzles/thermo-arrow.json)": ("thermo-arrow.json", 0.1),
    "16x16 killer (puzzles/killer-16x16.links #1)": ("killer-16x16.links", 1.0),
}


def session(puzzle: Puzzle, edits: int, away: int, seed: int = 1) -> list[Puzzle]:
    """A setter's ``edits`` last edits: the finished puzzle with ``away`` of its
    parts (givens, cages, lines) taken away, put back one at a time; then, to
    the end, one part at a time taken away and put back (tweaking it)."""
    rules = list(puzzle.rules.constraints) if puzzle.rules else []
    parts: list[object] = [*puzzle.givens, *rules]
    rng = random.Random(seed)
    order = rng.sample(parts, len(parts))
    gone_lists = [order[: k - 1] for k in range(away, 0, -1)]
    tweak = iter(order)
    while len(gone_lists) < edits:
        gone_lists += [[next(tweak)], []]
    return [_without(puzzle, rules, gone) for gone in gone_lists[:edits]]


def _without(puzzle: Puzzle, rules: list[object], gone: list[object]) -> Puzzle:
    cells = [0 if (c, v) in gone else v for c, v in enumerate(puzzle.cells)]
    made = replace(puzzle, cells=tuple(cells))
    if puzzle.rules is not None:
        left = [r for r in rules if not any(r is g for g in gone)]
        made = replace(made, rules=Rules.of(puzzle.layout, left))  # type: ignore[arg-type]
    return made


def payload(puzzle: Puzzle, **fields: object) -> str:
    return str(lzstring.LZString().compressToBase64(json.dumps({**write(puzzle), **fields})))


async def replies(address: str, states: list[Puzzle], cap: int = 1) -> list[float]:
    """Each state's true candidates asked for as the plugin asks (with its solution
    cap), 250 ms after the last reply; the time of each from the send to the reply."""
    return [took for took, _ in await answered(address, states, cap)]


async def answered(address: str, states: list[Puzzle], cap: int = 1) -> list[tuple[float, str]]:
    """:func:`replies`, each time with the reply's type (``invalid``: stopped at the
    server's time limit, or no solution)."""
    found = []
    options = [f"truecandidatesnumsolutions={cap}"] if cap > 1 else []
    async with connect(address, max_size=None) as socket:
        for nonce, puzzle in enumerate(states, 1):
            message = {"nonce": nonce, "command": "truecandidates", "dataType": "fpuzzles"}
            message["data"] = payload(puzzle, truecandidatesoptions=options)
            start = time.perf_counter()
            await socket.send(json.dumps(message))
            while (reply := json.loads(await socket.recv()))["nonce"] != nonce:
                pass
            found.append((time.perf_counter() - start, reply["type"]))
            await asyncio.sleep(0.25)
    return found


def cli_times(states: list[Puzzle]) -> list[float]:
    times = []
    with tempfile.TemporaryDirectory() as folder:
        for index, puzzle in enumerate(states):
            path = Path(folder) / f"p{index}.txt"
            path.write_text(link(puzzle) + "\n")
            start = time.perf_counter()
            subprocess.run([SUDOSAT, "candidates", str(path), "-f", "line"], capture_output=True)
            times.append(time.perf_counter() - start)
    return times


def library_times(states: list[Puzzle]) -> list[float]:
    times = []
    for puzzle in states:
        start = time.perf_counter()
        candidates(puzzle)
        times.append(time.perf_counter() - start)
    return times


BLANK_SCENARIOS = {
    "9x9 killer (puzzles/killer.txt)": ("killer.txt", (0.025, 0.100), (0.050, 0.250)),
    "9x9 thermometers and arrows (puzzles/thermo-arrow.json)": (
        "thermo-arrow.json",
        (0.025, 0.100),
        (0.050, 0.250),
    ),
    "9x9 with dots (puzzles/variants.links #1)": ("variants.links", (0.025, 0.100), (0.050, 0.250)),
    "16x16 killer (puzzles/killer-16x16.links #1)": ("killer-16x16.links", (0.5, 3.0), None),
    "25x25 killer (puzzles/killer-25x25.links #1)": ("killer-25x25.links", (2.0, 10.0), None),
    "25x25 blank, then givens (puzzles/rank5-25x25.txt)": ("rank5-25x25.txt", (1.0, 5.0), None),
    "36x36 jigsaw blank, then givens (puzzles/jigsaw-36x36.links)": (
        "jigsaw-36x36.links",
        (3.0, 10.0),
        None,
    ),
}
"""Setting from a blank grid (issue 57): each scenario's puzzle, and the targets
(median, worst) with cap 1 and with cap 8 (None: not set); the big grids'
are issue 76's (their blank grid first, then the givens)."""


def start_server(tree: Path, timeout: float) -> tuple[subprocess.Popen[bytes], str]:
    """A cold ``sudosat serve`` of ``tree`` (run from its folder: ``-m`` puts the
    working folder first on the path), cold: nothing answered yet. Its cache as
    a setter has it: no state comes twice, but a narrower one starts from what
    the last answers know."""
    command = [sys.executable, "-m", "sudosat", "serve", "--host", "127.0.0.1", "--port", "0"]
    command += ["--timeout", str(timeout)]
    env = dict(os.environ, PYTHONPATH=str(tree))
    server = subprocess.Popen(command, stderr=subprocess.PIPE, env=env, cwd=tree)
    assert server.stderr is not None
    found = re.search(rb"ws://[^:]+:(\d+)/", server.stderr.readline())
    assert found is not None
    return server, f"ws://127.0.0.1:{int(found[1])}/"


def setting_from_blank(trees: list[Path], only: str | None, timeout: float, limit: int) -> None:
    """Every scenario from blank, caps 1 and 8, a cold server of each tree each time
    (at most ``limit`` edits of each)."""
    print(f"\n{'setting from blank':58} {'cap':>3} {'edits':>5}  median / worst, under 250 ms")
    for name, (relative, *targets) in BLANK_SCENARIOS.items():
        if only and only not in name:
            continue
        puzzle = first(relative)
        if puzzle is None:
            print(f"{name:58} (not here)")
            continue
        states = from_blank(puzzle)
        if "blank, then" in name:  # issue 76: the blank grid first
            states.insert(0, replace(puzzle, cells=(0,) * len(puzzle.cells)))
        states = states[:limit]
        for cap, target in zip((1, 8), targets, strict=True):
            if cap > 1 and target is None:  # (big grids: the plugin's editor stops at 16x16)
                continue
            said = []
            for tree in trees:
                server, address = start_server(tree, timeout)
                try:
                    found = asyncio.run(answered(address, states, cap))
                finally:
                    server.terminate()
                    server.wait()
                said.append(_verdict(found, None if tree != ROOT else target, timeout))
                if tree != ROOT:
                    said[-1] = f"[{tree}] {said[-1]}"
            print(f"{name:58} {cap:3} {len(states):5}  " + "; ".join(said), flush=True)


def _verdict(
    found: list[tuple[float, str]], target: tuple[float, float] | None, timeout: float
) -> str:
    times = [took for took, _ in found]
    under = sum(t < 0.25 for t in times) / len(times)
    median, worst = statistics.median(times), max(times)
    said = f"{median:.3f} / {worst:.3f} s, {under:.0%}"
    stopped = sum(kind == "invalid" and took >= timeout for took, kind in found)
    if stopped:
        said += f", {stopped} stopped at {timeout:g} s"
    if target is not None:
        met = median <= target[0] and worst <= target[1] and not stopped
        said += f" (target {target[0]:g}/{target[1]:g} s: {'met' if met else 'MISSED'})"
    return said


def first(relative: str) -> Puzzle | None:
    if relative.endswith((".txt", ".json")) and (ROOT / "puzzles" / relative).exists():
        return parse((ROOT / "puzzles" / relative).read_text())
    found = load(relative, 1)
    return found[0] if found else None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--edits", type=int, default=20)
    parser.add_argument("--away", type=int, default=5, help="Parts away at the first edit.")
    parser.add_argument("--no-cli", action="store_true", help="Leave out sudosat candidates.")
    parser.add_argument("--only", help="The workloads whose name holds this text.")
    parser.add_argument("--timeout", type=float, default=120, help="The server's job limit.")
    parser.add_argument("--before", type=Path, help="Setting from blank on this tree too.")
    parser.add_argument(
        "--limit", type=int, default=10_000, help="Setting from blank: at most this many edits."
    )
    parser.add_argument(
        "--part", choices=("edits", "blank", "all"), default="all", help="Which benchmark."
    )
    args = parser.parse_args()
    if args.part != "edits":
        trees = [args.before, ROOT] if args.before else [ROOT]
        setting_from_blank(trees, args.only, args.timeout, args.limit)
    if args.part == "blank":
        return 0
    command = [SUDOSAT, "serve", "--host", "127.0.0.1", "--port", "0", "--cache", "0"]
    command += ["--timeout", str(args.timeout)]
    server = subprocess.Popen(command, stderr=subprocess.PIPE)
    assert server.stderr is not None
    found = re.search(rb"ws://[^:]+:(\d+)/", server.stderr.readline())
    assert found is not None
    address = f"ws://127.0.0.1:{int(found[1])}/"
    head = f"{'workload':58} {'serve median / worst':>22} {'target':>8}"
    print(f"{head}   candidates (process; library)")
    try:
        for name, (relative, target) in WORKLOADS.items():
            if args.only and args.only not in name:
                continue
            puzzle = first(relative)
            if puzzle is None:
                print(f"{name:58} (not here)")
                continue
            states = session(puzzle, args.edits, args.away)
            served = asyncio.run(replies(address, states))
            library = library_times(states)
            cli = [] if args.no_cli else cli_times(states)
            med, worst = statistics.median(served), max(served)
            verdict = "ok" if med <= target else "MISSED"
            beside = f"{statistics.median(cli):.3f}/{max(cli):.3f} s; " if cli else ""
            beside += f"{statistics.median(library):.3f}/{max(library):.3f} s"
            print(f"{name:58} {med:8.3f} / {worst:6.3f} s {target:6.2f} s {verdict:6} {beside}")
    finally:
        server.terminate()
        server.wait()
    return 0


if __name__ == "__main__":
    sys.exit(main())
