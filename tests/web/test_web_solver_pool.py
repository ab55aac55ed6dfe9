"""The server's pool of solver processes: the same advice as in-process, and a dead worker is replaced."""

from __future__ import annotations

import os
import signal
import time
from concurrent.futures.process import BrokenProcessPool

import pytest

from suji.rules.dice import random_roll
from suji.solver.advice import advise, best_scores, choices, options_from_scores
from suji.web import solver_pool


@pytest.fixture(autouse=True)
def fresh_pool(monkeypatch):
    solver_pool.shutdown()
    monkeypatch.setattr(solver_pool, "_no_pool_until", 0.0)
    yield
    solver_pool.shutdown()


def advise_on_pool(roll, rerolled: int = 0):  # noqa: ANN001
    found = choices(roll)
    return options_from_scores(found, solver_pool.outcome_scores(roll, found.keys()), rerolled)


@pytest.mark.slow
def test_the_pool_gives_the_same_advice_as_one_process(monkeypatch):
    monkeypatch.setenv("SUJI_SOLVER_PROCESSES", "2")
    roll = random_roll(3)
    on_pool = advise_on_pool(roll, rerolled=1)
    here = advise(roll, rerolled=1)
    assert [o.to_dict() for o in on_pool.options] == [o.to_dict() for o in here.options]


def test_a_broken_pool_is_replaced_and_the_work_asked_again(monkeypatch):
    monkeypatch.setenv("SUJI_SOLVER_PROCESSES", "2")
    executors = []

    def work(executor, workers):  # noqa: ANN001
        executors.append(executor)
        if len(executors) == 1:
            raise BrokenProcessPool("a worker died")
        return {"answer": workers}

    before = solver_pool.replaced
    assert solver_pool.on_pool(work) == {"answer": 2}
    assert executors[0] is not None and executors[1] is not None and executors[0] is not executors[1]
    assert solver_pool.replaced == before + 1
    assert solver_pool.on_pool(lambda executor, workers: {"same": executor is executors[1]}) == {"same": True}


def test_pools_that_keep_breaking_leave_the_work_to_the_asking_thread_for_a_while(monkeypatch):
    monkeypatch.setenv("SUJI_SOLVER_PROCESSES", "2")
    seen = []

    def work(executor, workers):  # noqa: ANN001
        seen.append(executor is not None)
        if executor is not None:
            raise BrokenProcessPool("cannot start processes here")
        return {"in": "thread"}

    assert solver_pool.on_pool(work) == {"in": "thread"} and seen == [True, True, False]
    assert solver_pool.on_pool(work) == {"in": "thread"} and seen[3:] == [False]  # not tried for a minute


def test_no_pool_when_switched_off(monkeypatch):
    monkeypatch.setenv("SUJI_SOLVER_PROCESSES", "0")
    assert solver_pool.pool_size() == 0
    assert solver_pool.on_pool(lambda executor, workers: {"executor": executor, "workers": workers}) == {
        "executor": None, "workers": 1,
    }  # fmt: skip


@pytest.mark.slow
def test_a_killed_worker_is_replaced_and_the_advice_still_comes(monkeypatch):
    monkeypatch.setenv("SUJI_SOLVER_PROCESSES", "2")
    roll = random_roll(7)
    keys = choices(roll).keys()
    first = solver_pool.outcome_scores(roll, keys)  # starts the pool's workers
    pool = solver_pool._pool
    assert pool is not None and pool._processes
    victim = next(iter(pool._processes))
    os.kill(victim, signal.SIGKILL)
    while not pool._broken:  # until the pool has seen its worker die (it must: a wait on that, not a deadline)
        time.sleep(0.01)
    before = solver_pool.replaced
    again = solver_pool.outcome_scores(random_roll(8), choices(random_roll(8)).keys())
    assert solver_pool.replaced == before + 1 and solver_pool._pool is not pool
    assert again == best_scores(random_roll(8), choices(random_roll(8)).keys())
    assert first == best_scores(roll, keys)
