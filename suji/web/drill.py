"""Drill pages: one roll at a level, built into a formula by tapping dice or typing, then checked and scored.

The server keeps the roll: the signed session holds the level and a seed, and the roll is rebuilt from them,
so the browser never chooses dice.
"""

from __future__ import annotations

import re
import secrets
from functools import lru_cache
from types import ModuleType

from flask import Blueprint, abort, redirect, render_template, request, session, url_for
from flask_babel import lazy_gettext
from werkzeug.wrappers import Response

from suji.dice import Roll, random_roll
from suji.scoring import CheckResult, check

bp = Blueprint("drill", __name__, url_prefix="/drill")

LEVELS: dict[int, object] = {
    1: lazy_gettext("Level 1: + and −"),
    2: lazy_gettext("Level 2: also × ÷ ×10 ×11 ×12"),
    3: lazy_gettext("Level 3: also ² and √"),
}
# What a screen reader says for each operator die.
OPERATOR_NAMES: dict[str, object] = {
    "+": lazy_gettext("plus"),
    "−": lazy_gettext("minus"),
    "×": lazy_gettext("times"),
    "÷": lazy_gettext("divided by"),
    "×10": lazy_gettext("times 10"),
    "×11": lazy_gettext("times 11"),
    "×12": lazy_gettext("times 12"),
    "²": lazy_gettext("squared"),
    "√": lazy_gettext("square root"),
}
SESSION_KEY = "drill"
MAX_FORMULA_FIELD = 200


def solver() -> ModuleType | None:
    """suji.solver when it exists (the best score and hints need it), else None."""
    try:
        import suji.solver as module
    except ModuleNotFoundError as error:
        if error.name == "suji.solver":
            return None
        raise
    return module


@lru_cache(maxsize=2048)
def _new_roll(level: int, seed: int) -> Roll:
    """The drill roll at `level` from `seed`, certified solvable at that level (once suji.problems exists)."""
    try:
        from suji.problems import certified_roll
    except ModuleNotFoundError as error:
        if error.name != "suji.problems":
            raise
        return random_roll(seed)
    return certified_roll(level, seed).roll


def current_state(level: int | None = None) -> dict | None:
    """The drill kept in the session (at `level`, when given), or None."""
    state = session.get(SESSION_KEY)
    if not isinstance(state, dict) or state.get("level") not in LEVELS:
        return None
    if not isinstance(state.get("seed"), int):
        return None
    if level is not None and state["level"] != level:
        return None
    return state


def current_roll() -> Roll | None:
    """The roll of the drill in the session, or None when there is none."""
    state = current_state()
    return _new_roll(state["level"], state["seed"]) if state else None


def _start(level: int, streak: int = 0) -> dict:
    state = {"level": level, "seed": secrets.randbits(48), "streak": streak, "done": False}
    session[SESSION_KEY] = state
    return state


@bp.app_context_processor
def _template_helpers() -> dict:
    return {"operator_name": lambda face: OPERATOR_NAMES.get(face, face)}


def _level_or_404(level: int) -> int:
    if level not in LEVELS:
        abort(404)
    return level


@bp.get("/")
def index() -> str:
    """Choose a level."""
    return render_template("drill/index.html", levels=LEVELS)


@bp.get("/<int:level>")
def play(level: int) -> str:
    """The current roll at `level` (a new one when the session has none at this level)."""
    _level_or_404(level)
    state = current_state(level) or _start(level)
    roll = _new_roll(level, state["seed"])
    return render_template(
        "drill/play.html", level=level, level_name=LEVELS[level], roll=roll, state=state,
        formula=request.args.get("formula", "")[:MAX_FORMULA_FIELD], hints=hints_module() is not None,
    )  # fmt: skip


@bp.post("/<int:level>/new")
def new(level: int) -> Response:
    """A fresh roll; leaving a roll unanswered ends the streak."""
    _level_or_404(level)
    state = current_state(level)
    streak = state["streak"] if state and state.get("done") else 0
    _start(level, streak)
    return redirect(url_for("drill.play", level=level), code=303)


@bp.post("/<int:level>/check")
def check_formula(level: int) -> str | Response:
    """Check the submitted formula against the roll and show the verdict, the score and the best score."""
    _level_or_404(level)
    state = current_state(level)
    if state is None:  # the session expired or the level changed in another tab
        return redirect(url_for("drill.play", level=level), code=303)
    formula = request.form.get("formula", "")[:MAX_FORMULA_FIELD]
    roll = _new_roll(level, state["seed"])
    result = check(formula, roll)
    made = result.valid and result.target is not None
    if not state.get("done"):
        state["streak"] = state.get("streak", 0) + 1 if made else 0
        state["done"] = made
        session[SESSION_KEY] = state
    return render_template(
        "drill/result.html", level=level, level_name=LEVELS[level], roll=roll, state=state, result=result,
        formula=formula, made=made, value=pretty_value(result), best=best_answer(roll),
        solved=solution_for(roll) is not None,
        lang_next=url_for("drill.play", level=level),
    )  # fmt: skip


def hints_module() -> ModuleType | None:
    """suji.hints (the solver's hints and "still on track?") when it exists, else None."""
    try:
        import suji.hints as module
    except ModuleNotFoundError as error:
        if error.name == "suji.hints":
            return None
        raise
    return module if hasattr(module, "hints") and hasattr(module, "on_track") else None


@lru_cache(maxsize=512)
def solution_for(roll: Roll):  # type: ignore[no-untyped-def]
    """The solver's answer for a roll, kept for the hints and the check page that follow (None: no solver)."""
    module = solver()
    return module.solve(roll) if module is not None and hasattr(module, "solve") else None


def best_answer(roll: Roll) -> CheckResult | None:
    """One best-scoring formula for the roll, checked like the student's (None: no solver or no answer)."""
    solution = solution_for(roll)
    top = getattr(solution, "top", None)
    return check(top.formula, roll) if top is not None else None


_SQRT = re.compile(r"sqrt\((\d+)\)")


def pretty_value(result: CheckResult) -> str | None:
    """The exact value as printed for pupils: 2×√3, 3/2, −1 + √5 (SymPy's text with the dice's symbols)."""
    if result.value is None:
        return None
    text = _SQRT.sub(r"√\1", str(result.value))
    return text.replace("sqrt", "√").replace("*", "×").replace("-", "−")
