"""A server no client can exhaust, and a Step button that matches the path (issue
56). Memory is tested by what is refused or let go, never by a time; every reply
of the Step sessions is checked against brute force (every 4x4 grid, a 6x6 by
backtracking) and against ``sudosat steps``."""

from __future__ import annotations

import asyncio
import functools
import json
import random
import re
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from sudosat import Puzzle, parse, solve
from sudosat.core.puzzle import Grid
from sudosat.logic.path import logical_path
from sudosat.reading.fpuzzles import write
from sudosat.reading.lz import OverBudget
from sudosat.serving.plugin_answers import step_line
from sudosat.serving.protocol import request_of
from sudosat.serving.server import (
    READS,
    Answers,
    Busy,
    Server,
    Settings,
    held_text,
    read_frame,
    small_job,
)
from sudosat.solving.search import solutions
from tests.conftest import PATIENCE, processes, tree
from tests.serving.test_serve import (
    SAID_AT_START,
    Plugin,
    brute_marks,
    marks_of,
    payload,
    server,
    talk,
    truth,
)

# --- the cache, in bytes -----------------------------------------------------------


def test_the_cache_is_bounded_by_what_its_entries_hold() -> None:
    answers = Answers(10 << 20)
    big = "x" * (3 << 20)  # a 128x128's true candidates, about
    for key in "abcdef":
        answers.put(key, f'{{"type":"truecandidates","k":"{key}{big}"}}')
        assert answers.held <= 10 << 20
    assert list(answers.kept) == ["d", "e", "f"]  # the least recently used went first
    assert answers.held == sum(held_text(text) for text, _ in answers.kept.values())
    assert answers.get("d") is not None
    answers.put("g", "{}")
    assert "d" in answers.kept  # used: kept
    answers.put("huge", "x" * (11 << 20))  # larger than the whole cache: never kept
    assert "huge" not in answers.kept and answers.held <= 10 << 20


def test_recent_answers_count_against_the_cache() -> None:
    answers = Answers(4 << 20)
    puzzle = parse("size 16\n" + "." * 256)
    witnesses = [tuple(range(256))] * 64
    for _ in range(40):
        answers.remember(puzzle, {"_masks": [0xFFFF] * 256, "_witnesses": witnesses})
        assert answers.held <= 4 << 20
    assert 0 < len(answers.recent) < 40


# --- the budget: jobs at once, memory in all --------------------------------------

BLANK_9 = parse("size 9\n")
SMALL = parse("1.3.....2......4")


async def progress_of(plugin: Plugin, nonce: int) -> dict[str, Any]:
    """The first progress reply of a running count: it is at work."""

    async def first() -> dict[str, Any]:
        while True:
            found = json.loads(await plugin.socket.recv())
            if found["nonce"] == nonce and found.get("inProgress"):
                return found  # type: ignore[no-any-return]

    return await asyncio.wait_for(first(), PATIENCE)


@pytest.mark.slow
def test_a_job_past_the_jobs_at_once_is_busy_and_admitted_once_one_ends() -> None:
    with server("--jobs", "1") as (_, url):

        async def test(first: Plugin) -> None:
            await progress_of(first, await first.send("count", payload(BLANK_9)))
            async with connect_to(url) as other:
                second = Plugin(other)
                busy = await second.ask("truecandidates", payload(SMALL))
                assert busy["type"] == "invalid" and "busy" in busy["message"]
                assert "at most 1 jobs" in busy["message"]
                canceled = await first.ask("cancel")
                assert canceled["type"] == "canceled"
                again = await second.ask("truecandidates", payload(SMALL))
                assert again["type"] in ("truecandidates", "invalid")
                assert "busy" not in again.get("message", "")

        talk(url, test)


@pytest.mark.slow
def test_a_job_larger_than_the_memory_budget_is_refused_before_it_starts() -> None:
    with server("--memory", "128MiB") as (_, url):

        async def test(plugin: Plugin) -> None:
            found = await plugin.ask("truecandidates", payload(parse("size 25\n")))
            assert found["type"] == "invalid" and "memory budget of 128.0 MB" in found["message"]
            small = await plugin.ask("truecandidates", payload(SMALL))
            assert "budget" not in small.get("message", "")

        talk(url, test)


