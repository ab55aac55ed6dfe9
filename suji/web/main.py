"""The home page and the language switch."""

from __future__ import annotations

from flask import Blueprint, current_app, redirect, render_template, request
from werkzeug.wrappers import Response

from suji.core.dates import date_text, day_text, moment_text
from suji.core.decimals import equals_sign
from suji.core.i18n import LANGUAGES, bracketed, labelled
from suji.web.i18n import LANG_COOKIE, LANG_COOKIE_MAX_AGE, select_locale
from suji.web.redirects import safe_next

__all__ = ["bp", "safe_next"]

bp = Blueprint("main", __name__)


@bp.app_context_processor
def inject_helpers() -> dict:
    """Template helpers: the page language and whether an optional area (games, lessons…) is installed."""
    return {
        "page_lang": select_locale(),
        "languages": LANGUAGES,
        "has_endpoint": lambda name: name in current_app.view_functions,
        "date_text": date_text,  # a day as 12月2日 / 2 Dec (suji.core.dates)
        "day_text": lambda day: day_text(day, select_locale()),  # with its year: 2027年6月29日 / 29 Jun 2027
        # an aware moment in its own zone as 2026年12月2日 11:43 / 2 Dec 2026 11:43
        "moment_text": lambda moment: moment_text(moment, select_locale(), moment.tzinfo),
        # a remark in brackets and a label with its colon, in the page language's punctuation (suji.core.i18n)
        "bracketed": lambda text: bracketed(text, select_locale()),
        "labelled": lambda label, text: labelled(label, text, select_locale()),
        "equals_sign": equals_sign,  # = or ≈ between an exact value and its decimal (suji.core.decimals)
    }


@bp.get("/")
def index() -> str:
    """What Sūji de Asobo is, a picture of the dice and the way into the drills."""
    from suji.web.drill_rolls import LEVEL_TITLES

    return render_template("home.html", levels=LEVEL_TITLES)


@bp.post("/language")
def language() -> Response:
    """Remember the chosen language in a cookie and go back to the page the switch was on."""
    lang = request.form.get("lang", "")
    target = safe_next(request.form.get("next", ""))
    response = redirect(target, code=303)
    if lang in LANGUAGES:
        response.set_cookie(
            LANG_COOKIE,
            lang,
            max_age=LANG_COOKIE_MAX_AGE,
            httponly=True,
            samesite="Lax",
            secure=bool(current_app.config["SESSION_COOKIE_SECURE"]) or request.is_secure,
        )
    return response
