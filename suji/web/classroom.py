"""Class mode on the web: a teacher's session with a join code, pupils answering on their own devices, a live
dashboard, CSV and a printable summary.

Pages: /class/new (the teacher's form) → /class/<id> (the dashboard, for the browser holding the teacher's
cookie) and /join, /join/<CODE> (pupils) → /class/s/<CODE> (one problem after another with the drill's dice).
JSON: /api/class/<id>/results (the dashboard polls it), /api/class/<CODE>/state and /api/class/<CODE>/hint (the
pupil's page); errors there are {"error": {"code", "message"}} in the request's language.

Data flow: the rules are in suji.worksheets.classroom (settings, problems, grading, the grid); this blueprint keeps
everything in the database (suji.web.classroom_models) and nothing in memory, so several app servers behind one
PostgreSQL database serve one class. Who may do what is checked on every request:
- the teacher by a long random token, given once as a private link and kept in a cookie (only its hash stored);
- a pupil by a random token in a cookie, hashed in the pupil's row, and by the join code in every URL;
- an answer must be for the pupil's current problem and carry the number of attempts the page showed, so a
  form sent twice or from an old tab changes nothing (and the database refuses a doubled attempt);
- a wrong join code counts against the client's address in the database: too many and joining waits.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
from datetime import UTC, datetime, timedelta

from flask import (
    Blueprint,
    current_app,
    flash,
    g,
    jsonify,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from flask_babel import gettext, lazy_gettext, ngettext
from sqlalchemy import and_, delete, func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm.exc import StaleDataError
from werkzeug.wrappers import Response

from suji.core.caching import bounded
from suji.web.classroom_models import ClassAnswer, ClassAttempt, ClassJoinFailure, ClassSession, ClassStudent
from suji.web.errors import render_error
from suji.web.extensions import db
from suji.web.furigana import teacher_page
from suji.web.i18n import select_locale
from suji.web.jsonbody import json_body
from suji.web.models import ensure_schema, token_hash, utcnow
from suji.web.settings import local_zone
from suji.worksheets import classroom as core
from suji.worksheets.classroom import (
    ENDED,
    PAUSED,
    RUNNING,
    WAITING,
    ClassError,
    ClassProblem,
    ClassSettings,
    Progress,
)

bp = Blueprint("classroom", __name__)

STUDENT_COOKIE = "suji_class"  # one random token per browser; each class keeps its hash in the pupil's row
TEACHER_COOKIE = "suji_class_t{id}"  # the teacher's token of session {id}
NEW_LINK_KEY = (
    "class_new_link"  # the private link, shown once on the dashboard right after the session is made
)
MAX_ID = 2**63 - 1
MAX_FORMULA = 200
JOIN_WINDOW = timedelta(minutes=10)
JOIN_FAILURES = 20  # wrong codes per client and window; a whole class behind one address mistypes fewer
POLL_MS = 1500  # the dashboard asks for new results this often

MIXED_LEVELS = lazy_gettext("Mixed: each problem has its own level")
PHASE_NAMES = {
    WAITING: lazy_gettext("Not started yet"),
    RUNNING: lazy_gettext("Running"),
    PAUSED: lazy_gettext("Paused"),
    ENDED: lazy_gettext("Ended"),
}
TIME_UP = lazy_gettext("Time is up")
STALE = lazy_gettext(
    "That was already done (the page may have been sent twice). Here is the class as it is now."
)
DELETED = lazy_gettext("The class session and all its answers are deleted.")
WELCOME_BACK = lazy_gettext("Welcome back, %(name)s! You continue where you left off.")
RELEASED_NOTE = lazy_gettext("%(name)s can join again with the same name, on any device, and carry on.")
# A token hash no token has: the pupil's name is free for the next browser that joins with it, which then carries on
# with that pupil's work (a pupil whose browser lost its cookie: another device, cleared data, a private window).
RELEASED = "released:"
RELEASED_KEPT = 16  # hex digits of the old token's hash kept after RELEASED


# ---- common ----


@bp.before_request
def _schema() -> None:
    ensure_schema()


@bp.teardown_request
def _rollback(error: BaseException | None) -> None:
    if error is not None:
        db.session.rollback()


@bp.after_request
def _cookies(response: Response) -> Response:
    """Set the cookies a request decided on (only when it succeeded), httponly and same-site."""
    secure = bool(current_app.config.get("SESSION_COOKIE_SECURE")) or request.is_secure
    for name, value, max_age in g.pop("class_cookies", []):
        response.set_cookie(name, value, max_age=max_age, httponly=True, samesite="Lax", secure=secure)
    if request.path.startswith("/class/") or request.path.startswith("/api/class/"):
        response.headers["Cache-Control"] = "no-store"  # results and private links stay off shared caches
    return response


def _set_cookie(name: str, value: str, max_age: int) -> None:
    g.setdefault("class_cookies", []).append((name, value, max_age))


def lang() -> str:
    return select_locale()


def retention_days() -> int:
    """How many days sessions are kept: SUJI_CLASS_RETENTION_DAYS (suji.web.settings), 30 by default."""
    raw = current_app.config.get("SUJI_CLASS_RETENTION_DAYS")
    try:
        days = int(raw) if raw is not None else core.DEFAULT_RETENTION_DAYS
    except ValueError:
        days = core.DEFAULT_RETENTION_DAYS
    return max(1, days)


def purge_expired(now: datetime | None = None, days: int | None = None) -> int:
    """Delete the sessions (with their pupils, answers and attempts) made more than `days` ago, and join
    failures older than the rate limit's window. Returns how many sessions went. Runs whenever a session is
    made; tests call it directly."""
    now = now or utcnow()
    cutoff = now - timedelta(days=days if days is not None else retention_days())
    old = select(ClassSession.id).where(ClassSession.created_at < cutoff).scalar_subquery()
    # Children first: the same on SQLite (even without foreign keys on) as on PostgreSQL.
    for table in (ClassAttempt, ClassAnswer, ClassStudent):
        db.session.execute(delete(table).where(table.session_id.in_(old)))
    gone = db.session.execute(delete(ClassSession).where(ClassSession.created_at < cutoff)).rowcount
    db.session.execute(delete(ClassJoinFailure).where(ClassJoinFailure.created_at < now - JOIN_WINDOW))
    db.session.commit()
    return gone or 0


def _delete_session(cls: ClassSession) -> None:
    for table in (ClassAttempt, ClassAnswer, ClassStudent):
        db.session.execute(delete(table).where(table.session_id == cls.id))
    db.session.execute(delete(ClassSession).where(ClassSession.id == cls.id))
    db.session.commit()


def settings_of(cls: ClassSession) -> ClassSettings:
    return ClassSettings.from_dict(json.loads(cls.settings_json))


def problems_of(cls: ClassSession) -> tuple[ClassProblem, ...]:
    return _parse_problems(cls.problems_json)


@bounded("class_problems")
def _parse_problems(text: str) -> tuple[ClassProblem, ...]:
    # Keyed by the stored text itself, so a cached value can never belong to another or a changed session.
    return tuple(ClassProblem.from_dict(p) for p in json.loads(text))


def phase(cls: ClassSession, now: datetime | None = None) -> str:
    """The phase pupils are in: a running session whose time is up counts as ended."""
    if cls.status == RUNNING and cls.ends_at is not None and (now or utcnow()) >= cls.ends_at:
        return ENDED
    return cls.status


def time_up(cls: ClassSession) -> bool:
    return cls.status == RUNNING and phase(cls) == ENDED


def seconds_left(cls: ClassSession) -> int | None:
    """Seconds until the time limit (None without one or before the start; frozen while paused)."""
    if cls.ends_at is None:
        return None
    until = cls.paused_at if cls.status == PAUSED and cls.paused_at else utcnow()
    return max(0, int((cls.ends_at - until).total_seconds()))


def _json_error(error: ClassError | str, status: int = 400, **params: object) -> Response:
    if isinstance(error, str):
        error = ClassError(error, **params)
    response = jsonify({"error": {"code": error.code, "message": error.message(lang())}})
    response.status_code = status
    return response


def _int(value: object) -> int | None:
    text = str(value if value is not None else "").strip()
    return int(text) if text.isascii() and text.isdigit() and len(text) < 10 else None


def _page_error(status: int, code: str, title: object) -> Response | tuple[str, int]:
    return render_error(status, code, title, ClassError(code).message(lang()))


# ---- the teacher ----


def _teacher_session(session_id: int) -> ClassSession | None:
    """The session if this browser holds its teacher token (a forged or missing token is as good as none)."""
    if not 0 < session_id <= MAX_ID:
        return None
    token = request.cookies.get(TEACHER_COOKIE.format(id=session_id), "")
    if not 20 <= len(token) <= 100:
        return None
    cls = db.session.get(ClassSession, session_id)
    if cls is None or not hmac.compare_digest(cls.teacher_hash, token_hash(token)):
        return None
    return cls


# The sessions listed on the new-class page: at most this many of the newest this browser holds the link of.
MAX_LISTED = 20


def _my_sessions() -> list[ClassSession]:
    """The class sessions this browser holds the teacher's token of (its bookmarked links), newest first."""
    prefix = TEACHER_COOKIE.split("{id}")[0]
    held = sorted(
        ((int(name[len(prefix) :]), token) for name, token in request.cookies.items()
         if name.startswith(prefix) and name[len(prefix) :].isdigit() and len(name) < len(prefix) + 20),
        reverse=True,
    )[:MAX_LISTED]  # fmt: skip
    ids = [i for i, _ in held if 0 < i <= MAX_ID]
    found = {c.id: c for c in db.session.scalars(select(ClassSession).where(ClassSession.id.in_(ids)))}
    return [
        found[i] for i, token in held
        if i in found and 20 <= len(token) <= 100 and hmac.compare_digest(found[i].teacher_hash, token_hash(token))
    ]  # fmt: skip


