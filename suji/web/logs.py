"""The server's log kept readable: waitress's "Task queue depth" warning, once a minute at most.

Waitress logs that warning for every request that arrives while all its threads are busy. Requests queueing
under load is normal (a class of 40 answering at once on 8 threads), so a busy hour wrote 70,000 lines that
hid everything else. The cause on our side, requests that held threads for seconds (live advice, big
worksheets), is gone (suji.web.advice, suji.web.slots); what is left is the queue doing its job. The filter lets
one warning through per interval, saying how many it held back and the deepest queue seen meanwhile.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

QUEUE_LOGGER = "waitress.queue"
INTERVAL_SECONDS = 60.0


class OncePerInterval(logging.Filter):
    """Pass one record per `seconds`; the next one passed tells how many were held back and the deepest queue."""

    def __init__(self, seconds: float = INTERVAL_SECONDS, clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__()
        self.seconds = seconds
        self.clock = clock
        self.last: float | None = None
        self.held = 0
        self.deepest = 0
        self._lock = threading.Lock()

    def filter(self, record: logging.LogRecord) -> bool:
        depth = record.args[0] if isinstance(record.args, tuple) and record.args else 0
        depth = depth if isinstance(depth, int) else 0
        now = self.clock()
        with self._lock:
            if self.last is not None and now - self.last < self.seconds:
                self.held += 1
                self.deepest = max(self.deepest, depth)
                return False
            held, deepest = self.held, max(self.deepest, depth)
            self.last, self.held, self.deepest = now, 0, 0
        if held:
            record.msg = "Task queue depth is %d (deepest %d; %d more such warnings in the last %d s not logged)"
            record.args = (depth, deepest, held, round(self.seconds))
        return True


def init_app(app: object = None) -> None:
    """Put the filter on waitress's queue logger once per process (whichever app or server comes first)."""
    logger = logging.getLogger(QUEUE_LOGGER)
    if not any(isinstance(f, OncePerInterval) for f in logger.filters):
        logger.addFilter(OncePerInterval())
