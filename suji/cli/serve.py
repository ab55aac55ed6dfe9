"""`suji serve [--host H] [--port P] [--threads N]`: the web app on waitress.

The options are checked first (a port, threads, an address this computer can listen on), so a typo is a
message, not a traceback; Flask is imported only here, so the other commands never load it.
"""

from __future__ import annotations

import argparse

from suji.cli.common import CLI_TEXT, default_language, fail
from suji.core.i18n import translate


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("serve", help="start the web app on waitress (http://127.0.0.1:8000 by default)")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (0.0.0.0 for the whole network)")
    p.add_argument("--port", type=int, default=8000)
    p.add_argument("--threads", type=int, default=8, help="waitress worker threads")
    p.set_defaults(func=cmd_serve)


def check_server_options(args: argparse.Namespace, lang: str) -> str | None:
    """A message when the port, host or threads cannot work, before anything starts."""
    import ipaddress
    import socket

    if not 1 <= args.port <= 65535:
        return translate(CLI_TEXT["bad_port"], lang)
    if not 1 <= args.threads <= 64:
        return translate(CLI_TEXT["bad_threads"], lang)
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
    try:
        return serve(host=args.host, port=args.port, threads=args.threads)
    except OSError as error:  # the address is taken, or not one of this computer's
        reason = error.strerror or str(error)
        return fail(translate(CLI_TEXT["cannot_listen"], lang, host=args.host, port=args.port, reason=reason))
