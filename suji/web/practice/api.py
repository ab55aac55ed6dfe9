"""Practice's JSON API, which the practice page and the acceptance check use (the contract of issue 22).

    GET  /api/practice/next      {"problem": {"id", "target_dice", "targets", "number_dice", "operator_dice",
                                  "level", "goal_score", "predicted_success"}, "learner": {"rating", "answered"}}
                                 (asking again before answering gives the same problem)
    POST /api/practice/answer    {"id", "formula", "hints_used", "seconds"} or {"id", "give_up": true}
                                 → {"made_goal", "score", "outcome", "learner": {"rating", "answered",
                                   "skills": {family: {"rating", "level"}}}, "changes": [{"code", "message"}]}
                                 a second answer to the same id is 409, an unknown id 404
    GET  /api/practice/progress  {"learner": {… as above, "days_in_a_row", "longest_days_in_a_row",
                                  "history": [{"answered_at", "rating", "made_goal", "outcome", "goal_score",
                                  "level", "mode"}]}}
    POST /api/practice/hint      {"id", "step"} → {"hint", "step", "more", "hints_used"} (the page's hints)
    POST /api/practice/on-track  {"id", "formula"} → "still on track?" as /api/hint's "track"

Writes need the CSRF token as every JSON endpoint (X-CSRFToken); a client without the practice cookie gets a
new profile with its first answer. Ratings are the model's logits (suji.learner.model); pages show 1000 + 100·θ.
Errors: {"error": {"code", "message"}} in the request's language, 400, 404 or 409.
"""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Any

from flask import g, jsonify
from werkzeug.wrappers import Response

from suji.core.errors import SujiError
from suji.core.i18n import LANGUAGES, N_
from suji.learner.hints import route_hints
from suji.learner.mastery import Change, change_message, levels
from suji.learner.model import HINT_STEPS, Learner, best_route
from suji.rules.language.errors import FormulaError
from suji.rules.language.reader import MAX_FORMULA_LENGTH
from suji.solver.hints import on_track
from suji.solver.search import solve_at_level
from suji.web.errors import error_response
from suji.web.furigana import with_ruby
from suji.web.i18n import select_locale
from suji.web.jsonbody import json_body
from suji.web.practice import answers, bp, store
from suji.web.practice.store import Conflict, Holder, Pending, UnknownProblem

MESSAGES = {
    "not_json": N_("Send one JSON object (Content-Type: application/json)."),
    "missing_field": N_("“%(field)s” is missing."),
    "not_text": N_("“%(field)s” must be a text."),
    "not_count": N_("“%(field)s” must be a whole number from 0 to %(limit)s."),
    "not_seconds": N_("“seconds” must be a number of seconds from 0 to %(limit)s."),
    "not_flag": N_("“%(field)s” must be true or false."),
    "unknown_problem": N_(
        "There is no such problem for you. Ask for the next problem (it may be an old page)."
    ),
    "answered": N_("This problem has been answered already."),
}


class PracticeApiError(SujiError):
    MESSAGES = MESSAGES


def _lang(data: object) -> str:
    lang = data.get("lang") if isinstance(data, dict) else None
    return lang if lang in LANGUAGES else select_locale()


def _body() -> dict[str, Any]:
    data = json_body()
    g.error_lang = _lang(data)
    if not isinstance(data, dict):
        raise PracticeApiError("not_json")
    return data


def _error(code: str, status: int) -> Response:
    return error_response(PracticeApiError(code).to_dict(g.get("error_lang") or select_locale()), status)


def _count(data: dict, field: str, limit: int) -> int:
    value = data.get(field, 0)
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= limit:
        raise PracticeApiError("not_count", field=field, limit=limit)
    return value


def _seconds(data: dict) -> float | None:
    value = data.get("seconds")
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise PracticeApiError("not_seconds", limit=int(store.MAX_SECONDS))
    if not 0 <= value <= store.MAX_SECONDS:
        raise PracticeApiError("not_seconds", limit=int(store.MAX_SECONDS))
    return float(value)


def _text(data: dict, field: str, limit: int = 1000) -> str:
    value = data.get(field)
    if value is None:
        raise PracticeApiError("missing_field", field=field)
    if not isinstance(value, str):
        raise PracticeApiError("not_text", field=field)
    return value[:limit]


def problem_json(holder: Holder, pending: Pending, item: Any) -> dict:
    roll = item.roll
    return {
        "id": store.problem_id(holder, pending),
        "target_dice": list(roll.target_dice),
        "targets": list(roll.targets),
        "number_dice": list(roll.number_dice),
        "operator_dice": list(roll.operator_dice),
        "level": item.level,
        "goal_score": item.goal,
        "predicted_success": pending.predicted,
    }


def learner_json(learner: Learner, full: bool = True) -> dict:
    """The learner object of the contract: the rating and answers, and with `full` every family's."""
    data: dict[str, Any] = {"rating": round(store.overall(learner), 4), "answered": learner.answered}
    if full:
        kinds = levels(learner, store.references())
        data["skills"] = {
            family: {
                "rating": round(learner.rating.value + learner.skill(family).rating.value, 4),
                "level": kinds[family],
            }
            for family in kinds
        }
    return data


