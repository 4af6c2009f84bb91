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
``GET /`` is the setter's page (``page/``: plain ES modules, no build step) that
uses the same socket.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import signal
import sys
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field, replace
from http import HTTPStatus
from importlib.resources import files
from typing import TypeVar

from websockets.asyncio.server import ServerConnection, serve
from websockets.datastructures import Headers
from websockets.exceptions import ConnectionClosed
from websockets.http11 import Request as HttpRequest
from websockets.http11 import Response
from websockets.typing import Origin

from sudosat.core.jsonobject import JsonObject
from sudosat.core.puzzle import Grid, Puzzle
from sudosat.reading.lz import OverBudget, budget
from sudosat.rules.base import page_parts
from sudosat.sat.limits import human, total_memory
from sudosat.serving.protocol import (
    COMMANDS,
    PAGE,
    PAGE_COMMANDS,
    Invalid,
    Job,
    Request,
    canceled,
    invalid,
    make_job,
    request_of,
    with_nonce,
)
from sudosat.serving.workers import Pool

R = TypeVar("R")
T = TypeVar("T")

LOOPBACK = ("localhost", "127.0.0.1", "::1", "ip6-localhost")
"""The names ``--host`` takes: the server is for this machine's browser alone."""
PORT = 4545
"""The plugin's port (hard-coded in its userscript)."""
FPUZZLES = ("https://f-puzzles.com", "https://www.f-puzzles.com")
LOCAL_PAGE = re.compile(r"https?://(localhost|127\.0\.0\.1|\[::1\])(:[0-9]{1,5})?")
CACHED = frozenset(
    {"truecandidates", "check", "solvepath", "step", "page", "pagepath", "marks", "path"}
)
"""Commands whose answer depends on the request alone (``solve`` is random;
``count`` and ``estimate`` stream)."""
TRUE_CANDIDATES = frozenset({"truecandidates", "marks"})
"""The plugin's true candidates and the page's: each starts from what earlier
answers ruled out and witnessed (:meth:`Answers.start`)."""
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
    cache: int = 256 << 20
    """Bytes of answers kept (what the cache's entries really hold, counted)."""
    spare: int = 1
    """Workers kept ready beyond those at work, and idle at most."""
    jobs: int = field(default_factory=lambda: os.cpu_count() or 1)
    """Jobs at work at once, over every connection."""
    memory: int = field(default_factory=lambda: total_memory() // 2)
    """Bytes the jobs at work may take in all, by their estimates."""


@dataclass
class Answers:
    """Finished answers by what they depend on (least recently used goes first),
    and the recent true candidates a narrower puzzle may start from: at most
    ``size`` bytes in all, as each entry is counted (:func:`held_text`,
    :func:`held_recent`)."""

    size: int
    kept: OrderedDict[str, tuple[str, int]] = field(default_factory=OrderedDict)
    """Each answer's reply, as text without its nonce, and the bytes it holds."""
    recent: list[tuple[Puzzle, dict[int, int], tuple[Grid, ...], int]] = field(default_factory=list)
    held: int = 0
    """Bytes the kept replies and the recent answers hold."""
    hits: int = 0

    def get(self, key: str) -> str | None:
        """A kept reply's text, to be sent with :func:`protocol.with_nonce`."""
        found = self.kept.get(key)
        if found is None:
            return None
        self.kept.move_to_end(key)
        self.hits += 1
        return found[0]

    def put(self, key: str, text: str) -> None:
        """A reply kept (the least recently used go, to stay within the size)."""
        bytes_ = held_text(text)
        if bytes_ > self.size:
            return
        if key in self.kept:
            self.held -= self.kept.pop(key)[1]
        self.kept[key] = (text, bytes_)
        self.held += bytes_
        self._shrink()

    def remember(self, puzzle: Puzzle, own: JsonObject) -> None:
        """A true-candidates answer (its fields for the server, ``_masks`` and
        ``_witnesses``): which values each open cell may hold, and the solutions
        that witnessed them."""
        found = own.get("_masks", ())
        masks = {cell: mask for cell, mask in enumerate(found) if not puzzle.cells[cell]}
        witnesses = tuple(own.get("_witnesses", ()))
        bytes_ = held_recent(puzzle, masks, witnesses)
        if bytes_ > self.size:
            return
        self.recent.append((puzzle, masks, witnesses, bytes_))
        self.held += bytes_
        while len(self.recent) > INHERITED:
            self.held -= self.recent.pop(0)[3]
        self._shrink()

    def start(self, job: Job) -> Job:
        """A true-candidates job with what earlier answers know: the values one ruled
        out when this puzzle only narrows its puzzle, and the recent witnesses of
        the same grid (those that are solutions here cost no solve)."""
        puzzle = job.puzzle
        known: dict[int, int] = {}
        for earlier, masks, _, _ in reversed(self.recent):
            if narrows(puzzle, earlier):
                known = {cell: mask for cell, mask in masks.items() if not puzzle.cells[cell]}
                break
        size = len(puzzle.cells)
        maybe: dict[Grid, None] = {}
        for _, _, witnesses, _ in reversed(self.recent[-WITNESSED:]):
            maybe.update((grid, None) for grid in witnesses if len(grid) == size)
        return replace(job, known=known, maybe=tuple(maybe))

    def _shrink(self) -> None:
        """Entries let go, the least recently used reply and the oldest recent answer
        in turn, until what is held fits."""
        while self.held > self.size and (self.kept or self.recent):
            if self.kept and (not self.recent or len(self.kept) >= len(self.recent)):
                self.held -= self.kept.popitem(last=False)[1][1]
            else:
                self.held -= self.recent.pop(0)[3]


ENTRY = 200
"""Bytes an entry costs beyond its contents: its key, its tuple, the dict's slot."""


def held_text(text: str) -> int:
    """Bytes a kept reply holds: its text (ASCII: a byte a character) and the entry."""
    return sys.getsizeof(text) + ENTRY


def held_recent(puzzle: Puzzle, masks: dict[int, int], witnesses: tuple[Grid, ...]) -> int:
    """Bytes a recent answer holds: its puzzle (a reference a cell, and the candidates
    it keeps once worked out: about 120 bytes a cell), the masks (a dict slot, a
    key and a value each: about 100 bytes) and each witness (a tuple of N*N
    references; its values are small ints, shared)."""
    cells = len(puzzle.cells)
    return ENTRY + 120 * cells + 100 * len(masks) + len(witnesses) * (56 + 8 * cells)


@dataclass
class Budget:
    """The jobs at work over every connection, and the memory they may take: a job
    is admitted, or refused with the reason, before it starts."""

    jobs: int
    memory: int
    running: int = 0
    reserved: int = 0

    def admit(self, need: int) -> str | None:
        """None once a job of about ``need`` bytes is counted in; else why not."""
        if need > self.memory:
            return (
                f"This puzzle needs about {human(need)}, more than the server's memory "
                f"budget of {human(self.memory)} (sudosat serve --memory)."
            )
        if self.running >= self.jobs or self.reserved + need > self.memory:
            return (
                f"The server is busy ({self.running} jobs at work, {human(self.reserved)} of "
                f"{human(self.memory)}; at most {self.jobs} jobs): try again in a moment."
            )
        self.running += 1
        self.reserved += need
        return None

    def release(self, need: int) -> None:
        self.running -= 1
        self.reserved -= need


def narrows(puzzle: Puzzle, earlier: Puzzle) -> bool:
    """Whether every solution of ``puzzle`` is one of ``earlier``: the same grid and
    regions, its givens and more, its rules and more. A rule whose meaning depends
    on the others (a negative constraint: a dot added relaxes it) makes the
    rules have to be the same."""
    if puzzle.size != earlier.size or puzzle.layout.regions != earlier.layout.regions:
        return False
    if any(value and puzzle.cells[c] != value for c, value in enumerate(earlier.cells)):
        return False
    mine = puzzle.constraints
    theirs = earlier.constraints
    if not set(theirs) <= set(mine):
        return False
    relative = any(rule.relative for rule in mine)
    return not relative or set(theirs) == set(mine)


SMALL_FRAME = 64 * 1024
"""Frames up to this size are read on the event loop (a fraction of a millisecond);
a larger one, up to ``--max-frame``, in the reader process, where no other
client waits for it."""
SMALL_TEXT = 256 * 1024
"""Characters a frame's puzzle data may decompress to and be read on the server's
own threads (a 36x36 variant's f-puzzles JSON is a tenth of it); past it the
puzzle is read in the reader process: an 11 KB frame can decompress to 8 Mi
characters of JSON, half a second of parsing that would hold every client up."""
READS = 4
"""Reads the reader process may have in hand at once, over every client, and one
of each connection's; past them a read is answered as busy, so frames that
expand cost a bounded queue and bounded memory, and one connection cannot take
every place."""
HOSTS = re.compile(r"(localhost|127\.0\.0\.1|\[::1\])(:[0-9]{1,5})?", re.IGNORECASE)
"""The ``Host`` headers taken: loopback names alone (a page of another site that
rebinds its name to 127.0.0.1 still sends its own name)."""


class Server:
    """The connections, the cache, the budget and the workers of one ``sudosat serve``."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.pool = Pool(settings.spare)
        self.budget = Budget(settings.jobs, settings.memory)
        self.answers = Answers(settings.cache)
        self.page = page_files()
        self.readers: ProcessPoolExecutor | None = None
        """The reader process of large frames, started when the first one comes."""
        self.reads = 0
        """Reads the reader process has in hand (READS at most)."""
        self.reading: set[object] = set()
        """The connections with a read in hand (one each at most)."""

    def origins(self) -> list[Origin | re.Pattern[str] | None]:
        allowed = [*FPUZZLES, *self.settings.allow_origins]
        return [*(_origin(o) for o in allowed), LOCAL_PAGE, None]

    def http(self, connection: ServerConnection, request: HttpRequest) -> Response | None:
        """A plain HTTP request: the page at ``/`` (a websocket upgrade goes on). Either
        must name one loopback host."""
        hosts = request.headers.get_all("Host")
        if len(hosts) != 1:  # none, or two that could be read two ways
            return _response(HTTPStatus.BAD_REQUEST, b"one Host header\n", "text/plain")
        if not HOSTS.fullmatch(hosts[0]):
            return _response(HTTPStatus.FORBIDDEN, b"a loopback Host only\n", "text/plain")
        upgrades = request.headers.get_all("Upgrade")
        if [u.lower() for u in upgrades] == ["websocket"]:
            return None
        if upgrades:
            return _response(HTTPStatus.BAD_REQUEST, b"one Upgrade: websocket\n", "text/plain")
        path = request.path.split("?", 1)[0]
        name = "index.html" if path in ("/", "/index.html") else path.removeprefix("/page/")
        if name not in self.page or (name != "index.html" and not path.startswith("/page/")):
            return _response(HTTPStatus.NOT_FOUND, b"not found\n", "text/plain")
        return _response(HTTPStatus.OK, self.page[name], TYPES[name.rsplit(".", 1)[-1]])

    async def connection(self, websocket: ServerConnection) -> None:
        """One client: each message cancels the job running, then starts its own."""
        running: asyncio.Task[None] | None = None
        try:
            async for frame in websocket:
                if running is not None:
                    running.cancel()  # and let go of its budget before the next is admitted
                    await asyncio.gather(running, return_exceptions=True)
                    running = None
                if len(frame) > SMALL_FRAME:
                    running = asyncio.create_task(self.answer_large(websocket, frame))
                else:
                    running = await self.dispatch(websocket, request_of(frame))
                if running is not None:
                    running.add_done_callback(_said_if_failed)
        except ConnectionClosed:
            pass
        finally:
            if running is not None:
                running.cancel()

    async def dispatch(
        self, websocket: ServerConnection, request: Request | None, job: Job | None = None
    ) -> asyncio.Task[None] | None:
        """A request's task (None: a cancel, answered at once, or no request at all)."""
        if request is None:  # no JSON, no nonce: the protocol gives no reply
            return None
        if request.command == "cancel":
            await websocket.send(canceled(request.nonce))
            return None
        if (request.kind, request.command) not in self.kinds():
            return None
        return asyncio.create_task(self.answer(websocket, request, job))

    async def answer_large(self, websocket: ServerConnection, frame: str | bytes) -> None:
        """A large frame read (and its job made) in the reader process, then answered;
        with the reader's hands full, busy (when its nonce is found at its start)."""
        try:
            request, job = await self.read(read_frame, frame, websocket)
        except Busy as busy:
            nonce = NONCE.search(frame[:200] if isinstance(frame, str) else "")
            if nonce:
                await websocket.send(invalid(int(nonce[1]), str(busy), "busy"))
            return
        task = await self.dispatch(websocket, request, job)
        if task is not None:
            try:
                await asyncio.shield(task)
            except asyncio.CancelledError:
                task.cancel()
                raise

    async def read(self, work: Callable[[R], T], what: R, client: object = None) -> T:
        """``work(what)`` in the reader process (a large frame's request and job, or a
        job whose data decompresses past SMALL_TEXT); Busy when READS are in hand,
        or when ``client`` (a connection) has one of its own there already. A read
        counts until the reader is done with it, also when its client has moved
        on (the reader cannot drop it half way)."""
        if self.reads >= READS:
            raise Busy(
                f"The server is busy reading {self.reads} large puzzles: try again in a moment."
            )
        if client is not None and client in self.reading:
            raise Busy("Your last large puzzle is still being read: try again in a moment.")
        if self.readers is None:
            self.readers = ProcessPoolExecutor(1, mp_context=self.pool.context)
        self.reads += 1
        if client is not None:
            self.reading.add(client)
        loop = asyncio.get_running_loop()
        done = self.readers.submit(work, what)
        done.add_done_callback(lambda _: loop.call_soon_threadsafe(self._read_done, client))
        return await asyncio.wrap_future(done)

    def _read_done(self, client: object) -> None:
        self.reads -= 1
        self.reading.discard(client)

    @staticmethod
    def kinds() -> frozenset[tuple[str, str]]:
        """The (dataType, command) pairs answered; the rest are passed over."""
        plugin = [("fpuzzles", c) for c in COMMANDS]
        return frozenset(plugin + [(PAGE, c) for c in (*PAGE_COMMANDS, *COMMANDS)])

    async def answer(self, websocket: ServerConnection, request: Request, job: Job | None) -> None:
        """One request's replies, sent as they come; from the cache when it holds them.
        A job over the server's budget (jobs at once, memory in all) is refused as
        busy: the protocol has no other reply for it."""
        nonce = request.nonce
        if request.refused:
            await websocket.send(invalid(nonce, f"This request cannot be read: {request.refused}."))
            return
        if job is None:
            try:
                job = await self._job(request, websocket)
            except Invalid as err:
                await websocket.send(invalid(nonce, str(err)))
                return
            except Busy as err:
                await websocket.send(invalid(nonce, str(err), "busy"))
                return
        cached = self.answers.get(job.key) if job.command in CACHED else None
        if cached is not None:
            await websocket.send(with_nonce(nonce, cached))
            return
        refused = self.budget.admit(job.memory)
        if refused is not None:
            await websocket.send(invalid(nonce, refused, "busy"))
            return
        try:
            await self._work(websocket, nonce, job)
        finally:
            self.budget.release(job.memory)

    async def _job(self, request: Request, client: object = None) -> Job:
        """A request's job, made on the server's threads while its data decompresses
        to SMALL_TEXT at most, else in the reader process (one read of ``client``'s
        at a time); Invalid, or Busy."""
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self.pool.threads, small_job, request)
        except OverBudget:
            return await self.read(make_job, request, client)

    async def _work(self, websocket: ServerConnection, nonce: int, job: Job) -> None:
        job = replace(job, timeout=self.settings.timeout)
        if job.command in TRUE_CANDIDATES:
            job = self.answers.start(job)
        last: list[tuple[str, str, JsonObject]] = []

        async def on_reply(kind: str, text: str, own: JsonObject) -> None:
            last[:] = [(kind, text, own)]
            await websocket.send(with_nonce(nonce, text))

        try:
            await asyncio.wait_for(self.pool.run(job, on_reply), self.settings.timeout)
        except TimeoutError:
            limit = f"Stopped at the server's limit of {self.settings.timeout:g} s."
            if job.command == "path" and last and last[0][0] == "path":  # the path so far
                await websocket.send(with_nonce(nonce, _ended(last[0][1], limit)))
            elif job.command != "estimate":
                await websocket.send(invalid(nonce, limit, "limit"))
            return
        if job.command in CACHED and last and not last[0][2].get("_partial"):
            kind, text, own = last[0]
            self.answers.put(job.key, text)
            if job.command in TRUE_CANDIDATES and kind == job.command:
                self.answers.remember(job.puzzle, own)

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
                sockets = ", ".join(f"ws://{settings.host}:{p}/" for p in ports)
                pages = ", ".join(f"http://{settings.host}:{p}/" for p in ports)
                said = f"listening on {sockets} (the plugin); the page: {pages} (Ctrl-C ends it)"
                print(f"sudosat serve: {said}", file=sys.stderr)
                sys.stderr.flush()
                if ready is not None:
                    ready.set()
                return await stop
        finally:
            self.pool.close()
            if self.readers is not None:
                self.readers.shutdown(wait=False, cancel_futures=True)
            for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
                with contextlib.suppress(ValueError, RuntimeError):
                    loop.remove_signal_handler(signum)


