"""Who may do what in class mode, checked on every request: the blueprint, its guards and its error answers.

- the teacher by a long random token, given once as a private link and kept in a cookie (only its hash stored),
  or by the signed-in teacher account that made the session (suji.web.accounts): `teacher_required` turns a URL's session id into the session, or into 403 (no teacher's link) / 404 (no such
  session, e.g. deleted) before the view runs;
- a pupil by a random token in a cookie, hashed in the pupil's row, and by the join code in every URL:
  `pupil_required` turns a URL's code into the session and this browser's pupil, or sends the browser to join.
The views (suji.web.classroom.teacher, .pupils) receive the rows, never the raw ids or codes.
"""

from __future__ import annotations

import functools
import hmac
from collections.abc import Callable
from typing import Any

from flask import Blueprint, current_app, flash, jsonify, redirect, request, url_for
from flask_babel import gettext, lazy_gettext
from sqlalchemy import and_, select
from werkzeug.wrappers import Response

from suji.core.text import whole_number
from suji.play.classroom import ENDED, PAUSED, RUNNING, WAITING, ClassError, clean_code
from suji.web.accounts.access import current_teacher
from suji.web.classroom import store
from suji.web.classroom_models import ClassSession, ClassStudent
from suji.web.errors import render_error
from suji.web.extensions import db
from suji.web.i18n import select_locale
from suji.web.models import ensure_schema, token_hash

bp = Blueprint("classroom", __name__)

STUDENT_COOKIE = "suji_class"  # one random token per browser; each class keeps its hash in the pupil's row
TEACHER_COOKIE = "suji_class_t{id}"  # the teacher's token of session {id}
MAX_ID = 2**63 - 1
PHASE_NAMES = {
    WAITING: lazy_gettext("Not started yet"),
    RUNNING: lazy_gettext("Running"),
    PAUSED: lazy_gettext("Paused"),
    ENDED: lazy_gettext("Ended"),
}


@bp.before_request
def _schema() -> None:
    ensure_schema()


@bp.teardown_request
def _rollback(error: BaseException | None) -> None:
    if error is not None:
        db.session.rollback()


@bp.after_request
def _no_store(response: Response) -> Response:
    if request.path.startswith("/class/") or request.path.startswith("/api/class/"):
        response.headers["Cache-Control"] = "no-store"  # results and private links stay off shared caches
    return response


def with_cookie(response: Response, name: str, value: str, max_age: int) -> Response:
    """`response` setting a cookie, httponly and same-site (Secure behind HTTPS)."""
    secure = bool(current_app.config.get("SESSION_COOKIE_SECURE")) or request.is_secure
    response.set_cookie(name, value, max_age=max_age, httponly=True, samesite="Lax", secure=secure)
    return response


def lang() -> str:
    return select_locale()


def json_error(error: ClassError | str, status: int = 400, **params: object) -> Response:
    """{"error": {"code", "message"}} in the request's language, with `status`."""
    if isinstance(error, str):
        error = ClassError(error, **params)
    response = jsonify({"error": {"code": error.code, "message": error.message(lang())}})
    response.status_code = status
    return response


def page_error(status: int, code: str, title: object) -> Response | tuple[str, int]:
    return render_error(status, code, title, ClassError(code).message(lang()))


def int_field(value: object) -> int | None:
    """A form's whole number (a problem's index, an attempt count), or None."""
    return whole_number(value, 0, 10**9 - 1, digits=9)


# ---- the teacher ----


def teacher_session(session_id: int) -> ClassSession | None:
    """The session if this browser holds its teacher token, or the signed-in teacher's account owns it (a forged
    or missing token is as good as none)."""
    if not 0 < session_id <= MAX_ID:
        return None
    token = request.cookies.get(TEACHER_COOKIE.format(id=session_id), "")
    teacher = current_teacher()
    if not 20 <= len(token) <= 100 and teacher is None:
        return None
    cls = db.session.get(ClassSession, session_id)
    if cls is None:
        return None
    if teacher is not None and cls.teacher_id == teacher.id:
        return cls
    if 20 <= len(token) <= 100 and hmac.compare_digest(cls.teacher_hash, token_hash(token)):
        return cls
    return None


def gone(session_id: int) -> bool:
    """Whether no class session has this id (ids are counted up, not secret: the token and the code are)."""
    return not 0 < session_id <= MAX_ID or db.session.get(ClassSession, session_id) is None


def not_teacher(session_id: int | None = None) -> Response | tuple[str, int]:
    """403 for a browser without the teacher's link; 404 when the session is not there at all (deleted, say by
    the teacher in another tab or by the retention period), which a teacher should be told in those words."""
    if session_id is not None and gone(session_id):
        return page_error(404, "no_session", gettext("No such class session"))
    return page_error(403, "not_teacher", gettext("Teachers only"))


