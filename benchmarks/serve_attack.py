"""``sudosat serve`` under attack (issue 56): what the server holds in memory.

A real server process (the tree given, default this one) and hostile clients:

1. **Big requests.** ``--clients`` connections at once, each asking for the
   true candidates of a blank 49x49 (a 516-byte request that takes about 1.3 GB
   at work), the way an attacker would; the server's process tree (the server,
   its fork server, its workers, its reader) is sampled every quarter second:
   its processes and the memory they hold (the sum of their VmRSS). Then the
   clients go, and the tree is read again once it has settled.
3. **Frames that expand.** ``--bombs`` connections each send, three times, an 11
   KB frame whose puzzle data decompresses to 8 Mi characters of JSON numbers,
   while a probe client asks a 4x4's solve again and again: the probe's
   answers' times (median and worst, beside the same probe on the idle server)
   and the tree's peak memory.
2. **The cache.** One client asks for the true candidates of ``--distinct``
   different 81x81 grids (rkkautsar's with a few cells blanked: each answer about
   a megabyte of text) with ``--cache 32MiB``; the process that holds the cache
   (``sudosat serve`` runs it under a supervisor) is read after each.

Reported: the budget (jobs at once, memory), the replies (answered, busy, too
big), each phase's peak and what is held once the clients are gone, beside the
idle server. With ``--before TREE`` the same is run on another tree (an older
sudosat, whose ``serve`` has no budget: its options are left out).

    python benchmarks/serve_attack.py [--clients 60] [--before /tmp/old]
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
import time
from pathlib import Path
from typing import Any

import lzstring

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from websockets.asyncio.client import connect  # noqa: E402

from sudosat.system.process import children, rss  # noqa: E402

LISTENING = re.compile(rb"ws://[^:]+:(\d+)/")


def payload(data: dict[str, Any]) -> str:
    return str(lzstring.LZString().compressToBase64(json.dumps(data)))


def blank(size: int) -> dict[str, Any]:
    return {"size": size, "grid": [[{} for _ in range(size)] for _ in range(size)]}


def grid_of(cells: list[int], size: int) -> dict[str, Any]:
    rows = [
        [{"value": v, "given": True} if v else {} for v in cells[r * size : (r + 1) * size]]
        for r in range(size)
    ]
    return {"size": size, "grid": rows}


def tree(pid: int) -> list[int]:
    found = [pid]
    for child in children(pid):
        found += tree(child)
    return found


def held(pid: int) -> tuple[int, int]:
    """Processes in the server's tree, and the bytes they hold in all."""
    pids = tree(pid)
    return len(pids), sum(rss(p) for p in pids)


def mb(count: int) -> str:
    return f"{count / (1 << 20):,.0f} MB"


def start(tree_root: Path, options: list[str]) -> tuple[subprocess.Popen[bytes], str]:
    env = dict(os.environ, PYTHONPATH=str(tree_root))
    args = [sys.executable, "-m", "sudosat", "serve", "--host", "127.0.0.1", "--port", "0"]
    process = subprocess.Popen(  # (-m puts the working folder first on the path)
        [*args, *options], stderr=subprocess.PIPE, env=env, cwd=tree_root
    )
    assert process.stderr is not None
    found = LISTENING.search(process.stderr.readline())
    assert found is not None
    return process, f"ws://127.0.0.1:{int(found[1])}/"


async def big_requests(url: str, pid: int, clients: int, seconds: float) -> dict[str, Any]:
    """``clients`` connections asking for a blank 49x49's true candidates at once;
    the tree sampled until ``seconds`` pass; then every client gone."""
    data = payload(blank(49))
    sockets = [await connect(url, max_size=None, open_timeout=60) for _ in range(clients)]
    replies: dict[str, int] = {}

    async def ask(socket: Any) -> None:
        await socket.send(
            json.dumps(
                {"nonce": 1, "command": "truecandidates", "dataType": "fpuzzles", "data": data}
            )
        )
        try:
            found = json.loads(await asyncio.wait_for(socket.recv(), seconds))
        except (TimeoutError, Exception):
            replies["still working"] = replies.get("still working", 0) + 1
            return
        message = found.get("message", "")
        kind = "busy" if "busy" in message else "too big" if "budget" in message else found["type"]
        kind = "stopped at the limit" if "limit" in message else kind
        replies[kind] = replies.get(kind, 0) + 1

    peak = [0, 0]
    done = False

    async def sample() -> None:
        while not done:
            count, bytes_ = held(pid)
            peak[0], peak[1] = max(peak[0], count), max(peak[1], bytes_)
            await asyncio.sleep(0.25)

    sampler = asyncio.create_task(sample())
    await asyncio.gather(*(ask(s) for s in sockets))
    done = True
    await sampler
    await asyncio.gather(*(s.close() for s in sockets))
    return {"replies": replies, "peak processes": peak[0], "peak bytes": peak[1]}


async def cache_requests(url: str, pid: int, distinct: int) -> list[int]:
    """``distinct`` different 81x81 grids' true candidates, one after another; the
    process holding the cache read after each (the supervisor's child that is no
    worker: the largest of the tree's processes but the workers)."""
    cells = [int(v) for v in (ROOT / "puzzles" / "rkkautsar-81-1.txt").read_text().split()]
    rng = random.Random(1)
    found = []
    async with connect(url, max_size=None) as socket:
        for nonce in range(1, distinct + 1):
            mine = list(cells)
            for cell in rng.sample([c for c, v in enumerate(mine) if v], 3):
                mine[cell] = 0
            request = {"nonce": nonce, "command": "truecandidates", "dataType": "fpuzzles"}
            await socket.send(json.dumps({**request, "data": payload(grid_of(mine, 81))}))
            while json.loads(await socket.recv())["nonce"] != nonce:
                pass
            found.append(server_rss(pid))
    return found


