"""Cookies and CSRF tokens, each read and checked once: Flask's session, Flask-WTF's CSRF protection and the
Cookie header itself; and a request body of known length (read from the WSGI environ), read in one call.

    Cookie header ──parsed (first time only)──▶ cookies
    session cookie / X-CSRFToken ──HMAC check (first time only)──▶ payload + signing time ──age, compare──▶
        session, or 400

A JSON call such as /api/check carries the same session cookie and the same CSRF token every time, and checking
their two HMAC signatures (and building two serializers to do it) was a fifth of its cost. What a signed string
says is a pure function of the string and the secret key, so it is worked out once per string (`bounded`, at most
SIZES entries; a forged string is remembered as forged) and everything that depends on the request or the clock
is still done every time: the session's age against PERMANENT_SESSION_LIFETIME, the token's age against
WTF_CSRF_TIME_LIMIT, the token against this session's own, the Referer rule over HTTPS. The signing and the
checking themselves are Flask's and itsdangerous's own, unchanged. A browser also sends the same Cookie header
with every request, and werkzeug parses it anew each time: the parse, an immutable mapping, is kept per header text.
"""

from __future__ import annotations

import hmac
import io
import logging
import time
from typing import IO, Any

from flask import Flask, current_app, g, request, session
from flask import Request as FlaskRequest
from flask.sessions import SecureCookieSession, SecureCookieSessionInterface
from flask_wtf.csrf import CSRFProtect, same_origin
from itsdangerous import BadSignature, URLSafeTimedSerializer
from werkzeug.datastructures import ImmutableMultiDict
from werkzeug.exceptions import ClientDisconnected
from werkzeug.http import parse_cookie
from werkzeug.utils import cached_property
from werkzeug.wsgi import get_content_length

from suji.core.caching import bounded

logger = logging.getLogger(__name__)
CSRF_SALT = "wtf-csrf-token"  # Flask-WTF's own, so tokens made by its generate_csrf verify here
FORM_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")


class Request(FlaskRequest):
    """Flask's request, with its cookies parsed once per Cookie header text (an immutable mapping, shared), and a
    body of known length read in one call."""

    @cached_property
    def stream(self) -> IO[bytes]:
        # werkzeug wraps the input in a LimitedStream and reads it in chunks through io's generic machinery; a
        # JSON call's body of a few hundred bytes cost more to read that way than to parse. With a Content-Length
        # within MAX_CONTENT_LENGTH the body is that many bytes: read at once (a server such as waitress has it
        # buffered already). Anything else (no length, too long, a shallow request) is werkzeug's own.
        length = self.content_length
        limit = self.max_content_length
        if length is None or (limit is not None and length > limit) or self.shallow:
            return super().stream
        data = self.environ["wsgi.input"].read(length)
        if len(data) != length:
            raise ClientDisconnected()  # as werkzeug's LimitedStream does: a 400
        return io.BytesIO(data)

    @cached_property
    def content_length(self) -> int | None:
        # werkzeug's rule, read by werkzeug.wsgi.get_content_length from the two WSGI keys the headers map to
        # (through the headers, an absent Transfer-Encoding raised and caught a KeyError on every request).
        return get_content_length(self.environ)

    @cached_property
    def cookies(self) -> ImmutableMultiDict[str, str]:
        # A WSGI server gives every Cookie header as one HTTP_COOKIE, which is what werkzeug's own property joins
        # (looking it up through the headers walks the whole environ).
        return _parsed_cookies(self.environ.get("HTTP_COOKIE", ""))


@bounded("cookie_header")
def _parsed_cookies(header: str) -> ImmutableMultiDict[str, str]:
    """The cookies of one Cookie header, as werkzeug parses them."""
    return parse_cookie(header, cls=ImmutableMultiDict)


class SessionInterface(SecureCookieSessionInterface):
    """Flask's signed-cookie session: a cookie's signature is checked once, and Secure is set over HTTPS too."""

    def get_cookie_secure(self, app: Flask) -> bool:
        return bool(app.config["SESSION_COOKIE_SECURE"]) or (bool(request) and request.is_secure)

    def get_signing_serializer(self, app: Flask) -> URLSafeTimedSerializer | None:
        if not app.secret_key:
            return None
        return _session_serializer(app.secret_key, self.salt, self.key_derivation, self.digest_method)

    def open_session(self, app: Flask, request: Any) -> SecureCookieSession | None:
        s = self.get_signing_serializer(app)
        if s is None:
            return None
        value = request.cookies.get(self.get_cookie_name(app))
        if not value:
            return self.session_class()
        found = _session_payload(s, value)
        if found is None or not _young(found[1], app.permanent_session_lifetime.total_seconds()):
            return self.session_class()  # forged, broken or too old: a new session, as Flask does
        payload, _, flat = found
        # A session of texts, numbers and such (a CSRF token, a language) is copied into the new session object;
        # one holding lists or dicts is decoded again, so no request ever changes another's session data.
        return self.session_class(flat if flat is not None else s.load_payload(payload))

    def save_session(self, app: Flask, session: SecureCookieSession, response: Any) -> None:
        # Unchanged and not refreshed: Flask would only add "Vary: Cookie", which every response has already
        # (suji.web's after_request), and parsing the Vary header to add it costs more than the rest.
        if not session.modified and not session.permanent:
            # (`get` would raise and catch a KeyError when there is no Vary; `any` over a generator costs more
            # than this loop over one or two values)
            for vary in response.headers.getlist("Vary"):
                if "Cookie" in vary:
                    return
        super().save_session(app, session, response)


