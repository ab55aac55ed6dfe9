"""The pupils' pages of class mode: join with the code and a nickname, then one problem after another.

/join, /join/<CODE> (the QR code's target) → /class/s/<CODE> (waiting, paused, the current problem with the
drill's dice, its result, the end of the list, the results), with /answer, /skip and /next posted from it;
JSON: /api/class/<CODE>/state (the page polls for the teacher's start, pause and end) and /api/class/<CODE>/hint.
Every view but joining runs behind `pupil_required`. An answer must be for the pupil's current problem and carry
the number of attempts the page showed, so a form sent twice or from an old tab changes nothing (and the database
refuses a doubled attempt). A wrong join code counts against the client's address: too many and joining waits.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Callable

from flask import current_app, flash, jsonify, redirect, render_template, request, url_for
from flask_babel import gettext, lazy_gettext
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm.exc import StaleDataError
from werkzeug.wrappers import Response

from suji.play import classroom as core
from suji.play.classroom import ENDED, PAUSED, WAITING, ClassError, ClassProblem, Progress, clock
from suji.rules.language.reader import formula_field
from suji.web.classroom import store
from suji.web.classroom.access import (
    PHASE_NAMES,
    STUDENT_COOKIE,
    bp,
    by_code,
    int_field,
    json_error,
    lang,
    pupil_required,
    student,
    student_token,
    with_cookie,
)
from suji.web.classroom_models import ClassAnswer, ClassAttempt, ClassSession, ClassStudent
from suji.web.extensions import db
from suji.web.jsonbody import json_body
from suji.web.models import token_hash, utcnow

JOIN_FAILURES = 20  # wrong codes per client and window; a whole class behind one address mistypes fewer
WELCOME_BACK = lazy_gettext("Welcome back, %(name)s! You continue where you left off.")


# ---- joining ----


@bp.get("/join")
def join() -> str:
    """The pupil's form: the code from the board and a nickname."""
    return render_template("classroom/join.html", code="", name="", error=None)


