"""A pupil's homework, at their own pace, on any device: a fixed problem set or adaptive practice.

/my/homework/<id> shows where the pupil stands: not open yet, "Start" for a timed set (the time runs from then,
×1.5, ×2 or untimed as the pupil's extra time says), the problem chosen (?p=) or the first one not done with
the drill's dice, its result, and once everything is done the total, the class's figures without names and,
after the due date, every best answer. Forms post and redirect: /answer and /skip (a fixed set; the form
carries the problem and the tries its page showed, so a form sent twice or from another device's old page
counts nothing), /item and /give-up (adaptive practice; the form names the item shown). Hints come as JSON
from /api/my/homework/<id>/hint for drill.js. Every answer is one transaction (suji.web.classes.work).
"""

from __future__ import annotations

import json

from flask import abort, flash, jsonify, redirect, render_template, request, url_for
from flask_babel import gettext
from werkzeug.wrappers import Response

from suji.core.errors import SujiError
from suji.core.i18n import sentences
from suji.learner.hints import route_hints
from suji.learner.model import best_route
from suji.play import classroom as core
from suji.play.school import homework as rules
from suji.play.school.roster import EXTRA_TIME
from suji.rules.language.errors import FormulaError
from suji.rules.language.reader import formula_field
from suji.web.classes import adaptive, work
from suji.web.classes.models import ADAPTIVE, FIXED, Assignment, ClassPupil, SchoolClass
from suji.web.furigana import with_ruby
from suji.web.giving_up import ASK, asked_to_give_up, sure_to_give_up
from suji.web.i18n import select_locale
from suji.web.jsonbody import json_body
from suji.web.models import utcnow
from suji.web.pupils import bp, pupil_required


def _homework(cls: SchoolClass, homework_id: str) -> Assignment:
    assignment = work.assignment_in(cls, homework_id)
    if assignment is None or assignment.kind not in (FIXED, ADAPTIVE):
        abort(404)
    return assignment


def _int(value: object) -> int | None:
    text = str(value if value is not None else "").strip()
    return int(text) if text.isascii() and text.isdigit() and len(text) < 6 else None


def _page(assignment: Assignment, index: int | None = None, formula: str = "") -> str:
    query = {"p": index} if index is not None else {}
    if formula:
        query["formula"] = formula_field(formula)
    return url_for("pupils.homework", homework_id=assignment.public_id, **query)


@bp.get("/my/homework/<homework_id>")
@pupil_required
def homework(pupil: ClassPupil, cls: SchoolClass, homework_id: str) -> str:
    assignment = _homework(cls, homework_id)
    now = utcnow()
    hw = work.homework_of(assignment)
    mine = work.work_of(assignment, pupil)
    finished = mine is not None and mine.finished_at is not None
    common = {
        "cls": cls, "pupil": pupil, "assignment": assignment, "hw": hw, "work": mine,
        "status": rules.pupil_status(hw, now, finished), "window": rules.window(hw, now),
        "factor": EXTRA_TIME.get(pupil.extra_time, 1.0),
    }  # fmt: skip
    if common["window"] == rules.NOT_OPEN:
        return render_template("pupils/homework_closed.html", **common)
    if assignment.kind == ADAPTIVE:
        return _adaptive_page(assignment, pupil, common)
    problems = work.problems_of(assignment)
    answers = work.answers_of(mine)
    cells = [(p, work.progress_of(answers.get(i))) for i, p in enumerate(problems)]
    counted = work.counted_by_problem(assignment, answers)
    deadline = work.deadline_of(assignment, mine, pupil)
    time_up = deadline is not None and now > deadline
    if time_up and not finished:
        work.settle_time_up(assignment, now)
        finished = True
    total = work.counted_score(assignment, mine)
    common.update(problems=problems, cells=cells, deadline=deadline, total=total,
                  best_total=sum(p.best_score for p in problems), time_up=time_up,
                  seconds_left=max(0, int((deadline - now).total_seconds())) if deadline and not time_up else None)  # fmt: skip
    if hw.time_limit is not None and mine is None:
        return render_template("pupils/homework_start.html", **common)
    if finished or time_up:
        figures = work.class_figures(assignment, _roster_size(cls))
        return render_template("pupils/homework_done.html", figures=figures, counted=counted,
                               show_best=common["window"] == rules.LATE, **common)  # fmt: skip
    chosen = _int(request.args.get("p"))
    if chosen is None or not 0 <= chosen < len(problems):
        chosen = next((i for i, (_, pr) in enumerate(cells) if not pr.done), 0)
    problem, progress = cells[chosen]
    settings = work.settings_for(assignment, pupil)
    shown_hints = core.problem_hints(problem)[: progress.hints_used] if settings.hints else []
    return render_template(
        "pupils/homework_fixed.html", index=chosen, problem=problem, progress=progress, roll=problem.roll,
        settings=settings, price=core.hint_price(problem, settings), max_attempts=core.MAX_ATTEMPTS,
        hints=[h.message(select_locale()) for h in shown_hints],
        hint_count=len(core.problem_hints(problem)) if settings.hints else 0,
        dice_json=json.dumps(problem.dice(), ensure_ascii=False),
        next_index=next((i for i, (_, pr) in enumerate(cells) if not pr.done and i != chosen), None),
        formula=formula_field(request.args.get("formula")), **common,
    )  # fmt: skip


