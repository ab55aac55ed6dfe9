"""Read a request's JSON body defensively: anything odd becomes None, for a clear 400 instead of a 500."""

from __future__ import annotations

import re
from typing import Any

from flask import Request, request

# No request of this app nests deeper than a couple of levels.
MAX_DEPTH = 8
# How JSON text can spell a surrogate (U+D800–DFFF): only as an escape, since valid UTF-8 cannot carry one.
_SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89a-fA-F]")


def json_body(req: Request | None = None) -> Any | None:
    """The request's JSON, or None when it is missing, malformed, nested absurdly deep, or holds text that is
    not valid Unicode (a lone surrogate such as "\\ud800", which JSON allows but UTF-8 cannot carry back).
    `req` is the current request when the caller holds it already."""
    if req is None:
        req = request._get_current_object()  # looked up once: each look through the proxy costs a little
    if not req.is_json:
        return None
    try:
        data = req.get_json(silent=True)
    except RecursionError:  # the JSON parser gives up on thousands of nested brackets this way
        return None
    return data if _surely_plain(req.get_data(cache=True)) or _plain(data, 0) else None


def _surely_plain(raw: bytes) -> bool:
    """Whether the body's bytes alone show its JSON to be plain, without walking the values (the usual case).

    Valid UTF-8 without NUL bytes (which json.loads would read as UTF-16 or UTF-32) holds no raw surrogate; with
    no surrogate escape either, no text in it is one; and with at most MAX_DEPTH brackets in all, nothing in it
    nests deeper. A body that fails this may still be plain: `_plain` decides.
    """
    if raw.count(b"[") + raw.count(b"{") > MAX_DEPTH or b"\x00" in raw or _SURROGATE_ESCAPE.search(raw):
        return False
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def _plain(value: Any, depth: int) -> bool:
    if depth > MAX_DEPTH:
        return False
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            return False
        return True
    if isinstance(value, list):
        return all(_plain(v, depth + 1) for v in value)
    if isinstance(value, dict):
        return all(_plain(k, depth + 1) and _plain(v, depth + 1) for k, v in value.items())
    return True
