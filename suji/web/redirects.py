"""Where a form may send the browser next: a path on this site, never another host (no open redirects).

Shared by the language switch (suji.web.main) and the teacher's login (suji.web.accounts), which both carry a
`next` field from the page they were opened on.
"""

from __future__ import annotations

import unicodedata
from urllib.parse import urlsplit


def safe_next(target: str) -> str:
    """`target` when it is a path on this site, else the home page (no open redirects).

    Browsers drop tabs and line breaks from a URL and read a backslash as a slash, so "/\t/evil.example"
    would lead to //evil.example: any control character, space or backslash is refused outright, and what is
    left must parse as a bare path (no scheme, no host).
    """
    if not target.startswith("/") or len(target) > 2000:
        return "/"
    if any(unicodedata.category(ch)[0] in "CZ" or ch == "\\" for ch in target):
        return "/"
    parts = urlsplit(target)
    if parts.scheme or parts.netloc or not parts.path.startswith("/") or parts.path.startswith("//"):
        return "/"
    return target