def _roster_size(cls: SchoolClass) -> int:
    from suji.web.classes import store

    return len(store.pupils_of(cls))


def _adaptive_page(assignment: Assignment, pupil: ClassPupil, common: dict) -> str:
    from suji.web.practice import store as practice

    mine = common["work"]
    if mine is not None and mine.finished_at is not None:
        figures = work.class_figures(assignment, _roster_size(common["cls"]))
        return render_template("pupils/homework_done.html", figures=figures, show_best=False, problems=(), counted={},
                               total=mine.items_made, best_total=None, time_up=False, **common)  # fmt: skip
    try:
        served = adaptive.serve(assignment, pupil)
    except work.WorkError as error:  # finished meanwhile on another device
        flash(error.message(select_locale()), "info")
        return redirect(_page(assignment))  # type: ignore[return-value]
    learner = practice.learner_of(served.profile)
    shown = route_hints(served.item, best_route(learner, served.item)[1])
    common["work"] = served.work
    return render_template(
        "pupils/homework_adaptive.html", item=served.item, roll=served.item.roll, pending=served.pending,
        dice_json=json.dumps(served.item.roll.to_dict()), hints=[h.message(select_locale()) for h in shown[: served.pending.hints]],
        hint_count=len(shown), formula=formula_field(request.args.get("formula")), asking_give_up=asked_to_give_up(),
        minutes_done=int(served.work.seconds // 60), **common,
    )  # fmt: skip


@bp.post("/my/homework/<homework_id>/start")
@pupil_required
def start(pupil: ClassPupil, cls: SchoolClass, homework_id: str) -> Response:
    assignment = _homework(cls, homework_id)
    try:
        work.start(assignment, pupil)
    except work.WorkError as error:
        flash(error.message(select_locale()), "error")
    return redirect(_page(assignment), code=303)


def _fixed_move(pupil: ClassPupil, cls: SchoolClass, homework_id: str, formula: str | None) -> Response:
    assignment = _homework(cls, homework_id)
    index = _int(request.form.get("problem"))
    tries = _int(request.form.get("attempt"))
    lang = select_locale()
    try:
        after, attempt = work.answer_fixed(assignment, pupil, index if index is not None else -1, tries, formula)
    except FormulaError as error:  # no try (a typo, a die not rolled): nothing counted, the text stays
        flash(core.not_a_try(error, lang), "error")
        return redirect(_page(assignment, index, formula or ""), code=303)
    except SujiError as error:
        flash(error.message(lang), "error")
        return redirect(_page(assignment, index, formula or ""), code=303)
    if attempt is not None and attempt.error_code is not None:
        text = gettext("%(value)s is not one of the target numbers.", value=_pretty(attempt.result))
        left = core.MAX_ATTEMPTS - after.attempts
        if left > 0:
            text = sentences(lang, text, gettext("Tries left: %(left)s", left=left))
            flash(text, "error")
            return redirect(_page(assignment, index, formula or ""), code=303)
        flash(text, "error")
    return redirect(_page(assignment, index), code=303)


def _pretty(result: object) -> str:
    """A checked formula's value as a pupil reads it (the one printer: CheckResult.display)."""
    return getattr(result, "display", None) or ""


@bp.post("/my/homework/<homework_id>/answer")
@pupil_required
def answer(pupil: ClassPupil, cls: SchoolClass, homework_id: str) -> Response:
    return _fixed_move(pupil, cls, homework_id, formula_field(request.form.get("formula")))


@bp.post("/my/homework/<homework_id>/skip")
@pupil_required
def skip(pupil: ClassPupil, cls: SchoolClass, homework_id: str) -> Response:
    return _fixed_move(pupil, cls, homework_id, None)


def _adaptive_move(pupil: ClassPupil, cls: SchoolClass, homework_id: str, formula: str | None) -> Response:
    from suji.learner.mastery import change_lines

    assignment = _homework(cls, homework_id)
    lang = select_locale()
    try:
        done = adaptive.answer(assignment, pupil, str(request.form.get("item", ""))[:40], formula)
    except FormulaError as error:  # not an answer to grade (empty, a typo, a die not rolled): the text stays
        flash(error.message(lang), "error")
        return redirect(_page(assignment, None, formula or ""), code=303)
    except SujiError as error:
        flash(error.message(lang), "error")
        return redirect(_page(assignment), code=303)
    # The next problem shows at once: these lines are about the one just answered.
    if done.made_goal:
        flash(gettext("Goal made! %(points)s points.", points=done.result.score if done.result else 0), "info")
    elif formula is None:
        flash(gettext("One answer to the last problem: %(formula)s", formula=done.item.witness_formula), "info")
    else:
        flash(gettext("Not this time. One answer to the last problem: %(formula)s", formula=done.item.witness_formula), "error")
    for line in change_lines(done.changes, lang):
        flash(line, "info")
    return redirect(_page(assignment), code=303)


@bp.post("/my/homework/<homework_id>/item")
@pupil_required
def item_answer(pupil: ClassPupil, cls: SchoolClass, homework_id: str) -> Response:
    return _adaptive_move(pupil, cls, homework_id, formula_field(request.form.get("formula")))


@bp.post("/my/homework/<homework_id>/give-up")
@pupil_required
def give_up(pupil: ClassPupil, cls: SchoolClass, homework_id: str) -> Response:
    assignment = _homework(cls, homework_id)  # another class's homework is not found, asked or not
    if not sure_to_give_up():  # the page asks first (suji.web.giving_up)
        return redirect(url_for("pupils.homework", homework_id=assignment.public_id, give_up=ASK), code=303)
    return _adaptive_move(pupil, cls, homework_id, None)


@bp.post("/api/my/homework/<homework_id>/hint")
@pupil_required
def hint(pupil: ClassPupil, cls: SchoolClass, homework_id: str) -> Response:
    """The next hint (or one seen before) of the problem on the page; drill.js sends {roll, step}."""
    assignment = _homework(cls, homework_id)
    data = json_body()
    lang = select_locale()

    def error(err: SujiError, status: int = 409) -> Response:
        response = jsonify({"error": {"code": err.code, "message": err.message(lang)}})
        response.status_code = status
        return response

    if not isinstance(data, dict):
        return error(core.ClassError("not_json"), 400)
    try:
        if assignment.kind == ADAPTIVE:
            found = adaptive.hint(assignment, pupil, str(data.get("roll", ""))[:40], data.get("step", 0))
            return jsonify(with_ruby({**found, "hint": found["hint"].message(lang)}, lang, "hint"))
        index = _int(data.get("roll"))
        after, shown = work.hint_fixed(assignment, pupil, index if index is not None else -1, data.get("step", 0))
    except core.ClassError as err:
        return error(err, 400 if err.code == "not_step" else 409)
    except SujiError as err:
        return error(err)
    step = int(data.get("step", 0))
    problem = work.problems_of(assignment)[index]  # type: ignore[index]
    found = {"hint": shown.message(lang), "step": step,  # type: ignore[attr-defined]
             "more": step + 1 < len(core.problem_hints(problem)), "hints_used": after.hints_used}  # fmt: skip
    return jsonify(with_ruby(found, lang, "hint"))
