"""Who the teacher is on this request: Flask-Login's current user, loaded by the account's id and generation.

The blueprint of the account pages lives here with the login manager's loader and `teacher_login_required`,
the one guard other areas put on their teacher pages (a browser not signed in goes to the login page, and then
back). A page in JSON (the API) gets 401 in the API's error shape instead of a redirect.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from flask import Blueprint, redirect, request, url_for
from flask_babel import lazy_gettext
from flask_login import current_user
from werkzeug.wrappers import Response

from suji.web.accounts import store
from suji.web.accounts.models import Teacher
from suji.web.errors import render_error, wants_json
from suji.web.extensions import login_manager
from suji.web.furigana import teacher_pages
from suji.web.models import ensure_schema

bp = Blueprint("accounts", __name__)
teacher_pages(bp)  # no furigana unless the reader chose a grade (suji.web.furigana)
LOGIN_FIRST = lazy_gettext("Log in as a teacher to see this page.")


@login_manager.user_loader
def _load(user_id: str) -> Teacher | None:
    ensure_schema()
    return store.load(user_id)


@bp.before_request
def _schema() -> None:
    ensure_schema()


@bp.after_request
def _no_store(response: Response) -> Response:
    response.headers["Cache-Control"] = "no-store"
    return response


def current_teacher() -> Teacher | None:
    """The signed-in teacher, or None."""
    return current_user if current_user.is_authenticated else None  # type: ignore[return-value]


def teacher_login_required(view: Callable[..., Any]) -> Callable[..., Any]:
    """`view(teacher, …)` runs for a signed-in teacher; others go to the login page (JSON: 401)."""

    @functools.wraps(view)
    def guarded(*args: Any, **kwargs: Any) -> Any:
        teacher = current_teacher()
        if teacher is not None:
            return view(teacher, *args, **kwargs)
        if wants_json():
            return render_error(401, "login", lazy_gettext("Log in first"), LOGIN_FIRST)
        return redirect(url_for("accounts.login", next=request.full_path.rstrip("?")), code=303)

    return guarded
