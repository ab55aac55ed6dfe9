"""Read a request's JSON body defensively: anything odd becomes None, for a clear 400 instead of a 500."""

from __future__ import annotations

from typing import Any

from flask import request

# No request of this app nests deeper than a couple of levels.
MAX_DEPTH = 8


def json_body() -> Any | None:
    """The request's JSON, or None when it is missing, malformed, nested absurdly deep, or holds text that is
    not valid Unicode (a lone surrogate such as "\\ud800", which JSON allows but UTF-8 cannot carry back)."""
    if not request.is_json:
        return None
    try:
        data = request.get_json(silent=True)
    except RecursionError:  # the JSON parser gives up on thousands of nested brackets this way
        return None
    return data if _plain(data, 0) else None


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
