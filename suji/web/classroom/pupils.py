"""The pupils' pages of class mode: join with the code and a nickname, then one problem after another.

/join, /join/<CODE> (the QR code's target) → /class/s/<CODE> (waiting, paused, the current problem with the
drill's dice, its result, the end of the list, the results), with /answer, /skip and /next posted from it;
JSON: /api/class/<CODE>/state (the page polls for the teacher's start, pause and end) and /api/class/<CODE>/hint.
Every view but joining runs behind `pupil_required`. An answer must be for the pupil's current problem and carry
the number of attempts the page showed, so a form sent twice or from an old tab changes nothing (and the database
refuses a doubled attempt). A wrong join code counts against the client's address: too many and joining waits.
A session made for a teacher's class takes only the class's pupils, signed in with their cards and named from
the roster (a pupil joining again on another device carries on with their own row); their extra time and free
hints apply to them (suji.web.classroom.store's roster hooks).
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Callable

from flask import flash, jsonify, redirect, render_template, request, url_for
from flask_babel import gettext, lazy_gettext
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm.exc import StaleDataError
from werkzeug.wrappers import Response

from suji.core.i18n import sentences
from suji.play import classroom as core
from suji.play.classroom import ENDED, PAUSED, WAITING, ClassError, ClassProblem, Progress, clock
from suji.rules.language.errors import FormulaError
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
    shown_code,
    student,
    student_token,
    too_many_tries,
    with_cookie,
)
from suji.web.classroom_models import ClassAnswer, ClassAttempt, ClassSession, ClassStudent
from suji.web.extensions import db
from suji.web.furigana import with_ruby
from suji.web.jsonbody import json_body
from suji.web.models import token_hash, utcnow

WELCOME_BACK = lazy_gettext("Welcome back, %(name)s! You continue where you left off.")
ALREADY_IN = lazy_gettext(
    "You are already in this class as %(name)s, so you continue with that name. To change it, ask your teacher."
)
MY_CLASSES_SHOWN = 3


# ---- joining ----


def my_classes() -> list[tuple[ClassSession, ClassStudent]]:
    """The classes this browser is a pupil of that have not ended, newest first (a few): /join offers them."""
    token = student_token()
    if token is None:
        return []
    rows = db.session.execute(
        select(ClassSession, ClassStudent).join(ClassStudent, ClassStudent.session_id == ClassSession.id)
        .where(ClassStudent.token_hash == token_hash(token)).order_by(ClassStudent.joined_at.desc()).limit(10)
    ).all()  # fmt: skip
    return [(cls, me) for cls, me in rows if store.phase(cls) != ENDED][:MY_CLASSES_SHOWN]


def _join_page(code: str, name: str, error: str | None, number: str = "", **roster: object) -> str:
    """The join form (with the classes this browser is in above it, and a class's roster join when `roster`)."""
    return render_template("classroom/join.html", code=code, name=name, number=number, error=error,
                           mine=my_classes(), max_number=core.MAX_CLASS_NUMBER, **roster)  # fmt: skip


@bp.get("/join")
def join() -> str:
    """The pupil's form: the code from the board and a nickname; above it, the classes this browser is in."""
    return _join_page("", "", None)


@bp.get("/join/<code>")
def join_code(code: str) -> str | Response | tuple[str, int]:
    """The QR code's target: the form with the code filled in (or, for a pupil already in, the class).

    The same page whether a class has the code or not, and it counts as a code tried (a whole class scanning one
    QR code is one code: suji.web.clients counts distinct codes).
    """
    cls = by_code(code)
    if cls is not None and student(cls) is not None:
        return redirect(url_for("classroom.play", code=cls.code), code=303)
    shown = shown_code(code)
    if store.join_refused():
        return _join_page(shown, "", too_many_tries().message(lang())), 429
    roster = _roster_join(cls)
    if not roster:  # a pupil of the session's class signed in here is not guessing codes
        store.count_join_failure(shown)
    return _join_page(shown, "", None, **roster)


def _roster_join(cls: ClassSession | None, typed: bool = False) -> dict:
    """For a session made for a class and a pupil of that class signed in on this browser: the class's name and
    the pupil's; else nothing (the form then reads the same whether a class has the code or not: the join
    itself says a lesson for a class needs the card, once a code is typed and found: `typed`)."""
    if cls is None or cls.school_class_id is None:
        return {}
    pupil = store.roster.signed_in_pupil(cls.school_class_id)
    if pupil is None and not typed:
        return {}
    # a code typed and found (`typed`) may name its class: the pupil then signs in with the card
    return {"roster_class": store.roster.class_name(cls.school_class_id) or "",
            "roster_name": pupil[1] if pupil else None}  # fmt: skip


def _join_roster(cls: ClassSession, refuse: Callable[..., tuple[str, int]]) -> Response | tuple[str, int]:
    """Join a session made for a class as the roster pupil signed in on this browser (named from the roster);
    joining again from another device carries on with the same pupil's work there (this browser takes it)."""
    pupil = store.roster.signed_in_pupil(cls.school_class_id)
    if pupil is None:
        return refuse(ClassError("roster_only", name=store.roster.class_name(cls.school_class_id) or ""), 403)
    pupil_id, name = pupil
    mine = db.session.scalar(
        select(ClassStudent).where(ClassStudent.session_id == cls.id, ClassStudent.pupil_id == pupil_id)
    )
    token = student_token()
    new_token = token is None
    if token is None:
        token = secrets.token_urlsafe(32)
    if mine is not None:
        mine.token_hash = token_hash(token)
        flash(gettext(str(WELCOME_BACK), name=mine.nickname), "info")
    else:
        db.session.add(ClassStudent(session_id=cls.id, nickname=name, name_key=core.name_key(name),
                                    token_hash=token_hash(token), pupil_id=pupil_id))  # fmt: skip
    try:
        db.session.commit()
    except (IntegrityError, StaleDataError):  # the same pupil joined a moment ago from another device
        db.session.rollback()
        return refuse(ClassError("stale"), 409)
    response = redirect(url_for("classroom.play", code=cls.code), code=303)
    return with_cookie(response, STUDENT_COOKIE, token, 365 * 24 * 3600) if new_token else response


@bp.post("/join")
def join_post() -> str | Response | tuple[str, int]:
    """Join: check the rate limit, the code, the phase and the name; rejoining from this browser continues."""
    code_text = str(request.form.get("code", ""))[: core.MAX_CODE_INPUT]
    name_text = str(request.form.get("nickname", ""))[:100]
    number_text = str(request.form.get("class_number", ""))[:20]

    def refuse(error: ClassError, status: int = 400, cls: ClassSession | None = None) -> tuple[str, int]:
        roster = _roster_join(cls, typed=True)
        # "Sign in with your card first" is what the roster's panel says already: not said twice.
        shown = None if roster and error.code == "roster_only" else error.message(lang())
        page = _join_page(code_text, name_text, shown, number=number_text, **roster)
        return page, status

    if store.join_refused():
        return refuse(too_many_tries(), 429)
    try:
        code = core.clean_code(code_text)
    except ClassError as error:
        return refuse(error)
    cls = db.session.scalar(select(ClassSession).where(ClassSession.code == code))
    if cls is None:
        store.count_join_failure(code)
        return refuse(ClassError("unknown_code", given=code), 404)
    me = student(cls)
    if me is not None:  # the same browser again: carry on, and say so when another name was typed
        typed = name_text.strip()
        other = bool(typed) and core.name_key(typed) != me.name_key
        flash(gettext(str(ALREADY_IN if other else WELCOME_BACK), name=me.nickname), "info")
        return redirect(url_for("classroom.play", code=cls.code), code=303)
    if store.phase(cls) == ENDED:
        return refuse(ClassError("ended"))
    if cls.school_class_id is not None:  # a session made for a class: its pupils join signed in with their cards
        return _join_roster(cls, lambda error, status=400: refuse(error, status, cls))
    try:
        name = core.clean_name(name_text)
        number = core.clean_class_number(number_text)
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
        taken.class_number = number if number is not None else taken.class_number
    else:
        db.session.add(ClassStudent(session_id=cls.id, nickname=name, name_key=key, token_hash=token_hash(token),
                                    class_number=number))  # fmt: skip
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
    settings = store.pupil_settings(cls, me)
    now_phase = store.phase(cls, me=me)
    answers = store.answers_of(me)
    done = [(p, store.progress_of(answers.get(i))) for i, p in enumerate(problems)]
    total = sum(pr.score for _, pr in done if pr.done)
    common = {
        "cls": cls, "me": me, "settings": settings, "phase": now_phase, "total": total,
        "best_total": sum(p.best_score for p in problems), "count": len(problems), "done": done,
        "seconds_left": store.seconds_left(cls, me), "phase_names": PHASE_NAMES,
    }  # fmt: skip
    if now_phase == ENDED or me.position >= len(problems):
        return render_template("classroom/finished.html", time_up=store.time_up(cls, me), **common)
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
    closed = clock.closed(store.pupil_clock(cls, me), utcnow())
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
        try:
            after, attempt = core.grade(formula, problem, progress, store.pupil_settings(cls, me))
        except FormulaError as error:  # no try (a typo, a die not rolled): nothing counted, the text stays
            back = url_for("classroom.play", code=cls.code, formula=formula)
            db.session.rollback()  # nothing kept: not even the problem's empty row, on a first go at it
            flash(core.not_a_try(error, lang()), "error")
            return back
        store.store_progress(row, after)
        db.session.add(ClassAttempt(session_id=cls.id, student_id=me.id, problem=row.problem,
                                    number=attempt.number, formula=attempt.formula, error_code=attempt.error_code,
                                    score=attempt.score))  # fmt: skip
        store.keep_work(cls, me, row.problem, after, attempt)
        if attempt.error_code is None:
            return None
        text = gettext("%(value)s is not one of the target numbers.", value=attempt.result.display)  # type: ignore[attr-defined]
        left = core.MAX_ATTEMPTS - after.attempts
        if left > 0:
            text = sentences(lang(), text, gettext("Tries left: %(left)s", left=left))
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
        store.keep_work(cls, me, row.problem, core.skip(progress), core.SKIPPED)
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
        {"phase": store.phase(cls, me=me), "seconds_left": store.seconds_left(cls, me), "position": me.position}
    )


