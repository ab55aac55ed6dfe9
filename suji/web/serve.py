"""`suji serve`: the web app on waitress, a production WSGI server, with no configuration needed.

On its first run `suji serve` also starts building the odds table (suji.solver.odds) in one low-priority background
process, unless SUJI_ODDS_BUILD=0 or a table or a build is already there. Pages show how far it has got; the
advice switches from live solving to lookups as soon as the table is complete. The build stops with the server
that started it (and by itself should that server die, after the part it is solving).

Several `suji serve` processes on one machine share the table: each keeps an eye on it (`keep_building`, every
half minute) and, when the table is neither complete nor being built, starts the build where it stopped. A
launch lock beside the table (flock, held from the check until the new build holds the build's own lock) makes
one of them start it, never two; a build that fails (a full disk) is tried again less and less often.

One process, SUJI_THREADS worker threads (8) and up to SUJI_CONNECTION_LIMIT open connections (1000: waitress's
own 100 is one class and a half of tablets with keep-alive connections, and a connection past the limit waits
until one closes, up to a minute). The process may keep that many sockets open: its limit of open files is
raised to fit, as far as the system allows. For several processes or machines, see the README's "Deployment"
(gunicorn behind nginx, deploy/).
"""

from __future__ import annotations

import atexit
import gc
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

from suji.core import native

KEEP_SECONDS = 30.0  # how often each server looks whether the table needs a build (a dead server's, say)
MAX_BACKOFF_SECONDS = 3600.0
_told: set[str] = set()  # the table paths whose build could not start, said once


def launch_lock_path(table_path: str) -> Path:
    return Path(table_path).with_name(Path(table_path).name + ".launch")


def start_background_build(
    table_path: str, instance_path: str, wanted: bool = True
) -> subprocess.Popen | None:
    """Start `suji odds build` at the lowest priority on one core, unless it is not needed, not wanted, or
    another server is starting one right now (the launch lock)."""
    import fcntl

    from suji.solver.odds import TableError
    from suji.solver.odds.build import build_running, check_place, table_status

    if not wanted or table_status(table_path).state in ("ready", "building"):
        return None
    try:
        check_place(Path(table_path))
        launch = open(launch_lock_path(table_path), "a+")
    except (TableError, OSError) as error:  # the build could not write there either: say so, once
        if table_path not in _told:
            _told.add(table_path)
            reason = error.message("en") if isinstance(error, TableError) else str(error)  # as the lines below
            print(f"suji: the odds table is not built ({reason})", file=sys.stderr, flush=True)
        return None
    with launch:
        try:
            fcntl.flock(launch, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            return None  # another server is starting it this moment
        if table_status(table_path).state in ("ready", "building"):
            return None  # started (or finished) by another server since the first look
        child = _spawn_build(table_path, instance_path)
        # Hold the launch lock until the build holds its own lock (or has ended): no second server starts one
        # in between. A wait on that condition, which a starting process reaches in a moment.
        while child.poll() is None and not build_running(table_path):
            time.sleep(0.05)
    return child


def _spawn_build(table_path: str, instance_path: str) -> subprocess.Popen:
    command = [
        sys.executable, "-m", "suji", "odds", "build", "--workers", "1", "--nice", "19", "--quiet",
        "--path", table_path, "--parent-pid", str(os.getpid()),
    ]  # fmt: skip
    try:
        log = open(Path(instance_path) / "odds-build.log", "ab")
    except OSError:
        log = open(os.devnull, "ab")  # an instance folder that cannot be written: the build still runs
    with log:
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


def keep_building(
    table_path: str,
    instance_path: str,
    wanted: bool = True,
    seconds: float = KEEP_SECONDS,
    stop: threading.Event | None = None,
) -> threading.Thread | None:
    """Look every `seconds` whether the table needs a build and start it (see the module docstring), until
    `stop` is set or the process ends."""
    if not wanted:
        return None
    stopped = stop or threading.Event()

    def watch() -> None:
        wait = seconds
        while not stopped.wait(wait):
            child = start_background_build(table_path, instance_path, wanted)
            if child is None:
                wait = seconds
                continue
            if child.wait() != 0:
                wait = min(wait * 2, MAX_BACKOFF_SECONDS)  # it failed (a full disk): less and less often
                print(f"suji: the odds table's build stopped; trying again in {round(wait)} s (see "
                      f"{Path(instance_path) / 'odds-build.log'})", file=sys.stderr, flush=True)  # fmt: skip
            else:
                wait = seconds

    thread = threading.Thread(target=watch, daemon=True, name="suji-odds-keeper")
    thread.start()
    return thread


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

    from suji.web.settings import EXTENSION_KEY

    files = raise_open_files(connection_limit + SPARE_FILES)
    # Behind SUJI_TRUSTED_PROXIES proxies the app itself reads X-Forwarded-* (ProxyFix, trusting the last N):
    # waitress must pass them on, where by default it drops them, and every pupil of every school behind
    # nginx would then have nginx's address (one shared allowance of wrong codes and sign-ups for everyone).
    trusts_proxies = bool(app.extensions[EXTENSION_KEY].trusted_proxies)
    # ident="" keeps the server's name out of the headers; the channel timeout drops idle keep-alive clients.
    return create_server(
        app, host=host, port=port, threads=threads, ident="", channel_timeout=CHANNEL_TIMEOUT,
        connection_limit=max(10, min(connection_limit, files - SPARE_FILES)),
        clear_untrusted_proxy_headers=not trusts_proxies,
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
    keep_building(app.config["ODDS_PATH"], app.instance_path, app.config["ODDS_BUILD"])
    if builder is not None:
        print(
            "suji: building the odds table in the background (one low-priority process; SUJI_ODDS_BUILD=0 "
            "turns this off); advice is worked out live until it is done",
            file=sys.stderr,
            flush=True,
        )
    print(f"suji: serving on http://{host}:{port}/ ({threads} threads, up to "
          f"{server.adj.connection_limit} connections; {native.summary()}; Ctrl+C to stop)", file=sys.stderr,
          flush=True)  # fmt: skip
    # Everything built so far (the app, its modules, templates and tables) lives as long as the process: frozen, it
    # is no longer walked by every full garbage collection while the requests' short-lived objects come and go.
    gc.freeze()
    try:
        server.run()
    except KeyboardInterrupt:
        pass
    finally:
        server.close()
    return 0
