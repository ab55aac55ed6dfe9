"""The server's pool of solver processes: same advice as in-process, and a broken pool falls back quietly."""

from __future__ import annotations

from concurrent.futures.process import BrokenProcessPool

import pytest

from suji.rules.dice import random_roll
from suji.solver.advice import advise
from suji.web import solver_pool


@pytest.mark.slow
def test_the_pool_gives_the_same_advice_as_one_process(monkeypatch):
    monkeypatch.setenv("SUJI_SOLVER_PROCESSES", "2")
    monkeypatch.setattr(solver_pool, "_failed", False)
    roll = random_roll(3)
    on_pool = solver_pool.advise_on_pool(roll, rerolled=1)
    here = advise(roll, rerolled=1)
    assert [o.to_dict() for o in on_pool.options] == [o.to_dict() for o in here.options]


@pytest.mark.slow
def test_a_broken_pool_falls_back_to_the_request_thread(monkeypatch):
    monkeypatch.setenv("SUJI_SOLVER_PROCESSES", "2")
    monkeypatch.setattr(solver_pool, "_failed", False)
    calls = []

    real_best_scores = solver_pool.best_scores

    def flaky_best_scores(roll, keys, workers=1, executor=None, table=None):
        calls.append(executor is not None)
        if executor is not None:
            raise BrokenProcessPool("a worker died")
        return real_best_scores(roll, keys)

    monkeypatch.setattr(solver_pool, "best_scores", flaky_best_scores)
    roll = random_roll(5)
    result = solver_pool.advise_on_pool(roll)
    assert calls == [True, False] and result.options
    solver_pool.advise_on_pool(roll)  # the pool is not tried again
    assert calls == [True, False, False]


@pytest.mark.slow
def test_no_pool_when_switched_off(monkeypatch):
    monkeypatch.setenv("SUJI_SOLVER_PROCESSES", "0")
    assert solver_pool.pool_size() == 0
    assert solver_pool.advise_on_pool(random_roll(2)).options
