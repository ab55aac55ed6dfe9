"""`suji serve`: the web app on waitress, a production WSGI server, with no configuration needed."""

from __future__ import annotations

import sys


def serve(host: str = "127.0.0.1", port: int = 8000, threads: int = 8) -> int:
    """Serve the app until interrupted; returns the exit status."""
    from waitress import serve as waitress_serve

    from suji.web import create_app

    app = create_app()
    print(f"suji: serving on http://{host}:{port}/ (Ctrl+C to stop)", file=sys.stderr, flush=True)
    # ident="" keeps the server's name out of the headers; the channel timeout drops idle keep-alive clients.
    waitress_serve(app, host=host, port=port, threads=threads, ident="", channel_timeout=60)
    return 0