class Busy(Exception):
    """The reader process has READS in hand: a read answered as busy."""


NONCE = re.compile(r'^\s*\{\s*"nonce"\s*:\s*([0-9]{1,18})\s*[,}]')
"""A frame's nonce, where it comes first (as the plugin and the page send it)."""


def small_job(request: Request) -> Job:
    """:func:`make_job` on the server's threads: OverBudget when the data decompresses
    past SMALL_TEXT."""
    with budget(SMALL_TEXT):
        return make_job(request)


def _origin(allowed: str) -> Origin | re.Pattern[str]:
    """An allowed origin as websockets matches it: itself, or with ``*.`` first a
    pattern of its subdomains (``https://*.example.com``: ``https://a.example.com``,
    ``https://a.b.example.com``, not ``https://example.com``)."""
    scheme, _, host = allowed.partition("://")
    if not host.startswith("*."):
        return Origin(allowed)
    rest = re.escape(host[2:])
    return re.compile(rf"{re.escape(scheme)}://([a-z0-9-]+\.)+{rest}", re.IGNORECASE)


def read_frame(frame: str | bytes) -> tuple[Request | None, Job | None]:
    """What the reader process does with a large frame: its request, and its job
    when one can be made (None: the server makes it again to say what is wrong)."""
    request = request_of(frame)
    if request is None or request.command == "cancel":
        return request, None
    try:
        return request, make_job(request)
    except Invalid:
        return request, None