def teacher_required(json: bool = False) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """The one guard of the teacher's views: `view(cls, …)` runs only for the browser holding the session's
    teacher token. Otherwise a page (or, with `json`, an error the dashboard's poll reloads on) says why."""

    def wrap(view: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(view)
        def guarded(session_id: int, **kwargs: Any) -> Any:
            cls = teacher_session(session_id)
            if cls is not None:
                return view(cls, **kwargs)
            if json:
                return json_error("no_session", 404) if gone(session_id) else json_error("not_teacher", 403)
            return not_teacher(session_id)

        return guarded

    return wrap


def my_sessions(limit: int) -> list[ClassSession]:
    """The class sessions this browser holds the teacher's token of (its bookmarked links) and those of the
    signed-in teacher's account, newest first."""
    prefix = TEACHER_COOKIE.split("{id}")[0]
    held = sorted(
        ((int(name[len(prefix) :]), token) for name, token in request.cookies.items()
         if name.startswith(prefix) and name[len(prefix) :].isdigit() and len(name) < len(prefix) + 20),
        reverse=True,
    )[:limit]  # fmt: skip
    ids = [i for i, _ in held if 0 < i <= MAX_ID]
    found = {c.id: c for c in db.session.scalars(select(ClassSession).where(ClassSession.id.in_(ids)))}
    mine = {
        i: found[i] for i, token in held
        if i in found and 20 <= len(token) <= 100 and hmac.compare_digest(found[i].teacher_hash, token_hash(token))
    }  # fmt: skip
    teacher = current_teacher()
    if teacher is not None:
        owned = select(ClassSession).where(ClassSession.teacher_id == teacher.id)
        mine.update((c.id, c) for c in db.session.scalars(owned.order_by(ClassSession.id.desc()).limit(limit)))
    return [mine[i] for i in sorted(mine, reverse=True)[:limit]]


# ---- pupils ----


def student_token() -> str | None:
    token = request.cookies.get(STUDENT_COOKIE, "")
    return token if 20 <= len(token) <= 100 else None


def student(cls: ClassSession) -> ClassStudent | None:
    """This browser's pupil in the session, or None."""
    token = student_token()
    if token is None:
        return None
    return db.session.scalar(
        select(ClassStudent).where(ClassStudent.session_id == cls.id, ClassStudent.token_hash == token_hash(token))
    )  # fmt: skip


def by_code(code: str) -> ClassSession | None:
    try:
        clean = clean_code(code)
    except ClassError:
        return None
    return db.session.scalar(select(ClassSession).where(ClassSession.code == clean))


def _session_and_pupil(code: str) -> tuple[ClassSession | None, ClassStudent | None]:
    """The session of a code and this browser's pupil in it, in one query (every pupil request needs both)."""
    try:
        clean = clean_code(code)
    except ClassError:
        return None, None
    token = student_token()
    if token is None:
        return db.session.scalar(select(ClassSession).where(ClassSession.code == clean)), None
    mine = and_(ClassStudent.session_id == ClassSession.id, ClassStudent.token_hash == token_hash(token))
    row = db.session.execute(
        select(ClassSession, ClassStudent).outerjoin(ClassStudent, mine).where(ClassSession.code == clean)
    ).first()
    return (row[0], row[1]) if row is not None else (None, None)


def moved(cls: ClassSession) -> bool:
    """Whether this browser was a pupil of the class whose name the teacher let join again (`release`)."""
    token = student_token()
    if token is None:
        return False
    return db.session.scalar(
        select(ClassStudent.id).where(ClassStudent.session_id == cls.id,
                                      ClassStudent.token_hash == store.released_hash(token_hash(token)))
    ) is not None  # fmt: skip


def pupil_required(json: bool = False) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """The one guard of the pupils' views: `view(cls, me, …)` runs only for a browser that joined the class of
    the URL's code. Otherwise a page says there is no such class, or sends the browser to join (saying why: not
    joined, or its name taken over by another device); with `json`, an error (404 unknown code, 403 not joined)."""

    def wrap(view: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(view)
        def guarded(code: str, **kwargs: Any) -> Any:
            if json:
                cls = by_code(code)
                me = student(cls) if cls is not None else None
            else:
                cls, me = _session_and_pupil(code)
            if cls is not None and me is not None:
                return view(cls, me, **kwargs)
            if cls is None:
                if json:
                    return json_error("unknown_code", 404, given=str(code)[:12])
                return render_error(404, "unknown_code", gettext("Class not found"),
                                    ClassError("unknown_code", given=str(code)[:12]).message(lang()))  # fmt: skip
            if json:
                return json_error("not_joined", 403)
            flash(ClassError("moved" if moved(cls) else "not_joined").message(lang()), "error")
            return redirect(url_for("classroom.join_code", code=cls.code), code=303)

        return guarded

    return wrap
