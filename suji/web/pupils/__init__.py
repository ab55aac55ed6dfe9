"""A class's pupil on any device: signing in with their card, their own page, and their homework.

    pages      /signin (the card's code, typed or from its QR code), /signout, /my/ (the pupil's page: the
               homework with where each stands, a live lesson to join, practice, the class's daily board)
    homework   /my/homework/<id>: a fixed problem set with the drill's dice, or adaptive practice, at the
               pupil's own pace; every answer saved at once (suji.web.classes.work, .adaptive)

A pupil sees only their own work and the class's figures without names. Pupil pages are phone first, with
furigana at 4年 unless the reader chose otherwise (suji.web.furigana). The rows and the rules are
suji.web.classes' (models, signin, work) and suji.play.school's; this package holds only views.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from flask import Blueprint, flash, g, redirect, request, url_for
from flask_babel import lazy_gettext
from werkzeug.wrappers import Response

from suji.web.errors import render_error, wants_json
from suji.web.extensions import db
from suji.web.models import ensure_schema

bp = Blueprint("pupils", __name__)
SIGN_IN_FIRST = lazy_gettext("Sign in with your sign-in card first.")
CARD_GONE = lazy_gettext(
    "This device's sign-in no longer works: your teacher has made you a new card, or you are no longer in the "
    "class. Sign in with your new card, or ask your teacher."
)


@bp.before_request
def _schema() -> None:
    ensure_schema()


@bp.teardown_request
def _rollback(error: BaseException | None) -> None:
    if error is not None:
        db.session.rollback()


@bp.after_request
def _no_store(response: Response) -> Response:
    response.headers["Cache-Control"] = "no-store"  # a pupil's own work stays off shared caches
    return response


@bp.context_processor
def _helpers() -> dict:
    from suji.web.settings import local_date, local_time

    return {"local_time": local_time, "local_date": local_date}


def pupil_required(view: Callable[..., Any]) -> Callable[..., Any]:
    """`view(pupil, cls, …)` for the pupil signed in on this device; the sign-in page (JSON: 401) otherwise."""

    @functools.wraps(view)
    def guarded(*args: Any, **kwargs: Any) -> Any:
        from suji.web.classes.signin import class_of, current_pupil

        pupil = current_pupil()
        if pupil is not None:
            return view(pupil, class_of(pupil), *args, **kwargs)
        if wants_json() or request.path.startswith("/api/"):
            return render_error(401, "sign_in", lazy_gettext("Sign in first"), SIGN_IN_FIRST)
        if g.get("class_pupil_gone"):  # signed in here before: say why it ends
            flash(str(CARD_GONE), "info")
        return redirect(url_for("pupils.signin", next=request.full_path.rstrip("?")), code=303)

    return guarded


from suji.web.pupils import homework, pages  # noqa: E402,F401  - the routes register themselves on `bp`