def _not_teacher(session_id: int | None = None) -> Response | tuple[str, int]:
    """403 for a browser without the teacher's link; 404 when the session is not there at all (deleted, say by
    the teacher in another tab or by the retention period), which a teacher should be told in those words."""
    if session_id is not None and _gone(session_id):
        return _page_error(404, "no_session", gettext("No such class session"))
    return _page_error(403, "not_teacher", gettext("Teachers only"))


def _gone(session_id: int) -> bool:
    """Whether no class session has this id (ids are counted up, not secret: the token and the code are)."""
    return not 0 < session_id <= MAX_ID or db.session.get(ClassSession, session_id) is None


@bp.get("/class/")
def index() -> Response:
    return redirect(url_for("classroom.new"), code=303)


@bp.get("/class/new")
@teacher_page
def new() -> str:
    """The teacher's form: problems as a worksheet's, the time limit, the hints."""
    return _new_form(ClassSettings(), {}, [])


def _new_form(settings: ClassSettings, form: dict, errors: list[ClassError]) -> str:
    from suji.worksheets.sheet import LEVEL_NAMES, MIXED, VERSION_LABELS

    levels = [(str(n), gettext(LEVEL_NAMES[n])) for n in (1, 2, 3)] + [(MIXED, gettext(MIXED_LEVELS))]
    return render_template(
        "classroom/new.html", settings=settings, form=form, errors=errors, levels=levels,
        versions=VERSION_LABELS, min_count=core.MIN_COUNT, max_count=core.MAX_COUNT,
        max_time=core.MAX_TIME_LIMIT, max_attempts=core.MAX_ATTEMPTS, retention=retention_days(),
        mine=_my_sessions(), phase_of=phase, phase_names=PHASE_NAMES, local_time=_local_time,
    )  # fmt: skip


