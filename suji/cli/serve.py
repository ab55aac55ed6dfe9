"""`suji serve [--host H] [--port P] [--threads N] [--connection-limit N]`: the web app on waitress.

The options are checked first (a port, threads, an address this computer can listen on), so a typo is a
message, not a traceback; so is a setting the app cannot start with (suji.web.startup: a shared database
without SUJI_SECRET_KEY, a database that cannot be opened or written). Flask is imported only here, so the
other commands never load it. Threads and the connection limit default to SUJI_THREADS and
SUJI_CONNECTION_LIMIT (suji.web.settings: 8 and 1000).
"""

from __future__ import annotations

import argparse

from suji.cli.common import CLI_TEXT, default_language, fail
from suji.core.i18n import translate


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("serve", help="start the web app on waitress (http://127.0.0.1:8000 by default)")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (0.0.0.0 for the whole network)")
    p.add_argument("--port", type=int, default=8000)
    p.add_argument("--threads", type=int, default=None, help="waitress worker threads (default SUJI_THREADS or 8)")
    p.add_argument("--connection-limit", type=int, default=None,
                   help="open connections at most (default SUJI_CONNECTION_LIMIT or 1000)")  # fmt: skip
    p.set_defaults(func=cmd_serve)


def check_server_options(args: argparse.Namespace, lang: str) -> str | None:
    """A message when the port, host or threads cannot work, before anything starts."""
    import ipaddress
    import socket

    if not 1 <= args.port <= 65535:
        return translate(CLI_TEXT["bad_port"], lang)
    if args.threads is not None and not 1 <= args.threads <= 64:
        return translate(CLI_TEXT["bad_threads"], lang)
    if getattr(args, "connection_limit", None) is not None and not 10 <= args.connection_limit <= 100_000:
        return translate(CLI_TEXT["bad_connection_limit"], lang)
    host = args.host
    try:
        ipaddress.ip_address(host)
    except ValueError:
        looks_numeric = host.replace(".", "").isdigit()
        try:
            if looks_numeric or not host or any(ch.isspace() for ch in host):
                raise OSError
            socket.getaddrinfo(host, args.port, type=socket.SOCK_STREAM)
        except (OSError, UnicodeError):
            return translate(CLI_TEXT["bad_host"], lang, host=host)
    return None


def cmd_serve(args: argparse.Namespace) -> int:
    from suji.web.serve import serve

    lang = default_language()
    problem = check_server_options(args, lang)
    if problem:
        return fail(problem)
    from suji.web.startup import StartupError

    try:
        return serve(host=args.host, port=args.port, threads=args.threads, connection_limit=args.connection_limit)
    except StartupError as error:  # a setting, the secret key or the database: what to put right
        return fail(error.message(lang))
    except OSError as error:  # the address is taken, or not one of this computer's
        reason = error.strerror or str(error)
        return fail(translate(CLI_TEXT["cannot_listen"], lang, host=args.host, port=args.port, reason=reason))