@pytest.mark.slow
def test_reading_linking_and_drawing_a_400x400_solve_nothing_and_are_not_refused() -> None:
    """A 400x400's solver would take terabytes; the page's read, link and picture
    hold the puzzle alone."""
    big = "size 400\n"
    with server("--memory", "1GiB") as (_, url):

        async def test(plugin: Plugin) -> None:
            asked = await plugin.final(await plugin.send("truecandidates", payload(parse(big))))
            assert asked["type"] == "invalid" and "memory budget" in asked["message"]
            for command in ("read", "link"):
                found = await plugin.final(await plugin.send(command, big, kind="sudosat"))
                assert found["type"] == command, found
            read = await plugin.final(await plugin.send("read", big, kind="sudosat"))
            assert read["size"] == 400 and set(read["givens"]) == {0}

        talk(url, test)


def connect_to(url: str) -> Any:
    from websockets.asyncio.client import connect

    return connect(url, max_size=None)


def workers_of(pid: int) -> list[int]:
    """The server's worker processes: the fork server's children."""
    forkservers = [
        p for p in tree(pid) if p in processes("cmdline", lambda data: b"forkserver" in data)
    ]
    return [p for p in tree(pid) if any(p != f and p in tree(f) for f in forkservers)]


@pytest.mark.slow
def test_idle_workers_go_back_to_the_spare_count() -> None:
    """Twenty clients each start a count and go: the workers killed with their jobs
    are replaced up to the one spare, no more."""
    with server("--jobs", "20") as (process, url):

        async def many() -> None:
            sockets = [await connect_to(url) for _ in range(20)]
            plugins = [Plugin(ws) for ws in sockets]
            sent = [await plugin.send("count", payload(BLANK_9)) for plugin in plugins]
            await asyncio.gather(*(progress_of(p, n) for p, n in zip(plugins, sent, strict=True)))
            await asyncio.gather(*(ws.close() for ws in sockets))  # all at once

        asyncio.run(many())
        end = time.monotonic() + 60  # (only a failure waits this long)
        while len(workers_of(process.pid)) > 1 and time.monotonic() < end:
            time.sleep(0.1)
        assert len(workers_of(process.pid)) == 1


# --- frames read where no other client waits ---------------------------------------


@pytest.mark.slow
def test_a_large_frame_is_read_while_the_loop_goes_on() -> None:
    """A legal 4 MiB frame (two million numbers, each read by Python) is read in the
    reader process: the event loop turns thousands of times meanwhile."""
    data = payload(SMALL)
    frame = json.dumps({"nonce": 1, "command": "check", "dataType": "fpuzzles", "data": data})
    frame = frame[:-1] + ', "padding": [' + ",".join(["1"] * 2_000_000) + "]}"

    (request, job), turns, _ = asyncio.run(
        while_the_loop_turns(lambda s: s.read(read_frame, frame))
    )
    assert request.command == "check" and job is not None and job.puzzle.cells == SMALL.cells
    assert turns > 1000


async def while_the_loop_turns(
    work: Callable[[Server], Awaitable[Any]],
) -> tuple[Any, int, bool]:
    """``work`` on a new server (its answer, or the exception it raised), how many
    times the event loop turned meanwhile, and whether the reader process started."""
    found = Server(Settings())
    turns, stop = 0, False

    async def turn() -> None:
        nonlocal turns
        while not stop:
            turns += 1
            await asyncio.sleep(0)

    ticking = asyncio.create_task(turn())
    try:
        answer = await work(found)
    except Exception as err:
        answer = err
    finally:
        stop = True
        await ticking
        started = found.readers is not None
        if found.readers is not None:
            found.readers.shutdown()
        found.pool.close()
    return answer, turns, started


def bomb(nonce: int, numbers: int = 4_000_000) -> str:
    """A frame of 11 KB whose data decompresses to 8 Mi characters of JSON numbers."""
    data = bomb_data(numbers)
    return json.dumps({"nonce": nonce, "command": "check", "dataType": "fpuzzles", "data": data})


@functools.cache
def bomb_data(numbers: int) -> str:
    """The compressed padding, made once (lz-string in Python takes seconds: made
    between sends it held the test's event loop past the server's keepalive)."""
    body = '{"size":4,"grid":[[{},{},{},{}],[{},{},{},{}],[{},{},{},{}],[{},{},{},{}]],'
    body += '"padding":[' + ",".join(["0"] * numbers) + "]}"
    return lzstring_base64(body)


def lzstring_base64(text: str) -> str:
    import lzstring

    return str(lzstring.LZString().compressToBase64(text))


BOMB = bomb(1)