@bp.get("/join/<code>")
def join_code(code: str) -> str | Response:
    """The QR code's target: the form with the code filled in (or, for a pupil already in, the class)."""
    cls = by_code(code)
    if cls is not None and student(cls) is not None:
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

    client = store.client_key(request.remote_addr)
    if store.join_failures(client) >= int(current_app.config.get("SUJI_CLASS_JOIN_LIMIT", JOIN_FAILURES)):
        return refuse(ClassError("too_many_tries", minutes=int(store.JOIN_WINDOW.total_seconds() // 60)), 429)
    try:
        code = core.clean_code(code_text)
    except ClassError as error:
        return refuse(error)
    cls = db.session.scalar(select(ClassSession).where(ClassSession.code == code))
    if cls is None:
        store.count_join_failure(client)
        return refuse(ClassError("unknown_code", given=code), 404)
    me = student(cls)
    if me is not None:  # the same browser again: carry on, whatever name was typed
        flash(gettext(str(WELCOME_BACK), name=me.nickname), "info")
        return redirect(url_for("classroom.play", code=cls.code), code=303)
    if store.phase(cls) == ENDED:
        return refuse(ClassError("ended"))
    try:
        name = core.clean_name(name_text)
    except ClassError as error:
        return refuse(error)
    key = core.name_key(name)
    taken = db.session.scalar(
        select(ClassStudent).where(ClassStudent.session_id == cls.id, ClassStudent.name_key == key)
    )
    if taken is not None and not taken.token_hash.startswith(store.RELEASED):
        return refuse(ClassError("name_taken", name=name), 409)
    token = student_token()
    new_token = token is None
    if token is None:
        token = secrets.token_urlsafe(32)
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
        return refuse(ClassError("name_taken", name=name), 409)
    if taken is not None:
        flash(gettext(str(WELCOME_BACK), name=taken.nickname), "info")
    response = redirect(url_for("classroom.play", code=cls.code), code=303)
    return with_cookie(response, STUDENT_COOKIE, token, 365 * 24 * 3600) if new_token else response


# ---- the problems ----


@bp.get("/class/s/<code>")
@pupil_required()
def play(cls: ClassSession, me: ClassStudent) -> str:
    """The pupil's page: waiting, paused, the current problem, its result, the end of the list, or the results."""
    problems = store.problems_of(cls)
    settings = store.settings_of(cls)
    now_phase = store.phase(cls)
    answers = store.answers_of(me)
    done = [(p, store.progress_of(answers.get(i))) for i, p in enumerate(problems)]
    total = sum(pr.score for _, pr in done if pr.done)
    common = {
        "cls": cls, "me": me, "settings": settings, "phase": now_phase, "total": total,
        "best_total": sum(p.best_score for p in problems), "count": len(problems), "done": done,
        "seconds_left": store.seconds_left(cls), "phase_names": PHASE_NAMES,
    }  # fmt: skip
    if now_phase == ENDED or me.position >= len(problems):
        return render_template("classroom/finished.html", time_up=store.time_up(cls), **common)
    if now_phase in (WAITING, PAUSED):
        return render_template("classroom/wait.html", **common)
    problem = problems[me.position]
    progress = store.progress_of(answers.get(me.position))
    shown_hints = core.problem_hints(problem)[: progress.hints_used] if settings.hints else []
    return render_template(
        "classroom/play.html", problem=problem, roll=problem.roll, progress=progress, index=me.position,
        hints=[h.message(lang()) for h in shown_hints], price=core.hint_price(problem, settings),
        hint_count=len(core.problem_hints(problem)) if settings.hints else 0, max_attempts=core.MAX_ATTEMPTS,
        dice_json=json.dumps(problem.dice(), ensure_ascii=False),
        formula=formula_field(request.args.get("formula")), **common,
    )  # fmt: skip


# A move on the pupil's current problem: (session, pupil, problem, its row, progress) → where to go (None: the
# pupil's page). It may raise ClassError, which is shown and changes nothing.
Action = Callable[[ClassSession, ClassStudent, ClassProblem, ClassAnswer, Progress], str | None]


def _pupil_action(cls: ClassSession, me: ClassStudent, action: Action) -> Response:
    """Run `action` for the pupil's current problem, if the session runs and the form is fresh."""
    page = url_for("classroom.play", code=cls.code)
    closed = clock.closed(store.clock_of(cls), utcnow())
    if closed is not None:
        flash(closed.message(lang()), "error")
        return redirect(page, code=303)
    problems = store.problems_of(cls)
    index = int_field(request.form.get("problem"))
    if index is None or index != me.position or index >= len(problems):
        flash(ClassError("not_current").message(lang()), "error")
        return redirect(page, code=303)
    row = store.answer_row(cls, me, index)
    if int_field(request.form.get("attempt")) != (row.attempts or 0):
        db.session.rollback()
        flash(ClassError("stale").message(lang()), "error")
        return redirect(page, code=303)
    try:
        target = action(cls, me, problems[index], row, store.progress_of(row))
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
@pupil_required()
def answer(cls: ClassSession, me: ClassStudent) -> Response:
    """Check the formula with `check` on the server and count the attempt."""
    formula = formula_field(request.form.get("formula"))

    def act(cls: ClassSession, me: ClassStudent, problem: ClassProblem, row: ClassAnswer,
            progress: Progress) -> str | None:  # fmt: skip
        after, attempt = core.grade(formula, problem, progress, store.settings_of(cls))
        store.store_progress(row, after)
        db.session.add(ClassAttempt(session_id=cls.id, student_id=me.id, problem=row.problem,
                                    number=attempt.number, formula=attempt.formula, error_code=attempt.error_code,
                                    score=attempt.score))  # fmt: skip
        if attempt.error_code is None:
            return None
        result = attempt.result
        if attempt.error_code == core.NOT_TARGET:
            text = gettext("%(value)s is not one of the target numbers.", value=result.display)  # type: ignore[attr-defined]
        else:
            text = result.error.message(lang())  # type: ignore[attr-defined]
        left = core.MAX_ATTEMPTS - after.attempts
        if left > 0:
            gap = "" if lang() == "ja" else " "  # Japanese sentences follow each other without a space
            text += gap + gettext("Tries left: %(left)s", left=left)
            flash(text, "error")
            return url_for("classroom.play", code=cls.code, formula=formula)
        flash(text, "error")
        return None

    return _pupil_action(cls, me, act)


@bp.post("/class/s/<code>/skip")
@pupil_required()
def skip(cls: ClassSession, me: ClassStudent) -> Response:
    """Move past the problem without a target (0 points); the dashboard counts it as skipped."""

    def act(cls: ClassSession, me: ClassStudent, problem: ClassProblem, row: ClassAnswer,
            progress: Progress) -> str | None:  # fmt: skip
        store.store_progress(row, core.skip(progress))
        db.session.add(ClassAttempt(session_id=cls.id, student_id=me.id, problem=row.problem,
                                    number=progress.attempts + 1, formula="", error_code=core.SKIPPED, score=0))  # fmt: skip
        return None

    return _pupil_action(cls, me, act)


@bp.post("/class/s/<code>/next")
@pupil_required()
def next_problem(cls: ClassSession, me: ClassStudent) -> Response:
    """On to the next problem, once the current one is done."""
    page = url_for("classroom.play", code=cls.code)
    index = int_field(request.form.get("problem"))
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


@bp.get("/api/class/<code>/state")
@pupil_required(json=True)
def state_json(cls: ClassSession, me: ClassStudent) -> Response:
    """The phase and the time left, for a pupil's page to reload when the teacher starts, pauses or ends."""
    return jsonify(
        {"phase": store.phase(cls), "seconds_left": store.seconds_left(cls), "position": me.position}
    )


@bp.post("/api/class/<code>/hint")
@pupil_required(json=True)
def hint(cls: ClassSession, me: ClassStudent) -> Response:
    """The next hint (or one seen before) of the pupil's current problem; drill.js asks for it."""
    data = json_body()
    if not isinstance(data, dict):
        return json_error("not_json")
    closed = clock.closed(store.clock_of(cls), utcnow())
    if closed is not None:
        return json_error(closed, 409)
    problems = store.problems_of(cls)
    if int_field(data.get("roll")) != me.position or me.position >= len(problems):
        return json_error("not_current", 409)
    problem = problems[me.position]
    row = store.answer_row(cls, me, me.position)
    try:
        after, shown = core.take_hint(
            problem, store.progress_of(row), store.settings_of(cls), data.get("step", 0)
        )
    except ClassError as error:
        db.session.rollback()
        return json_error(error)
    store.store_progress(row, after)
    try:
        db.session.commit()
    except (IntegrityError, StaleDataError):
        db.session.rollback()
        return json_error("stale", 409)
    step = int(data.get("step", 0))  # take_hint has checked it
    return jsonify({"hint": shown.message(lang()), "step": step, "more": step + 1 < len(core.problem_hints(problem)),
                    "hints_used": after.hints_used})  # fmt: skip
