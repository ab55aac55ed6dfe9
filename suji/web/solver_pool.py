"""Re-roll advice for the web: lookups in the odds table when it is there, else a queue to the solver's pool.

With a complete odds table (suji.solver.odds) the advice of any roll is a few thousand lookups, worked out in the
request's thread in milliseconds. Without it, the outcomes of a roll are solved live: requests wait their
turn in a queue (one live calculation at a time, none refused), and the solved outcomes are kept by roll, so
another player asking about the same dice, whatever they have spent, gets the answer at once.

A pool of worker processes does the live solving, shared by the whole server.

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
import time
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from multiprocessing import get_context

from suji.core.caching import LruDict
from suji.rules.dice import Roll
from suji.solver.advice import Advice, best_scores, choices, options_from_scores
from suji.solver.odds import table_or_none
from suji.web.settings import current_settings

log = logging.getLogger(__name__)
_lock = threading.Lock()
_pool: ProcessPoolExecutor | None = None
_failed = False
# One live calculation at a time: the others wait here in turn rather than hear "busy".
_live_queue = threading.Lock()
_live_scores: LruDict[tuple, dict] = LruDict("advice_outcomes")  # outcome scores by roll (dice, targets)


def pool_size() -> int:
    """How many worker processes the pool has (SUJI_SOLVER_PROCESSES, else one per core, at most 2)."""
    return current_settings().pool_size


def _exit_with_parent(parent: int) -> None:
    """In a pool worker: end this process as soon as the server that started it is gone (even after a kill -9)."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(0)

    threading.Thread(target=watch, daemon=True, name="exit-with-parent").start()


def _shared_pool(size: int) -> ProcessPoolExecutor:
    global _pool
    with _lock:
        if _pool is None:
            _pool = ProcessPoolExecutor(
                max_workers=size, mp_context=get_context("spawn"),
                initializer=_exit_with_parent, initargs=(os.getpid(),),
            )  # fmt: skip
            atexit.register(_pool.shutdown, wait=False, cancel_futures=True)
        return _pool


def advise_on_pool(roll: Roll, rerolled: int = 0, set_faces: int = 0) -> Advice:
    """suji.solver.advice.advise, with the outcomes solved on the shared pool when there is one (no table, no cache)."""
    found = choices(roll)
    return options_from_scores(found, _live_outcome_scores(roll, found.keys()), rerolled, set_faces)


def _live_outcome_scores(roll: Roll, keys: list) -> dict:
    """The best score of every outcome, solved on the pool (or in this thread when there is none)."""
    global _failed, _pool
    size = pool_size()
    if size >= 1 and not _failed:
        try:
            return best_scores(roll, keys, workers=size, executor=_shared_pool(size))
        except (BrokenProcessPool, RuntimeError, OSError) as error:
            log.warning("solver pool unusable (%s); advice is worked out in-process from now on", error)
            with _lock:
                _failed, broken, _pool = True, _pool, None
            if broken is not None:
                broken.shutdown(wait=False, cancel_futures=True)
    return best_scores(roll, keys)


class AlreadyAsking(Exception):
    """This client already waits for a live advice: one question at a time each, so nobody fills the queue."""


_asking: set[str] = set()
_asking_lock = threading.Lock()


def advice_for(
    roll: Roll,
    rerolled: int = 0,
    set_faces: int = 0,
    table_path: str | None = None,
    client: str | None = None,
) -> Advice:
    """The advice for a standard roll: from the odds table when usable, else solved live in turn (cached).

    `client` names who asks (a session or an address): while one of its live questions waits or runs,
    another from it raises AlreadyAsking. Raises DiceError("not_standard") for dice the standard set cannot show.
    """
    found = choices(roll)
    keys = found.keys()
    table = table_or_none(table_path)
    if table is not None and table.covers(roll.number_dice, roll.operator_dice, roll.targets):
        return options_from_scores(found, best_scores(roll, keys, table=table), rerolled, set_faces)
    key = (tuple(sorted(roll.number_dice)), tuple(sorted(roll.operator_dice)), roll.targets)
    scores = _live_scores.get(key)
    if scores is None:
        if client is not None:
            with _asking_lock:
                if client in _asking:
                    raise AlreadyAsking(client)
                _asking.add(client)
        try:
            with _live_queue:
                scores = _live_scores.get(key)  # worked out while this request waited its turn
                if scores is None:
                    scores = _live_outcome_scores(roll, keys)
                    _live_scores.put(key, scores)
        finally:
            if client is not None:
                with _asking_lock:
                    _asking.discard(client)
    return options_from_scores(found, scores, rerolled, set_faces)


def client_key() -> str:
    """Who is asking, for one-question-at-a-time: the browser's session (its CSRF token), else its address."""
    from flask import request, session

    token = session.get("csrf_token")
    return f"session:{token}" if token else f"address:{request.remote_addr}"


def live_queue_busy() -> bool:
    """Whether a live advice calculation is running now (pages say that answers may take a while)."""
    return _live_queue.locked()