def change_json(change: Change, lang: str) -> dict:
    """One line of what an answer changed, with its message in `lang`."""
    return {"code": change.code, "family": change.family, "level": change.level,
            "message": change_message(change, lang)}  # fmt: skip


@bp.get("/api/practice/next")
def api_next() -> Response:
    holder, pending, item, profile = store.next_problem(store.read_holder())
    return jsonify(
        {
            "problem": problem_json(holder, pending, item),
            "learner": learner_json(store.learner_of(profile), False),
        }
    )


@bp.post("/api/practice/answer")
def api_answer() -> Response:
    data = _body()
    holder = store.read_holder()
    give_up = data.get("give_up", False)
    if not isinstance(give_up, bool):
        raise PracticeApiError("not_flag", field="give_up")
    formula = None if give_up else _text(data, "formula", MAX_FORMULA_LENGTH + 1)
    if formula is not None and len(formula) > MAX_FORMULA_LENGTH:
        # Not an answer to grade: refused before anything is kept, so the pupil loses nothing and can send it shorter.
        too_long = FormulaError("too_long", column=None, limit=MAX_FORMULA_LENGTH)
        return error_response(too_long.to_dict(g.error_lang), 400)
    hints_used = 0 if give_up else _count(data, "hints_used", HINT_STEPS)
    seconds = _seconds(data)
    try:
        pending = store.problem_of(holder, data.get("id"))
        done = answers.record(holder, pending, formula, hints_used, seconds)
    except FormulaError as error:  # not an answer to grade (empty, a typo, a die not rolled): nothing is kept
        return error_response(error.to_dict(g.error_lang), 400)
    except UnknownProblem:
        return _error("unknown_problem", 404)
    except Conflict:
        return _error("answered", 409)
    keep = (
        replace(holder, pending=None) if holder.pending and holder.pending.nonce == pending.nonce else holder
    )
    store.keep_holder(keep)
    lang = g.error_lang
    return jsonify(
        {
            "made_goal": done.made_goal,
            "score": done.result.score if done.made_goal and done.result else 0,
            "outcome": done.outcome,
            "learner": learner_json(done.learner),
            "changes": [change_json(c, lang) for c in done.changes],
        }
    )


def history_json(profile: Any) -> list[dict]:
    return [
        {"answered_at": a.answered_at.isoformat() + "Z", "rating": round(a.rating_after, 4), "made_goal": a.made_goal,
         "outcome": a.outcome, "goal_score": a.goal, "level": a.level, "mode": a.mode}
        for a in store.history(profile)
    ]  # fmt: skip


@bp.get("/api/practice/progress")
def api_progress() -> Response:
    holder = store.read_holder()
    profile = store.profile_of(holder)
    learner = store.learner_of(profile)
    days = store.days_of(profile)
    data = learner_json(learner)
    data["days_in_a_row"] = days.current(store.local_day(store.utcnow()))
    data["longest_days_in_a_row"] = days.longest
    data["history"] = history_json(profile)
    return jsonify({"learner": data})


def _current(data: dict) -> tuple[Holder, Pending, Any]:
    """The problem a hint or "still on track?" is about: its `id` (the page's drill.js sends it as `roll`)."""
    holder = store.read_holder()
    pending = store.problem_of(holder, data.get("id", data.get("roll")))
    return holder, pending, store.bank().get(pending.key)


@bp.post("/api/practice/hint")
def api_hint() -> Response:
    data = _body()
    try:
        holder, pending, item = _current(data)
    except UnknownProblem:
        return _error("unknown_problem", 404)
    learner = store.learner_of(store.profile_of(holder))
    shown = route_hints(item, best_route(learner, item)[1])
    step = data.get("step", pending.hints)
    limit = min(pending.hints, len(shown) - 1)
    if isinstance(step, bool) or not isinstance(step, int) or not 0 <= step <= limit:
        raise PracticeApiError("not_count", field="step", limit=limit)
    if step == pending.hints and holder.pending is not None and holder.pending.nonce == pending.nonce:
        pending = replace(pending, hints=step + 1)
        store.keep_holder(replace(holder, pending=pending))
    found = {"hint": shown[step].message(g.error_lang), "step": step, "more": step + 1 < len(shown),
             "hints_used": pending.hints}  # fmt: skip
    return jsonify(with_ruby(found, g.error_lang, "hint"))


@bp.post("/api/practice/on-track")
def api_on_track() -> Response:
    data = _body()
    formula = _text(data, "formula")
    try:
        _, _, item = _current(data)
    except UnknownProblem:
        return _error("unknown_problem", 404)
    return jsonify(with_ruby(on_track(formula, item.roll, solve_at_level(item.roll)).to_dict(g.error_lang), g.error_lang,
                             "message"))  # fmt: skip