@bp.post("/class/new")
@teacher_page
def create() -> Response | tuple[str, int]:
    """Make the session: choose its problems, a join code and the teacher's token; show the dashboard."""
    fields = ("count", "level", "seed", "version", "time_limit", "hints", "hint_cost")
    form = {name: str(request.form.get(name, ""))[:200] for name in fields if name in request.form}
    settings, errors = core.parse_settings(form)
    if errors:
        return _new_form(settings, form, errors), 400
    purge_expired()
    settings = core.with_seed(settings)
    problems = core.choose_problems(settings)
    token = secrets.token_urlsafe(32)
    for _ in range(10):  # a code already in use (one in 244 million per session) is drawn again
        cls = ClassSession(
            code=core.new_code(), teacher_hash=token_hash(token), status=WAITING,
            settings_json=json.dumps(settings.to_dict(), ensure_ascii=False),
            problems_json=json.dumps([p.to_dict() for p in problems], ensure_ascii=False),
        )  # fmt: skip
        db.session.add(cls)
        try:
            db.session.commit()
            break
        except IntegrityError:
            db.session.rollback()
    else:  # pragma: no cover - ten clashes in a row do not happen
        raise RuntimeError("no free join code")
    _set_cookie(TEACHER_COOKIE.format(id=cls.id), token, retention_days() * 24 * 3600)
    session[NEW_LINK_KEY] = {"id": cls.id, "token": token}
    return redirect(url_for("classroom.dashboard", session_id=cls.id), code=303)


@bp.get("/class/teach/<token>")
@teacher_page
def teach(token: str) -> Response | tuple[str, int]:
    """The private link: keep the token in this browser's cookie and open the dashboard."""
    if not 20 <= len(token) <= 100:
        return _not_teacher()
    cls = db.session.scalar(select(ClassSession).where(ClassSession.teacher_hash == token_hash(token)))
    if cls is None:
        return _not_teacher()
    _set_cookie(TEACHER_COOKIE.format(id=cls.id), token, retention_days() * 24 * 3600)
    return redirect(url_for("classroom.dashboard", session_id=cls.id), code=303)


def join_url(cls: ClassSession) -> str:
    return url_for("classroom.join_code", code=cls.code, _external=True)


def only_this_computer() -> bool:
    """Whether the teacher opened the app at an address only this computer can reach (127.0.0.1, localhost):
    the join URL and its QR code would then lead nowhere on a pupil's device."""
    host = (request.host or "").rsplit(":", 1)[0].strip("[]").lower()
    return host in ("127.0.0.1", "localhost", "::1") or host.startswith("127.")


@bp.get("/class/<int:session_id>")
@teacher_page
def dashboard(session_id: int) -> str | Response | tuple[str, int]:
    """The teacher's dashboard: the code (large) and its QR, controls, the live grid."""
    cls = _teacher_session(session_id)
    if cls is None:
        return _not_teacher(session_id)
    link = session.get(NEW_LINK_KEY)
    private_link = None
    if isinstance(link, dict) and link.get("id") == cls.id:
        session.pop(NEW_LINK_KEY)
        private_link = url_for("classroom.teach", token=str(link.get("token")), _external=True)
    return render_template(
        "classroom/dashboard.html", cls=cls, settings=settings_of(cls), grid=_results(cls), phase=phase(cls),
        phase_names=PHASE_NAMES, time_up=time_up(cls), seconds_left=seconds_left(cls),
        join_url=join_url(cls), private_link=private_link, poll_ms=POLL_MS, mistake_name=core.mistake_name,
        lang=lang(), counts_text=counts_text, only_this_computer=only_this_computer(), extra_minutes=EXTRA_MINUTES,
        release=True, waiting=_waiting_names(cls),
    )  # fmt: skip


