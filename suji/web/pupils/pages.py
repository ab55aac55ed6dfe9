"""Signing in with a card, signing out, and the pupil's own page.

/signin (GET: the form, its code filled in by static/pupil.js from the card's QR code, /signin#KM47TQXA, which
then signs in at once; POST: the code) → /my/; /signout (POST) takes the pupil and their practice off the device.
/my/ lists the pupil's homework (not open yet, open, due, late, done), a live lesson of their class to join,
their practice and the class's daily puzzle board as the teacher set it.
"""

from __future__ import annotations

from datetime import timedelta

from flask import flash, redirect, render_template, request, url_for
from flask_babel import gettext
from sqlalchemy import select
from werkzeug.wrappers import Response

from suji.play.classroom import ENDED
from suji.play.school import homework as rules
from suji.web.classes import daily, store, work
from suji.web.classes import signin as card_signin
from suji.web.classes.models import AssignmentWork, ClassPupil, SchoolClass
from suji.web.i18n import select_locale
from suji.web.models import utcnow
from suji.web.pupils import bp, pupil_required
from suji.web.redirects import safe_next


def _signin_page(code: str = "", error: card_signin.PupilSigninError | None = None, status: int = 200) -> tuple[str, int]:
    return render_template(
        "pupils/signin.html", code=code[:20], error=error.message(select_locale()) if error else None,
        next=safe_next(request.values.get("next", "")), signed_in=card_signin.current_pupil(),
    ), status  # fmt: skip


@bp.get("/signin")
def signin() -> tuple[str, int]:
    return _signin_page()


@bp.post("/signin")
def signin_post() -> Response | tuple[str, int]:
    """Sign in with a card's code: this device is the pupil's until they sign out (or get a new card)."""
    text = str(request.form.get("code", ""))[:40]
    try:
        pupil = card_signin.sign_in(text)
    except card_signin.PupilSigninError as error:
        return _signin_page(text, error, 429 if error.code == "too_many" else 400)
    flash(gettext("You are signed in with your card."), "info")
    target = safe_next(request.form.get("next", ""))
    response = redirect(target if target != "/" else url_for("pupils.home"), code=303)
    days = (store.kept_until(card_signin.class_of(pupil)) - store.today()).days
    return card_signin.signed_in(response, pupil, days)


@bp.post("/signout")
def signout() -> Response:
    flash(gettext("You are signed out. See you next time!"), "info")
    return card_signin.signed_out(redirect(url_for("pupils.signin"), code=303))


def live_lesson(cls: SchoolClass) -> object | None:
    """A live session of the class a pupil can join now (made today or so, not ended), the newest."""
    from suji.web.classroom import store as classroom
    from suji.web.classroom_models import ClassSession
    from suji.web.extensions import db

    recent = utcnow() - timedelta(hours=12)
    sessions = db.session.scalars(
        select(ClassSession).where(ClassSession.school_class_id == cls.id, ClassSession.created_at >= recent)
        .order_by(ClassSession.id.desc()).limit(5)
    )  # fmt: skip
    return next((s for s in sessions if classroom.phase(s) != ENDED), None)


@bp.get("/my/")
@pupil_required
def home(pupil: ClassPupil, cls: SchoolClass) -> str:
    """The pupil's page: their homework with where each stands, a live lesson to join, practice, the board."""
    from suji.web.extensions import db
    from suji.web.games.common import today

    now = utcnow()
    works = {w.assignment_id: w for w in db.session.scalars(
        select(AssignmentWork).where(AssignmentWork.pupil_id == pupil.id))}  # fmt: skip
    rows = []
    for assignment in work.assignments_of(cls):
        mine = works.get(assignment.id)
        homework = work.homework_of(assignment)
        status = rules.pupil_status(homework, now, mine is not None and mine.finished_at is not None)
        rows.append((assignment, homework, status, mine))
    order = {rules.LATE: 0, rules.DUE: 1, rules.OPEN: 2, rules.NOT_OPEN: 3, rules.DONE: 4}
    todo = sorted((r for r in rows if r[2] != rules.DONE), key=lambda r: (order[r[2]], r[0].due_at or now))
    done = [r for r in rows if r[2] == rules.DONE]
    return render_template(
        "pupils/home.html", pupil=pupil, cls=cls, todo=todo, done=done, lesson=live_lesson(cls),
        board=daily.board(cls, today(), pupil), score_of=work.counted_score,
    )  # fmt: skip