def test_a_frame_that_expands_is_not_read_on_the_server_s_threads() -> None:
    """The server's threads stop at SMALL_TEXT characters of decompressed data: the
    rest is the reader process's (a small puzzle is read where it always was)."""
    request = request_of(BOMB)
    assert request is not None and len(BOMB) < 12_000
    with pytest.raises(OverBudget):
        small_job(request)
    small = request_of(
        json.dumps({"nonce": 2, "command": "check", "dataType": "fpuzzles", "data": payload(SMALL)})
    )
    assert small is not None and small_job(small).puzzle.cells == SMALL.cells


@pytest.mark.slow
def test_an_expanding_frame_is_read_in_the_reader_process_while_the_loop_goes_on() -> None:
    request = request_of(BOMB)
    assert request is not None
    said, turns, started = asyncio.run(while_the_loop_turns(lambda s: s._job(request)))
    assert isinstance(said, Exception) and "padding" in str(said)  # read whole, then refused
    assert started and turns > 1000


def test_reads_past_the_reader_s_budget_are_busy() -> None:
    """READS in hand over every client; one of each connection's."""

    async def run() -> list[str]:
        found = Server(Settings())
        said = []
        try:
            found.reads = READS  # the reader's hands full
            for client in (None, "a connection"):
                with pytest.raises(Busy) as busy:
                    await found.read(read_frame, BOMB, client)
                said.append(str(busy.value))
            found.reads = 1
            found.reading.add("a connection")  # its last read still in hand
            with pytest.raises(Busy) as busy:
                await found.read(read_frame, BOMB, "a connection")
            said.append(str(busy.value))
        finally:
            found.pool.close()
        return said

    full, also, own = asyncio.run(run())
    assert "busy reading 4 large puzzles" in full and full == also
    assert "Your last large puzzle is still being read" in own


@pytest.mark.slow
def test_forty_expanding_frames_each_get_one_reply_and_the_server_goes_on() -> None:
    with server() as (_, url):

        async def test(plugin: Plugin) -> None:
            sockets = [await connect_to(url) for _ in range(40)]
            try:
                for number, socket_ in enumerate(sockets, 1):
                    await socket_.send(bomb(number, 1_000_000))
                replies = [json.loads(await asyncio.wait_for(s.recv(), PATIENCE)) for s in sockets]
                for number, reply in enumerate(replies, 1):
                    assert reply["nonce"] == number and reply["type"] == "invalid", reply
                    assert "padding" in reply["message"] or "busy" in reply["message"]
            finally:
                for socket_ in sockets:
                    await socket_.close()
            answered = await plugin.ask("solve", payload(parse("....\n" * 4)))
            assert answered["type"] == "solved", answered

        talk(url, test)


# --- only loopback hosts ------------------------------------------------------------


def http_status(url: str, host: str, upgrade: bool) -> int:
    port = int(url.rsplit(":", 1)[1].strip("/"))
    lines = ["GET / HTTP/1.1", f"Host: {host}", "Connection: close"]
    if upgrade:
        lines += [
            "Upgrade: websocket",
            "Connection: Upgrade",
            "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==",
            "Sec-WebSocket-Version: 13",
        ]
    with socket.create_connection(("127.0.0.1", port)) as conn:
        conn.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
        head = conn.recv(4096).decode("latin-1")
    return int(head.split()[1])


@pytest.mark.slow
@pytest.mark.parametrize("upgrade", [False, True])
def test_only_loopback_host_names_are_taken(upgrade: bool) -> None:
    with server() as (_, url):
        port = url.rsplit(":", 1)[1].strip("/")
        for host in (f"localhost:{port}", f"127.0.0.1:{port}", f"[::1]:{port}", "localhost"):
            assert http_status(url, host, upgrade) == (101 if upgrade else 200), host
        for host in ("attacker.example", f"attacker.example:{port}", "127.0.0.1.nip.io", ""):
            assert http_status(url, host, upgrade) == 403, host


def raw_http(url: str, lines: list[str]) -> str:
    """The head of the server's answer to a hand-written request."""
    port = int(url.rsplit(":", 1)[1].strip("/"))
    with socket.create_connection(("127.0.0.1", port)) as conn:
        conn.settimeout(PATIENCE)
        conn.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
        return conn.recv(65536).decode("latin-1")