def _results(cls: ClassSession) -> core.Results:
    """The grid from the database: three queries, whatever the size of the class."""
    students = db.session.scalars(
        select(ClassStudent).where(ClassStudent.session_id == cls.id).order_by(ClassStudent.id)
    ).all()
    work: dict[int, dict[int, Progress]] = {s.id: {} for s in students}
    for a in db.session.scalars(select(ClassAnswer).where(ClassAnswer.session_id == cls.id)):
        work.setdefault(a.student_id, {})[a.problem] = _progress(a)
    mistakes = db.session.execute(
        select(ClassAttempt.problem, ClassAttempt.error_code, func.count())
        .where(ClassAttempt.session_id == cls.id, ClassAttempt.error_code.is_not(None))
        .group_by(ClassAttempt.problem, ClassAttempt.error_code)
    ).all()  # fmt: skip
    return core.results(
        problems_of(cls), [(s.nickname, s.position, work[s.id]) for s in students],
        [(p, str(c), n) for p, c, n in mistakes],
    )  # fmt: skip


def _waiting_names(cls: ClassSession) -> set[str]:
    """The pupils whose name the teacher let join again and who have not joined again yet."""
    return set(db.session.scalars(
        select(ClassStudent.nickname).where(ClassStudent.session_id == cls.id,
                                            ClassStudent.token_hash.startswith(RELEASED))
    ))  # fmt: skip


def _progress(answer: ClassAnswer | None) -> Progress:
    if answer is None:
        return Progress()
    return Progress(
        answer.attempts, answer.hints_used, answer.solved, answer.done, answer.score, answer.formula
    )


def counts_text(pupils: int, answers: int) -> str:
    """ "3 pupils, 1 answer": each count with its own plural."""
    return gettext("%(pupils)s, %(answers)s", pupils=ngettext("%(num)s pupil", "%(num)s pupils", pupils),
                   answers=ngettext("%(num)s answer", "%(num)s answers", answers))  # fmt: skip


@bp.get("/api/class/<int:session_id>/results")
def results_json(session_id: int) -> Response:
    """What the dashboard shows, for its polling: the phase, the counts, the grid as data and as HTML."""
    cls = _teacher_session(session_id)
    if cls is None:  # the dashboard reloads on either, and the page then says which
        return _json_error("no_session", 404) if _gone(session_id) else _json_error("not_teacher", 403)
    grid = _results(cls)
    here = lang()
    html = render_template("classroom/_grid.html", grid=grid, mistake_name=core.mistake_name, lang=here,
                           phase=phase(cls), cls=cls, release=True, waiting=_waiting_names(cls))  # fmt: skip
    return jsonify({
        "phase": phase(cls), "status": cls.status, "time_up": time_up(cls), "seconds_left": seconds_left(cls),
        "students": len(grid.rows), "attempts": grid.attempts,
        "counts_text": counts_text(len(grid.rows), grid.attempts),
        "rows": [{"name": r.name, "total": r.total, "best_total": r.best_total, "position": r.position,
                  "cells": [None if c is None else {"attempts": c.attempts, "hints": c.hints_used,
                                                   "solved": c.solved, "done": c.done, "score": c.score}
                            for c in r.cells]} for r in grid.rows],
        "problems": [{"number": c.problem.number, "best_score": c.problem.best_score, "solved": c.solved,
                      "share_solved": round(c.share_solved, 4), "mistake": c.mistake,
                      "mistake_name": core.mistake_name(c.mistake, here), "mistake_count": c.mistake_count}
                     for c in grid.columns],
        "html": html,
    })  # fmt: skip


def _control(session_id: int, change) -> Response | tuple[str, int]:  # type: ignore[no-untyped-def]
    cls = _teacher_session(session_id)
    if cls is None:
        return _not_teacher(session_id)
    now = utcnow()
    change(cls, now)
    try:
        db.session.commit()
    except StaleDataError:
        db.session.rollback()
        flash(str(STALE), "error")
    return redirect(url_for("classroom.dashboard", session_id=session_id), code=303)


@bp.post("/class/<int:session_id>/start")
def start(session_id: int) -> Response | tuple[str, int]:
    """Start, or go on after a pause (the pause does not count against the time limit)."""

    def change(cls: ClassSession, now: datetime) -> None:
        if cls.status == WAITING:
            cls.status, cls.started_at = RUNNING, now
            limit = settings_of(cls).time_limit
            cls.ends_at = now + timedelta(minutes=limit) if limit else None
        elif cls.status == PAUSED:
            if cls.ends_at is not None and cls.paused_at is not None:
                cls.ends_at += now - cls.paused_at
            cls.status, cls.paused_at = RUNNING, None

    return _control(session_id, change)


@bp.post("/class/<int:session_id>/pause")
def pause(session_id: int) -> Response | tuple[str, int]:
    def change(cls: ClassSession, now: datetime) -> None:
        if cls.status == RUNNING and not time_up(cls):
            cls.status, cls.paused_at = PAUSED, now

    return _control(session_id, change)


