"""The guided first puzzle: a small worked example a new student completes step by step (issue 11).

Data flows: one fixed roll (target dice 1 2 5, number dice 6 2 3 3 1, operator dice + − × +) → the page with the
drill's dice (drill.js builds the formula and asks /api/value for its exact value, the dice sent in the request)
→ first.js moves the guide on as the formula grows (9, 92, 92+, 92+3, 92+33 = 125) → /api/check scores the
answer and the guide explains why the score is 4 → "done" is remembered in a cookie, and so is "skip".
"""

from __future__ import annotations

from flask import Blueprint, current_app, redirect, render_template, request, url_for
from flask_babel import gettext
from werkzeug.wrappers import Response

from suji.rules.dice import Roll
from suji.rules.language.reader import formula_field
from suji.rules.scoring import check
from suji.web.i18n import select_locale

bp = Blueprint("first", __name__, url_prefix="/first")

# 92+33 = 125 with the 6 read as 9: every idea of the game in five taps (a target, joining dice, 6 as 9, + and
# the score), with a better answer left to find (125 = 3×...?) for the student who wants more.
ROLL = Roll.of([6, 2, 3, 3, 1], ["+", "−", "×", "+"], [1, 2, 5])
DONE_COOKIE = "suji_first"
COOKIE_AGE = 400 * 24 * 3600


def first_puzzle_done() -> bool:
    """Whether this browser has finished or skipped the first puzzle."""
    return request.cookies.get(DONE_COOKIE) in ("done", "skipped")


@bp.app_context_processor
def _helpers() -> dict:
    return {"first_puzzle_done": first_puzzle_done}


def verdict(formula: str) -> tuple[str, bool]:
    """What checking `formula` says on the page (in print: 92+33 = 125), and whether it made a target."""
    if not formula.strip():
        return "", False
    result = check(formula, ROLL)
    if not result.valid:
        return result.error.message(select_locale()) if result.error else "", False
    printed = result.printed_formula
    if result.target is None:
        return "✗ " + printed + " = " + gettext("%(value)s is not a target.", value=result.display), False
    return f"✓ {printed} = {result.target}", True


@bp.get("/")
def index() -> str:
    """The guided first puzzle; with ?formula= (its form sent without JavaScript) the formula checked too."""
    formula = formula_field(request.args.get("formula"))
    text, made = verdict(formula)
    return render_template("first.html", roll=ROLL, formula=formula, verdict=text, made=made)


@bp.post("/done")
def done() -> Response:
    """Remember that the first puzzle was finished (or skipped), and go on to the drills (or back home)."""
    how = "skipped" if request.form.get("how") == "skipped" else "done"
    response = redirect(url_for("drill.play", level=1) if how == "done" else url_for("main.index"), code=303)
    response.set_cookie(
        DONE_COOKIE, how, max_age=COOKIE_AGE, httponly=True, samesite="Lax",
        secure=bool(current_app.config["SESSION_COOKIE_SECURE"]) or request.is_secure,
    )  # fmt: skip
    return response
