"""``sudosat serve``: a websocket server that answers the f-puzzles solver plugin.

One asyncio loop holds every connection; the work runs in warm worker
processes (:mod:`workers`). Per connection at most one job runs: any message
cancels it (its worker is killed, so even a long solve stops at once), and
several connections work side by side. Answers are kept in a bounded cache
(a repeated puzzle is answered from it), and a true-candidates request whose
puzzle only adds givens or rules to an earlier one starts from the values that
answer ruled out. The server listens on loopback; a browser page may drive it
only from f-puzzles, from a page on localhost, or from an origin allowed by
``--allow-origin`` (a client that sends no Origin, not a browser, may too).
``GET /`` is a page of sudosat's own (``page.html``) that uses the same socket.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import signal
import sys
from collections import OrderedDict
from dataclasses import dataclass, field, replace
from http import HTTPStatus
from importlib.resources import files
from typing import Any

from websockets.asyncio.server import ServerConnection, serve
from websockets.datastructures import Headers
from websockets.exceptions import ConnectionClosed
from websockets.http11 import Request as HttpRequest
from websockets.http11 import Response
from websockets.typing import Origin

from sudosat.core.puzzle import Grid, Puzzle
from sudosat.serving.protocol import (
    COMMANDS,
    PAGE,
    PAGE_COMMANDS,
    Invalid,
    Job,
    Request,
    canceled,
    invalid,
    job_of,
    page_job,
    reply,
    request_of,
)
from sudosat.serving.workers import Pool

LOOPBACK = ("localhost", "127.0.0.1", "::1", "ip6-localhost")
"""The names ``--host`` takes: the server is for this machine's browser alone."""
PORT = 4545
"""The plugin's port (hard-coded in its userscript)."""
FPUZZLES = ("https://f-puzzles.com", "https://www.f-puzzles.com")
LOCAL_PAGE = re.compile(r"https?://(localhost|127\.0\.0\.1|\[::1\])(:[0-9]{1,5})?")
CACHED = frozenset({"truecandidates", "check", "solvepath", "step", "page", "pagepath"})
"""Commands whose answer depends on the request alone (``solve`` is random;
``count`` and ``estimate`` stream)."""
INHERITED = 64
"""Recent true-candidates answers a narrower puzzle may start from."""
WITNESSED = 4
"""Recent answers whose witnesses a new request tries first."""


@dataclass
class Settings:
    """What ``sudosat serve`` is started with."""

    host: str = "localhost"
    port: int = PORT
    allow_origins: tuple[str, ...] = ()
    timeout: float = 300.0
    """Seconds a job may run (an estimate's stream too)."""
    max_frame: int = 4 * 1024 * 1024
    """Bytes a frame may hold: a 36x36 variant's f-puzzles data, and room to spare."""
    cache: int = 256
    """Answers kept."""
    spare: int = 1
    """Workers kept ready beyond those at work."""