@bp.post("/class/<int:session_id>/release")
def release(session_id: int) -> Response | tuple[str, int]:
    """Let a pupil join again under the same name from any browser (theirs lost its cookie), keeping their work.

    The browser that had the name no longer has it; the next one to join with the name takes it over.
    """
    cls = _teacher_session(session_id)
    if cls is None:
        return _not_teacher(session_id)
    try:
        key = core.name_key(core.clean_name(str(request.form.get("name", ""))[:100]))
    except ClassError:
        key = None
    student = db.session.scalar(
        select(ClassStudent).where(ClassStudent.session_id == cls.id, ClassStudent.name_key == key)
    )
    if student is not None and phase(cls) != ENDED and not student.token_hash.startswith(RELEASED):
        # The start of the old hash stays, so the browser that had the name can be told what happened.
        student.token_hash = RELEASED + student.token_hash[:RELEASED_KEPT]
        try:
            db.session.commit()
            flash(gettext(str(RELEASED_NOTE), name=student.nickname), "info")
        except StaleDataError:
            db.session.rollback()
            flash(str(STALE), "error")
    return redirect(url_for("classroom.dashboard", session_id=session_id), code=303)


# What "+5 minutes" adds to the time limit.
EXTRA_MINUTES = 5


@bp.post("/class/<int:session_id>/more-time")
def more_time(session_id: int) -> Response | tuple[str, int]:
    """Five more minutes before the time limit, while the class runs or is paused.

    Not once the time is up: pupils have seen every best formula by then, so the class cannot go on.
    """

    def change(cls: ClassSession, now: datetime) -> None:
        if cls.ends_at is not None and (cls.status == PAUSED or (cls.status == RUNNING and not time_up(cls))):
            cls.ends_at += timedelta(minutes=EXTRA_MINUTES)

    return _control(session_id, change)


@bp.post("/class/<int:session_id>/end")
def end(session_id: int) -> Response | tuple[str, int]:
    """End the session: no more answers; everyone's results stay readable."""

    def change(cls: ClassSession, now: datetime) -> None:
        if cls.status != ENDED:
            # A session whose time ran out ended then, not now.
            cls.ended_at = min(now, cls.ends_at) if cls.ends_at and cls.status == RUNNING else now
            cls.status, cls.paused_at = ENDED, None

    return _control(session_id, change)


@bp.get("/class/<int:session_id>/results.csv")
def results_csv(session_id: int) -> Response | tuple[str, int]:
    """The grid as CSV (UTF-8 with a BOM), in the teacher's language."""
    cls = _teacher_session(session_id)
    if cls is None:
        return _not_teacher(session_id)
    data = core.results_csv(_results(cls), lang())
    response = Response(data, mimetype="text/csv")
    response.headers["Content-Disposition"] = f'attachment; filename="suji-class-{cls.code}.csv"'
    return response


@bp.get("/class/<int:session_id>/summary")
@teacher_page
def summary(session_id: int) -> str | Response | tuple[str, int]:
    """A printable summary: the problems with their best answers, how the class did, everyone's totals."""
    cls = _teacher_session(session_id)
    if cls is None:
        return _not_teacher(session_id)
    return render_template(
        "classroom/summary.html", cls=cls, settings=settings_of(cls), grid=_results(cls), phase=phase(cls),
        phase_names=PHASE_NAMES, mistake_name=core.mistake_name, lang=lang(), local_time=_local_time,
    )  # fmt: skip


def _local_time(moment: datetime) -> str:
    """A stored moment (UTC) as the school reads it: in the app's time zone, with the zone's name."""
    aware = moment if moment.tzinfo else moment.replace(tzinfo=UTC)
    return aware.astimezone(local_zone()).strftime("%Y-%m-%d %H:%M %Z")


@bp.get("/class/<int:session_id>/qr.svg")
def qr_code(session_id: int) -> Response | tuple[str, int]:
    """The join URL as a QR code (SVG, drawn here: no outside service sees the code)."""
    import io

    import segno

    cls = _teacher_session(session_id)
    if cls is None:
        return _not_teacher(session_id)
    out = io.BytesIO()
    segno.make(join_url(cls), error="m").save(out, kind="svg", scale=8, border=2, xmldecl=False)
    return Response(out.getvalue(), mimetype="image/svg+xml")


@bp.get("/class/<int:session_id>/delete")
@teacher_page
def delete_confirm(session_id: int) -> str | Response | tuple[str, int]:
    cls = _teacher_session(session_id)
    if cls is None:
        return _not_teacher(session_id)
    count = db.session.scalar(select(func.count()).where(ClassStudent.session_id == cls.id)) or 0
    return render_template("classroom/delete.html", cls=cls, students=count)


@bp.post("/class/<int:session_id>/delete")
def delete_session(session_id: int) -> Response | tuple[str, int]:
    """Delete the session with every pupil, answer and attempt, in one transaction."""
    cls = _teacher_session(session_id)
    if cls is None:
        return _not_teacher(session_id)
    _delete_session(cls)
    flash(str(DELETED), "info")
    response = redirect(url_for("classroom.new"), code=303)
    response.delete_cookie(TEACHER_COOKIE.format(id=session_id), httponly=True, samesite="Lax")
    return response


# ---- pupils: joining ----


def _client() -> str:
    """Who is joining, for the rate limit: a hash of the address (the address itself is not stored)."""
    return hashlib.sha256(f"class-join:{request.remote_addr}".encode()).hexdigest()


