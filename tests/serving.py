"""Stopping a waitress server that a test runs in a thread, cleanly.

Closing a waitress server from another thread races its loop (the loop's `select` then meets a closed socket and
the thread dies with EBADF), so `stop` asks the loop itself to close every channel: the loop then ends by itself.
"""

from __future__ import annotations

import threading


def stop(server, runner: threading.Thread) -> None:  # noqa: ANN001 - a waitress server
    """Close every channel from inside the server's loop, wait (bounded) for the loop to end, stop its workers."""

    def close_everything() -> None:
        for channel in list(server._map.values()):
            channel.close()

    server.trigger.pull_trigger(close_everything)
    runner.join(timeout=30)
    server.task_dispatcher.shutdown()
