"""``sudosat serve``'s own page, in a real browser: Debian's Chromium, headless,
driven over the DevTools protocol (a websocket, the ``websockets`` package).
It loads the page, a link is pasted, and the candidates the page then shows
are read back and checked against ``sudosat candidates`` of the same link."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import os
import re
import shutil
import signal
import subprocess
import tempfile
import time
import urllib.parse
import urllib.request
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from typing import Any

import lzstring
import pytest
from websockets.asyncio.client import ClientConnection, connect

from sudosat import parse
from sudosat.solving.candidates import candidates
from tests.conftest import PATIENCE, PUZZLES, read_line
from tests.serving.test_serve import server

pytestmark = pytest.mark.slow

FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--remote-debugging-port=0",
)
DEVTOOLS = re.compile(r"DevTools listening on ws://127\.0\.0\.1:(\d+)/")


def chromium() -> str:
    found = shutil.which("chromium")
    if found is None:
        if os.environ.get("CI"):
            pytest.fail("chromium is not installed (scripts/install-solvers installs it)")
        pytest.skip("chromium is not installed")
    return found


@contextmanager
def browser(page: str) -> Iterator[int]:
    """A headless Chromium showing ``page``; its DevTools port."""
    # chromium's helpers (renderer, GPU, crashpad) are its children: a session of
    # their own is killed at once, and a late write to the profile is no failure
    with tempfile.TemporaryDirectory(ignore_cleanup_errors=True) as profile:
        args = [chromium(), *FLAGS, f"--user-data-dir={profile}", page]
        process = subprocess.Popen(args, stderr=subprocess.PIPE, text=True, start_new_session=True)
        assert process.stderr is not None
        try:
            for _ in range(1000):
                line = read_line(process.stderr, "chromium's DevTools address")
                found = DEVTOOLS.search(line)
                if found or not line:
                    break
            if not found:
                pytest.fail("chromium printed no DevTools address")
            yield int(found[1])
        finally:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            process.wait(PATIENCE)


class Tab:
    """One page of the browser, driven by DevTools' Runtime.evaluate."""

    def __init__(self, socket: ClientConnection) -> None:
        self.socket = socket
        self.ids = itertools.count(1)

    async def run(self, expression: str) -> Any:
        number = next(self.ids)
        params = {"expression": expression, "returnByValue": True, "awaitPromise": True}
        await self.socket.send(
            json.dumps({"id": number, "method": "Runtime.evaluate", "params": params})
        )

        async def answer() -> Any:
            while True:
                found = json.loads(await self.socket.recv())
                if found.get("id") == number:
                    result = found["result"]
                    assert "exceptionDetails" not in result, result
                    return result["result"].get("value")

        return await asyncio.wait_for(answer(), PATIENCE)

    async def until(self, expression: str, seconds: float = 120) -> Any:
        """The first true value of ``expression``, asked again until then."""
        end = time.monotonic() + seconds
        guarded = f"(() => {{ try {{ return ({expression}); }} catch (e) {{ return null; }} }})()"
        while time.monotonic() < end:  # (the page may still be loading)
            value = await self.run(guarded)
            if value:
                return value
            await asyncio.sleep(0.1)
        pytest.fail(f"never true in the page: {expression}")


def tab_of(port: int, page: str) -> str:
    """The DevTools websocket of the tab showing ``page``."""
    end = time.monotonic() + 60
    while time.monotonic() < end:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list") as answer:
            for target in json.load(answer):
                if target.get("type") == "page" and target.get("url", "").startswith(page):
                    return str(target["webSocketDebuggerUrl"])
        time.sleep(0.1)
    pytest.fail("no tab with the page")


def in_browser(page: str, test: Callable[[Tab], Awaitable[None]], connected: bool = True) -> None:
    """``test`` run on a headless Chromium's tab showing ``page`` (once the page says
    it is connected, unless not ``connected``: it may be at work at once)."""
    with browser(page) as port:

        async def drive() -> None:
            async with connect(tab_of(port, page.split("#")[0]), max_size=None) as socket:
                tab = Tab(socket)
                if connected:
                    await tab.until(  # its first answer: the blank grid's candidates
                        "document.getElementById('marks').dataset.answers"
                    )
                await test(tab)

        asyncio.run(drive())