def bomb(nonce: int) -> str:
    body = '{"size":4,"grid":[[{},{},{},{}],[{},{},{},{}],[{},{},{},{}],[{},{},{},{}]],'
    body += '"padding":[' + ",".join(["0"] * 4_000_000) + "]}"
    data = str(lzstring.LZString().compressToBase64(body))
    return json.dumps({"nonce": nonce, "command": "check", "dataType": "fpuzzles", "data": data})


async def probe(url: str, until: asyncio.Event) -> list[float]:
    """A 4x4's solve asked again and again until ``until`` is set: each answer's time."""
    data = payload(blank(4))
    times = []
    async with connect(url, max_size=None) as socket:
        for nonce in range(1, 100_000):
            start = time.perf_counter()
            await socket.send(
                json.dumps(
                    {"nonce": nonce, "command": "solve", "dataType": "fpuzzles", "data": data}
                )
            )
            while json.loads(await socket.recv())["nonce"] != nonce:
                pass
            times.append(time.perf_counter() - start)
            if until.is_set():
                return times
            await asyncio.sleep(0.05)
    return times


async def expanding_frames(url: str, pid: int, bombs: int) -> dict[str, Any]:
    """``bombs`` clients sending expanding frames (three each) while the probe asks."""
    frame = bomb(1)
    idle_done = asyncio.Event()
    idle_task = asyncio.create_task(probe(url, idle_done))
    await asyncio.sleep(3)
    idle_done.set()
    idle = await idle_task
    sockets = [await connect(url, max_size=None, open_timeout=60) for _ in range(bombs)]
    replies: dict[str, int] = {}
    peak = [0]
    done = asyncio.Event()

    async def attack(socket: Any) -> None:
        for _ in range(3):
            await socket.send(frame)
            found = json.loads(await socket.recv())
            kind = "busy" if "busy" in found.get("message", "") else found["type"]
            replies[kind] = replies.get(kind, 0) + 1

    async def sample() -> None:
        while not done.is_set():
            peak[0] = max(peak[0], held(pid)[1])
            await asyncio.sleep(0.25)

    sampler = asyncio.create_task(sample())
    probing = asyncio.create_task(probe(url, done))
    await asyncio.gather(*(attack(s) for s in sockets))
    done.set()
    under = await probing
    await sampler
    await asyncio.gather(*(s.close() for s in sockets))
    return {"idle": idle, "under": under, "replies": replies, "peak": peak[0]}


def ms(seconds: float) -> str:
    return f"{seconds * 1000:,.0f} ms"


def server_rss(pid: int) -> int:
    """What the process that holds the cache holds: the supervisor's first child."""
    first = sorted(children(pid))
    return rss(first[0]) if first else rss(pid)


def settle(pid: int, seconds: float = 10) -> tuple[int, int]:
    """The tree once its numbers stop changing (or ``seconds`` pass)."""
    last, end = held(pid), time.monotonic() + seconds
    while time.monotonic() < end:
        time.sleep(0.5)
        now = held(pid)
        if now[0] == last[0] and abs(now[1] - last[1]) < (4 << 20):
            return now
        last = now
    return last


def run(
    tree_root: Path, budgeted: bool, clients: int, distinct: int, seconds: float, bombs: int
) -> None:
    print(f"== {tree_root}")
    options = ["--timeout", str(seconds)]
    process, url = start(tree_root, options)
    try:
        idle = settle(process.pid)
        print(f"idle: {idle[0]} processes, {mb(idle[1])}")
        attack = asyncio.run(big_requests(url, process.pid, clients, seconds + 10))
        after = settle(process.pid, 30)
        print(f"{clients} clients, each a blank 49x49's true candidates:")
        print(f"  replies {attack['replies']}")
        print(f"  peak {attack['peak processes']} processes, {mb(attack['peak bytes'])}")
        print(f"  once they went: {after[0]} processes, {mb(after[1])}")
    finally:
        process.terminate()
        process.wait()
    process, url = start(tree_root, [])
    try:
        found = asyncio.run(expanding_frames(url, process.pid, bombs))
        idle, under = found["idle"], found["under"]
        print(f"{bombs} clients sending 11 KB frames that expand to 8 Mi characters (3 each):")
        print(f"  replies {found['replies']}; peak {mb(found['peak'])}")
        print(
            f"  a 4x4's solve: idle median {ms(statistics.median(idle))}, worst {ms(max(idle))}; "
            f"under attack median {ms(statistics.median(under))}, worst {ms(max(under))} "
            f"({len(under)} asked)"
        )
    finally:
        process.terminate()
        process.wait()
    process, url = start(tree_root, ["--cache", "32MiB"] if budgeted else ["--cache", "256"])
    try:
        sizes = asyncio.run(cache_requests(url, process.pid, distinct))
        cache = "--cache 32MiB" if budgeted else "--cache 256"
        print(f"{distinct} different 81x81 answers ({cache}): the server's process")
        print(f"  {mb(sizes[0])} after the first, {mb(sizes[-1])} after the last")
    finally:
        process.terminate()
        process.wait()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=60)
    parser.add_argument("--distinct", type=int, default=40)
    parser.add_argument("--bombs", type=int, default=40, help="Clients sending expanding frames.")
    parser.add_argument("--seconds", type=float, default=20, help="The server's job limit.")
    parser.add_argument("--before", type=Path, help="Another tree, run the same way first.")
    args = parser.parse_args()
    if args.before:
        run(args.before, False, args.clients, args.distinct, args.seconds, args.bombs)
    run(ROOT, True, args.clients, args.distinct, args.seconds, args.bombs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
