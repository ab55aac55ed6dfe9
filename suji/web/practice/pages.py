"""Practice's pages: the next problem, what came of an answer, My progress, and the pupil's own data.

Forms post and redirect (the result is a page of its own, so reloading it sends nothing again); the dice UI is
the drill's (templates/_dice.html, static/drill.js), with practice's hint and "still on track?" endpoints. The
routes read the pupil from the signed cookie (suji.web.practice.store) and leave the rows to store, answers
and account.
"""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import date

from flask import abort, flash, make_response, redirect, render_template, request, url_for
from flask_babel import format_date, gettext, lazy_gettext
from werkzeug.wrappers import Response

from suji.core.i18n import N_
from suji.learner.chart import Point, rating_chart
from suji.learner.families import FAMILIES, FAMILY_NAMES
from suji.learner.hints import route_hints
from suji.learner.mastery import LEVEL_NAMES, Change, change_lines, display_rating, levels
from suji.learner.model import best_route
from suji.learner.selection import MISTAKE, NEW, REVIEW
from suji.learner.signin import SigninError
from suji.rules.language.errors import FormulaError
from suji.rules.language.reader import MAX_FORMULA_LENGTH, formula_field
from suji.rules.scoring import check
from suji.rules.working import checked_working
from suji.solver.search import best_answer
from suji.web.clients import remember_browser
from suji.web.extensions import db
from suji.web.giving_up import ASK, asked_to_give_up, sure_to_give_up
from suji.web.i18n import select_locale
from suji.web.links import external_url
from suji.web.models import utcnow
from suji.web.practice import account, answers, bp, store
from suji.web.practice.models import PracticeAnswer
from suji.web.practice.store import Conflict, UnknownProblem
from suji.worksheets.signin_card import signin_card_pdf

OUT_OF_DATE = lazy_gettext("That page was out of date, so here is your problem now.")
ALREADY = lazy_gettext("That problem was answered already (the page may have been sent twice).")
ONE_ANSWER = N_("%(formula)s = %(target)s (%(score)s points)")
# After a goal made: the best answer, when it scores more than the pupil's (the route's witness, shown after a
# miss, is the way the model expects the pupil to manage, often fewer points than a good answer of their own).
BEST_MATCHED = N_("Your answer scores as much as any answer can: %(score)s points.")
HIGHER_ANSWER = N_("An answer with more points: %(formula)s = %(target)s (%(score)s points)")
DIGITS_ONLY = N_(
    "Lining up the dice makes the target, but a formula of digits only scores 0 points. Put an operator die in "
    "it and it scores."
)
MISTAKE_TEXT = {
    "not_target": lazy_gettext("That formula does not make a target."),
    "below_goal": lazy_gettext("That makes a target, but not enough points for the goal."),
}


def _lang() -> str:
    return select_locale()


@bp.app_context_processor
def _helpers() -> dict:
    return {
        "family_name": lambda f: gettext(FAMILY_NAMES[f]),
        "level_name": lambda lv: gettext(LEVEL_NAMES[lv]),
    }


@bp.get("/practice/")
def play() -> str:
    """The problem to work on now, in the drill's dice UI."""
    holder, pending, item, profile = store.next_problem(store.read_holder())
    learner = store.learner_of(profile)
    shown = route_hints(item, best_route(learner, item)[1])
    return render_template(
        "practice/play.html", item=item, roll=item.roll, dice_json=json.dumps(item.roll.to_dict()), pending=pending, problem_id=store.problem_id(holder, pending),
        learner=learner, rating=display_rating(store.overall(learner)), new_pupil=profile is None or not profile.answered,
        hints=[h.message(_lang()) for h in shown[: pending.hints]], hint_count=len(shown), review=pending.mode == REVIEW, new_skill=pending.mode == NEW,
        mistake=pending.mode == MISTAKE, formula=formula_field(request.args.get("formula")),
        asking_give_up=asked_to_give_up(),
    )  # fmt: skip


