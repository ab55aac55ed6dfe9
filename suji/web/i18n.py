"""The page language: the cookie set by the language switch, else the browser's Accept-Language, else ja."""

from __future__ import annotations

from flask import Request, has_request_context, request
from werkzeug.datastructures import LanguageAccept
from werkzeug.http import parse_accept_header

from suji.core.caching import bounded
from suji.core.i18n import DEFAULT_LANGUAGE, LANGUAGES

LANG_COOKIE = "suji_lang"
LANG_COOKIE_MAX_AGE = 365 * 24 * 3600


def select_locale() -> str:
    """Flask-Babel's locale selector: the language of the current request ("ja" or "en")."""
    if not has_request_context():
        return DEFAULT_LANGUAGE
    return request_locale(request._get_current_object())  # looked up once: each look through the proxy costs


def request_locale(req: Request) -> str:
    """`select_locale` for a request object the caller holds already (no look through the proxy)."""
    cookies = req.cookies
    if (
        LANG_COOKIE in cookies and cookies[LANG_COOKIE] in LANGUAGES
    ):  # (`get` raises inside when it is missing)
        return cookies[LANG_COOKIE]
    return _language_for(req.environ.get("HTTP_ACCEPT_LANGUAGE", ""))


@bounded("accept_language")
def _language_for(accept_language: str) -> str:
    """The page language an Accept-Language header asks for (werkzeug's parse and best match), else ja."""
    return parse_accept_header(accept_language, LanguageAccept).best_match(LANGUAGES) or DEFAULT_LANGUAGE