def sudokupad_link() -> str:
    """A SudokuPad link of the bundled killer with every other cage: several solutions."""
    puzzle = parse((PUZZLES / "killer.txt").read_text())
    assert puzzle.rules is not None
    cages = [
        {"cells": [[c // 9, c % 9] for c in cage.cells()], "value": str(cage.value)}  # type: ignore[attr-defined]
        for cage in puzzle.rules.constraints[::2]
    ]
    data = {"id": "page", "cells": [[{} for _ in range(9)] for _ in range(9)], "cages": cages}
    text = json.dumps(data, separators=(",", ":")).replace('"', "'")
    for key, short in (("cells", "ce"), ("cages", "ca"), ("value", "v")):
        text = text.replace(f"'{key}':", f"{short}:")
    text = text.replace("'id':", "id:").replace("{}", "")
    return "https://sudokupad.app/scl" + lzstring.LZString().compressToBase64(text)


def test_the_page_shows_the_true_candidates_of_a_pasted_link() -> None:
    link = sudokupad_link()
    expected = candidates(parse(link))
    assert str(expected.outcome.status) == "multiple"

    async def test(tab: Tab) -> None:
        await tab.run(
            "const box = document.getElementById('puzzle');"
            f"box.value = {json.dumps(link)};"
            "box.dispatchEvent(new Event('paste')); true"
        )
        await tab.until("document.getElementById('marks').dataset.answers === '2'")
        shown = await tab.run("document.getElementById('marks').dataset.candidates")
        assert tuple(tuple(v) for v in json.loads(shown)) == expected.marks
        status = await tab.run("document.getElementById('status').textContent")
        assert status.startswith("multiple:")
        assert await tab.run("document.querySelector('#board text') !== null")
        await tab.run("document.getElementById('path').click(); true")
        await tab.until(  # (the steps listed while it works, then the path)
            "document.getElementById('status').textContent.startsWith('Path')"
        )
        assert await tab.run("document.querySelectorAll('#steps li').length") > 0
        await tab.run("document.getElementById('next').click(); true")
        await tab.until("document.getElementById('status').textContent.includes('step 1 of')")

    with server() as (_, address):
        in_browser(address.replace("ws://", "http://") + "?test", test)


def test_a_link_in_the_page_s_address_is_shown_at_once() -> None:
    """``http://localhost:PORT/#LINK``: the page asks as soon as its one socket opens."""
    link = sudokupad_link()
    expected = candidates(parse(link))

    async def test(tab: Tab) -> None:
        shown = await tab.until("document.getElementById('marks').dataset.candidates")
        assert tuple(tuple(v) for v in json.loads(shown)) == expected.marks
        status = await tab.run("document.getElementById('status').textContent")
        assert status.startswith("multiple:")

    with server() as (_, address):
        page = address.replace("ws://", "http://") + "?test" + "#" + urllib.parse.quote(link)
        in_browser(page, test, connected=False)


def test_an_address_that_is_no_escape_is_read_as_written() -> None:
    """``#100%`` is no percent escape (decodeURIComponent throws on it): the page
    still starts, connects and reads it, saying why it is no puzzle."""

    async def test(tab: Tab) -> None:
        said = await tab.until(
            "(s => s.startsWith('Not read') ? s : null)"
            "(document.getElementById('status').textContent)"
        )
        assert await tab.run("document.getElementById('puzzle').value") == "100%"
        assert "Not read" in said

    with server() as (_, address):
        in_browser(address.replace("ws://", "http://") + "?test" + "#100%", test, connected=False)


def test_a_long_path_shows_its_steps_stops_at_the_limit_and_can_be_cancelled() -> None:
    """The several-solution killer's path takes tens of seconds: with --timeout 6 the
    page lists the steps found so far and stops with them; Cancel stops it sooner."""
    link = sudokupad_link()

    async def test(tab: Tab) -> None:
        await tab.run(
            "const box = document.getElementById('puzzle');"
            f"box.value = {json.dumps(link)};"
            "box.dispatchEvent(new Event('paste')); true"
        )
        await tab.until("document.getElementById('marks').dataset.answers === '2'")
        await tab.run("document.getElementById('path').click(); true")
        status = await tab.until(
            "(s => s.startsWith('Path') || s.startsWith('Stopped') ? s : null)"
            "(document.getElementById('status').textContent)"
        )
        # the steps found by then, as a path to step through (kept at the server's
        # limit too, from the last steps the worker sent): never "Stopped." alone
        assert status.startswith("Path timeout"), status
        assert await tab.run("document.querySelectorAll('#steps li').length") > 0
        await tab.run("document.getElementById('next').click(); true")
        shown = await tab.until(
            "(s => s.includes('showing step 1') ? s : null)"
            "(document.getElementById('status').textContent)"
        )
        assert "showing step 1 of" in shown
        await tab.run("document.getElementById('path').click(); true")
        await tab.until("document.getElementById('cancel').disabled === false")
        await tab.run("document.getElementById('cancel').click(); true")
        await tab.until(
            "(s => s.startsWith('Cancelled') ? s : null)"
            "(document.getElementById('status').textContent)"
        )
        assert await tab.run("document.getElementById('cancel').disabled")

    with server("--timeout", "6") as (_, address):
        in_browser(address.replace("ws://", "http://") + "?test", test)
