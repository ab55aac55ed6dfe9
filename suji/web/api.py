"""The JSON API. Each endpoint answers what the matching `suji … --json` command prints.

Writes are CSRF-protected like forms: the page's JavaScript sends the token of its <meta> tag as X-CSRFToken.
A malformed request gets status 400 and {"error": {"code", "message"}} in the page's language (or `lang`).
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, jsonify, request
from werkzeug.wrappers import Response

from suji.cli import dice_error_message
from suji.dice import DiceError, Roll
from suji.i18n import LANGUAGES, N_, translate
from suji.scoring import check
from suji.web.drill import current_roll, pretty_value
from suji.web.i18n import select_locale

bp = Blueprint("api", __name__, url_prefix="/api")

# Bounds that keep one request cheap: stripping redundant dice tries every subset of the formula's dice.
MAX_TARGET_DICE = 4
MAX_NUMBER_DICE = 8
MAX_OPERATOR_DICE = 6
MAX_TARGET = 10**9
MAX_COST_DICE = 100
MAX_FORMULA_LENGTH = 1000  # the reader itself refuses more than 200 characters, with its own message

MESSAGES = {
    "not_json": N_("Send one JSON object (Content-Type: application/json)."),
    "missing_field": N_("“{field}” is missing."),
    "not_text": N_("“{field}” must be a text."),
    "not_list": N_("“{field}” must be a list."),
    "not_count": N_("“{field}” must be a whole number from 0 to {limit}."),
    "too_many_dice": N_("“{field}” has too many dice: at most {limit}."),
    "both_targets": N_("Give either “target_dice” or “target”, not both."),
    "bad_lang": N_("“lang” must be “ja” or “en”."),
    "no_roll": N_("There is no roll: open a drill first, or send the dice."),
}


class ApiError(Exception):
    """A malformed request: answered with status 400 and a translated message."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(code)
        self.code = code
        self.message = message


def error_response(code: str, message: str, status: int = 400) -> Response:
    """The JSON body every API error has."""
    response = jsonify({"error": {"code": code, "message": message}})
    response.status_code = status
    return response


@bp.errorhandler(ApiError)
def _api_error(error: ApiError) -> Response:
    return error_response(error.code, error.message)


class Request:
    """The JSON object of one API request, read field by field with translated complaints."""

    def __init__(self) -> None:
        data = request.get_json(silent=True) if request.is_json else None
        lang = data.get("lang") if isinstance(data, dict) else None
        self.lang = lang if lang in LANGUAGES else select_locale()
        if not isinstance(data, dict):
            raise self.error("not_json")
        if lang is not None and lang not in LANGUAGES:
            raise self.error("bad_lang")
        self.data: dict[str, Any] = data

    def error(self, code: str, **params: object) -> ApiError:
        return ApiError(code, translate(MESSAGES[code], self.lang, **params))

    def text(self, field: str) -> str:
        value = self.data.get(field)
        if value is None:
            raise self.error("missing_field", field=field)
        if not isinstance(value, str):
            raise self.error("not_text", field=field)
        return value[:MAX_FORMULA_LENGTH]

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
        return [v if isinstance(v, int | str) and not isinstance(v, bool) else repr(v)[:20] for v in value]

    def count(self, field: str, limit: int) -> int:
        value = self.data.get(field, 0)
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= limit:
            raise self.error("not_count", field=field, limit=limit)
        return value

    def has_dice(self) -> bool:
        return any(key in self.data for key in ("number_dice", "operator_dice", "target_dice", "target"))

    def roll(self) -> Roll:
        """The roll named by target_dice (or target), number_dice and operator_dice."""
        target_dice = self.dice("target_dice", MAX_TARGET_DICE, required=False)
        target = self.data.get("target")
        if target_dice is not None and target is not None:
            raise self.error("both_targets")
        if target is not None:
            target = self.count("target", MAX_TARGET)
        number_dice = self.dice("number_dice", MAX_NUMBER_DICE)
        operator_dice = self.dice("operator_dice", MAX_OPERATOR_DICE)
        try:
            return Roll.of(number_dice or (), operator_dice or (), target_dice or (), target)
        except DiceError as error:
            raise ApiError(error.code, dice_error_message(error, self.lang)) from None


@bp.post("/check")
def check_formula() -> Response:
    """Check and score a formula: the body of `suji check --json`, status 200 whether valid or not."""
    req = Request()
    formula = req.text("formula")
    roll = req.roll()
    rerolled = req.count("rerolled", MAX_COST_DICE)
    set_faces = req.count("set_faces", MAX_COST_DICE)
    return jsonify(check(formula, roll, rerolled=rerolled, set_faces=set_faces).to_dict(req.lang))


@bp.post("/value")
def value() -> Response:
    """The exact value of a formula so far, against the dice sent or the drill in the session."""
    req = Request()
    formula = req.text("formula")
    roll = req.roll() if req.has_dice() else current_roll()
    if roll is None:
        raise req.error("no_roll")
    result = check(formula, roll)
    data = result.to_dict(req.lang)
    return jsonify(
        {"valid": data["valid"], "value": data["value"], "display": pretty_value(result),
         "target": data["target"], "error": data["error"]}
    )  # fmt: skip
