"""Furigana on the pages: the reader's grade (a cookie, like the language), the switch, and ruby on every page.

Every Japanese HTML page passes through `annotate_response` on its way out, so a page gets ruby whatever
template or blueprint made it (suji.core.furigana does the reading). The grade is the cookie's, set by the
switch in the footer (「ふりがな：なし／1年〜6年」); without one, pupil pages use 4年 and teacher pages none. A
view marks itself a teacher page with `@teacher_page`, a blueprint all of whose pages are with
`teacher_pages(bp)`. The worksheets print with the grade their form names (suji.worksheets).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any, TypeVar

from flask import Blueprint, Flask, current_app, g, has_request_context, redirect, request
from markupsafe import escape
from werkzeug.wrappers import Response

from suji.core.furigana import GRADES, NONE, PUPIL_DEFAULT, annotate_html, parse_grade

FURIGANA_COOKIE = "suji_furigana"
FURIGANA_COOKIE_MAX_AGE = 365 * 24 * 3600
F = TypeVar("F", bound=Callable[..., Any])

bp = Blueprint("furigana", __name__)


def teacher_page(view: F) -> F:
    """Mark a view as a teacher's page: no furigana unless the reader chose a grade."""

    @wraps(view)
    def marked(*args: Any, **kwargs: Any) -> Any:
        g.suji_teacher_page = True
        return view(*args, **kwargs)

    return marked  # type: ignore[return-value]


def teacher_pages(blueprint: Blueprint) -> None:
    """Mark every page of `blueprint` as a teacher's page."""

    @blueprint.before_request
    def _mark() -> None:
        g.suji_teacher_page = True


def chosen_grade() -> int | None:
    """The grade the reader chose with the switch (0 for none), or None when they have not chosen."""
    if not has_request_context() or FURIGANA_COOKIE not in request.cookies:
        return None
    value = parse_grade(request.cookies[FURIGANA_COOKIE], -1)
    return None if value < 0 else value


def page_grade() -> int:
    """The furigana grade of this request's page: the reader's choice, else 4年 (pupils) or none (teachers)."""
    chosen = chosen_grade()
    if chosen is not None:
        return chosen
    return NONE if g.get("suji_teacher_page") else PUPIL_DEFAULT


def grade_for_print(default: int = PUPIL_DEFAULT) -> int:
    """The grade a pupil's printed sheet starts from on its form: the reader's choice, else 4年."""
    chosen = chosen_grade()
    return default if chosen is None else chosen


@bp.post("/furigana")
def choose() -> Response:
    """Remember the chosen grade in a cookie and go back to the page the switch was on."""
    from suji.web.main import safe_next

    value = request.form.get("grade", "")
    response = redirect(safe_next(request.form.get("next", "")), code=303)
    if parse_grade(value, -1) >= 0:
        response.set_cookie(
            FURIGANA_COOKIE,
            str(parse_grade(value, NONE)),
            max_age=FURIGANA_COOKIE_MAX_AGE,
            httponly=True,
            samesite="Lax",
            secure=bool(current_app.config["SESSION_COOKIE_SECURE"]) or request.is_secure,
        )
    return response


@bp.app_context_processor
def furigana_context() -> dict[str, Any]:
    """`furigana_grade` (this page's) and `furigana_grades` (the switch's choices) for templates."""
    return {"furigana_grade": page_grade, "furigana_grades": (NONE, *GRADES)}


def annotated_fragment(html: str) -> str:
    """A piece of a page that a script puts in place (a lesson's question after its answer) with the ruby the
    page has: JSON never passes `annotate_response`."""
    from suji.web.i18n import select_locale

    return annotate_html(html, page_grade()) if select_locale() == "ja" else html


def ruby_text(text: str, lang: str) -> str | None:
    """A message that a script shows (a hint, "still on track?") as HTML with the page's ruby, for the JSON's
    `…_html` field beside the text; None when it gets none (English, no kanji above the grade)."""
    if lang != "ja":
        return None
    plain = str(escape(text))
    shown = annotate_html(plain, page_grade())
    return shown if shown != plain else None


def with_ruby(data: dict, lang: str, *keys: str) -> dict:
    """`data` (a JSON answer) with `<key>_html` beside each of these texts, and `message_html` beside its
    error's message, wherever the page would put ruby on them (see `ruby_text`)."""
    for key in keys:
        text = data.get(key)
        html = ruby_text(text, lang) if isinstance(text, str) else None
        if html is not None:
            data[f"{key}_html"] = html
    error = data.get("error")
    if isinstance(error, dict):
        with_ruby(error, lang, "message")
    return data


def annotate_response(response: Response) -> Response:
    """Ruby on the kanji above the page's grade, in a Japanese HTML page (an after_request hook)."""
    if (
        response.mimetype != "text/html"
        or response.direct_passthrough
        or response.status_code == 304
        or not response.is_sequence
    ):
        return response
    from suji.web.i18n import select_locale

    if select_locale() != "ja" or g.get("suji_furigana_done"):
        return response
    grade = page_grade()
    if grade == NONE:
        return response
    response.set_data(annotate_html(response.get_data(as_text=True), grade))
    return response


def init_app(app: Flask) -> None:
    """Register the switch and the hook that puts ruby on every page."""
    app.register_blueprint(bp)
    app.after_request(annotate_response)
