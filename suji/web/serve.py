"""`suji serve`: the web app on waitress, a production WSGI server, with no configuration needed.

One process, SUJI_THREADS worker threads (8) and up to SUJI_CONNECTION_LIMIT open connections (1000: waitress's
own 100 is one class and a half of tablets with keep-alive connections, and a connection past the limit waits
until one closes, up to a minute). The process may keep that many sockets open: its limit of open files is
raised to fit, as far as the system allows. For several processes or machines, see the README's "Deployment"
(gunicorn behind nginx, deploy/).

On its first run `suji serve` also starts building the odds table (suji.solver.odds) in one low-priority background
process, unless SUJI_ODDS_BUILD=0 or a table or a build is already there. Pages show how far it has got; the
advice switches from live solving to lookups as soon as the table is complete. The build stops with the server
(and by itself should the server die) and goes on where it stopped next time.
"""

from __future__ import annotations

import atexit
import os
import signal
import subprocess
import sys
from pathlib import Path


def start_background_build(
    table_path: str, instance_path: str, wanted: bool = True
) -> subprocess.Popen | None:
    """Start `suji odds build` at the lowest priority on one core, unless it is not needed or not wanted."""
    from suji.solver.odds.build import table_status

    if not wanted:
        return None
    if table_status(table_path).state in ("ready", "building"):
        return None
    log_path = Path(instance_path) / "odds-build.log"
    command = [
        sys.executable, "-m", "suji", "odds", "build", "--workers", "1", "--nice", "19", "--quiet",
        "--path", table_path, "--parent-pid", str(os.getpid()),
    ]  # fmt: skip
    with open(log_path, "ab") as log:
        child = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT)

    def stop() -> None:
        if child.poll() is None:
            child.terminate()  # the build keeps its finished parts
            try:
                child.wait(timeout=10)
            except subprocess.TimeoutExpired:
                child.kill()

    atexit.register(stop)
    return child


CHANNEL_TIMEOUT = 60  # seconds an idle keep-alive connection is kept
SPARE_FILES = 64  # open files beside the connections: the database, the odds table, templates, logs


def raise_open_files(wanted: int) -> int:
    """Raise this process's limit of open files to `wanted` if the system lets it (the hard limit); the limit now."""
    try:
        import resource
    except ImportError:  # pragma: no cover - not on Windows
        return wanted
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and soft < wanted:
        new = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (new, hard))
            soft = new
        except (ValueError, OSError):
            pass
    return wanted if soft == resource.RLIM_INFINITY else int(soft)


def build_server(app, host: str, port: int, threads: int, connection_limit: int):  # noqa: ANN001, ANN201
    """waitress's server for `app`, bound (an address in use or not this computer's raises OSError here)."""
    from waitress import create_server

    files = raise_open_files(connection_limit + SPARE_FILES)
    # ident="" keeps the server's name out of the headers; the channel timeout drops idle keep-alive clients.
    return create_server(
        app, host=host, port=port, threads=threads, ident="", channel_timeout=CHANNEL_TIMEOUT,
        connection_limit=max(10, min(connection_limit, files - SPARE_FILES)),
    )  # fmt: skip


def serve(host: str = "127.0.0.1", port: int = 8000, threads: int | None = None,
          connection_limit: int | None = None) -> int:  # fmt: skip
    """Serve the app until interrupted (threads and connections from the settings unless given); the exit status."""
    from suji.web import create_app
    from suji.web.settings import current_settings

    app = create_app()
    with app.app_context():
        settings = current_settings()
    threads = threads or settings.threads
    connection_limit = connection_limit or settings.connection_limit
    # Bind first: an address in use or not this computer's fails here (OSError), before anything starts.
    server = build_server(app, host, port, threads, connection_limit)
    # SIGTERM ends the server like Ctrl+C does, so the exit handlers stop the build and the solver's pool.
    signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(0))
    builder = start_background_build(app.config["ODDS_PATH"], app.instance_path, app.config["ODDS_BUILD"])
    if builder is not None:
        print(
            "suji: building the odds table in the background (one low-priority process; SUJI_ODDS_BUILD=0 "
            "turns this off); advice is worked out live until it is done",
            file=sys.stderr,
            flush=True,
        )
    print(f"suji: serving on http://{host}:{port}/ ({threads} threads, up to "
          f"{server.adj.connection_limit} connections; Ctrl+C to stop)", file=sys.stderr, flush=True)  # fmt: skip
    try:
        server.run()
    except KeyboardInterrupt:
        pass
    finally:
        server.close()
    return 0
