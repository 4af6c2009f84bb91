"""``sudosat serve``, driven as the f-puzzles solver plugin drives it.

A real server process; a websocket client (the ``websockets`` package) that
sends what the userscript sends: the lz-string base64 of the f-puzzles export
with the plugin's fields, rising nonces, ``cancel``. Every answer is checked
against brute force (every 4x4 grid; a 6x6 by backtracking) and against the
library's own commands."""

from __future__ import annotations

import asyncio
import base64
import json
import os
import random
import re
import signal
import socket
import subprocess
import sys
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any

import lzstring
import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import InvalidStatus

from sudosat import Puzzle, parse, solve
from sudosat.core.puzzle import Grid
from sudosat.logic.path import logical_path
from sudosat.logic.techniques import left_out
from sudosat.reading.fpuzzles import link, write
from tests.conftest import (
    PATIENCE,
    PUZZLES,
    SUDOSAT,
    Run,
    Screen,
    as_a_shell_starts_it,
    gone,
    read_line,
    traded_jigsaw,
    tree,
)
from tests.solving.test_properties import variant_text
from tests.solving.test_workbench import solutions_4x4, solutions_by_backtracking

LISTENING = re.compile(rb"listening on ws://[^:]+:(\d+)/")
SAID_AT_START: list[str] = []
"""What each server of this process said first (where it listens)."""


@contextmanager
def server(*options: str) -> Iterator[tuple[subprocess.Popen[bytes], str]]:
    """A ``sudosat serve`` process on a free port of 127.0.0.1, and its URL."""
    args = [sys.executable, "-m", "sudosat", "serve", "--host", "127.0.0.1", "--port", "0"]
    process = subprocess.Popen(
        [*args, *options], stderr=subprocess.PIPE, preexec_fn=as_a_shell_starts_it
    )
    assert process.stderr is not None
    line = read_line(process.stderr, "serve to say where it listens")
    SAID_AT_START.append(line.decode().strip())
    found = LISTENING.search(line)
    assert found, line
    try:
        yield process, f"ws://127.0.0.1:{int(found[1])}/"
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGINT)
            try:
                process.wait(20)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(PATIENCE)


@pytest.fixture(scope="module")
def url() -> Iterator[str]:
    with server() as (_, found):
        yield found


def payload(puzzle: Puzzle | dict[str, Any], **fields: Any) -> str:
    """What the plugin sends as ``data``: the f-puzzles export, its fields added."""
    data = write(puzzle) if isinstance(puzzle, Puzzle) else dict(puzzle)
    data.update(fields)
    return str(lzstring.LZString().compressToBase64(json.dumps(data)))


class Plugin:
    """The userscript's side of one connection: a nonce counter and the replies."""

    def __init__(self, socket: ClientConnection) -> None:
        self.socket = socket
        self.nonce = 0

    async def send(self, command: str, data: str | None = None, kind: str = "fpuzzles") -> int:
        self.nonce += 1
        message: dict[str, Any] = {"nonce": self.nonce, "command": command}
        if data is not None:
            message.update(dataType=kind, data=data)
        await self.socket.send(json.dumps(message))
        return self.nonce

    async def final(self, nonce: int, timeout: float = PATIENCE) -> dict[str, Any]:
        """The request's last reply (progress passed over), within ``timeout``
        seconds in all; replies to older nonces are dropped, as the plugin drops them."""

        async def last() -> dict[str, Any]:
            while True:
                found = json.loads(await self.socket.recv())
                if found["nonce"] == nonce and not found.get("inProgress"):
                    return found  # type: ignore[no-any-return]

        return await asyncio.wait_for(last(), timeout)

    async def ask(self, command: str, data: str | None = None) -> dict[str, Any]:
        return await self.final(await self.send(command, data))


def talk(url: str, test: Any, origin: str | None = None) -> Any:
    """Run ``test(plugin)`` on a connection to ``url``."""

    async def run() -> Any:
        headers = {"Origin": origin} if origin else None
        async with connect(url, additional_headers=headers, max_size=None) as socket:
            return await test(Plugin(socket))

    return asyncio.run(run())


