"""Issue 60's engineering targets for the setter's page, in a real browser.

For a blank grid and a bundled puzzle at 9x9, 16x16, 25x25 and 36x36:

* the true-candidates reply (``marks``) in bytes, as the server sends it (the
  9x9 target: under 20 KB; no pictures are sent per edit);
* the page's drawing of that reply (``redraw``: the grid built from data), in ms;
* the longest main-thread task while the page reads and draws it (Chromium's
  ``longtask`` entries; the target: none over 100 ms at 36x36).

Debian's chromium, headless, through Playwright; one ``sudosat serve``.

    python benchmarks/page.py
"""

from __future__ import annotations

import asyncio
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

from playwright.sync_api import sync_playwright
from websockets.asyncio.client import connect

ROOT = Path(__file__).resolve().parents[1]
PUZZLES = ROOT / "puzzles"
CASES = [
    (9, "killer.txt"),
    (16, "hex-16x16.txt"),
    (25, "rank5-25x25.txt"),
    (36, "rank6-36x36.txt"),
]
WATCH = """
window.longest = 0;
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) window.longest = Math.max(window.longest, entry.duration);
}).observe({type: "longtask", buffered: true});
"""


def blank(n: int) -> str:
    rows = [" ".join(["0"] * n) if n > 9 else "." * n for _ in range(n)]
    return "\n".join([f"size {n}", *rows]) + "\n"


async def reply_bytes(url: str, text: str) -> int:
    """The bytes of the final ``marks`` reply to ``text``."""
    async with connect(url, max_size=None) as socket:
        frame = {"nonce": 1, "command": "marks", "dataType": "sudosat", "data": text}
        await socket.send(json.dumps(frame))
        while True:
            said = await socket.recv()
            if not json.loads(said).get("inProgress"):
                return len(said)


def measured(browser: Any, url: str, text: str) -> tuple[float, float]:
    """The page's drawing of ``text``'s true candidates (ms), and the longest task
    while it read and drew them (ms)."""
    page = browser.new_page(viewport={"width": 1400, "height": 1100})
    page.add_init_script(WATCH)
    page.goto(url.replace("ws://", "http://"))
    page.wait_for_function("document.getElementById('marks').dataset.answers")
    page.evaluate("window.longest = 0")
    page.fill("#puzzle", text)
    page.click("#load")
    page.wait_for_function(
        "document.getElementById('marks').dataset.answers === '2'", timeout=600_000
    )
    drawn = float(page.evaluate("document.getElementById('marks').dataset.drawn"))
    longest = float(page.evaluate("window.longest"))
    page.close()
    return drawn, longest


def main() -> None:
    server = subprocess.Popen(
        [sys.executable, "-m", "sudosat", "serve", "--host", "127.0.0.1", "--port", "0"],
        stderr=subprocess.PIPE,
        text=True,
    )
    assert server.stderr is not None
    port = re.search(r":(\d+)", server.stderr.readline())
    assert port is not None
    url = f"ws://127.0.0.1:{port[1]}/"
    rows = []
    texts = [
        (n, label, text)
        for n, name in CASES
        for label, text in (("blank", blank(n)), (name, (PUZZLES / name).read_text()))
    ]
    try:
        sizes = [asyncio.run(reply_bytes(url, text)) for _, _, text in texts]
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path=shutil.which("chromium"), args=["--no-sandbox"]
            )
            for (n, label, text), size in zip(texts, sizes, strict=True):
                drawn, longest = measured(browser, url, text)
                rows.append((f"{n}x{n}", label, size, drawn, longest))
            browser.close()
    finally:
        server.terminate()
        server.wait()
    print("| grid | puzzle | marks reply | drawn in | longest task while read and drawn |")
    print("|---|---|---:|---:|---:|")
    for grid, label, size, drawn, longest in rows:
        print(f"| {grid} | {label} | {size / 1024:.1f} KB | {drawn:.0f} ms | {longest:.0f} ms |")


if __name__ == "__main__":
    main()
