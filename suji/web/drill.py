"""Drill pages: one roll at a level, built into a formula by tapping dice or typing, then checked and scored.

The server keeps the roll: the signed session holds, for each level, a seed that the roll is rebuilt from, so
the browser never chooses dice. Each page also carries its roll as a signed token, so that a second tab (or a
"New roll" pressed twice) never makes a page check, value or hint a roll it does not show.

A formula is checked once: the POST checks it and keeps the result (a bounded cache, by roll and text),
and the result page it redirects to shows that result; only a page served by another process, or one asked for
again long after, checks it again (the session says what to show, so the page is the same either way).
"""

from __future__ import annotations

import secrets
from collections import Counter

from flask import Blueprint, abort, flash, redirect, render_template, request, session, url_for
from flask_babel import gettext, lazy_gettext
from werkzeug.wrappers import Response

from suji.core.caching import LruDict
from suji.core.i18n import N_, sentences
from suji.rules.dice import Roll
from suji.rules.language.reader import formula_field
from suji.rules.scoring import CheckResult, check
from suji.rules.working import checked_working
from suji.solver.hints import hints as solver_hints
from suji.solver.search import LEVEL_OPERATORS, Solution, best_answer, solve_at_level
from suji.web import drill_rolls
from suji.web.drill_rolls import LEVEL_TITLES, roll_of_token, roll_token

bp = Blueprint("drill", __name__, url_prefix="/drill")

# What a screen reader says for each operator die.
OPERATOR_NAMES: dict[str, object] = {
    "+": lazy_gettext("plus"),
    "−": lazy_gettext("minus"),
    "×": lazy_gettext("times"),
    "÷": lazy_gettext("divided by"),
    "×10": lazy_gettext("times 10"),
    "×11": lazy_gettext("times 11"),
    "×12": lazy_gettext("times 12"),
    "²": lazy_gettext("squared, power 2"),  # the face shows a 2: the name says it too, as a word of its own (axe compares words)
    "√": lazy_gettext("square root"),
}
SESSION_KEY = "drills"  # level (as text) -> {"seed", "streak", "done"}
_CHECKED: LruDict[tuple[Roll, str], CheckResult] = LruDict("drill_check")


def checked(formula: str, roll: Roll) -> CheckResult:
    """The check of a formula against a drill's roll: worked out once, then kept for its result page."""
    key = (roll, formula)
    result = _CHECKED.get(key)
    if result is None:
        result = check(formula, roll)
        _CHECKED.put(key, result)
    return result


def current_state(level: int) -> dict | None:
    """The drill at `level` kept in the session, or None."""
    drills = session.get(SESSION_KEY)
    state = drills.get(str(level)) if isinstance(drills, dict) else None
    if (
        not isinstance(state, dict)
        or isinstance(state.get("seed"), bool)
        or not isinstance(state.get("seed"), int)
    ):
        return None
    return state


def _save(level: int, state: dict) -> None:
    drills = session.get(SESSION_KEY)
    drills = dict(drills) if isinstance(drills, dict) else {}
    drills[str(level)] = state
    session[SESSION_KEY] = drills


def _start(level: int, streak: int = 0) -> dict:
    state = {"seed": secrets.randbits(48), "streak": streak, "done": False}
    _save(level, state)
    return state


def _page_lang() -> str:
    from suji.web.i18n import select_locale

    return select_locale()


def printed_formula(formula: str, roll: Roll) -> dict:
    """A formula checked against a roll as a result shows it: {"formula": in print, "value": printed or None}."""
    result = check(formula, roll)
    return {"formula": printed(result), "value": result.display}


def formula_working(formula: str, roll: Roll) -> dict | None:
    """The working of a formula checked against a roll (None when it is not a valid formula), for a page."""
    return checked_working(check(formula, roll), _page_lang(), roll)


@bp.app_context_processor
def _template_helpers() -> dict:
    return {
        "operator_name": lambda face: OPERATOR_NAMES.get(face, face), "formula_working": formula_working,
        "printed_formula": printed_formula,
        "level_operators": LEVEL_OPERATORS,  # a drill's bonus dice: the operator dice its level does not need
    }  # fmt: skip


def _level_or_404(level: int) -> int:
    if level not in LEVEL_TITLES:
        abort(404)
    return level


@bp.get("/")
def index() -> str:
    """Choose a level."""
    return render_template("drill/index.html", levels=LEVEL_TITLES)


@bp.get("/<int:level>")
def play(level: int) -> str:
    """The current roll at `level` (a new one when the session has none at this level)."""
    _level_or_404(level)
    state = current_state(level) or _start(level)
    roll = drill_rolls.roll_at(level, state["seed"])
    solution = solve_at_level(roll, level)
    # The hints this roll's page already showed stay shown (a reload does not hide them).
    shown = solver_hints(roll, solution)[: drill_rolls.hints_shown(level, state["seed"])]
    return render_template(
        "drill/play.html", level=level, level_name=LEVEL_TITLES[level], roll=roll, state=state,
        makeable=len(solution.best), best_score=solution.top.score if solution.top else 0,
        token=roll_token(level, state["seed"]), formula=formula_field(request.args.get("formula")),
        hints=[hint.message(_page_lang()) for hint in shown], hint_count=len(solver_hints(roll, solution)),
    )  # fmt: skip


