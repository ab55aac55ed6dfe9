"""Practice on the web: problems at the edge of each pupil's ability, "My progress", and the pupil's own data.

Pages (suji.web.practice.pages): /practice/ (the next problem with the drill's dice, hints, "still on track?"),
/practice/result/<n> (what came of an answer and what changed), /practice/progress (the rating chart, each
skill's mastery, days in a row, mistakes to try again), /practice/me (the sign-in code and its card, signing
in, the download, deleting everything). JSON (suji.web.practice.api): /api/practice/next, /answer, /progress,
/hint and /on-track; errors there have the API's one shape (suji.web.errors).

Storage and who the pupil is: suji.web.practice.store, answers and account, on the tables of
suji.web.practice.models (migration 0005). The learner model itself is the library's (suji.learner).
"""

from __future__ import annotations

from flask import Blueprint, current_app, g, request
from werkzeug.wrappers import Response

from suji.web.models import ensure_schema

bp = Blueprint("practice", __name__)


@bp.before_request
def _schema() -> None:
    ensure_schema()


@bp.after_request
def _cookie(response: Response) -> Response:
    """Set (or clear) the pupil's cookie when the request decided to, and keep every answer off shared caches."""
    from suji.web.practice import store

    if g.get("practice_cookie_set") and response.status_code < 400:
        secure = bool(current_app.config.get("SESSION_COOKIE_SECURE")) or request.is_secure
        holder = g.get("practice_holder")
        if holder is None:
            response.delete_cookie(store.COOKIE, httponly=True, samesite="Lax", secure=secure)
        else:
            response.set_cookie(
                store.COOKIE, store.cookie_value(holder), max_age=store.retention_days() * 86400,
                httponly=True, samesite="Lax", secure=secure,
            )  # fmt: skip
    response.headers["Cache-Control"] = "no-store"
    return response


from suji.web.practice import api, pages  # noqa: E402,F401  - the routes register themselves on `bp`
