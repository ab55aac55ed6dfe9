"""A pool of worker processes for the solver's heavy work (re-roll advice), shared by the whole server.

Advice solves hundreds of rolls; in the web process it would hold the interpreter for seconds and slow every
other page. The pool runs it on other processes (started with "spawn", so they share no database connection
with the server) on every core, and lives as long as the server. SUJI_SOLVER_PROCESSES sets its size (0: no
pool, the work stays in the request's thread). Should the pool fail (a host program that cannot spawn
processes, a worker killed), the advice is worked out in the request's thread instead and the pool is not used
again.
"""

from __future__ import annotations

import atexit
import logging
import os
import threading
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from multiprocessing import get_context

from suji.advice import Advice, advise
from suji.dice import Roll

log = logging.getLogger(__name__)
_lock = threading.Lock()
_pool: ProcessPoolExecutor | None = None
_failed = False


def pool_size() -> int:
    """How many worker processes the pool has (SUJI_SOLVER_PROCESSES, else one per core, at most 2)."""
    text = os.environ.get("SUJI_SOLVER_PROCESSES", "")
    if text.strip().isdigit():
        return int(text)
    return min(2, os.cpu_count() or 1)


def _shared_pool(size: int) -> ProcessPoolExecutor:
    global _pool
    with _lock:
        if _pool is None:
            _pool = ProcessPoolExecutor(max_workers=size, mp_context=get_context("spawn"))
            atexit.register(_pool.shutdown, wait=False, cancel_futures=True)
        return _pool


def advise_on_pool(roll: Roll, rerolled: int = 0, set_faces: int = 0) -> Advice:
    """suji.advice.advise, with the outcomes solved on the shared pool when there is one."""
    global _failed, _pool
    size = pool_size()
    if size < 1 or _failed:
        return advise(roll, rerolled, set_faces)
    try:
        return advise(roll, rerolled, set_faces, workers=size, executor=_shared_pool(size))
    except (BrokenProcessPool, RuntimeError, OSError) as error:
        log.warning("solver pool unusable (%s); advice is worked out in-process from now on", error)
        with _lock:
            _failed, broken, _pool = True, _pool, None
        if broken is not None:
            broken.shutdown(wait=False, cancel_futures=True)
        return advise(roll, rerolled, set_faces)
