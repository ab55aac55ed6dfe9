"""The JSON API. Each endpoint answers what the matching `suji … --json` command prints.

Writes are CSRF-protected like forms: the page's JavaScript sends the token of its <meta> tag as X-CSRFToken.
A malformed request gets status 400 and {"error": {"code", "message"}} in the page's language (or `lang`).
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, current_app, g, jsonify, request
from werkzeug.wrappers import Response

from suji.core.errors import SujiError
from suji.core.i18n import LANGUAGES, N_
from suji.rules.dice import Roll
from suji.rules.language.reader import formula_field
from suji.rules.scoring import check, value_so_far
from suji.rules.working import checked_working
from suji.solver.hints import hints as solver_hints
from suji.solver.hints import on_track
from suji.solver.levels import LEVELS
from suji.solver.search import needs_enumeration, solve_at_level
from suji.web.advice import AdviceRefused, AlreadyAsking, advice_for, refusal_response
from suji.web.drill_rolls import drill_level_roll, note_hint, roll_of_token
from suji.web.furigana import with_ruby
from suji.web.i18n import request_locale
from suji.web.jsonbody import json_body
from suji.web.slots import client_key

bp = Blueprint("api", __name__, url_prefix="/api")

# Bounds that keep one request cheap: stripping redundant dice tries every subset of the formula's dice.
MAX_TARGET_DICE = 4
MAX_NUMBER_DICE = 8
MAX_OPERATOR_DICE = 6
MAX_TARGET = 10**9
MAX_COST_DICE = 100
# The solver tries every formula of the roll: it answers for the standard set's size (5 + 4 dice) at most.
SOLVER_NUMBER_DICE = 5
SOLVER_OPERATOR_DICE = 4

MESSAGES = {
    "not_json": N_("Send one JSON object (Content-Type: application/json)."),
    "missing_field": N_("“%(field)s” is missing."),
    "not_text": N_("“%(field)s” must be a text."),
    "not_list": N_("“%(field)s” must be a list."),
    "not_count": N_("“%(field)s” must be a whole number from 0 to %(limit)s."),
    "too_many_dice": N_("“%(field)s” has too many dice: at most %(limit)s."),
    "both_targets": N_("Give either “target_dice” or “target”, not both."),
    "bad_lang": N_("“lang” must be “ja” or “en”."),
    "no_roll": N_("There is no roll: open a drill first, or send the dice."),
    "not_level": N_("“level” must be one of %(limits)s."),
    "not_flag": N_("“%(field)s” must be true or false."),
    "not_step": N_("“step” must be a whole number from 0 to %(limit)s."),
    "slow_roll": N_(
        "The solver here answers rolls without a die showing 9 and with at most one √ die (such dice take it "
        "seconds). The command line “suji solve” works them out."
    ),
}


# What a die is sent as: a digit or an operator's name (not True or False, though bool is an int in Python).
DIE_TYPES = (int, str)


class ApiError(SujiError):
    """A malformed request: answered with status 400 and its message in the request's language."""

    MESSAGES = MESSAGES


class Request:
    """The JSON object of one API request, read field by field with translated complaints."""

    def __init__(self) -> None:
        # The request and g looked up once each: every look through a proxy costs as much as a small test.
        req = request._get_current_object()
        data = json_body(req)
        lang = data.get("lang") if isinstance(data, dict) else None
        self.lang = lang if lang in LANGUAGES else request_locale(req)
        # The language every error of this request is answered in (web.errors).
        g._get_current_object().error_lang = self.lang
        if not isinstance(data, dict):
            raise self.error("not_json")
        if lang is not None and lang not in LANGUAGES:
            raise self.error("bad_lang")
        self.data: dict[str, Any] = data

    def error(self, code: str, **params: object) -> ApiError:
        return ApiError(code, **params)

    def text(self, field: str) -> str:
        value = self.data.get(field)
        if value is None:
            raise self.error("missing_field", field=field)
        if not isinstance(value, str):
            raise self.error("not_text", field=field)
        return formula_field(value)  # the reader refuses a longer one with its own message

    def dice(self, field: str, limit: int, required: bool = True) -> list | None:
        value = self.data.get(field)
        if value is None:
            if required:
                raise self.error("missing_field", field=field)
            return None
        if not isinstance(value, list):
            raise self.error("not_list", field=field)
        if len(value) > limit:
            raise self.error("too_many_dice", field=field, limit=limit)
        # Dice are digits or operator names; anything else is reported as an unknown die by Roll.
        return [v if type(v) in DIE_TYPES else repr(v)[:20] for v in value]

    def count(self, field: str, limit: int) -> int:
        value = self.data.get(field, 0)
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= limit:
            raise self.error("not_count", field=field, limit=limit)
        return value

    def quick_roll(self, numbers: int, operators: int) -> Roll:
        """A roll the solver answers in milliseconds; custom dice that need every formula listed are refused."""
        roll = self.roll(numbers, operators)
        if needs_enumeration(roll):
            raise self.error("slow_roll")
        return roll

    def has_dice(self) -> bool:
        return any(key in self.data for key in ("number_dice", "operator_dice", "target_dice", "target"))

    def roll(self, numbers: int = MAX_NUMBER_DICE, operators: int = MAX_OPERATOR_DICE) -> Roll:
        """The roll named by target_dice (or target), number_dice and operator_dice (at most so many dice)."""
        target_dice = self.dice("target_dice", MAX_TARGET_DICE, required=False)
        target = self.data.get("target")
        if target_dice is not None and target is not None:
            raise self.error("both_targets")
        if target is not None:
            target = self.count("target", MAX_TARGET)
        number_dice = self.dice("number_dice", numbers)
        operator_dice = self.dice("operator_dice", operators)
        return Roll.of(number_dice or (), operator_dice or (), target_dice or (), target)


