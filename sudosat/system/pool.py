"""Worker processes that answer tasks in order, and survive a worker's death.

:func:`ordered_map` is ``map(func, tasks)`` over ``jobs`` processes: answers
come back in task order as soon as each is ready, while a thread keeps the
workers fed (so a slow stream on stdin is answered as it arrives) within a
bounded window (so input is not read far ahead of the output). When a worker
dies (killed, out of memory) the pool is replaced and the tasks it held are
run again, each once; a task whose worker dies a second time stops the run
with :class:`WorkerError`.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import queue
import signal
import threading
from collections.abc import Callable, Iterable, Iterator
from concurrent import futures
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, NamedTuple, TypeVar, cast

from sudosat.system import spent
from sudosat.system.signals import STOPPING, die_with_parent, held, quiet_thread

T = TypeVar("T")
R = TypeVar("R")

REPLACEMENTS = 3
"""Worker pools a run may replace after a worker died before it stops."""
WINDOW = 4
"""Tasks in flight per worker."""


class WorkerError(RuntimeError):
    """Worker processes kept dying, or new ones could not be started."""


class _Submitted(NamedTuple):
    task: Any
    generation: int
    """The pool (by number) the task went to."""
    future: Future[Any] | None
    """None: that pool was broken; the task is submitted again to its successor."""


def _quiet_worker(parent: int | None) -> None:
    """A worker ends with the process that started it, however that ends (SIGKILL,
    the out-of-memory killer), instead of waiting forever for tasks. A stopping
    signal sent to the whole process group (Ctrl-C; ``timeout``, a CI cancel or
    ``kill -- -PGID``: SIGTERM; a closed terminal: SIGHUP) reaches the workers
    too, and must not end them: the main process, told the same, asks each for
    what it had in hand (SIGINT, in a task) and then ends them (SIGKILL)."""
    die_with_parent(parent)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for signum in STOPPING - {signal.SIGINT}:
        # a handler, not SIG_IGN: a solver program started from here gets the default
        signal.signal(signum, _left_to_the_main_process)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, STOPPING)


def _left_to_the_main_process(signum: int, frame: object) -> None:
    """A worker's SIGTERM and SIGHUP: nothing (see :func:`_quiet_worker`)."""


def _interruptible(func: Callable[[T], R], task: T) -> R:
    """``func(task)`` in a worker, with SIGINT raising KeyboardInterrupt as in a
    process of its own: the task hands back what it had done (a count's ``N+``,
    its whole records). Between tasks a worker ignores SIGINT."""
    signal.signal(signal.SIGINT, _interrupted_once)
    try:
        return func(task)
    finally:
        signal.signal(signal.SIGINT, signal.SIG_IGN)