def _answer(formula: str | None) -> Response:
    holder = store.read_holder()
    typed = formula_field(request.form.get("formula"))
    if formula is not None and len(formula) > MAX_FORMULA_LENGTH:  # not an answer: nothing is kept, the text stays
        flash(FormulaError("too_long", column=None, limit=MAX_FORMULA_LENGTH).message(select_locale()), "error")
        return redirect(url_for("practice.play", formula=typed[:MAX_FORMULA_LENGTH]), code=303)
    try:
        pending = store.problem_of(holder, request.form.get("id"))
        seconds = max(0.0, min(store.MAX_SECONDS, (utcnow() - pending.served_at).total_seconds()))
        done = answers.record(holder, pending, formula, 0, seconds)
    except UnknownProblem:
        flash(OUT_OF_DATE, "error")
        return redirect(url_for("practice.play", formula=typed), code=303)
    except FormulaError as error:  # not an answer (empty, a typo, a die not rolled): nothing kept, the text stays
        flash(error.message(select_locale()), "error")
        return redirect(url_for("practice.play", formula=typed), code=303)
    except Conflict:
        flash(ALREADY, "error")
        return redirect(url_for("practice.play"), code=303)
    if holder.pending and holder.pending.nonce == pending.nonce:
        store.keep_holder(replace(holder, pending=None))
    else:
        store.keep_holder(holder)
    return redirect(url_for("practice.result", answer_id=done.answer_id), code=303)


@bp.post("/practice/answer")
def answer() -> Response:
    return _answer(formula_field(request.form.get("formula")))


@bp.post("/practice/give-up")
def give_up() -> Response:
    """Give up the problem, once the pupil has said yes (drill.js asks; without its yes the page asks instead)."""
    if not sure_to_give_up():
        return redirect(url_for("practice.play", give_up=ASK), code=303)
    return _answer(None)


def _own_answer(answer_id: int) -> PracticeAnswer:
    profile = store.profile_of(store.read_holder())
    row = db.session.get(PracticeAnswer, answer_id) if 0 < answer_id < 2**63 else None
    if profile is None or row is None or row.profile_id != profile.id:
        abort(404)
    return row


@bp.get("/practice/result/<int:answer_id>")
def result(answer_id: int) -> str:
    """What came of an answer: the verdict, the points, what changed, the working and one answer."""
    row = _own_answer(answer_id)
    item = store.bank().get(row.item_key)
    if item is None:
        abort(404)
    lang = _lang()
    checked = check(row.formula, item.roll) if row.formula else None
    profile = store.profile_of(store.read_holder())
    learner = store.learner_of(profile)
    route = best_route(learner, item)[1]
    shown = route_hints(item, route)
    lines = change_lines([Change(**c) for c in json.loads(row.changes_json)], lang)
    one_answer = gettext(ONE_ANSWER, **shown[-1].data)
    if row.made_goal and checked is not None and checked.valid:
        best = best_answer(item.roll)  # the drill's own: solved once and kept (suji.solver.search)
        if best is None or best.score <= checked.score:
            one_answer = gettext(BEST_MATCHED, score=checked.score)
        else:
            one_answer = gettext(HIGHER_ANSWER, formula=best.printed_formula, target=best.target, score=best.score)
    return render_template(
        "practice/result.html", row=row, item=item, roll=item.roll, checked=checked, changes=lines,
        value=checked.display if checked else None, one_answer=one_answer,
        digits_only=gettext(DIGITS_ONLY) if row.made_goal and checked and checked.valid and not checked.operator_points
        else None,
        steps=checked_working(checked, lang, item.roll) if checked and checked.valid else None,
        mistake=MISTAKE_TEXT.get(row.error_code or ""), rating=display_rating(store.overall(learner)),
    )  # fmt: skip


def _day_label(day: date) -> str:
    return format_date(day, "M/d")


@bp.get("/practice/progress")
def progress() -> str:
    """My progress: the rating over time, each skill's mastery, days in a row, items done, mistakes."""
    holder = store.read_holder()
    profile = store.profile_of(holder)
    learner = store.learner_of(profile)
    rows = store.history(profile)
    today = store.local_day(utcnow())
    points = [
        Point(store.local_day(r.answered_at), display_rating(r.rating_after), r.made_goal) for r in rows
    ]
    first, last = (points[0].rating, points[-1].rating) if points else (1000, 1000)
    desc = gettext(
        "Your rating over your last %(count)s answers: from %(first)s to %(last)s (lowest %(low)s, highest %(high)s).",
        count=len(points), first=first, last=last, low=min((p.rating for p in points), default=1000),
        high=max((p.rating for p in points), default=1000),
    )  # fmt: skip
    chart = rating_chart(points, gettext("My rating over time"), desc, _day_label) if points else None
    kinds = levels(learner, store.references())
    skills = [(f, kinds[f], learner.skill(f)) for f in FAMILIES]
    return render_template(
        "practice/progress.html", learner=learner, rating=display_rating(store.overall(learner)), chart=chart,
        skills=skills, days=store.days_of(profile).current(today), longest=store.days_of(profile).longest,
        answered=learner.answered, made=sum(1 for r in rows if r.made_goal), mistakes=store.mistakes(profile),
        bank=store.bank(),
    )  # fmt: skip