def join_failures(client: str, now: datetime | None = None) -> int:
    now = now or utcnow()
    return db.session.scalar(
        select(func.count()).where(ClassJoinFailure.client == client, ClassJoinFailure.created_at >= now - JOIN_WINDOW)
    ) or 0  # fmt: skip


def _student_token() -> str | None:
    token = request.cookies.get(STUDENT_COOKIE, "")
    return token if 20 <= len(token) <= 100 else None


def _student(cls: ClassSession) -> ClassStudent | None:
    """This browser's pupil in the session, or None."""
    token = _student_token()
    if token is None:
        return None
    return db.session.scalar(
        select(ClassStudent).where(ClassStudent.session_id == cls.id, ClassStudent.token_hash == token_hash(token))
    )  # fmt: skip


def _by_code(code: str) -> ClassSession | None:
    try:
        clean = core.clean_code(code)
    except ClassError:
        return None
    return db.session.scalar(select(ClassSession).where(ClassSession.code == clean))


@bp.get("/join")
def join() -> str:
    """The pupil's form: the code from the board and a nickname."""
    return render_template("classroom/join.html", code="", name="", error=None)


@bp.get("/join/<code>")
def join_code(code: str) -> str | Response:
    """The QR code's target: the form with the code filled in (or, for a pupil already in, the class)."""
    cls = _by_code(code)
    if cls is not None and _student(cls) is not None:
        return redirect(url_for("classroom.play", code=cls.code), code=303)
    shown = cls.code if cls is not None else str(code)[: core.CODE_LENGTH + 4]
    return render_template("classroom/join.html", code=shown, name="", error=None)