def marks_of(reply: dict[str, Any], size: int) -> tuple[tuple[int, ...], ...]:
    per = reply["solutionsPerCandidate"]
    assert len(per) == size**3
    return tuple(
        tuple(v for v in range(1, size + 1) if per[cell * size + v - 1] > 0)
        for cell in range(size * size)
    )


def brute_marks(grids: list[Grid], size: int) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(sorted({g[c] for g in grids})) for c in range(size * size))


def readable(text: str) -> Puzzle | None:
    try:
        return parse(text)
    except ValueError:
        return None


# --- every command, against brute force --------------------------------------------


def variants(count: int, size: int, first: int = 0) -> list[Puzzle]:
    found = []
    seed = first
    while len(found) < count:
        puzzle = readable(variant_text(seed, size))
        seed += 1
        if puzzle is not None and not _unlinkable(puzzle):
            found.append(puzzle)
    return found


def _unlinkable(puzzle: Puzzle) -> bool:
    try:
        write(puzzle)
    except ValueError:
        return True
    return False


def truth(puzzle: Puzzle) -> list[Grid]:
    return solutions_4x4(puzzle) if puzzle.size == 4 else solutions_by_backtracking(puzzle)


def check_true_candidates(plugin: Plugin, puzzle: Puzzle) -> Any:
    async def run() -> None:
        grids = truth(puzzle)
        n = puzzle.size
        found = await plugin.ask("truecandidates", payload(puzzle))
        if not grids:
            assert found["type"] == "invalid" and found["message"].startswith("No solutions")
            return
        assert found["type"] == "truecandidates"
        assert marks_of(found, n) == brute_marks(grids, n)
        capped = await plugin.ask(
            "truecandidates",
            payload(puzzle, truecandidatesoptions=["truecandidatesnumsolutions=3"]),
        )
        tally = Counter((c, g[c]) for g in grids for c in range(n * n))
        for cell in range(n * n):
            for value in range(1, n + 1):
                expected = min(tally[cell, value], 3)
                assert capped["solutionsPerCandidate"][cell * n + value - 1] == expected

    return run()


@pytest.mark.slow
@pytest.mark.parametrize("size,count", [(4, 12), (6, 4)])
def test_true_candidates_are_every_solution_s_values(url: str, size: int, count: int) -> None:
    async def test(plugin: Plugin) -> None:
        for puzzle in variants(count, size):
            await check_true_candidates(plugin, puzzle)

    talk(url, test)


@pytest.mark.slow
def test_true_candidates_of_many_variants(url: str) -> None:
    async def test(plugin: Plugin) -> None:
        for puzzle in variants(80, 4, first=1000) + variants(20, 6, first=1000):
            await check_true_candidates(plugin, puzzle)

    talk(url, test)


def test_logical_marks_values_no_solution_holds_that_logic_keeps(url: str) -> None:
    hard = parse((PUZZLES / "ai-escargot.txt").read_text())

    async def test(plugin: Plugin) -> None:
        asked = payload(hard, truecandidatesoptions=["logical"], disabledlogic=["contradictions"])
        found = await plugin.ask("truecandidates", asked)
        per = found["solutionsPerCandidate"]
        solution = solve(hard).solutions[0]
        # without forcing chains (the plugin's contradictions) the path is stuck on AI Escargot
        stuck = logical_path(hard, without=left_out(["forcing"])).board.masks
        for cell in range(81):
            for value in range(1, 10):
                entry = per[cell * 9 + value - 1]
                if value == solution[cell]:
                    assert entry == 1
                elif stuck[cell] & (1 << (value - 1)):
                    assert entry == -1
                else:
                    assert entry == 0
        assert per.count(-1) > 0

    talk(url, test)


def test_solve_check_and_count(url: str) -> None:
    blank = parse("....\n" * 4)
    several = parse((PUZZLES / "several-solutions.txt").read_text())
    none = parse((PUZZLES / "no-solution.txt").read_text())

    async def test(plugin: Plugin) -> None:
        for _ in range(3):
            solved = await plugin.ask("solve", payload(blank))
            assert solved["type"] == "solved" and tuple(solved["solution"]) in solutions_4x4(blank)
        assert (await plugin.ask("check", payload(blank)))["count"] == 2
        assert (await plugin.ask("check", payload(several)))["count"] == 2
        assert (await plugin.ask("count", payload(several)))["count"] == 7
        assert (await plugin.ask("count", payload(blank)))["count"] == 288
        assert (await plugin.ask("count", payload(none)))["count"] == 0
        unique = await plugin.ask("check", payload(parse((PUZZLES / "killer.txt").read_text())))
        assert unique["count"] == 1
        failed = await plugin.ask("solve", payload(none))
        assert failed["type"] == "invalid" and failed["message"].startswith("No solutions found.")

    talk(url, test)


