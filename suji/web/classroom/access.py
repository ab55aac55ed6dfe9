"""Who may do what in class mode, checked on every request: the blueprint, its guards and its error answers.

- the teacher by a long random token, given once as a private link and kept in a cookie (only its hash stored),
  or by the signed-in teacher account that made the session (suji.web.accounts): `teacher_required` turns a
  URL's session id (a random public id; the counted id of a session made before migration 0006 still works
  for its teacher) into the session, or into 403 (no teacher's link) / 404 (no such session, e.g. deleted)
  before the view runs;
- a pupil by a random token in a cookie, hashed in the pupil's row, and by the join code in every URL:
  `pupil_required` turns a URL's code into the session and this browser's pupil. Every other case answers the
  same whether the code is a class's or not (a browser that has not joined is sent to join; JSON gets 404), and
  counts as a wrong code against the browser and its address (suji.web.clients), so codes cannot be tried out
  on any address.
The views (suji.web.classroom.teacher, .pupils) receive the rows, never the raw ids or codes.
"""

from __future__ import annotations

import functools
import hmac
from collections.abc import Callable
from typing import Any

from flask import Blueprint, current_app, flash, jsonify, redirect, request, url_for
from flask_babel import gettext, lazy_gettext
from sqlalchemy import and_, or_, select
from werkzeug.wrappers import Response

from suji.core.text import whole_number
from suji.play.classroom import CODE_LENGTH, ENDED, PAUSED, RUNNING, WAITING, ClassError, clean_code
from suji.play.classroom.codes import typed_code
from suji.web.accounts.access import current_teacher
from suji.web.classroom import store
from suji.web.classroom_models import ClassSession, ClassStudent
from suji.web.clients import remember_browser
from suji.web.errors import render_error
from suji.web.extensions import db
from suji.web.i18n import select_locale
from suji.web.models import ensure_schema, token_hash

bp = Blueprint("classroom", __name__)

STUDENT_COOKIE = "suji_class"  # one random token per browser; each class keeps its hash in the pupil's row
TEACHER_COOKIE = "suji_class_t{id}"  # the teacher's token of session {id} (its public id; the counted id before 0006)
MAX_ID = 2**63 - 1
MAX_PUBLIC_ID = 24
PHASE_NAMES = {
    WAITING: lazy_gettext("Not started yet"),
    RUNNING: lazy_gettext("Running"),
    PAUSED: lazy_gettext("Paused"),
    ENDED: lazy_gettext("Ended"),
}


@bp.before_request
def _schema() -> None:
    ensure_schema()
    remember_browser()  # a browser's signed id, for the limit on wrong codes (suji.web.clients)


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


def _legacy_id(session_id: str) -> int | None:
    """The counted id an address of a session made before migration 0006 names (all digits), or None."""
    if session_id.isascii() and session_id.isdigit() and len(session_id) < 20 and 0 < int(session_id) <= MAX_ID:
        return int(session_id)
    return None


def find_session(session_id: str) -> ClassSession | None:
    """The session an address names: by its public id, or (all digits) by the counted id of an older one."""
    legacy = _legacy_id(session_id)
    if legacy is not None:
        return db.session.get(ClassSession, legacy)
    if not 0 < len(session_id) <= MAX_PUBLIC_ID:
        return None
    return db.session.scalar(select(ClassSession).where(ClassSession.public_id == session_id))


def teacher_cookie_name(cls: ClassSession) -> str:
    return TEACHER_COOKIE.format(id=cls.public_id)


def _holds_token(cls: ClassSession) -> bool:
    """Whether this browser holds the session's teacher token (in the cookie named by its public id, or by its
    counted id when it was made before migration 0006)."""
    for name in (teacher_cookie_name(cls), TEACHER_COOKIE.format(id=cls.id)):
        token = request.cookies.get(name, "")
        if 20 <= len(token) <= 100 and hmac.compare_digest(cls.teacher_hash, token_hash(token)):
            return True
    return False


def teacher_session(session_id: str) -> ClassSession | None:
    """The session if this browser holds its teacher token, or the signed-in teacher's account owns it (a forged
    or missing token is as good as none)."""
    cls = find_session(str(session_id))
    if cls is None:
        return None
    teacher = current_teacher()
    if teacher is not None and cls.teacher_id == teacher.id:
        return cls
    return cls if _holds_token(cls) else None


def gone(session_id: str) -> bool:
    """Whether no class session has this public id (a random one: a browser that is told so learns nothing
    about any other session). An address by a counted id, from before migration 0006, is never told."""
    return _legacy_id(str(session_id)) is None and find_session(str(session_id)) is None


def not_teacher(session_id: str | None = None) -> Response | tuple[str, int]:
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
        def guarded(session_id: str, **kwargs: Any) -> Any:
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
    held = [
        (name[len(prefix) :], token) for name, token in request.cookies.items()
        if name.startswith(prefix) and 0 < len(name) - len(prefix) <= MAX_PUBLIC_ID and 20 <= len(token) <= 100
    ][: 4 * limit]  # fmt: skip
    legacy = [i for i in (_legacy_id(name) for name, _ in held) if i is not None]
    public = [name for name, _ in held if _legacy_id(name) is None]
    rows = db.session.scalars(
        select(ClassSession).where(or_(ClassSession.id.in_(legacy), ClassSession.public_id.in_(public)))
    )  # fmt: skip
    mine = {c.id: c for c in rows if _holds_token(c)}
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


def shown_code(code: str) -> str:
    """A code from an address as a page shows it back: its stored form when it reads as a code, else a little of
    the text as it came (never a hint of whether a class has it)."""
    try:
        return clean_code(code)
    except ClassError:
        return typed_code(code)[: CODE_LENGTH + 4]


def too_many_tries() -> ClassError:
    return ClassError("too_many_tries", minutes=int(store.JOIN_WINDOW.total_seconds() // 60))


def not_in_class(code: str, cls: ClassSession | None, json: bool) -> Response | tuple[str, int]:
    """The one answer for a code this browser is not in a class of: unknown, or a class it has not joined. It
    counts as a wrong code (suji.web.clients); past the limit, every such answer is "too many tries" (429).

    Only a browser whose name the teacher let join again elsewhere (`moved`) is told that its class is there: it
    was in it, so it learns nothing new.
    """
    shown = shown_code(code)
    if cls is not None and moved(cls):
        if json:
            return json_error("not_joined", 404)
        flash(ClassError("moved").message(lang()), "error")
        return redirect(url_for("classroom.join_code", code=cls.code), code=303)
    if store.join_refused():
        if json:
            return json_error(too_many_tries(), 429)
        return render_error(429, "too_many_tries", gettext("Too many requests"), too_many_tries().message(lang()))
    store.count_join_failure(shown)
    if json:
        return json_error("not_joined", 404)
    flash(ClassError("not_joined").message(lang()), "error")
    target = url_for("classroom.join_code", code=shown) if shown.strip() else url_for("classroom.join")
    return redirect(target, code=303)


def pupil_required(json: bool = False) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """The one guard of the pupils' views: `view(cls, me, …)` runs only for a browser that joined the class of
    the URL's code. Otherwise the same answer whether the code is a class's or not (`not_in_class`): a page sends
    the browser to join, JSON is 404."""

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
            return not_in_class(code, cls, json)

        return guarded

    return wrap