def copied_from_hint(roll: Roll, solution: Solution, shown: int, result: CheckResult) -> bool:
    """Whether a made target is the last hint's answer written again: the hints shown went as far as the whole
    best formula, and the pupil's formula makes its target with its very dice, in any order (56×8+3+6² is
    3+56×8+6² again). Another formula, or another target, after the last hint is the pupil's own."""
    hints = solver_hints(roll, solution)
    if shown < len(hints) or hints[-1].kind != "formula" or result.target is None:
        return False
    hinted = solution.best.get(hints[-1].data["target"])
    return (
        hinted is not None
        and result.target == hinted.target
        and Counter(die.face for die in result.dice) == Counter(hinted.faces)
    )


def printed(result: CheckResult) -> str:
    """A checked formula as the dice print it (21^2+4+1 typed → 21²+4+1); as typed when it does not read."""
    return result.printed_formula or result.formula


@bp.post("/<int:level>/new")
def new(level: int) -> Response:
    """A fresh roll; leaving a roll unanswered ends the streak."""
    _level_or_404(level)
    state = current_state(level)
    streak = state["streak"] if state and state.get("done") else 0
    _start(level, streak)
    return redirect(url_for("drill.play", level=level), code=303)


RESULT_KEY = "drill_result"  # the last checked formula (level, seed, formula): the result page is a GET
NOT_A_TRY = N_("Mend it and send it again: your streak is as it was.")


@bp.post("/<int:level>/check")
def check_formula(level: int) -> Response:
    """Check the submitted formula against the roll its page showed, count the streak, then show the result.

    Redirect-after-POST: the result is a page of its own (GET), so reloading it, going back to it or switching
    its language never sends the formula again.
    """
    _level_or_404(level)
    named = roll_of_token(request.form.get("roll"))
    formula = formula_field(request.form.get("formula"))
    if named is None or named[0] != level:  # an old or forged page: keep the formula, show the current roll
        return _out_of_date(level, formula)
    seed = named[1]
    roll = drill_rolls.roll_at(level, seed)
    result = checked(formula, roll)
    if not result.valid:
        # A formula the checker refuses (a typo, a die not rolled, nothing written) is no try, as in practice,
        # homework and class mode: the pupil stays on the roll with the text in the box, is told why, and the
        # streak is as it was. From a page whose roll is no longer the current one, the reason would be about
        # dice the pupil no longer sees: the page says it was out of date instead.
        current = current_state(level)
        if current is None or current["seed"] != seed:
            return _out_of_date(level, formula)
        flash(sentences(_page_lang(), result.error.message(_page_lang()), gettext(NOT_A_TRY)), "error")
        return redirect(url_for("drill.play", level=level, formula=formula), code=303)
    made = result.target is not None
    # The streak follows the current roll of this level only, once; an older roll's page is checked all
    # the same, but it cannot add to the streak again.
    # A target made with the whole answer from the last hint is not the pupil's own: it keeps the streak as it
    # was (no miss either), and the result page says why.
    hints = drill_rolls.hints_shown(level, seed)
    copied = made and copied_from_hint(roll, solve_at_level(roll, level), hints, result)
    state = current_state(level) or {"seed": None, "streak": 0, "done": False}
    if state["seed"] == seed and not state.get("done"):
        state["streak"] = state.get("streak", 0) + (0 if copied else 1) if made else 0
        state["done"] = made
        _save(level, state)
    session[RESULT_KEY] = {"level": level, "seed": seed, "formula": formula, "hints": hints}
    return redirect(url_for("drill.result", level=level), code=303)


def _out_of_date(level: int, formula: str) -> Response:
    """Back to the current roll of `level`, the formula kept, saying the page sent was out of date."""
    flash(gettext("That page was out of date, so here is the current roll. Your formula is kept."), "error")
    return redirect(url_for("drill.play", level=level, formula=formula), code=303)


@bp.get("/<int:level>/result")
def result(level: int) -> str | Response:
    """The last checked formula of this level: verdict, score, the working and the best answer."""
    _level_or_404(level)
    last = session.get(RESULT_KEY)
    if (
        not isinstance(last, dict)
        or last.get("level") != level
        or isinstance(last.get("seed"), bool)
        or not isinstance(last.get("seed"), int)
        or not isinstance(last.get("formula"), str)
    ):
        return redirect(url_for("drill.play", level=level), code=303)
    roll = drill_rolls.roll_at(level, last["seed"])
    formula = formula_field(last["formula"])
    result = checked(formula, roll)
    made = result.valid and result.target is not None
    state = current_state(level) or {"seed": None, "streak": 0, "done": False}
    hints = last.get("hints") if isinstance(last.get("hints"), int) and not isinstance(last.get("hints"), bool) else 0
    return render_template(
        "drill/result.html", level=level, level_name=LEVEL_TITLES[level], roll=roll, state=state, result=result,
        formula=formula, printed=printed(result), made=made, value=result.display, best=best_answer(roll, level),
        steps=checked_working(result, _page_lang(), roll), hints=hints,
        copied=made and copied_from_hint(roll, solve_at_level(roll, level), hints, result),
    )  # fmt: skip
