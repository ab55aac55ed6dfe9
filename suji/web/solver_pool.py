"""The solver's processes for live advice: a pool shared by the whole server, whose dead workers are replaced.

Advice solves hundreds of rolls; in the web process it would hold the interpreter for seconds and slow every
other page. The pool runs it on other processes (started with "spawn", so they share no database connection
with the server, and at a lower priority, so pages come first) and lives as long as the server.
SUJI_SOLVER_PROCESSES sets its size (0: no pool, the work stays on the thread that asks, which in the web app is
the advice runner's, never a request's: suji.web.advice).

A worker that dies (killed, out of memory) breaks a process pool for good: the broken pool is thrown away and
the question asked again on a new one. Only when new pools keep breaking (a host that cannot start processes)
is the work done on the asking thread, and a new pool tried again a minute later.
"""

from __future__ import annotations

import atexit
import logging
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from multiprocessing import get_context

from suji.rules.dice import Roll
from suji.solver.advice import best_scores
from suji.web.settings import current_settings

log = logging.getLogger(__name__)
WORKER_NICE = 5  # pages before advice: the workers yield the cores to the server's threads (about 3 to 1)
RETRY_AFTER_SECONDS = 60.0  # after new pools kept breaking, how long the work stays on the asking thread
_lock = threading.Lock()
_pool: ProcessPoolExecutor | None = None
_pool_size = 0
_no_pool_until = 0.0
# How many pools broke and were replaced since the server started (for tests and the log).
replaced = 0


def pool_size() -> int:
    """How many worker processes the pool has (SUJI_SOLVER_PROCESSES, else one per core, at most 2)."""
    return current_settings().pool_size


def _start_worker(parent: int) -> None:
    """In a pool worker: a lower priority, and an end as soon as the server that started it is gone."""
    try:
        os.nice(WORKER_NICE)
    except OSError:  # pragma: no cover - a host that refuses a lower priority still gets its answers
        pass

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(0)

    threading.Thread(target=watch, daemon=True, name="exit-with-parent").start()


def _shared_pool(size: int) -> ProcessPoolExecutor:
    global _pool, _pool_size
    with _lock:
        if _pool is None or _pool_size != size:
            if _pool is not None:
                _pool.shutdown(wait=False, cancel_futures=True)
            _pool = ProcessPoolExecutor(
                max_workers=size, mp_context=get_context("spawn"),
                initializer=_start_worker, initargs=(os.getpid(),),
            )  # fmt: skip
            _pool_size = size
        return _pool


def _discard(broken: ProcessPoolExecutor) -> None:
    """Throw a broken pool away (its live workers end with it); the next question starts a new one."""
    global _pool, replaced
    with _lock:
        if _pool is broken:
            _pool = None
            replaced += 1
    broken.shutdown(wait=False, cancel_futures=True)


def on_pool(work: Callable[[ProcessPoolExecutor | None, int], dict]) -> dict:
    """Run `work(executor, workers)` on the shared pool; a pool broken by a dead worker is replaced and the work
    asked again once; without a usable pool `work(None, 1)` runs on this thread."""
    global _no_pool_until
    size = pool_size()
    if size >= 1 and time.monotonic() >= _no_pool_until:
        for _attempt in (1, 2):
            pool = None
            try:
                pool = _shared_pool(size)
                return work(pool, size)
            except (BrokenProcessPool, RuntimeError, OSError) as error:
                log.warning("solver pool broken (%s); starting a new one", error)
                if pool is not None:
                    _discard(pool)
        log.warning("new solver pools keep breaking; advice is worked out in-process for a minute")
        _no_pool_until = time.monotonic() + RETRY_AFTER_SECONDS
    return work(None, 1)


def outcome_scores(roll: Roll, keys: list) -> dict:
    """The best score of every outcome in `keys` (the roll's targets), solved on the pool."""
    return on_pool(lambda executor, workers: best_scores(roll, keys, workers=workers, executor=executor))


def shutdown() -> None:
    """Stop the pool and its workers at once (the server is ending: a question being solved is dropped)."""
    global _pool
    with _lock:
        pool, _pool = _pool, None
    if pool is not None:
        for process in list(getattr(pool, "_processes", {}).values()):
            process.terminate()
        pool.shutdown(wait=False, cancel_futures=True)


# At exit Python waits for every process pool's running work before the atexit handlers run: a live question
# solved under load would hold a server told to stop for minutes. This hook runs before that wait (the threading
# module calls its exit hooks newest first, and concurrent.futures registered its own when it was imported).
_register = getattr(threading, "_register_atexit", None)
if _register is not None:
    _register(shutdown)
atexit.register(shutdown)
