"""The teacher's pages of class mode: make a session, the dashboard and its controls, results, delete.

/class/new (the form: problems as a worksheet's, the time limit, the hints) → /class/<id> (a random public id;
the dashboard: the join
code, its QR, start / pause / "+5 minutes" / end, the live grid that polls /api/class/<id>/results), the CSV and a
printable summary, "allow rejoin" for a pupil whose device lost its place, and deleting the session. Every view
but the form runs behind `teacher_required`; the rules are suji.play.classroom's, the rows suji.web.classroom.store's.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Callable
from datetime import datetime

from flask import flash, jsonify, redirect, render_template, request, session, url_for
from flask_babel import gettext, lazy_gettext, ngettext
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm.exc import StaleDataError
from werkzeug.wrappers import Response

from suji.core.decimals import rounded
from suji.play import classroom as core
from suji.play.classroom import (
    ENDED,
    EXTRA_MINUTES,
    WAITING,
    ClassError,
    ClassSettings,
    Clock,
    clock,
)
from suji.web.accounts.access import current_teacher
from suji.web.classroom import store
from suji.web.classroom.access import (
    PHASE_NAMES,
    TEACHER_COOKIE,
    bp,
    lang,
    my_sessions,
    not_teacher,
    teacher_cookie_name,
    teacher_required,
    with_cookie,
)
from suji.web.classroom_models import ClassSession, ClassStudent
from suji.web.extensions import db
from suji.web.furigana import teacher_page
from suji.web.links import external_url, public_host
from suji.web.models import token_hash, utcnow
from suji.web.settings import local_time
from suji.web.slots import heavy

NEW_LINK_KEY = (
    "class_new_link"  # the private link, shown once on the dashboard right after the session is made
)
POLL_MS = 1500  # the dashboard asks for new results this often
MAX_LISTED = (
    20  # the sessions listed on the new-class page: at most this many of the newest this browser holds
)

MIXED_LEVELS = lazy_gettext("Mixed: each problem has its own level")
STALE = lazy_gettext(
    "That was already done (the page may have been sent twice). Here is the class as it is now."
)
DELETED = lazy_gettext("The class session and all its answers are deleted.")
CLAIMED = lazy_gettext("This class session is in your teacher account now: it opens wherever you log in.")
RELEASED_NOTE = lazy_gettext("%(name)s can join again with the same name, on any device, and carry on.")


def _teacher_cookie(response: Response, cls: ClassSession, token: str) -> Response:
    return with_cookie(response, teacher_cookie_name(cls), token, store.retention_days() * 24 * 3600)


@bp.get("/class/")
def index() -> Response:
    return redirect(url_for("classroom.new"), code=303)


@bp.get("/class/new")
@teacher_page
def new() -> str:
    """The teacher's form: problems as a worksheet's, the time limit, the hints."""
    return _new_form(ClassSettings(), {}, [])


def _new_form(settings: ClassSettings, form: dict, errors: list[ClassError]) -> str:
    from suji.solver.problems import LEVEL_NAMES, LEVELS, MIXED, VERSION_LABELS

    levels = [(str(n), gettext(LEVEL_NAMES[n])) for n in LEVELS] + [(MIXED, gettext(MIXED_LEVELS))]
    teacher = current_teacher()
    classes = store.roster.teacher_classes(teacher.id) if teacher is not None else []
    form = {"school_class": str(request.args.get("for", ""))[:40], **form}
    return render_template(
        "classroom/new.html", settings=settings, form=form, errors=errors, levels=levels, classes=classes,
        versions=VERSION_LABELS, min_count=core.MIN_COUNT, max_count=core.MAX_COUNT,
        max_time=core.MAX_TIME_LIMIT, max_attempts=core.MAX_ATTEMPTS, retention=store.retention_days(),
        mine=my_sessions(MAX_LISTED), phase_of=store.phase, phase_names=PHASE_NAMES, local_time=local_time,
    )  # fmt: skip


@bp.post("/class/new")
@teacher_page
@heavy  # choosing the problems solves each one: bounded per client and over every process (suji.web.slots)
def create() -> Response | tuple[str, int]:
    """Make the session: choose its problems, a join code and the teacher's token; show the dashboard."""
    fields = ("count", "level", "seed", "version", "time_limit", "hints", "hint_cost", "school_class")
    form = {name: str(request.form.get(name, ""))[:200] for name in fields if name in request.form}
    settings, errors = core.parse_settings(form)
    if errors:
        return _new_form(settings, form, errors), 400
    teacher = current_teacher()
    owner = teacher.id if teacher is not None else None
    # A session made for one of the teacher's classes: its roster pupils join signed in (suji.web.classes).
    school_class = store.roster.owned_class(owner, form["school_class"]) if owner and form.get("school_class") else None
    store.purge_expired()
    settings = core.with_seed(settings)
    problems = core.choose_problems(settings)
    token = secrets.token_urlsafe(32)
    for _ in range(10):  # a code already in use (one in 244 million per session) is drawn again
        cls = ClassSession(
            code=core.new_code(), public_id=store.new_public_id(), teacher_hash=token_hash(token), status=WAITING,
            teacher_id=owner, school_class_id=school_class,
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
    if school_class is not None:
        store.roster.session_made(cls)
    session[NEW_LINK_KEY] = {"id": cls.public_id, "token": token}
    return _teacher_cookie(redirect(url_for("classroom.dashboard", session_id=cls.public_id), code=303), cls, token)


@bp.get("/class/teach/<token>")
@teacher_page
def teach(token: str) -> Response | tuple[str, int]:
    """The private link: keep the token in this browser's cookie and open the dashboard."""
    if not 20 <= len(token) <= 100:
        return not_teacher()
    cls = db.session.scalar(select(ClassSession).where(ClassSession.teacher_hash == token_hash(token)))
    if cls is None:
        return not_teacher()
    teacher = current_teacher()
    if teacher is not None and cls.teacher_id is None:  # a link made before the account: the account keeps it now
        cls.teacher_id = teacher.id
        try:
            db.session.commit()
            flash(str(CLAIMED), "info")
        except StaleDataError:
            db.session.rollback()
    return _teacher_cookie(redirect(url_for("classroom.dashboard", session_id=cls.public_id), code=303), cls, token)


def join_url(cls: ClassSession) -> str:
    """The address pupils type or scan (SUJI_PUBLIC_URL's, else the request's host: suji.web.links)."""
    return external_url("classroom.join_code", code=cls.code)


def only_this_computer() -> bool:
    """Whether the join URL names an address only this computer can reach (127.0.0.1, localhost): the join URL
    and its QR code would then lead nowhere on a pupil's device."""
    host = public_host()
    return host in ("127.0.0.1", "localhost", "::1") or host.startswith("127.")


@bp.get("/class/<session_id>")
@teacher_required()
@teacher_page
def dashboard(cls: ClassSession) -> str:
    """The teacher's dashboard: the code (large) and its QR, controls, the live grid."""
    link = session.get(NEW_LINK_KEY)
    private_link = None
    if isinstance(link, dict) and link.get("id") == cls.public_id:
        session.pop(NEW_LINK_KEY)
        private_link = external_url("classroom.teach", token=str(link.get("token")))
    return render_template(
        "classroom/dashboard.html", cls=cls, settings=store.settings_of(cls), grid=store.results_of(cls),
        phase=store.phase(cls), phase_names=PHASE_NAMES, time_up=store.time_up(cls),
        seconds_left=store.seconds_left(cls), join_url=join_url(cls), private_link=private_link, poll_ms=POLL_MS,
        mistake_name=core.mistake_name, lang=lang(), counts_text=counts_text,
        only_this_computer=only_this_computer(), extra_minutes=EXTRA_MINUTES, release=cls.school_class_id is None,
        waiting=store.waiting_names(cls),
        roster_class=store.roster.class_name(cls.school_class_id) if cls.school_class_id else None,
        extra_time=store.extra_time(cls), local_time=local_time, max_attempts=core.MAX_ATTEMPTS,
    )  # fmt: skip


def counts_text(pupils: int, answers: int) -> str:
    """ "3 pupils, 1 answer": each count with its own plural."""
    return gettext("%(pupils)s, %(answers)s", pupils=ngettext("%(num)s pupil", "%(num)s pupils", pupils),
                   answers=ngettext("%(num)s answer", "%(num)s answers", answers))  # fmt: skip


@bp.get("/api/class/<session_id>/results")
@teacher_required(json=True)  # the dashboard reloads on either error, and the page then says which
def results_json(cls: ClassSession) -> Response:
    """What the dashboard shows, for its polling: the phase, the counts, the grid as data and as HTML."""
    grid = store.results_of(cls)
    here = lang()
    html = render_template("classroom/_grid.html", grid=grid, mistake_name=core.mistake_name, lang=here,
                           phase=store.phase(cls), cls=cls, release=cls.school_class_id is None,
                           waiting=store.waiting_names(cls))  # fmt: skip
    return jsonify({
        "phase": store.phase(cls), "status": cls.status, "time_up": store.time_up(cls),
        "seconds_left": store.seconds_left(cls), "students": len(grid.rows), "attempts": grid.attempts,
        "counts_text": counts_text(len(grid.rows), grid.attempts),
        "rows": [{"name": r.name, "total": r.total, "best_total": r.best_total, "position": r.position,
                  "cells": [None if c is None else {"attempts": c.attempts, "hints": c.hints_used,
                                                   "solved": c.solved, "done": c.done, "score": c.score}
                            for c in r.cells]} for r in grid.rows],
        "problems": [{"number": c.problem.number, "best_score": c.problem.best_score, "solved": c.solved,
                      "share_solved": rounded(c.share_solved, 4), "mistake": c.mistake,
                      "mistake_name": core.mistake_name(c.mistake, here), "mistake_count": c.mistake_count}
                     for c in grid.columns],
        "html": html,
    })  # fmt: skip


# ---- the controls: each a pure move of the session's clock (suji.play.classroom.clock) ----


def _control(cls: ClassSession, move: Callable[[Clock, datetime], Clock]) -> Response:
    store.store_clock(cls, move(store.clock_of(cls), utcnow()))
    try:
        db.session.commit()
    except StaleDataError:
        db.session.rollback()
        flash(str(STALE), "error")
    return redirect(url_for("classroom.dashboard", session_id=cls.public_id), code=303)


@bp.post("/class/<session_id>/start")
@teacher_required()
def start(cls: ClassSession) -> Response:
    """Start, or go on after a pause (the pause does not count against the time limit)."""
    limit = store.settings_of(cls).time_limit
    return _control(cls, lambda now_clock, now: clock.start(now_clock, now, limit))


@bp.post("/class/<session_id>/pause")
@teacher_required()
def pause(cls: ClassSession) -> Response:
    return _control(cls, clock.pause)


@bp.post("/class/<session_id>/more-time")
@teacher_required()
def more_time(cls: ClassSession) -> Response:
    """Five more minutes before the time limit, while the class runs or is paused.

    Not once the time is up: pupils have seen every best formula by then, so the class cannot go on.
    """
    return _control(cls, clock.more_time)


@bp.post("/class/<session_id>/end")
@teacher_required()
def end(cls: ClassSession) -> Response:
    """End the session: no more answers; everyone's results stay readable."""
    return _control(cls, clock.end)


@bp.post("/class/<session_id>/release")
@teacher_required()
def release(cls: ClassSession) -> Response:
    """Let a pupil join again under the same name from any browser (theirs lost its cookie), keeping their work.

    The browser that had the name no longer has it; the next one to join with the name takes it over.
    """
    try:
        key = core.name_key(core.clean_name(str(request.form.get("name", ""))[:100]))
    except ClassError:
        key = None
    student = db.session.scalar(
        select(ClassStudent).where(ClassStudent.session_id == cls.id, ClassStudent.name_key == key)
    )
    if (
        student is not None
        and store.phase(cls) != ENDED
        and not student.token_hash.startswith(store.RELEASED)
    ):
        # The start of the old hash stays, so the browser that had the name can be told what happened.
        student.token_hash = store.released_hash(student.token_hash)
        try:
            db.session.commit()
            flash(gettext(str(RELEASED_NOTE), name=student.nickname), "info")
        except StaleDataError:
            db.session.rollback()
            flash(str(STALE), "error")
    return redirect(url_for("classroom.dashboard", session_id=cls.public_id), code=303)


# ---- results, and deleting them ----


@bp.get("/class/<session_id>/results.csv")
@teacher_required()
def results_csv(cls: ClassSession) -> Response:
    """The grid as CSV (UTF-8 with a BOM), in the teacher's language."""
    response = Response(core.results_csv(store.results_of(cls), lang()), mimetype="text/csv")
    response.headers["Content-Disposition"] = f'attachment; filename="suji-class-{cls.code}.csv"'
    return response


@bp.get("/class/<session_id>/summary")
@teacher_required()
@teacher_page
def summary(cls: ClassSession) -> str:
    """A printable summary: the problems with their best answers, how the class did, everyone's totals."""
    return render_template(
        "classroom/summary.html", cls=cls, settings=store.settings_of(cls), grid=store.results_of(cls),
        phase=store.phase(cls), phase_names=PHASE_NAMES, mistake_name=core.mistake_name, lang=lang(),
        local_time=local_time, max_attempts=core.MAX_ATTEMPTS,
    )  # fmt: skip


@bp.get("/class/<session_id>/qr.svg")
@teacher_required()
def qr_code(cls: ClassSession) -> Response:
    """The join URL as a QR code (SVG, drawn here: no outside service sees the code)."""
    import io

    import segno

    out = io.BytesIO()
    segno.make(join_url(cls), error="m").save(out, kind="svg", scale=8, border=2, xmldecl=False)
    return Response(out.getvalue(), mimetype="image/svg+xml")


@bp.get("/class/<session_id>/delete")
@teacher_required()
@teacher_page
def delete_confirm(cls: ClassSession) -> str:
    return render_template("classroom/delete.html", cls=cls, students=store.student_count(cls))


@bp.post("/class/<session_id>/delete")
@teacher_required()
def delete_session(cls: ClassSession) -> Response:
    """Delete the session with every pupil, answer and attempt, in one transaction."""
    names = {teacher_cookie_name(cls), TEACHER_COOKIE.format(id=cls.id)}
    store.delete_session(cls)
    flash(str(DELETED), "info")
    response = redirect(url_for("classroom.new"), code=303)
    for name in names:
        response.delete_cookie(name, httponly=True, samesite="Lax")
    return response