@pytest.mark.slow
def test_a_malformed_handshake_is_400_and_no_traceback() -> None:
    with server() as (process, url):
        port = url.rsplit(":", 1)[1].strip("/")
        twice = ["GET / HTTP/1.1", f"Host: localhost:{port}", "Host: evil.example"]
        assert raw_http(url, [*twice, "Connection: close"]).split()[1] == "400"
        upgrade = ["Upgrade: websocket", "Connection: Upgrade", "Sec-WebSocket-Version: 13"]
        key = "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ=="
        assert raw_http(url, [*twice, *upgrade, key]).split()[1] == "400"
        doubled = ["GET / HTTP/1.1", f"Host: localhost:{port}", *upgrade, "Upgrade: h2c", key]
        assert raw_http(url, doubled).split()[1] == "400"
        assert raw_http(url, ["GET / HTTP/1.1", "Connection: close"]).split()[1] == "400"
        process.send_signal(signal.SIGINT)
        _, err = process.communicate(timeout=PATIENCE)
    said = err.decode(errors="replace")
    assert "Traceback" not in said and "internal error" not in said and "500" not in said


@pytest.mark.slow
def test_the_page_may_not_be_framed_by_another_site() -> None:
    with server() as (_, url):
        port = url.rsplit(":", 1)[1].strip("/")
        head = raw_http(url, ["GET / HTTP/1.1", f"Host: localhost:{port}", "Connection: close"])
    assert head.split()[1] == "200"
    assert "X-Frame-Options: DENY" in head
    assert "Content-Security-Policy: frame-ancestors 'none'" in head


@pytest.mark.slow
def test_port_zero_says_the_socket_and_the_page() -> None:
    with server() as (process, url):
        port = url.rsplit(":", 1)[1].strip("/")
        assert process.args[-1] == "0"  # (any free port)
        head = raw_http(url, ["GET / HTTP/1.1", f"Host: localhost:{port}", "Connection: close"])
        assert head.split()[1] == "200"
    # the line the server printed, as the fixture read it
    assert SAID_AT_START[-1].endswith(
        f"listening on ws://127.0.0.1:{port}/ (the plugin); the page: "
        f"http://127.0.0.1:{port}/ (Ctrl-C ends it)"
    )


@pytest.mark.slow
def test_a_port_in_use_is_exit_69_naming_the_port_and_its_holder(tmp_path: Path) -> None:
    with server() as (process, url):
        port = url.rsplit(":", 1)[1].strip("/")
        done = subprocess.run(
            [sys.executable, "-m", "sudosat", "serve", "--host", "127.0.0.1", "--port", port],
            capture_output=True,
            text=True,
            timeout=PATIENCE,
        )
    assert done.returncode == 69, done.stderr
    (line,) = done.stderr.splitlines()
    assert line.startswith(f"sudosat serve: cannot listen on 127.0.0.1:{port}: address already")
    assert f"by sudosat serve --host 127.0.0.1 (pid {process.pid + 1}" in line or "(pid " in line
    assert "another --port" in line


# --- the Step button, pressed as the userscript presses it --------------------------


