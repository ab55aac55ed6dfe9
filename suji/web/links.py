"""Absolute links, for what leaves the page: QR codes, the class's join link, a teacher's private link.

    SUJI_PUBLIC_URL set ──▶ that address + the route's path (the same on every app process and behind any proxy)
    not set             ──▶ the request's scheme and host (as a trusted proxy reports them: suji.web.settings)

Behind a proxy the app itself is reached at 127.0.0.1:8000 over plain HTTP; a link built on that would lead a
pupil's tablet nowhere, and a teacher's private link would go out over HTTP. Every absolute link goes through
`external_url`, so one setting puts them all right.
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import quote

from flask import current_app, has_request_context, request, url_for


def public_url() -> str | None:
    """The configured public address without a trailing slash (SUJI_PUBLIC_URL), or None."""
    value = current_app.config.get("SUJI_PUBLIC_URL")
    return str(value).rstrip("/") if value else None


def external_url(endpoint: str, **values: Any) -> str:
    """The absolute address of `endpoint` as people reach it (`url_for(…, _external=True)` done right)."""
    base = public_url()
    if base is None:
        return url_for(endpoint, _external=True, **values)
    path = url_for(endpoint, **values)
    # url_for puts the app's own mount point (SCRIPT_NAME, or a trusted X-Forwarded-Prefix) in front; the public
    # address already says where the app lives.
    root = request.script_root if has_request_context() else ""
    if root and path.startswith(root + "/"):
        path = path[len(root) :]
    return base + path


def public_host() -> str:
    """The host name people reach the app at (without a port): the public address's, else the request's."""
    from urllib.parse import urlsplit

    base = public_url()
    if base is None:
        base = "//" + request.host if has_request_context() else ""
    try:
        return (urlsplit(base).hostname or "").lower()
    except ValueError:  # a Host header that is no host
        return ""


# ---- names of downloads ----

_NOT_IN_FILE_NAMES = re.compile(r'[\\/:*?"<>|\x00-\x1f\x7f]+')


def attachment(name: str) -> str:
    """A Content-Disposition for a download named `name`, which may be Japanese (a class's or pupil's name, so
    that two classes' exports do not share one name): RFC 6266's UTF-8 filename*, and for old browsers an ASCII
    filename with "_" for everything else. Characters no file name may hold become "_"."""
    safe = _NOT_IN_FILE_NAMES.sub("_", name).strip(" .") or "suji"
    ascii_name = re.sub(r"_+", "_", re.sub(r"[^A-Za-z0-9._-]", "_", safe))
    return f"attachment; filename=\"{ascii_name}\"; filename*=UTF-8''{quote(safe, safe='')}"