@bp.post("/practice/mistakes")
def mistakes_again() -> Response:
    """Serve the latest mistake (not made since) as the next problem."""
    holder = store.read_holder()
    profile = store.profile_of(holder)
    wanted = request.form.get("item", "")
    found = [m for m in store.mistakes(profile, 20) if not wanted or m.item_key == wanted]
    if not found:
        flash(gettext("No mistakes to try again. Well done!"), "info")
        return redirect(url_for("practice.progress"), code=303)
    item = store.bank().get(found[0].item_key)
    pending = store.pending_for(item, store.learner_of(profile), MISTAKE, utcnow())
    store.keep_holder(replace(holder, pending=pending))
    return redirect(url_for("practice.play"), code=303)


# ---- the pupil's own data ----


@bp.get("/practice/me")
def me() -> str:
    """My data: the sign-in code and its card, signing in here, the download, deleting everything."""
    holder = store.read_holder()
    profile = store.profile_of(holder)
    return render_template(
        "practice/me.html", profile=profile, code=account.code_shown(holder, profile),
        answered=profile.answered if profile else 0, retention=store.retention_days(),
        managed=account.managed_by(profile),
    )  # fmt: skip


def _managed() -> bool:
    """Whether this device's practice is a class's (its card signs in; its teacher deletes it): say so."""
    name = account.managed_by(store.profile_of(store.read_holder()))
    if name:
        flash(gettext("Your practice belongs to your class %(name)s: sign in with your class card, and ask your teacher to delete it.", name=name), "info")  # fmt: skip
    return name is not None


@bp.post("/practice/code")
def make_code() -> Response:
    if _managed():
        return redirect(url_for("practice.me"), code=303)
    account.make_code(store.read_holder())
    flash(gettext("Here is your sign-in code. Print the card or write the code down."), "info")
    return redirect(url_for("practice.me") + "#code", code=303)


@bp.get("/practice/card.pdf")
def card() -> Response:
    holder = store.read_holder()
    code = account.code_shown(holder, store.profile_of(holder))
    if code is None:
        return redirect(url_for("practice.me"), code=303)
    paper = "letter" if request.args.get("paper") == "letter" else "a4"
    # The code after a # is never sent to the server: no access log holds it (static/practice.js reads it).
    address = external_url("practice.signin") + "#" + code.replace("-", "")
    response = make_response(signin_card_pdf(code, address, _lang(), paper))
    response.headers["Content-Type"] = "application/pdf"
    response.headers["Content-Disposition"] = 'attachment; filename="suji-practice-card.pdf"'
    return response


def _signin_page(code: str = "", error: SigninError | None = None, status: int = 200) -> tuple[str, int]:
    holder = store.read_holder()
    profile = store.profile_of(holder)
    at_risk = profile is not None and profile.answered > 0 and account.code_shown(holder, profile) is None
    return render_template(
        "practice/signin.html", code=code[:20], error=error.message(_lang()) if error else None, at_risk=at_risk,
        answered=profile.answered if profile else 0,
    ), status  # fmt: skip


@bp.get("/practice/signin")
def signin() -> tuple[str, int]:
    remember_browser()  # its own allowance of wrong codes, apart from the rest of its school (suji.web.clients)
    return _signin_page(request.args.get("code", ""))


@bp.post("/practice/signin")
def signin_post() -> Response | tuple[str, int]:
    text = request.form.get("code", "")
    try:
        account.sign_in(text)
    except SigninError as error:
        return _signin_page(text, error, 429 if error.code == "too_many" else 400)
    flash(gettext("Welcome back! Your practice is on this device now."), "info")
    return redirect(url_for("practice.progress"), code=303)


@bp.get("/practice/my-data.json")
def download() -> Response:
    response = make_response(json.dumps(account.export(store.read_holder()), ensure_ascii=False, indent=1))
    response.headers["Content-Type"] = "application/json; charset=utf-8"
    response.headers["Content-Disposition"] = 'attachment; filename="suji-practice-my-data.json"'
    return response


@bp.get("/practice/delete")
def delete_page() -> str:
    profile = store.profile_of(store.read_holder())
    return render_template(
        "practice/delete.html", answered=profile.answered if profile else 0, profile=profile
    )


@bp.post("/practice/delete")
def delete() -> Response:
    if _managed():
        return redirect(url_for("practice.me"), code=303)
    account.delete_everything(store.read_holder())
    flash(gettext("Everything about your practice is deleted."), "info")
    return redirect(url_for("practice.me"), code=303)