def _ended(progress: str, why: str) -> str:
    """A path's last progress reply (its steps so far, as data) as its answer: the
    path ended at the server's limit, its steps kept."""
    found = json.loads(progress)
    found.update(end="timeout", reason=why, inProgress=False)
    return json.dumps(found, separators=(",", ":"))


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


TYPES = {
    "html": "text/html; charset=utf-8",
    "js": "text/javascript; charset=utf-8",
    "css": "text/css; charset=utf-8",
    "json": "application/json",
}
"""The page's files by their kind (a name the page folder has, and no other, is served)."""


def page_files() -> dict[str, bytes]:
    """The setter's page (``sudosat/serving/page``, and its ``parts/``): each file by
    its path there (``main.js``, ``parts/shapes.js``), read once; and ``parts.json``,
    each kind of part the page offers as its rule describes it (:func:`page_parts`)."""
    found: dict[str, bytes] = {}
    folders = [("", files("sudosat.serving").joinpath("page"))]
    while folders:
        prefix, folder = folders.pop()
        for entry in folder.iterdir():
            if entry.is_dir() and not entry.name.startswith(("_", ".")):
                folders.append((f"{prefix}{entry.name}/", entry))
            elif entry.name.rsplit(".", 1)[-1] in TYPES:
                found[prefix + entry.name] = entry.read_bytes()
    found["parts.json"] = json.dumps(page_parts()).encode()
    return found


def _response(status: HTTPStatus, body: bytes, kind: str) -> Response:
    headers = Headers(
        [
            ("Content-Type", kind),
            ("Content-Length", str(len(body))),
            ("Cache-Control", "no-store"),
            ("X-Content-Type-Options", "nosniff"),
            # no page of another site may frame this one and drive the server through it
            ("X-Frame-Options", "DENY"),
            ("Content-Security-Policy", "frame-ancestors 'none'"),
        ]
    )
    return Response(status.value, status.phrase, headers, body)


def serve_forever(settings: Settings) -> int:
    """Run the server until it is told to stop; the stopping signal's number (0: none)."""
    return asyncio.run(Server(settings).run())
