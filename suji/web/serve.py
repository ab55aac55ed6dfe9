"""`suji serve`: the web app on waitress, a production WSGI server, with no configuration needed.

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


def serve(host: str = "127.0.0.1", port: int = 8000, threads: int = 8) -> int:
    """Serve the app until interrupted; returns the exit status."""
    from waitress import create_server

    from suji.web import create_app

    app = create_app()
    # Bind first: an address in use or not this computer's fails here (OSError), before anything starts.
    # ident="" keeps the server's name out of the headers; the channel timeout drops idle keep-alive clients.
    server = create_server(app, host=host, port=port, threads=threads, ident="", channel_timeout=60)
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
    print(f"suji: serving on http://{host}:{port}/ (Ctrl+C to stop)", file=sys.stderr, flush=True)
    try:
        server.run()
    except KeyboardInterrupt:
        pass
    finally:
        server.close()
    return 0