def written_back(data: dict[str, Any], reply: dict[str, Any], n: int) -> None:
    """What the userscript does with a step's reply: each cell's value as a value, the
    rest as centre marks (givens left alone)."""
    for cell, entry in enumerate(reply["cells"]):
        target = data["grid"][cell // n][cell % n]
        if target.get("given"):
            continue
        target.pop("value", None)
        target.pop("centerPencilMarks", None)
        if entry["value"]:
            target["value"] = entry["value"]
        else:
            target["centerPencilMarks"] = entry["candidates"]


PLACED = re.compile(r"r(\d+)c(\d+)=(\d+)")


async def press_to_the_end(
    plugin: Plugin, puzzle: Puzzle, grids: list[Grid]
) -> list[dict[str, Any]]:
    """Step pressed until the grid is solved, broken or stuck; every reply checked:
    each value placed is named by its own reply, and no value a solution holds
    (``grids``: every solution) is removed."""
    n, data = puzzle.size, write(puzzle)
    replies: list[dict[str, Any]] = []
    values = list(puzzle.cells)
    for _ in range(3 * n * n):
        reply = await plugin.ask("step", payload(data))
        assert reply["type"] == "logical", reply
        replies.append(reply)
        named = {(int(r), int(c)) for r, c, _ in PLACED.findall(reply["message"])}
        for cell, entry in enumerate(reply["cells"]):
            if entry["value"] and not values[cell]:
                assert (cell // n + 1, cell % n + 1) in named, (reply["message"], cell)
            held = {g[cell] for g in grids}
            shown = {entry["value"]} if entry["value"] else set(entry["candidates"])
            assert held <= shown or not reply["isValid"], (cell, held, shown)
        values = [entry["value"] for entry in reply["cells"]]
        written_back(data, reply, n)
        message = reply["message"]
        if not message or message.startswith(("Board is invalid!", "No logical steps")):
            break
    return replies


@pytest.mark.slow
def test_step_names_every_placement_one_step_a_press_as_the_path_lists_them() -> None:
    puzzle = parse("...41...3......1")  # unique; nine naked singles and more
    path = logical_path(puzzle)
    grids = truth(puzzle)
    assert path.end == "solved"
    with server() as (_, url):

        async def test(plugin: Plugin) -> None:
            replies = await press_to_the_end(plugin, puzzle, grids)
            said = [r["message"] for r in replies]
            assert said[0] == "Initial candidates.\n"
            assert "Initial candidates.\n" not in said[1:]
            steps = [m.rstrip("\n") for m in said[1:] if m]
            assert steps == [step_line(puzzle, s) for s in path.steps]
            assert said[-1] == ""  # solved
            final = [c["value"] for c in replies[-1]["cells"]]
            assert tuple(final) == solve(puzzle).solutions[0]

        talk(url, test)


@pytest.mark.slow
def test_step_on_a_puzzle_with_no_solution_says_the_board_is_invalid() -> None:
    puzzle = parse("1.3.....2......4")
    assert not truth(puzzle)
    with server() as (_, url):

        async def test(plugin: Plugin) -> None:
            replies = await press_to_the_end(plugin, puzzle, [])
            assert replies[-1]["message"].startswith("Board is invalid!")
            assert replies[-1]["isValid"] is False
            assert len(replies) < 10

        talk(url, test)


def sessions(size: int, count: int, seed: int) -> list[list[Puzzle]]:
    """Setters at work: each from some givens of a random grid (a 6x6 from 16: with
    fewer it has too many grids to list), then givens added one at a time, now
    and then one taken back (undo), one in twenty a wrong digit."""
    rng = random.Random(seed)
    blank = parse(f"size {size}\n")
    found: list[list[Puzzle]] = []
    while len(found) < count:
        full = next(solutions(blank, seed=rng.randrange(1 << 30)))
        cells = [0] * (size * size)
        order = rng.sample(range(size * size), size * size)
        for cell in order[: 3 if size == 4 else 16]:
            cells[cell] = full[cell]
        placed: list[int] = []
        states = [_state(size, cells)]
        for cell in order[len(states[0].givens) : len(states[0].givens) + 6]:
            if placed and rng.random() < 0.25:
                cells[placed.pop()] = 0  # undo
            cells[cell] = full[cell] if rng.random() < 0.95 else rng.randint(1, size)
            placed.append(cell)
            states.append(_state(size, cells))
        found.append(states)
    return found


def _state(size: int, cells: list[int]) -> Puzzle:
    rows = [cells[r * size : (r + 1) * size] for r in range(size)]
    grid = "\n".join("".join(str(v or ".") for v in row) for row in rows)
    return parse(f"size {size}\n{grid}\n")


@pytest.mark.slow
@pytest.mark.parametrize(("size", "count"), [(4, 12), (6, 3)])
def test_setting_sessions_agree_with_brute_force(size: int, count: int) -> None:
    """Each edit's true candidates (undo included), then Step pressed to the end on
    the last grid as the userscript presses it; every reply checked."""
    cases = [[(p, truth(p)) for p in states] for states in sessions(size, count, seed=size)]
    with server() as (_, url):

        async def test(plugin: Plugin) -> None:
            for states in cases:
                for puzzle, grids in states:
                    found = await plugin.ask("truecandidates", payload(puzzle))
                    if grids:
                        assert marks_of(found, size) == brute_marks(grids, size)
                    else:
                        assert found["type"] == "invalid"
                puzzle, grids = states[-1]
                replies = await press_to_the_end(plugin, puzzle, grids)
                said = [r["message"] for r in replies]
                assert said.count("Initial candidates.\n") <= 1
                last = replies[-1]
                if not grids:
                    assert last["message"].startswith(("Board is invalid!", "No logical"))
                elif last["message"] == "":  # solved: a solution of the puzzle
                    assert tuple(c["value"] for c in last["cells"]) in grids

        talk(url, test)
