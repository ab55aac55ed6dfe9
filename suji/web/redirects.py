"""Where a form may send the browser next: a path on this site, never another host (no open redirects).

Every `next` field a form carries goes through `safe_next`: the language switch (suji.web.main), the furigana
switch (suji.web.furigana), the teacher's login (suji.web.accounts) and the games' nickname form
(suji.web.games, which only goes back within the games' pages).
"""

from __future__ import annotations

import unicodedata
from urllib.parse import urlsplit


def safe_next(target: object, within: str = "/") -> str:
    """`target` when it is a path on this site starting with `within`, else `within` (no open redirects).

    Browsers drop tabs and line breaks from a URL and read a backslash as a slash, so "/\t/evil.example"
    would lead to //evil.example: any control character, space or backslash is refused outright, and what is
    left must parse as a bare path (no scheme, no host). A CR or LF would also break the Location header itself
    (werkzeug refuses it with an error, a 500).
    """
    if not isinstance(target, str) or not target.startswith(within) or len(target) > 2000:
        return within
    if any(unicodedata.category(ch)[0] in "CZ" or ch == "\\" for ch in target):
        return within
    parts = urlsplit(target)
    if parts.scheme or parts.netloc or not parts.path.startswith("/") or parts.path.startswith("//"):
        return within
    return target
