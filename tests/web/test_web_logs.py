"""The server's log: waitress's queue warning, which wrote 70,000 lines under load, comes once a minute at most."""

from __future__ import annotations

import logging

from suji.web.logs import QUEUE_LOGGER, OncePerInterval


def test_seventy_thousand_queue_warnings_are_two_lines_that_say_what_they_held_back(app, caplog):
    from waitress.task import ThreadedTaskDispatcher

    logger = ThreadedTaskDispatcher.queue_logger
    (limiter,) = [f for f in logger.filters if isinstance(f, OncePerInterval)]  # put there by create_app
    now = [1000.0]
    saved = limiter.clock, limiter.last, limiter.held, limiter.deepest
    # A clock the test moves (no waiting), and nothing held back by an earlier test's server in this process.
    limiter.clock, limiter.last, limiter.held, limiter.deepest = (lambda: now[0]), None, 0, 0
    try:
        with caplog.at_level(logging.WARNING, logger=QUEUE_LOGGER):
            for depth in range(1, 70_001):
                if depth == 50_000:
                    now[0] += 61  # a minute later
                logger.warning("Task queue depth is %d", depth % 300 + 1)
    finally:
        limiter.clock, limiter.last, limiter.held, limiter.deepest = saved
    lines = [r.getMessage() for r in caplog.records if r.name == QUEUE_LOGGER]
    assert len(lines) == 2
    assert lines[0] == "Task queue depth is 2"
    assert "49998 more such warnings in the last 60 s not logged" in lines[1] and "deepest 300" in lines[1]