@bp.post("/join")
def join_post() -> str | Response | tuple[str, int]:
    """Join: check the rate limit, the code, the phase and the name; rejoining from this browser continues."""
    code_text = str(request.form.get("code", ""))[: core.MAX_CODE_INPUT]
    name_text = str(request.form.get("nickname", ""))[:100]

    def refuse(error: ClassError, status: int = 400) -> tuple[str, int]:
        page = render_template(
            "classroom/join.html", code=code_text, name=name_text, error=error.message(lang())
        )
        return page, status

    client = _client()
    if join_failures(client) >= int(current_app.config.get("SUJI_CLASS_JOIN_LIMIT", JOIN_FAILURES)):
        return refuse(ClassError("too_many_tries", minutes=int(JOIN_WINDOW.total_seconds() // 60)), 429)
    try:
        code = core.clean_code(code_text)
    except ClassError as error:
        return refuse(error)
    cls = db.session.scalar(select(ClassSession).where(ClassSession.code == code))
    if cls is None:
        db.session.add(ClassJoinFailure(client=client))
        db.session.commit()
        return refuse(ClassError("unknown_code", given=code), 404)
    me = _student(cls)
    if me is not None:  # the same browser again: carry on, whatever name was typed
        flash(gettext(str(WELCOME_BACK), name=me.nickname), "info")
        return redirect(url_for("classroom.play", code=cls.code), code=303)
    if phase(cls) == ENDED:
        return refuse(ClassError("ended"))
    try:
        name = core.clean_name(name_text)
    except ClassError as error:
        return refuse(error)
    key = core.name_key(name)
    taken = db.session.scalar(
        select(ClassStudent).where(ClassStudent.session_id == cls.id, ClassStudent.name_key == key)
    )
    if taken is not None and not taken.token_hash.startswith(RELEASED):
        return refuse(ClassError("name_taken", name=name), 409)
    token = _student_token()
    if token is None:
        token = secrets.token_urlsafe(32)
        _set_cookie(STUDENT_COOKIE, token, 365 * 24 * 3600)
    if taken is not None:  # a name the teacher let join again: this browser carries on with that pupil's work
        taken.token_hash = token_hash(token)
    else:
        db.session.add(
            ClassStudent(session_id=cls.id, nickname=name, name_key=key, token_hash=token_hash(token))
        )
    try:
        db.session.commit()
    except (IntegrityError, StaleDataError):  # the same name joined a moment ago from another device
        db.session.rollback()
        g.pop("class_cookies", None)
        return refuse(ClassError("name_taken", name=name), 409)
    if taken is not None:
        flash(gettext(str(WELCOME_BACK), name=taken.nickname), "info")
    return redirect(url_for("classroom.play", code=cls.code), code=303)


# ---- pupils: the problems ----


def _session_and_pupil(code: str) -> tuple[ClassSession | None, ClassStudent | None]:
    """The session of a code and this browser's pupil in it, in one query (every pupil request needs both)."""
    try:
        clean = core.clean_code(code)
    except ClassError:
        return None, None
    token = _student_token()
    if token is None:
        return db.session.scalar(select(ClassSession).where(ClassSession.code == clean)), None
    mine = and_(ClassStudent.session_id == ClassSession.id, ClassStudent.token_hash == token_hash(token))
    row = db.session.execute(
        select(ClassSession, ClassStudent).outerjoin(ClassStudent, mine).where(ClassSession.code == clean)
    ).first()
    return (row[0], row[1]) if row is not None else (None, None)


def _pupil(code: str) -> tuple[ClassSession, ClassStudent] | Response | tuple[str, int]:
    """The session of the code and this browser's pupil in it, or the page that says why not."""
    cls, me = _session_and_pupil(code)
    if cls is None:
        return render_error(404, "unknown_code", gettext("Class not found"),
                            ClassError("unknown_code", given=str(code)[:12]).message(lang()))  # fmt: skip
    if me is None:
        flash(ClassError("moved" if _moved(cls) else "not_joined").message(lang()), "error")
        return redirect(url_for("classroom.join_code", code=cls.code), code=303)
    return cls, me


def _moved(cls: ClassSession) -> bool:
    """Whether this browser was a pupil of the class whose name the teacher let join again (`release`)."""
    token = _student_token()
    if token is None:
        return False
    return db.session.scalar(
        select(ClassStudent.id).where(ClassStudent.session_id == cls.id,
                                      ClassStudent.token_hash == RELEASED + token_hash(token)[:RELEASED_KEPT])
    ) is not None  # fmt: skip


@bp.get("/class/s/<code>")
def play(code: str) -> str | Response | tuple[str, int]:
    """The pupil's page: waiting, paused, the current problem, its result, the end of the list, or the results."""
    found = _pupil(code)
    if not isinstance(found, tuple) or not isinstance(found[0], ClassSession):
        return found  # type: ignore[return-value]
    cls, me = found
    problems = problems_of(cls)
    settings = settings_of(cls)
    now_phase = phase(cls)
    answers = {
        a.problem: a for a in db.session.scalars(select(ClassAnswer).where(ClassAnswer.student_id == me.id))
    }
    done = [(p, _progress(answers.get(i))) for i, p in enumerate(problems)]
    total = sum(pr.score for _, pr in done if pr.done)
    common = {
        "cls": cls, "me": me, "settings": settings, "phase": now_phase, "total": total,
        "best_total": sum(p.best_score for p in problems), "count": len(problems), "done": done,
        "seconds_left": seconds_left(cls), "phase_names": PHASE_NAMES,
    }  # fmt: skip
    if now_phase == ENDED or me.position >= len(problems):
        return render_template("classroom/finished.html", time_up=time_up(cls), **common)
    if now_phase in (WAITING, PAUSED):
        return render_template("classroom/wait.html", **common)
    problem = problems[me.position]
    progress = _progress(answers.get(me.position))
    shown_hints = core.problem_hints(problem)[: progress.hints_used] if settings.hints else []
    return render_template(
        "classroom/play.html", problem=problem, roll=problem.roll, progress=progress, index=me.position,
        hints=[h.message(lang()) for h in shown_hints], price=core.hint_price(problem, settings),
        hint_count=len(core.problem_hints(problem)) if settings.hints else 0, max_attempts=core.MAX_ATTEMPTS,
        dice_json=json.dumps(problem.dice(), ensure_ascii=False),
        formula=str(request.args.get("formula", ""))[:MAX_FORMULA], **common,
    )  # fmt: skip


def _answer_row(cls: ClassSession, me: ClassStudent, index: int) -> ClassAnswer:
    row = db.session.scalar(
        select(ClassAnswer).where(ClassAnswer.student_id == me.id, ClassAnswer.problem == index)
    )
    if row is None:
        row = ClassAnswer(session_id=cls.id, student_id=me.id, problem=index, attempts=0, hints_used=0,
                          solved=False, done=False, score=0, formula="")  # fmt: skip
        db.session.add(row)
    return row


def _store(row: ClassAnswer, progress: Progress) -> None:
    row.attempts, row.hints_used, row.solved = progress.attempts, progress.hints_used, progress.solved
    row.done, row.score, row.formula = progress.done, progress.score, progress.formula[:MAX_FORMULA]
    row.updated_at = utcnow()


def _closed(cls: ClassSession) -> ClassError | None:
    """Why a pupil cannot answer now (None: the session is running and time is left)."""
    current = phase(cls)
    if current == RUNNING:
        return None
    if current == ENDED:
        return ClassError("time_up" if time_up(cls) else "ended")
    return ClassError("paused" if current == PAUSED else "not_started")


def _pupil_action(code: str, action) -> Response | tuple[str, int]:  # type: ignore[no-untyped-def]
    """Run `action(cls, me, problem, row, progress)` for the pupil's current problem, if the form is fresh."""
    found = _pupil(code)
    if not isinstance(found, tuple) or not isinstance(found[0], ClassSession):
        return found  # type: ignore[return-value]
    cls, me = found
    page = url_for("classroom.play", code=cls.code)
    closed = _closed(cls)
    if closed is not None:
        flash(closed.message(lang()), "error")
        return redirect(page, code=303)
    problems = problems_of(cls)
    index = _int(request.form.get("problem"))
    if index is None or index != me.position or index >= len(problems):
        flash(ClassError("not_current").message(lang()), "error")
        return redirect(page, code=303)
    row = _answer_row(cls, me, index)
    if _int(request.form.get("attempt")) != (row.attempts or 0):
        db.session.rollback()
        flash(ClassError("stale").message(lang()), "error")
        return redirect(page, code=303)
    try:
        target = action(cls, me, problems[index], row, _progress(row))
    except ClassError as error:
        db.session.rollback()
        flash(error.message(lang()), "error")
        return redirect(page, code=303)
    try:
        db.session.commit()
    except (IntegrityError, StaleDataError):  # the same form from two tabs at once: one of them counts
        db.session.rollback()
        flash(ClassError("stale").message(lang()), "error")
        return redirect(page, code=303)
    return redirect(target or page, code=303)


@bp.post("/class/s/<code>/answer")
def answer(code: str) -> Response | tuple[str, int]:
    """Check the formula with `check` on the server and count the attempt."""
    formula = str(request.form.get("formula", ""))[:MAX_FORMULA]

    def act(cls, me, problem, row, progress):  # type: ignore[no-untyped-def]
        after, attempt = core.grade(formula, problem, progress, settings_of(cls))
        _store(row, after)
        db.session.add(ClassAttempt(session_id=cls.id, student_id=me.id, problem=row.problem,
                                    number=attempt.number, formula=attempt.formula, error_code=attempt.error_code,
                                    score=attempt.score))  # fmt: skip
        if attempt.error_code is None:
            return None
        result = attempt.result
        if attempt.error_code == core.NOT_TARGET:
            text = gettext("%(value)s is not one of the target numbers.", value=_pretty(result))
        else:
            text = result.error.message(lang())
        left = core.MAX_ATTEMPTS - after.attempts
        if left > 0:
            gap = "" if lang() == "ja" else " "  # Japanese sentences follow each other without a space
            text += gap + gettext("Tries left: %(left)s", left=left)
            flash(text, "error")
            return url_for("classroom.play", code=cls.code, formula=formula)
        flash(text, "error")
        return None

    return _pupil_action(code, act)


def _pretty(result: object) -> str:
    value = str(getattr(result, "value", ""))
    return value.replace("sqrt", "√").replace("*", "×").replace("-", "−")


@bp.post("/class/s/<code>/skip")
def skip(code: str) -> Response | tuple[str, int]:
    """Move past the problem without a target (0 points); the dashboard counts it as skipped."""

    def act(cls, me, problem, row, progress):  # type: ignore[no-untyped-def]
        after = core.skip(progress)
        _store(row, after)
        db.session.add(ClassAttempt(session_id=cls.id, student_id=me.id, problem=row.problem,
                                    number=progress.attempts + 1, formula="", error_code=core.SKIPPED, score=0))  # fmt: skip
        return None

    return _pupil_action(code, act)


@bp.post("/class/s/<code>/next")
def next_problem(code: str) -> Response | tuple[str, int]:
    """On to the next problem, once the current one is done."""
    found = _pupil(code)
    if not isinstance(found, tuple) or not isinstance(found[0], ClassSession):
        return found  # type: ignore[return-value]
    cls, me = found
    page = url_for("classroom.play", code=cls.code)
    index = _int(request.form.get("problem"))
    if index is None or index != me.position:
        flash(ClassError("stale").message(lang()), "error")
        return redirect(page, code=303)
    row = db.session.scalar(
        select(ClassAnswer).where(ClassAnswer.student_id == me.id, ClassAnswer.problem == index)
    )
    if row is not None and row.done:
        me.position = index + 1
        try:
            db.session.commit()
        except StaleDataError:
            db.session.rollback()
    return redirect(page, code=303)


def _joined_json(code: str) -> tuple[ClassSession, ClassStudent] | Response:
    """The class of `code` and this browser's pupil in it, or the JSON error saying which is missing."""
    cls = _by_code(code)
    if cls is None:
        return _json_error("unknown_code", 404, given=str(code)[:12])
    me = _student(cls)
    if me is None:
        return _json_error("not_joined", 403)
    return cls, me


@bp.get("/api/class/<code>/state")
def state_json(code: str) -> Response:
    """The phase and the time left, for a pupil's page to reload when the teacher starts, pauses or ends."""
    found = _joined_json(code)
    if isinstance(found, Response):
        return found
    cls, me = found
    return jsonify({"phase": phase(cls), "seconds_left": seconds_left(cls), "position": me.position})


@bp.post("/api/class/<code>/hint")
def hint(code: str) -> Response:
    """The next hint (or one seen before) of the pupil's current problem; drill.js asks for it."""
    found = _joined_json(code)
    if isinstance(found, Response):
        return found
    cls, me = found
    data = json_body()
    if not isinstance(data, dict):
        return _json_error("not_json")
    closed = _closed(cls)
    if closed is not None:
        return _json_error(closed, 409)
    if _int(data.get("roll")) != me.position or me.position >= len(problems_of(cls)):
        return _json_error("not_current", 409)
    problem = problems_of(cls)[me.position]
    row = _answer_row(cls, me, me.position)
    try:
        after, shown = core.take_hint(problem, _progress(row), settings_of(cls), data.get("step", 0))
    except ClassError as error:
        db.session.rollback()
        return _json_error(error)
    _store(row, after)
    try:
        db.session.commit()
    except (IntegrityError, StaleDataError):
        db.session.rollback()
        return _json_error("stale", 409)
    step = int(data.get("step", 0))  # take_hint has checked it
    return jsonify({"hint": shown.message(lang()), "step": step, "more": step + 1 < len(core.problem_hints(problem)),
                    "hints_used": after.hints_used})  # fmt: skip
