"""A real waitress server in a thread for tests that need sockets, started and stopped cleanly.

Closing a waitress server from another thread races its loop (the loop's `select` then meets a closed socket and
the thread dies with EBADF), so `stop` asks the loop itself to close every channel: the loop then ends by itself.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def running(server) -> Iterator[str]:  # noqa: ANN001 - a waitress server
    """Run `server` in a thread; yield its base URL; stop it from its own loop afterwards."""
    runner = threading.Thread(target=server.run, daemon=True)
    runner.start()
    try:
        yield f"http://127.0.0.1:{server.effective_port}"
    finally:
        stop(server, runner)


def stop(server, runner: threading.Thread) -> None:  # noqa: ANN001
    """Close every channel from inside the server's loop, wait (bounded) for the loop to end, stop its workers."""

    def close_everything() -> None:
        for channel in list(server._map.values()):
            channel.close()

    server.trigger.pull_trigger(close_everything)
    runner.join(timeout=30)
    server.task_dispatcher.shutdown()