def _interrupted_once(signum: int, frame: object) -> None:
    """A task's first SIGINT raises; the next are ignored. Ctrl-C reaches a worker
    from the terminal and again from the main process (:func:`_in_hand`): the
    second must not cut the first's hand-back in half."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    raise KeyboardInterrupt


IN_HAND = 0.5
"""CPU seconds a stopped run's workers may spend handing back the tasks they had
in hand (half the supervisor's process.GRACE, which then kills the work):
counted in CPU time, so that a loaded machine that runs a worker late does not
lose its answer (see :mod:`sudosat.system.spent`)."""
IN_HAND_WALL = 5.0
"""Seconds a stopped run waits for its workers however little they run (half
the supervisor's process.GRACE_WALL): a worker hung without running."""
LOOK = 0.02
"""Seconds between looks at the workers' CPU time while waiting for an answer."""


def _drained(items: queue.Queue[Any]) -> list[Any]:
    found = []
    with contextlib.suppress(queue.Empty):
        while True:
            found.append(items.get_nowait())
    return found


def _in_hand(items: list[Any], pool: ProcessPoolExecutor) -> Iterator[Any]:
    """The answers of a stopped run's tasks, in order, while the workers hand
    them back within their grace (IN_HAND): each worker is interrupted
    (SIGINT) and hands back what it had done; the first task that fails, or
    the grace's end, ends them."""
    workers = [process.pid for process in (getattr(pool, "_processes", None) or {}).values()]
    for pid in workers:
        with contextlib.suppress(ProcessLookupError, TypeError):
            os.kill(pid, signal.SIGINT)
    grace = spent.Grace(IN_HAND, IN_HAND_WALL, lambda: spent.seconds(workers))
    for item in items:
        if not isinstance(item, _Submitted) or item.future is None:
            return
        while not item.future.done() and not grace.over():
            futures.wait([item.future], timeout=LOOK)
        try:
            done = item.future.result(timeout=0)
        except BaseException:  # late, cancelled, or the task itself stopped
            return
        yield done


def _new_pool(jobs: int, method: str) -> ProcessPoolExecutor:
    # forked workers are this process's children; a fork server's are its own
    parent = os.getpid() if method == "fork" else None
    return ProcessPoolExecutor(
        jobs,
        mp_context=multiprocessing.get_context(method),
        initializer=_quiet_worker,
        initargs=(parent,),
    )


def ordered_map(
    func: Callable[[T], R],
    tasks: Iterable[T],
    jobs: int,
    *,
    describe: Callable[[T], str] = lambda task: "a task",
    warn: Callable[[str], None] = lambda note: None,
) -> Iterator[R]:
    """``func`` over ``tasks`` in ``jobs`` worker processes, answers in task order.

    ``describe`` names a task in the error that stops the run; ``warn`` hears that
    a worker died and new ones took over.
    """
    first = _new_pool(jobs, "fork")
    with held():  # the pool's own threads start with the stopping signals blocked
        started = first.submit(int)
    started.result()  # every worker forked now, before this process starts threads
    pools = [first]
    window = threading.Semaphore(jobs * WINDOW)
    submitted: queue.Queue[_Submitted | BaseException | None] = queue.Queue()
    stop = threading.Event()

    def submit(task: T, generation: int) -> Future[R] | None:
        try:
            return pools[generation].submit(_interruptible, func, task)
        except BrokenProcessPool:
            return None
        except OSError as error:
            raise WorkerError(f"cannot start new worker processes: {error}") from None

    def feed() -> None:
        try:
            for task in tasks:
                while not window.acquire(timeout=0.1):
                    if stop.is_set():
                        return
                if stop.is_set():
                    return
                generation = len(pools) - 1
                submitted.put(_Submitted(task, generation, submit(task, generation)))
        except BaseException as error:  # reading failed: say so in order, then stop
            submitted.put(error)
        finally:
            submitted.put(None)

    def answer(item: _Submitted) -> R:
        generation, future = item.generation, item.future
        for attempt in range(2):
            if future is not None:
                try:
                    return cast(R, future.result())
                except BrokenProcessPool:
                    pass
            if attempt == 1 or len(pools) > REPLACEMENTS:
                break
            if generation == len(pools) - 1:  # the current pool broke: replace it
                warn("Warning: a worker process died; starting new workers")
                # a fork server: this process has threads by now, and forking it could
                # hand a worker a lock some other thread held
                pools.append(_new_pool(jobs, "forkserver"))
            generation = len(pools) - 1
            with held():
                future = submit(item.task, generation)
        raise WorkerError(
            f"worker processes kept dying (the last while solving {describe(item.task)}); "
            "the run stopped there"
        )

    quiet_thread(feed, "sudosat-feeder")
    waited: list[_Submitted] = []  # the task being answered, until it is
    try:
        while (item := submitted.get()) is not None:
            if isinstance(item, BaseException):
                raise item
            waited[:] = [item]
            done = answer(item)
            waited.clear()
            window.release()
            yield done
    except KeyboardInterrupt:  # SIGTERM and SIGHUP too: what the workers had in hand
        stop.set()
        yield from _in_hand([*waited, *_drained(submitted)], pools[-1])
        raise
    finally:
        stop.set()
        for pool in pools:
            for process in list((getattr(pool, "_processes", None) or {}).values()):
                process.kill()  # Ctrl-C or an error: do not wait for queued work
            pool.shutdown(wait=True, cancel_futures=True)
