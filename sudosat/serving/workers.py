"""Warm worker processes: where a request's work runs, so that it can be stopped.

A PySAT solver holds the interpreter for as long as one solve lasts (CaDiCaL
does not give it back even when asked to), so a job that must stop at once,
when the setter types again, runs in a process of its own, and stopping it is
killing that process. To keep that cheap, workers are forked from a fork
server that has imported sudosat's engines once (multiprocessing's
``forkserver``, its modules preloaded): a new worker costs a fork, never an
interpreter start or an import, and one is kept ready before it is needed. A
worker that finished its job waits for the next one, its caches warm.

A worker dies with its parent (``PR_SET_PDEATHSIG``), and the server ends
every one it started when it stops.
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import signal
import traceback
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from multiprocessing.connection import Connection
from typing import Any

from sudosat.core.jsonobject import JsonObject
from sudosat.serving.protocol import Job, body
from sudosat.system.process import rss

ENGINES = ["sudosat.serving.answers"]
"""What the fork server imports once, for every worker it forks."""
KEPT_RSS = 256 << 20
"""A worker holding more than this after its job is let go rather than kept idle
(a fresh one holds about 60 MB)."""
DONE = "done"
"""A worker's word that the job's replies are all sent."""

OnReply = Callable[[str, str, JsonObject], Awaitable[None]]
"""Called with each reply's ``type``, its text without the nonce (:func:`protocol.body`)
and the fields kept for the server alone (named ``_...``), in order."""


def _work(jobs: Connection) -> None:
    """A worker's life: a job at a time, each reply sent as it is made."""
    from sudosat.serving.answers import answer
    from sudosat.system.signals import PR_SET_PDEATHSIG, prctl

    prctl(PR_SET_PDEATHSIG, signal.SIGKILL)  # never outlive the server
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the server's to handle
    while True:
        try:
            job = jobs.recv()
        except (EOFError, OSError):
            return

        def send(kind: str, **fields: Any) -> None:  # the text made here, not on the server's loop
            own = {key: value for key, value in fields.items() if key.startswith("_")}
            jobs.send((kind, body(kind, **fields), own))

        try:
            answer(job, send)
        except Exception as err:  # a bug: the setter sees a line, the server goes on
            traceback.print_exc()
            send("invalid", message=f"internal error: {type(err).__name__}: {err}", why="error")
        jobs.send(DONE)


class Worker:
    """One worker process and the pipe its jobs and replies go through."""

    def __init__(self, context: Any) -> None:
        self.pipe, theirs = context.Pipe()
        self.process = context.Process(target=_work, args=(theirs,), daemon=True)
        self.process.start()
        theirs.close()

    def rss(self) -> int:
        """Bytes of memory the process holds now; 0 when not known."""
        return rss(self.process.pid) if self.process.pid is not None else 0

    def kill(self) -> None:
        """Stop it now, whatever it is doing; reaped. (Its pipe is left to close
        when no thread reads it any more: closing it under a reader could hand the
        reader another file that takes its number.)"""
        with contextlib.suppress(OSError, ValueError, AttributeError):
            self.process.kill()
        with contextlib.suppress(OSError, ValueError, AssertionError):
            self.process.join(5)


def _start_fork_server() -> None:
    """The fork server, started from the main thread with SIGINT ignored, which it
    keeps (a disposition exec keeps; Python leaves an ignored SIGINT ignored): a
    Ctrl-C reaches the whole process group, and one that came while the server
    imports sudosat's engines (a second or two) printed a KeyboardInterrupt
    traceback from it. It ends when ``serve`` does (its pipe closes)."""
    from multiprocessing import forkserver

    old = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        forkserver.ensure_running()
    finally:
        signal.signal(signal.SIGINT, old)


class Pool:
    """The workers: ``spare`` kept ready and idle, no more; the others at work.

    A worker that finished its job goes back to wait for the next only while fewer
    than ``spare`` wait, and only while it holds no more than :data:`KEPT_RSS`
    (the caches of a big job's answer are let go with the process)."""

    def __init__(self, spare: int = 1) -> None:
        self.context = multiprocessing.get_context("forkserver")
        self.context.set_forkserver_preload(ENGINES)
        _start_fork_server()
        self.spare = spare
        self.idle: list[Worker] = []
        self.busy: set[Worker] = set()
        self.starting = 0
        """Workers being started for the idle list (so that warming never overshoots)."""
        self.warming: set[asyncio.Task[None]] = set()
        self.threads = ThreadPoolExecutor(64, thread_name_prefix="sudosat-serve")
        """Threads that wait on the workers' pipes (and start workers), so that the
        event loop never does."""

    async def warm(self) -> None:
        """Workers ready, up to ``spare``: the first call starts the fork server."""
        loop = asyncio.get_running_loop()
        while len(self.idle) + self.starting < self.spare:
            self.starting += 1
            try:
                worker = await loop.run_in_executor(self.threads, Worker, self.context)
            finally:
                self.starting -= 1
            self.idle.append(worker)

    async def run(self, job: Job, on_reply: OnReply) -> None:
        """Run ``job`` on a worker, each reply passed to ``on_reply`` as it comes.
        Cancelled (a new request, a closed connection, the time limit), the
        worker is killed at once and a fresh one made ready."""
        loop = asyncio.get_running_loop()
        worker = self.idle.pop() if self.idle else await self._started()
        self.busy.add(worker)
        done = False
        try:
            await loop.run_in_executor(self.threads, worker.pipe.send, job)  # a big grid's job
            while True:
                item = await loop.run_in_executor(self.threads, worker.pipe.recv)
                if item == DONE:
                    done = True
                    return
                await on_reply(*item)
        except (EOFError, OSError):  # the worker died (out of memory?): said once
            died = "the worker process died; try again"
            await on_reply("invalid", body("invalid", message=died, why="error"), {})
        finally:  # (nothing awaited here: a cancelled job ends now)
            self.busy.discard(worker)
            if done and len(self.idle) < self.spare and worker.rss() <= KEPT_RSS:
                self.idle.append(worker)
            else:
                worker.kill()
                task = loop.create_task(self.warm())
                self.warming.add(task)
                task.add_done_callback(self.warming.discard)

    async def _started(self) -> Worker:
        """A new worker for a job; one cancelled while it starts is killed once started."""
        started = asyncio.get_running_loop().run_in_executor(self.threads, Worker, self.context)
        try:
            return await asyncio.shield(started)
        except asyncio.CancelledError:
            started.add_done_callback(self._kill_started)
            raise

    def _kill_started(self, started: asyncio.Future[Worker]) -> None:
        if not started.cancelled() and started.exception() is None:
            self.threads.submit(started.result().kill)

    def close(self) -> None:
        """Every worker killed, and the threads let go."""
        for worker in [*self.idle, *self.busy]:
            worker.kill()
        self.idle.clear()
        self.busy.clear()
        self.threads.shutdown(wait=False, cancel_futures=True)