@dataclass
class Answers:
    """Finished answers by what they depend on (least recently used goes first),
    and the recent true candidates a narrower puzzle may start from."""

    size: int
    kept: OrderedDict[str, list[tuple[str, dict[str, Any]]]] = field(default_factory=OrderedDict)
    recent: list[tuple[Puzzle, dict[int, int], tuple[Grid, ...]]] = field(default_factory=list)
    hits: int = 0

    def get(self, key: str) -> list[tuple[str, dict[str, Any]]] | None:
        found = self.kept.get(key)
        if found is not None:
            self.kept.move_to_end(key)
            self.hits += 1
        return found

    def put(self, key: str, replies: list[tuple[str, dict[str, Any]]]) -> None:
        if self.size <= 0:
            return
        self.kept[key] = replies
        self.kept.move_to_end(key)
        while len(self.kept) > self.size:
            self.kept.popitem(last=False)

    def remember(self, puzzle: Puzzle, fields: dict[str, Any]) -> None:
        """A true-candidates answer: which values each open cell may hold, and the
        solutions that witnessed them."""
        n = puzzle.size
        per_candidate = fields["solutionsPerCandidate"]
        masks = {
            cell: sum(1 << v for v in range(1, n + 1) if per_candidate[cell * n + v - 1] > 0)
            for cell in range(n * n)
            if not puzzle.cells[cell]
        }
        self.recent.append((puzzle, masks, tuple(fields.get("_witnesses", ()))))
        del self.recent[:-INHERITED]

    def start(self, job: Job) -> Job:
        """A true-candidates job with what earlier answers know: the values one ruled
        out when this puzzle only narrows its puzzle, and the recent witnesses of
        the same grid (those that are solutions here cost no solve)."""
        puzzle = job.puzzle
        known: dict[int, int] = {}
        for earlier, masks, _ in reversed(self.recent):
            if narrows(puzzle, earlier):
                known = {cell: mask for cell, mask in masks.items() if not puzzle.cells[cell]}
                break
        size = len(puzzle.cells)
        maybe: dict[Grid, None] = {}
        for _, _, witnesses in reversed(self.recent[-WITNESSED:]):
            maybe.update((grid, None) for grid in witnesses if len(grid) == size)
        return replace(job, known=known, maybe=tuple(maybe))


def narrows(puzzle: Puzzle, earlier: Puzzle) -> bool:
    """Whether every solution of ``puzzle`` is one of ``earlier``: the same grid and
    regions, its givens and more, its rules and more. A rule whose meaning depends
    on the others (a negative constraint: a dot added relaxes it) makes the
    rules have to be the same."""
    if puzzle.size != earlier.size or puzzle.layout.regions != earlier.layout.regions:
        return False
    if any(value and puzzle.cells[c] != value for c, value in enumerate(earlier.cells)):
        return False
    mine = puzzle.rules.constraints if puzzle.rules else ()
    theirs = earlier.rules.constraints if earlier.rules else ()
    if not set(theirs) <= set(mine):
        return False
    relative = any(rule.relative for rule in mine)
    return not relative or set(theirs) == set(mine)


