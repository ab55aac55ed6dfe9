"""Who is asking, for the limits on guessing codes: the client's address and this browser's own signed id.

    request ──remote_addr (the client's, behind SUJI_TRUSTED_PROXIES)──▶ address key (an IPv6 address by its /64)
            ──the suji_browser cookie (a random id signed by the app; made on a browser's first code page)──▶
              browser key, or None for a client that sent none (or a forged one)
    failure rows (client, browser, code, created_at) ──distinct codes in the window──▶ refused or not

A whole school may reach the app from one address (its NAT or its proxy): a limit kept per address alone lets
one child who mistypes, or tries codes for fun, lock every class of the school out. So failures are counted per
browser (`browser_limit` distinct codes in the window; clients without the cookie share one such allowance per
address) and per address with a far higher limit, which bounds a client that throws its cookie away. Only
distinct codes count: a page that keeps asking about a class deleted meanwhile tried one code, not one a poll.
Only hashes are stored (of the address, the id and the code). The rows live in the database like every limit,
so the limit holds over every app process.
"""

from __future__ import annotations

import hashlib
import ipaddress
import secrets
from datetime import datetime, timedelta
from typing import Any

from flask import Flask, current_app, g, request
from itsdangerous import BadSignature, URLSafeSerializer
from sqlalchemy import case, delete, distinct, func, or_, select
from werkzeug.wrappers import Response

from suji.web.extensions import db
from suji.web.models import utcnow

BROWSER_COOKIE = "suji_browser"
BROWSER_COOKIE_DAYS = 365
_SALT = "suji-browser"


def address() -> str:
    """The client's address as the limits see it: an IPv4 address, or an IPv6 address's /64 network (one home or
    school is given a whole /64, and its devices pick addresses in it at will)."""
    text = request.remote_addr or ""
    try:
        ip = ipaddress.ip_address(text)
    except ValueError:
        return text[:100]
    if ip.version == 6 and ip.ipv4_mapped is None:
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip.ipv4_mapped or ip) if ip.version == 6 else str(ip)


def key(scope: str, text: str) -> str:
    """What is stored of an address, an id or a code: a hash, different for every limit (`scope`)."""
    return hashlib.sha256(f"suji-{scope}:{text}".encode()).hexdigest()


def _serializer() -> URLSafeSerializer:
    return URLSafeSerializer(current_app.config["SECRET_KEY"], salt=_SALT)


def browser_id() -> str | None:
    """This browser's id from its signed cookie, or None when it sent none (or one the app did not sign)."""
    if "suji_browser_id" not in g:
        raw = request.cookies.get(BROWSER_COOKIE, "")
        found = None
        if 0 < len(raw) <= 200:
            try:
                value = _serializer().loads(raw)
                found = value if isinstance(value, str) and 16 <= len(value) <= 64 else None
            except BadSignature:
                found = None
        g.suji_browser_id = found
    return g.suji_browser_id


def remember_browser() -> None:
    """Give this browser a signed id (on this response) if it has none: the next code it sends is its own."""
    if browser_id() is None and "suji_new_browser_id" not in g:
        g.suji_new_browser_id = secrets.token_urlsafe(24)


def _set_cookie(response: Response) -> Response:
    new = g._get_current_object().get("suji_new_browser_id")  # (g.get looks through the proxy twice)
    if new is not None and response.status_code < 500:
        secure = bool(current_app.config.get("SESSION_COOKIE_SECURE")) or request.is_secure
        response.set_cookie(BROWSER_COOKIE, _serializer().dumps(new), max_age=BROWSER_COOKIE_DAYS * 86400,
                            httponly=True, samesite="Lax", secure=secure)  # fmt: skip
    return response


def init_app(app: Flask) -> None:
    """Set a new browser's signed id on the response that made it."""
    app.after_request(_set_cookie)


class FailureLimit:
    """A limit on wrong codes of one kind (`scope`), counted in `model`'s rows (columns client, browser, code,
    created_at): at most `browser_limit` distinct codes a browser and `address_limit` an address per `window`."""

    def __init__(self, scope: str, model: Any, window: timedelta, browser_limit: int, address_limit: int) -> None:
        self.scope, self.model, self.window = scope, model, window
        self.browser_limit, self.address_limit = browser_limit, address_limit

    def _who(self) -> tuple[str, str | None]:
        found = browser_id()
        return key(f"{self.scope}-address", address()), key(f"{self.scope}-browser", found) if found else None

    def refused(self, browser_limit: int | None = None, address_limit: int | None = None,
                now: datetime | None = None) -> bool:  # fmt: skip
        """Whether this client has tried too many codes: its browser (or, without one, the cookie-less clients
        of its address) or its address, within the window."""
        m = self.model
        client, browser = self._who()
        since = (now or utcnow()) - self.window
        mine = m.browser == browser if browser is not None else (m.client == client) & m.browser.is_(None)
        by_address = func.count(distinct(case((m.client == client, m.code))))
        by_browser = func.count(distinct(case((mine, m.code))))
        whose = or_(m.client == client, m.browser == browser) if browser is not None else m.client == client
        row = db.session.execute(select(by_address, by_browser).where(whose, m.created_at >= since)).one()
        return (row[1] or 0) >= (browser_limit or self.browser_limit) or (row[0] or 0) >= (
            address_limit or self.address_limit
        )

    def count(self, code: str, now: datetime | None = None) -> None:
        """A wrong code from this client (committed at once; rows older than the window go)."""
        now = now or utcnow()
        client, browser = self._who()
        m = self.model
        db.session.add(m(client=client, browser=browser, code=key(f"{self.scope}-code", code), created_at=now))
        db.session.execute(delete(m).where(m.created_at < now - self.window))
        db.session.commit()