@bp.post("/check")
def check_formula() -> Response:
    """Check and score a formula: the body of `suji check --json`, status 200 whether valid or not."""
    req = Request()
    formula = req.text("formula")
    roll = req.roll()
    rerolled = req.count("rerolled", MAX_COST_DICE)
    set_faces = req.count("set_faces", MAX_COST_DICE)
    steps = req.data.get("steps", False)
    if not isinstance(steps, bool):
        raise req.error("not_flag", field="steps")
    result = check(formula, roll, rerolled=rerolled, set_faces=set_faces)
    data = result.to_dict(req.lang)
    if steps:  # as `suji check --json --steps`: the working of the formula and of its scored form
        data["steps"] = checked_working(result, req.lang, roll)
    return current_app._get_current_object().json.response(data)  # jsonify, the app looked up once


@bp.post("/value")
def value() -> Response:
    """The exact value of a formula so far, against the dice sent or the drill in the session."""
    req = Request()
    formula = req.text("formula")
    roll = req.roll() if req.has_dice() else _drill_roll(req)[0]
    return jsonify(with_ruby(value_so_far(formula, roll, req.lang), req.lang, "message"))


# ---- the solver: best answers, hints and "still on track?" -------------------------------------------------


def _drill_roll(req: Request) -> tuple[Roll, int]:
    """The roll of the drill page that sent the request (its signed `roll` token), with the page's level."""
    found = drill_level_roll(req.data.get("roll"))
    if found is None:
        raise req.error("no_roll")
    return found


@bp.post("/solve")
def solve() -> Response:
    """Every reachable target of a roll with its best score and one best formula: `suji solve --json`."""
    req = Request()
    roll = req.quick_roll(SOLVER_NUMBER_DICE, SOLVER_OPERATOR_DICE)
    level = req.data.get("level")
    if level is not None and (type(level) is not int or level not in LEVELS):
        raise req.error("not_level", limits=", ".join(map(str, LEVELS)))
    return jsonify(solve_at_level(roll, level).to_dict())  # what `suji solve --json` prints


@bp.post("/hint")
def hint() -> Response:
    """The first `level` (1–4) hints and, for a `prefix`, "still on track?": `suji hint --json`."""
    req = Request()
    roll = req.quick_roll(SOLVER_NUMBER_DICE, SOLVER_OPERATOR_DICE)
    level = req.data.get("level", 4)
    if type(level) is not int or level not in (1, 2, 3, 4):
        raise req.error("not_level", limits="1, 2, 3, 4")
    prefix = req.text("prefix") if req.data.get("prefix") is not None else None
    solution = solve_at_level(roll)
    shown = solver_hints(roll, solution)[:level]
    track = on_track(prefix, roll, solution) if prefix is not None else None
    return jsonify(
        {"hints": [h.to_dict(req.lang) for h in shown], "track": track.to_dict(req.lang) if track else None}
    )


@bp.post("/advise")
def advise() -> Response:
    """Re-roll advice: the odds and expected score of every choice, as `suji advise --json` prints."""
    req = Request()
    roll = req.roll(SOLVER_NUMBER_DICE, SOLVER_OPERATOR_DICE)
    rerolled = req.count("rerolled", MAX_COST_DICE)
    set_faces = req.count("set_faces", MAX_COST_DICE)
    try:
        # From the odds table in milliseconds; without it, from the live queue off the request threads (202
        # "ask again in N s" while it works, 503 when full: suji.web.advice).
        advice = advice_for(roll, rerolled, set_faces, current_app.config["ODDS_PATH"], client_key())
    except (AlreadyAsking, AdviceRefused) as refused:
        return refusal_response(refused, req.lang)
    return jsonify(advice.to_dict(req.lang))


@bp.post("/drill/hint")
def drill_hint() -> Response:
    """Hint number `step` (0 first) for the drill in the session, and whether more follow."""
    req = Request()
    roll, level = _drill_roll(req)
    hints = solver_hints(roll, solve_at_level(roll, level))
    step = req.data.get("step", 0)
    if isinstance(step, bool) or not isinstance(step, int) or not 0 <= step < len(hints):
        raise req.error("not_step", limit=len(hints) - 1)
    named = roll_of_token(req.data.get("roll"))
    if named is not None:  # it is (the roll was read from it): the drill's result says how many were shown
        note_hint(*named, step)
    found = {"hint": hints[step].message(req.lang), "step": step, "more": step + 1 < len(hints)}
    return jsonify(with_ruby(found, req.lang, "hint"))


@bp.post("/drill/on-track")
def drill_on_track() -> Response:
    """Can the formula so far still be finished to a target with the dice left?"""
    req = Request()
    formula = req.text("formula")
    roll, level = _drill_roll(req)
    track = on_track(formula, roll, solve_at_level(roll, level))
    return jsonify(with_ruby(track.to_dict(req.lang), req.lang, "message"))