class Server:
    """The connections, the cache and the workers of one ``sudosat serve``."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.pool = Pool(settings.spare)
        self.answers = Answers(settings.cache)
        self.page = files("sudosat.serving").joinpath("page.html").read_bytes()

    def origins(self) -> list[Origin | re.Pattern[str] | None]:
        allowed = [*FPUZZLES, *self.settings.allow_origins]
        return [*(Origin(o) for o in allowed), LOCAL_PAGE, None]

    def http(self, connection: ServerConnection, request: HttpRequest) -> Response | None:
        """A plain HTTP request: the page at ``/`` (a websocket upgrade goes on)."""
        if request.headers.get("Upgrade", "").lower() == "websocket":
            return None
        if request.path.split("?", 1)[0] not in ("/", "/index.html"):
            return _response(HTTPStatus.NOT_FOUND, b"not found\n", "text/plain")
        return _response(HTTPStatus.OK, self.page, "text/html; charset=utf-8")

    async def connection(self, websocket: ServerConnection) -> None:
        """One client: each message cancels the job running, then starts its own."""
        running: asyncio.Task[None] | None = None
        try:
            async for frame in websocket:
                if running is not None:
                    running.cancel()
                    running = None
                request = request_of(frame)
                if request is None:  # no JSON, no nonce: the protocol gives no reply
                    continue
                if request.command == "cancel":
                    await websocket.send(canceled(request.nonce))
                    continue
                if (request.kind, request.command) in self.kinds():
                    running = asyncio.create_task(self.answer(websocket, request))
                    running.add_done_callback(_said_if_failed)
        except ConnectionClosed:
            pass
        finally:
            if running is not None:
                running.cancel()

    @staticmethod
    def kinds() -> frozenset[tuple[str, str]]:
        """The (dataType, command) pairs answered; the rest are passed over."""
        return frozenset([("fpuzzles", c) for c in COMMANDS] + [(PAGE, c) for c in PAGE_COMMANDS])

    async def answer(self, websocket: ServerConnection, request: Request) -> None:
        """One request's replies, sent as they come; from the cache when it holds them."""
        nonce = request.nonce
        loop = asyncio.get_running_loop()
        try:
            make = page_job if request.kind == PAGE else job_of
            job = await loop.run_in_executor(self.pool.threads, make, request)
        except Invalid as err:
            await websocket.send(invalid(nonce, str(err)))
            return
        cached = self.answers.get(job.key) if job.command in CACHED else None
        if cached is not None:
            for kind, fields in cached:
                await websocket.send(reply(nonce, kind, **fields))
            return
        if job.command == "truecandidates":
            job = self.answers.start(job)
        sent: list[tuple[str, dict[str, Any]]] = []

        async def on_reply(kind: str, fields: dict[str, Any]) -> None:
            sent.append((kind, fields))
            await websocket.send(reply(nonce, kind, **fields))

        try:
            await asyncio.wait_for(self.pool.run(job, on_reply), self.settings.timeout)
        except TimeoutError:
            if job.command != "estimate":
                limit = f"{self.settings.timeout:g}"
                await websocket.send(invalid(nonce, f"Stopped at the server's limit of {limit} s."))
            return
        self._keep(job, sent)

    def _keep(self, job: Job, sent: list[tuple[str, dict[str, Any]]]) -> None:
        if job.command not in CACHED or not sent:
            return
        self.answers.put(job.key, sent[-1:])
        kind, fields = sent[-1]
        if job.command == "truecandidates" and kind == "truecandidates":
            self.answers.remember(job.puzzle, fields)

    async def run(self, ready: asyncio.Event | None = None) -> int:
        """Serve until SIGINT or SIGTERM; the signal's number (0: none)."""
        loop = asyncio.get_running_loop()
        stop: asyncio.Future[int] = loop.create_future()
        for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
            with contextlib.suppress(ValueError, RuntimeError):
                loop.add_signal_handler(signum, _settle, stop, signum)
        try:
            await self.pool.warm()
            settings = self.settings
            async with serve(
                self.connection,
                settings.host,
                settings.port,
                origins=self.origins(),
                process_request=self.http,
                max_size=settings.max_frame,
                compression=None,
            ) as server:
                ports = sorted({sock.getsockname()[1] for sock in server.sockets})
                where = ", ".join(f"ws://{settings.host}:{p}/" for p in ports)
                print(f"sudosat serve: listening on {where} (Ctrl-C ends it)", file=sys.stderr)
                sys.stderr.flush()
                if ready is not None:
                    ready.set()
                return await stop
        finally:
            self.pool.close()
            for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
                with contextlib.suppress(ValueError, RuntimeError):
                    loop.remove_signal_handler(signum)


def _said_if_failed(task: asyncio.Task[None]) -> None:
    """A request that failed inside the server (a bug): one line on stderr; the
    connection and the server go on."""
    if task.cancelled():
        return
    err = task.exception()
    if err is not None and not isinstance(err, ConnectionClosed):
        print(f"sudosat serve: internal error: {type(err).__name__}: {err}", file=sys.stderr)


def _settle(stop: asyncio.Future[int], signum: int) -> None:
    if not stop.done():
        stop.set_result(signum)


def _response(status: HTTPStatus, body: bytes, kind: str) -> Response:
    headers = Headers(
        [
            ("Content-Type", kind),
            ("Content-Length", str(len(body))),
            ("Cache-Control", "no-store"),
            ("X-Content-Type-Options", "nosniff"),
        ]
    )
    return Response(status.value, status.phrase, headers, body)


def serve_forever(settings: Settings) -> int:
    """Run the server until it is told to stop; the stopping signal's number (0: none)."""
    return asyncio.run(Server(settings).run())