@bounded("session_serializer")
def _session_serializer(secret_key: str, salt: str, derivation: str, digest: Any) -> URLSafeTimedSerializer:
    """Flask's session serializer for one secret key (Flask builds a new one for every request)."""
    return URLSafeTimedSerializer(
        secret_key,
        salt=salt,
        serializer=SecureCookieSessionInterface.serializer,
        signer_kwargs={"key_derivation": derivation, "digest_method": digest},
    )


IMMUTABLE = (str, int, float, bool, type(None), bytes)


@bounded("session_cookie")
def _session_payload(s: URLSafeTimedSerializer, cookie: str) -> tuple[bytes, float, dict | None] | None:
    """A session cookie's payload, when it was signed (Unix time) and, when every value in it is immutable, its
    data; None when the signature fails."""
    try:
        payload, signed = s.make_signer(s.salt).unsign(cookie, return_timestamp=True)
    except BadSignature:
        return None
    data = s.load_payload(payload)
    flat = data if isinstance(data, dict) and all(type(v) in IMMUTABLE for v in data.values()) else None
    return payload, signed.timestamp(), flat


def _young(signed: float, max_age: float) -> bool:
    """Whether a signature made at `signed` is at most `max_age` seconds old (itsdangerous's rule, in whole
    seconds; one from the future is refused too)."""
    age = int(time.time()) - int(signed)
    return 0 <= age <= max_age


@bounded("csrf_token")
def _csrf_payload(secret_key: str, token: str) -> tuple[str, float] | None:
    """The session value a CSRF token was signed for and when it was signed, or None when it is not genuine."""
    s = URLSafeTimedSerializer(secret_key, salt=CSRF_SALT)
    try:
        value, signed = s.loads(token, return_timestamp=True)
    except BadSignature:
        return None
    return (value, signed.timestamp()) if isinstance(value, str) else None


class CsrfProtect(CSRFProtect):
    """Flask-WTF's CSRF protection with its signature check done once per token (`_csrf_payload`).

    Everything else is Flask-WTF's rule: the token from the form field or the X-CSRFToken header, compared with
    the one in this session, its age against WTF_CSRF_TIME_LIMIT, the Referer over HTTPS, the exemptions.
    """

    def _get_csrf_token(self) -> str | None:
        # Each look through a proxy (request, current_app, session) costs about as much as the test it serves.
        req = request._get_current_object()
        if req.mimetype in FORM_TYPES:
            return super()._get_csrf_token()
        # A JSON body has no form fields: look at the headers only, without reading the body as a form.
        for header_name in current_app._get_current_object().config["WTF_CSRF_HEADERS"]:
            token = req.headers.get(header_name)
            if token:
                return token
        return None

    def _is_exempt(self) -> bool:
        # Flask-WTF's rule (an exempt blueprint, or an exempt view by its module and name), proxies looked up once.
        req = request._get_current_object()
        app = current_app._get_current_object()
        if self._exempt_blueprints and app.blueprints.get(req.blueprint) in self._exempt_blueprints:
            return True
        view = app.view_functions.get(req.endpoint)
        return view is not None and f"{view.__module__}.{view.__name__}" in self._exempt_views

    def protect(self, apply_exemptions: bool = False) -> None:
        req = request._get_current_object()
        if apply_exemptions and (not req.endpoint or self._is_exempt()):
            return
        app = current_app._get_current_object()
        config = app.config
        if req.method not in config["WTF_CSRF_METHODS"]:
            return
        token = self._get_csrf_token()
        problem = _token_problem(token, config, app.secret_key, session._get_current_object())
        if problem:
            logger.info(problem)
            self._error_response(problem)
        if req.is_secure and config["WTF_CSRF_SSL_STRICT"]:
            if not req.referrer:
                self._error_response("The referrer header is missing.")
            if not same_origin(req.referrer, f"https://{req.host}/"):
                self._error_response("The referrer does not match the host.")
        g._get_current_object().csrf_valid = True  # (setting through the proxy costs a Python-level lookup)


def _token_problem(token: str | None, config: Any, app_secret_key: Any, session: Any) -> str | None:
    """Why the token does not protect this request (Flask-WTF's wording), or None when it does."""
    secret_key = config.get("WTF_CSRF_SECRET_KEY") or app_secret_key
    field_name = config.get("WTF_CSRF_FIELD_NAME") or "csrf_token"
    time_limit = config.get("WTF_CSRF_TIME_LIMIT", 3600)
    if not token:
        return "The CSRF token is missing."
    if field_name not in session:
        return "The CSRF session token is missing."
    found = _csrf_payload(secret_key, token)
    if found is None:
        return "The CSRF token is invalid."
    if time_limit is not None and not _young(found[1], time_limit):
        return "The CSRF token has expired."
    if not hmac.compare_digest(session[field_name], found[0]):
        return "The CSRF tokens do not match."
    return None