def test_the_givens_alone_or_every_cell_as_the_command_says(url: str) -> None:
    """True candidates read the givens (a typed digit is the setter's scribble);
    the path reads every digit and the centre marks."""
    data = write(parse("....\n" * 4))
    data["grid"][0][0] = {"value": 1}  # typed in, not given
    data["grid"][0][1] = {"centerPencilMarks": [2, 3]}

    async def test(plugin: Plugin) -> None:
        found = await plugin.ask("truecandidates", payload(data))
        assert marks_of(found, 4)[0] == (1, 2, 3, 4)
        path = await plugin.ask("solvepath", payload(data))
        assert path["cells"][0] == {"value": 1}
        assert set(path["cells"][1].get("candidates", [path["cells"][1]["value"]])) <= {2, 3}

    talk(url, test)


def test_given_pencil_marks_are_clues(url: str) -> None:
    data = write(parse("....\n" * 4))
    data["grid"][0][0] = {"givenPencilMarks": [2, 4]}

    async def test(plugin: Plugin) -> None:
        found = await plugin.ask("truecandidates", payload(data))
        assert marks_of(found, 4)[0] == (2, 4)
        assert (await plugin.ask("count", payload(data)))["count"] == 144

    talk(url, test)


def test_the_solution_path_and_steps(url: str) -> None:
    puzzle = parse((PUZZLES / "kropki-6x6.txt").read_text())
    expected = logical_path(parse(link(puzzle)))  # the rules in the order the link holds them

    async def test(plugin: Plugin) -> None:
        path = await plugin.ask("solvepath", payload(puzzle))
        assert path["type"] == "logical" and path["isValid"] is True
        lines = path["message"].splitlines()
        assert len(lines) == len(expected.steps) and expected.end == "solved"
        assert [c["value"] for c in path["cells"]] == list(solve(puzzle).solutions[0])
        # the first press of Step gives the candidates; the next steps
        first = await plugin.ask("step", payload(puzzle))
        assert first["message"] == "Initial candidates.\n"
        data = write(puzzle)
        for cell, entry in enumerate(first["cells"]):
            target = data["grid"][cell // 6][cell % 6]
            if entry["value"]:
                target.setdefault("value", entry["value"])
            else:
                target["centerPencilMarks"] = entry["candidates"]
        second = await plugin.ask("step", payload(data))
        assert second["message"].count("\n") == 1 and second["message"] != "Initial candidates.\n"
        assert second["message"].split(":")[0].lower() == expected.steps[0].name.lower()

    talk(url, test)


@pytest.mark.slow
def test_disabled_logic_leaves_techniques_out(url: str) -> None:
    hard = parse((PUZZLES / "ai-escargot.txt").read_text())

    async def test(plugin: Plugin) -> None:
        every = await plugin.ask("solvepath", payload(hard))
        fewer = await plugin.ask(
            "solvepath",
            payload(
                hard,
                disabledlogic=["tuples", "pointing", "fishes", "wings", "aic", "contradictions"],
            ),
        )
        chained = ("Forcing Chains", "Contradiction Chain", "Locked Candidates", "Pair", "Wing")
        assert any(name in every["message"] for name in chained)
        assert not any(name in fewer["message"] for name in chained)
        assert len(fewer["message"].splitlines()) < len(every["message"].splitlines())

    talk(url, test)


def test_a_puzzle_sudosat_refuses_gets_the_cli_s_line(url: str) -> None:
    bad = write(parse("....\n" * 4))
    bad["killercage"] = [{"cells": ["R1C1", "R9C9"], "value": "3"}]
    unknown = write(parse("....\n" * 4))
    unknown["nabner"] = [{"cells": ["R1C1", "R1C2"]}]

    async def test(plugin: Plugin) -> None:
        found = await plugin.ask("truecandidates", payload(bad))
        assert found["type"] == "invalid" and "R9C9 is outside the 4x4 grid" in found["message"]
        found = await plugin.ask("truecandidates", payload(unknown))
        assert found["type"] == "invalid" and "unknown constraint 'nabner'" in found["message"]
        found = await plugin.ask("solve", "not lz-string at all!")
        assert found["type"] == "invalid" and "no lz-string" in found["message"]

    talk(url, test)


# --- cancelling, and several connections ---------------------------------------------


@pytest.mark.slow
def test_cancel_stops_a_long_count_and_an_endless_estimate(url: str) -> None:
    blank = parse("." * 81)

    async def test(plugin: Plugin) -> None:
        for command in ("count", "estimate"):
            await plugin.send(command, payload(blank))
            progress = json.loads(await asyncio.wait_for(plugin.socket.recv(), 60))
            assert progress["type"] == command and progress["nonce"] == plugin.nonce
            cancel = await plugin.send("cancel")

            async def cancelled(cancel: int) -> None:
                while True:  # a progress message sent before the cancel may still come
                    found = json.loads(await plugin.socket.recv())
                    if found["nonce"] == cancel:
                        assert found == {"nonce": cancel, "type": "canceled"}
                        return
                    assert found.get("inProgress", True) is True

            await asyncio.wait_for(cancelled(cancel), 10)
            with pytest.raises(TimeoutError):  # and nothing after it
                await asyncio.wait_for(plugin.socket.recv(), 2)

    talk(url, test)


@pytest.mark.slow
def test_a_blank_36x36_estimate_says_what_it_knows_within_a_second_or_so(url: str) -> None:
    """Its first walk takes minutes, and counting a thousand solutions seconds: the
    first message still comes at once, at least so many and no upper bound."""
    blank = parse("size 36\n")

    async def test(plugin: Plugin) -> None:
        nonce = await plugin.send("estimate", payload(blank))
        first = json.loads(await asyncio.wait_for(plugin.socket.recv(), PATIENCE))
        assert first["nonce"] == nonce and first["type"] == "estimate", first
        assert first["ci95_upper"] == "Infinity" and first["stderr"] == "Infinity"
        assert isinstance(first["iterations"], int) and first["estimate"] == first["ci95_lower"]
        assert "NaN" not in json.dumps(first)
        await plugin.final(await plugin.send("cancel"))

    talk(url, test)


@pytest.mark.slow
def test_a_big_grid_with_no_solution_is_said_to_have_none(url: str) -> None:
    """A 25x25 jigsaw whose regions leave no solution (two cells of a row traded
    between two boxes): its true candidates are one solve, then "none"; the
    page's marks say so as an answer, not as a puzzle not read."""
    text = traded_jigsaw(row=4)

    async def test(plugin: Plugin) -> None:
        found = await plugin.ask("truecandidates", payload(parse(text)))
        assert found["type"] == "invalid" and found["why"] == "none", found
        assert found["message"].startswith("No solutions found.")
        marks = await plugin.final(await plugin.send("marks", text, kind="sudosat"))
        assert marks["type"] == "marks" and marks["status"] == "none", marks
        unreadable = await plugin.final(await plugin.send("marks", "no puzzle", kind="sudosat"))
        assert unreadable["type"] == "invalid" and unreadable["why"] == "read"

    talk(url, test)


def test_half_drawn_parts_get_true_candidates_not_an_error(url: str) -> None:
    """In f-puzzles an arrow's circle and its shaft are two drags, and a line
    starts as one cell: each state between gets the candidates of the rest."""
    killer = parse((PUZZLES / "killer.txt").read_text())
    plain = write(killer)
    halves = [
        {"arrow": [{"cells": ["R5C5"], "lines": []}]},
        {"arrow": [{"cells": ["R5C5"]}]},
        {"thermometer": [{"lines": [["R1C1"]]}]},
        {"whispers": [{"lines": [["R9C9"]]}]},
    ]

    async def test(plugin: Plugin) -> None:
        expected = await plugin.ask("truecandidates", payload(killer))
        for half in halves:
            found = await plugin.ask("truecandidates", payload({**plain, **half}))
            assert found["type"] == "truecandidates", (half, found)
            assert found["solutionsPerCandidate"] == expected["solutionsPerCandidate"]
        page = await plugin.final(
            await plugin.send("marks", "arrow: r5c5\n" + killer_text(), kind="sudosat")
        )
        assert page["type"] == "marks" and page["notes"] == "arrow at r5c5 has no shaft yet"

    talk(url, test)


def killer_text() -> str:
    return (PUZZLES / "killer.txt").read_text()


@pytest.mark.slow
def test_a_new_message_cancels_the_running_job(url: str) -> None:
    blank = parse("." * 81)
    small = parse("....\n" * 4)

    async def test(plugin: Plugin) -> None:
        await plugin.send("count", payload(blank))
        await asyncio.sleep(1)
        found = await plugin.ask("count", payload(small))
        assert found["count"] == 288

    talk(url, test)


@pytest.mark.slow
def test_two_clients_at_once(url: str) -> None:
    blank = parse("." * 81)
    small = parse("....\n" * 4)

    async def both() -> None:
        async with connect(url) as first, connect(url) as second:
            one, two = Plugin(first), Plugin(second)
            counting = await one.send("count", payload(blank))  # runs on
            found = await two.ask("count", payload(small))
            assert found["count"] == 288
            progress = json.loads(await asyncio.wait_for(first.recv(), 60))
            assert progress["nonce"] == counting and progress["inProgress"] is True

    asyncio.run(both())


# --- garbage, origins, the page --------------------------------------------------------


def test_garbage_never_stops_the_server(url: str) -> None:
    small = parse("....\n" * 4)

    async def test(plugin: Plugin) -> None:
        for frame in [
            "",
            "{",
            "[1, 2]",
            '{"nonce": "x", "command": "solve"}',
            '{"nonce": 1}',
            "\x00\xff",
        ]:
            await plugin.socket.send(frame)
        await plugin.socket.send(b"\xff\xfe binary")
        await plugin.send("nosuchcommand", payload(small))  # no reply, as the plugin's server
        await plugin.send("solve", payload(small), kind="other")  # another dataType: passed over
        assert (await plugin.ask("count", payload(small)))["count"] == 288

    talk(url, test)
    assert close_code_after_huge_frame(url) == 1009  # closes that connection alone

    async def still(plugin: Plugin) -> None:
        assert (await plugin.ask("check", payload(small)))["count"] == 2

    talk(url, still)


def test_a_field_of_too_many_digits_gets_a_reply_naming_it(url: str) -> None:
    small = payload(parse("....\n" * 4))
    long = "1" * 25

    async def test(plugin: Plugin) -> None:
        frame = {"nonce": 7, "command": "page", "dataType": "sudosat", "data": "size 4\n"}
        text = json.dumps(frame)[:-1] + f', "step": {long}, "cap": -{long}}}'
        await plugin.socket.send(text)
        found = json.loads(await asyncio.wait_for(plugin.socket.recv(), PATIENCE))
        assert found["nonce"] == 7 and found["type"] == "invalid", found
        assert "step: a number of 25 digits (at most 18)" in found["message"]
        assert "cap: a number of 25 digits" in found["message"]
        await plugin.socket.send(f'{{"nonce": {long}, "command": "check", "data": "{small}"}}')
        plugin.nonce = 7  # a nonce too long has no reply to carry it: the next is answered
        assert (await plugin.ask("check", small))["count"] == 2

    talk(url, test)


def close_code_after_huge_frame(url: str) -> int:
    """The close code the server sends once a frame's header says 5 MiB (over a raw
    socket: the header alone is sent, so no client library races the close)."""
    host, port = url.removeprefix("ws://").rstrip("/").rsplit(":", 1)
    with socket.create_connection((host, int(port))) as raw:
        key = base64.b64encode(os.urandom(16)).decode()
        raw.sendall(
            f"GET / HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
            "Sec-WebSocket-Version: 13\r\n\r\n".encode()
        )
        raw.settimeout(PATIENCE)
        received = b""
        while b"\r\n\r\n" not in received:
            chunk = raw.recv(4096)
            assert chunk, "the server closed before its answer's head"
            received += chunk
        assert received.startswith(b"HTTP/1.1 101")
        received = received.split(b"\r\n\r\n", 1)[1]
        raw.sendall(bytes([0x81, 0x80 | 127]) + (5 * 1024 * 1024).to_bytes(8, "big") + b"mask")
        while chunk := raw.recv(4096):
            received += chunk
    assert received[0] == 0x88, received  # a close frame
    return int.from_bytes(received[2:4], "big")


@pytest.mark.parametrize(
    "origin,allowed",
    [
        ("https://www.f-puzzles.com", True),
        ("https://f-puzzles.com", True),
        ("http://localhost:8000", True),
        (None, True),
        ("https://evil.example", False),
        ("https://f-puzzles.com.evil.example", False),
        ("null", False),
    ],
)
def test_only_f_puzzles_and_local_pages_may_connect(
    url: str, origin: str | None, allowed: bool
) -> None:
    async def test(plugin: Plugin) -> None:
        return (await plugin.ask("check", payload(parse("....\n" * 4))))["count"]

    if allowed:
        assert talk(url, test, origin) == 2
    else:
        with pytest.raises(InvalidStatus) as refused:
            talk(url, test, origin)
        assert refused.value.response.status_code == 403


@pytest.mark.slow
def test_an_allowed_origin_may_connect() -> None:
    with server("--allow-origin", "https://editor.example") as (_, address):

        async def test(plugin: Plugin) -> int:
            return int((await plugin.ask("check", payload(parse("....\n" * 4))))["count"])

        assert talk(address, test, "https://editor.example") == 2


@pytest.mark.slow
def test_an_allowed_origin_s_subdomains_may_connect_and_no_other() -> None:
    with server("--allow-origin", "https://*.editor.example") as (_, address):

        async def test(plugin: Plugin) -> int:
            return int((await plugin.ask("check", payload(parse("....\n" * 4))))["count"])

        assert talk(address, test, "https://a.editor.example") == 2
        assert talk(address, test, "https://b.a.editor.example") == 2
        for other in ("https://editor.example", "https://evil.example", "http://a.editor.example"):
            with pytest.raises(InvalidStatus):
                talk(address, test, other)


@pytest.mark.parametrize("origin", ["https://a*.example", "https://x.*", "https://*", "ftp://x"])
def test_an_origin_that_could_never_match_is_refused(origin: str, run: Run) -> None:
    code, _, err = run("serve", "--allow-origin", origin)
    assert code == 2 and "expected an origin such as https://example.com" in err


def test_the_page_is_served_and_answers_what_it_asks(url: str) -> None:
    import urllib.request

    home = url.replace("ws://", "http://")
    page = urllib.request.urlopen(home).read().decode()
    assert "sudosat serve" in page and "Fpuzzles-SudokuSolver" in page
    with urllib.request.urlopen(home + "page/main.js") as module:  # the page's own modules
        assert module.headers["Content-Type"].startswith("text/javascript")
        assert b"import" in module.read()
    with urllib.request.urlopen(home + "page/parts.json") as described:  # the rules' parts
        assert described.headers["Content-Type"] == "application/json"
        words = {part["word"] for part in json.loads(described.read())}
        assert {"thermo", "arrow", "difference", "x", "little-killer", "odd"} <= words
    for missing in ("page/server.py", "page/../server.py", "main.js", "page/"):
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(home + missing)
        assert refused.value.code == 404
    killer = (PUZZLES / "killer.txt").read_text()

    async def test(plugin: Plugin) -> None:
        nonce = await plugin.send("page", killer, kind="sudosat")
        found = await plugin.final(nonce)
        assert found["type"] == "page" and found["status"] == "unique" and found["count"] == 1
        assert found["svg"].startswith("<?xml") or "<svg" in found["svg"]
        nonce = await plugin.send("pagepath", killer, kind="sudosat")
        path = await plugin.final(nonce)
        assert path.get("end") == "solved" and path["steps"], path

    talk(url, test)


# --- stopping ---------------------------------------------------------------------------


def alive(pid: int) -> bool:
    """Whether a process runs (a zombie does not)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat:
            return stat.read().rsplit(b")", 1)[1].split()[0] != b"Z"
    except OSError:
        return False


@pytest.mark.slow
def test_a_path_s_progress_is_the_path_so_far_and_the_server_can_end_it_there() -> None:
    """Every progress reply of the page's path carries the steps as data (where it
    started, each step's cells and removals): at its limit the server sends the
    last one as the answer, ``timeout``, and the page steps through it."""
    from sudosat.serving.page_answers import path_data
    from sudosat.serving.protocol import Job, body
    from sudosat.serving.server import _ended

    killer = parse((PUZZLES / "killer.txt").read_text())
    sent: list[tuple[str, dict[str, Any]]] = []
    answers_progress = "sudosat.serving.page_answers.PROGRESS"
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(answers_progress, 0.0)  # every step a progress reply
        path_data(  # each reply as the worker sends it: its text at that moment
            Job("path", killer, timeout=60.0),
            lambda kind, **f: sent.append((kind, json.loads(body(kind, **f)))),
        )
    *progress, (_, final) = sent
    assert len(progress) == len(final["steps"]) > 5
    for number, (kind, fields) in enumerate(progress, 1):
        assert kind == "path" and fields["inProgress"] is True
        assert fields["start"] == final["start"] and fields["steps"] == final["steps"][:number]
        assert fields["sentences"] == final["sentences"][:number]
    kind, fields = progress[5]
    ended = json.loads(_ended(json.dumps(fields), "Stopped at the server's limit of 5 s."))
    assert ended["end"] == "timeout" and ended["inProgress"] is False
    assert ended["reason"] == "Stopped at the server's limit of 5 s."
    assert ended["steps"] == final["steps"][:6] and ended["start"] == final["start"]


@pytest.mark.slow
def test_sigterm_with_work_running_ends_the_server_and_every_worker() -> None:
    with server() as (process, address):

        async def start(plugin: Plugin) -> None:
            await plugin.send("count", payload(parse("." * 81)))
            await asyncio.wait_for(plugin.socket.recv(), 60)  # counting, in a worker
            everyone = tree(process.pid)
            assert len(everyone) >= 3  # the supervisor's work process, the fork server, workers
            process.send_signal(signal.SIGTERM)
            assert process.wait(30) == 143
            assert gone(everyone)

        talk(address, start)


def command_line(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:  # ended meanwhile
        return b""


@pytest.mark.slow
def test_ctrl_c_at_a_terminal_ends_serve_in_one_line_while_it_starts() -> None:
    """Ctrl-C reaches every process of the group, the fork server too while it
    still imports sudosat's engines: one line, never a traceback."""

    def fork_server_started(pid: int) -> bool:
        return any(b"forkserver" in command_line(member) for member in tree(pid))

    screen = Screen([str(SUDOSAT), "serve", "--port", "0"], on=fork_server_started, keys=b"\x03")
    assert screen.code == 130
    assert screen.lines[-1].endswith("sudosat: interrupted"), screen.lines  # (after ^C)
    assert "Traceback" not in "\n".join(screen.lines)


# --- setting: an edit every 250 ms, as the plugin sends them --------------------------


def edits(puzzle: Puzzle, count: int, seed: int) -> list[Puzzle]:
    """A setter at work: givens of the solution added one at a time, now and then
    one taken back (undo)."""
    solution = solve(puzzle, max_solutions=1).solutions[0]
    rng = random.Random(seed)
    cells = list(puzzle.cells)
    blanks = [c for c, v in enumerate(cells) if not v]
    rng.shuffle(blanks)
    found, placed = [], []
    while len(found) < count and blanks:
        if placed and rng.random() < 0.2:
            cells[placed.pop()] = 0
        else:
            cell = blanks.pop()
            cells[cell] = solution[cell]
            placed.append(cell)
        found.append(replace_cells(puzzle, cells))
    return found


def replace_cells(puzzle: Puzzle, cells: list[int]) -> Puzzle:
    return replace(puzzle, cells=tuple(cells))


@pytest.mark.slow
@pytest.mark.parametrize("name", ["killer.txt", "kropki-6x6.txt"])
def test_edits_250_ms_apart_each_get_the_true_candidates(url: str, name: str) -> None:
    from sudosat.solving.candidates import candidates

    start = parse((PUZZLES / name).read_text())
    base = replace_cells(start, [0] * len(start.cells))
    session = edits(base, 12, seed=len(name))

    async def test(plugin: Plugin) -> None:
        sent: dict[int, Puzzle] = {}
        for puzzle in session:
            sent[await plugin.send("truecandidates", payload(puzzle))] = puzzle
            await asyncio.sleep(0.25)
        last = max(sent)
        replies: dict[int, dict[str, Any]] = {}

        async def until_the_last() -> None:
            while last not in replies:
                found = json.loads(await plugin.socket.recv())
                replies[found["nonce"]] = found

        await asyncio.wait_for(until_the_last(), PATIENCE)
        assert replies[last]["type"] == "truecandidates"
        for nonce, found in replies.items():
            expected = candidates(sent[nonce])
            assert marks_of(found, start.size) == expected.marks, nonce

    talk(url, test)


def test_a_narrower_puzzle_starts_from_the_earlier_answer_and_stays_right(url: str) -> None:
    """Adding givens or rules to a puzzle the server answered starts from what that
    answer ruled out; a dot added under a negative rule relaxes the puzzle, and is
    answered from scratch."""
    base = parse("size 4\nnonconsecutive\n1...\n....\n....\n....\n")
    dotted = parse("size 4\nnonconsecutive\ndifference: r1c1 r1c2\n1...\n....\n....\n....\n")
    more = parse("size 4\nnonconsecutive\n1...\n....\n....\n...4\n")

    async def test(plugin: Plugin) -> None:
        for puzzle in (base, dotted, more, base, dotted):
            found = await plugin.ask("truecandidates", payload(puzzle))
            grids = solutions_4x4(puzzle)
            if grids:
                assert marks_of(found, 4) == brute_marks(grids, 4)
            else:
                assert found["type"] == "invalid"

    talk(url, test)


@pytest.mark.slow
def test_a_job_past_the_time_limit_is_stopped_and_said_so() -> None:
    with server("--timeout", "1") as (_, address):

        async def test(plugin: Plugin) -> None:
            found = await plugin.ask("count", payload(parse("." * 81)))
            assert found["type"] == "invalid" and "limit of 1 s" in found["message"]

        talk(address, test)


def test_candidates_on_cadical_are_those_on_minicard_and_brute_force() -> None:
    """What the server runs big variants' candidates on."""
    from sudosat.solving.candidates import candidates

    for puzzle in variants(10, 4, first=500) + variants(3, 6, first=500):
        grids = truth(puzzle)
        found = candidates(puzzle, solver="cadical195", count_each=3)
        if grids:
            assert found.marks == brute_marks(grids, puzzle.size)
            assert found.counts == candidates(puzzle, count_each=3).counts
        else:
            assert str(found.outcome.status) == "none"
    with pytest.raises(ValueError):
        candidates(parse("....\n" * 4), solver="cadical195", timeout=1)


def test_an_estimate_never_says_fewer_than_the_solutions_seen() -> None:
    """Walks that mostly die give a bootstrap interval reaching down to nothing; the
    solutions counted before them (more than the exact phase's bound) stand."""
    from sudosat.serving.plugin_answers import _sampled

    logs = [0.0, 0.0, 0.5, 1.0, 5.0, 0.0, 0.2, 0.0]  # e^x solutions a walk: mostly one
    alone = _sampled(logs)
    assert alone["ci95_lower"] < 1001 and alone["estimate"] < 1001
    seen = _sampled(logs, 1001)
    least = min(seen["ci95_lower"], seen["estimate"], seen["ci95_upper"])
    assert round(least) == 1001  # (through logs: 1000.9999999...)


def test_a_reason_that_starts_with_a_cell_keeps_its_name_as_written() -> None:
    from sudosat.serving.plugin_answers import sentence_start

    assert sentence_start("r9c8 has no candidate left") == "r9c8 has no candidate left"
    assert sentence_start("r12c3: 4 and 4 clash") == "r12c3: 4 and 4 clash"
    assert sentence_start("the givens clash") == "The givens clash"
    assert sentence_start("rows clash") == "Rows clash"  # (a word, not a cell)