@bp.post("/api/class/<code>/hint")
@pupil_required(json=True)
def hint(cls: ClassSession, me: ClassStudent) -> Response:
    """The next hint (or one seen before) of the pupil's current problem; drill.js asks for it."""
    data = json_body()
    if not isinstance(data, dict):
        return json_error("not_json")
    closed = clock.closed(store.pupil_clock(cls, me), utcnow())
    if closed is not None:
        return json_error(closed, 409)
    problems = store.problems_of(cls)
    if int_field(data.get("roll")) != me.position or me.position >= len(problems):
        return json_error("not_current", 409)
    problem = problems[me.position]
    row = store.answer_row(cls, me, me.position)
    try:
        after, shown = core.take_hint(
            problem, store.progress_of(row), store.pupil_settings(cls, me), data.get("step", 0)
        )
    except ClassError as error:
        db.session.rollback()
        return json_error(error)
    store.store_progress(row, after)
    store.keep_work(cls, me, me.position, after)
    try:
        db.session.commit()
    except (IntegrityError, StaleDataError):
        db.session.rollback()
        return json_error("stale", 409)
    step = int(data.get("step", 0))  # take_hint has checked it
    found = {"hint": shown.message(lang()), "step": step, "more": step + 1 < len(core.problem_hints(problem)),
             "hints_used": after.hints_used}  # fmt: skip
    return jsonify(with_ruby(found, lang(), "hint"))
