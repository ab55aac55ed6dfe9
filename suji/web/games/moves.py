"""The one way a move changes a stored hand (a game's turn or the daily entry), and what the page says after it.

    form → the stored hand at the form's version → a pure move (suji.play.games) → the new hand, stored if the
    row is still at that version → a redirect; a re-roll or a set face says once which dice changed, and the next
    page marks them.

Two requests at once, or a form sent twice, cannot both change a hand: the version is checked again after the
move (the rows' version counters guard the write too).
"""

from __future__ import annotations

from collections.abc import Callable, Collection

from flask import current_app, flash, jsonify, redirect, session
from flask_babel import gettext
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm.exc import StaleDataError
from werkzeug.wrappers import Response

from suji.play import games
from suji.play.games import GameError, Hand
from suji.rules.language.reader import formula_field as typed_formula
from suji.rules.scoring import check
from suji.web.extensions import db
from suji.web.games.common import STALE, die_label, fail, formula_field, lang
from suji.web.giving_up import ASK, asked_to_give_up
from suji.web.jsonbody import json_body
from suji.web.models import Answer, DailyEntry

CHANGED_KEY = "changed_dice"

# What a re-roll or a set face changed: (die id, kind, old face, new face) for each die.
Changes = list[tuple[str, str, object, object]]


def change_hand(
    row: Answer | DailyEntry,
    action: Callable[[Hand], Hand],
    page: str,
    page_with_formula: Callable[..., str],
    still_fresh: Callable[[], bool],
    stale: Callable[[], object],
    after: Callable[[Hand], None] | None = None,
    chosen: Collection[str] | None = None,
) -> Response:
    """Run `action` on the row's hand and store the result, safe against races.

    The hand is read at the version the form was made for; the transaction ends while the move runs (the
    solver may take a moment), and the version is checked again before the new hand is stored: of two
    requests at once, or a form sent twice, only one changes anything; the other hears `stale()`. With
    `chosen` (the dice a re-roll named; empty for a set face) the dice that changed are said once after the
    commit and marked on the next page.
    """
    step = row.version
    before = hand = row.hand()
    db.session.commit()  # let other requests write while the move runs; the version is checked again below
    try:
        hand = action(hand)
    except NotATarget:  # asked once on the page, which keeps the formula: answer anyway, or change it
        return redirect(page_with_formula(formula_field(), unsure=1), code=303)
    except NotSureToGiveUp:  # asked on the page: give up, or keep playing
        return redirect(page_with_formula(formula_field(), give_up=ASK), code=303)
    except GameError as error:
        if error.code == "invalid_formula":  # handed back to be fixed, with the formula still in its box
            page = page_with_formula(formula_field())
        return fail(error.message(lang()), page)
    if row.version != step or not still_fresh():
        db.session.rollback()
        return fail(stale(), page)
    row.store(hand)
    if after is not None:
        after(hand)
    try:
        db.session.commit()
    except (StaleDataError, IntegrityError):
        db.session.rollback()
        return fail(STALE, page)
    if chosen is not None:
        _announce(dice_changes(before, hand, chosen))
    return redirect(page, code=303)


class NotATarget(Exception):
    """An answer whose value is none of the targets, sent before the player said to answer with it anyway."""


def answer_move(formula: str, sure: bool) -> Callable[[Hand], Hand]:
    """The move of answering with `formula`. A hand takes one answer, so one whose value is none of the targets
    (it would score 0) is only taken once the player is `sure`; until then it raises NotATarget."""

    def move(hand: Hand) -> Hand:
        if not sure:
            result = check(formula, hand.roll, hand.rerolled, hand.set_faces)
            if result.valid and result.target is None:
                raise NotATarget
        return games.answer(hand, formula)[0]

    return move


class NotSureToGiveUp(Exception):
    """A give-up sent without the player's yes: the page's script asks first, but a tap before it has loaded (or a
    browser without it) sends the form as it is, and giving up cannot be taken back."""


def give_up_move(sure: bool) -> Callable[[Hand], Hand]:
    """The move of giving up (0 points), taken only once the player is `sure`; until then it raises
    NotSureToGiveUp."""

    def move(hand: Hand) -> Hand:
        if not sure:
            raise NotSureToGiveUp
        return games.give_up(hand)

    return move


def asking_to_give_up(hand: Hand) -> bool:
    """Whether the page asks "give up this target?" (?give_up=ask, while the hand is still open)."""
    return asked_to_give_up() and hand.is_open


def sure_of(formula: str) -> bool:
    """Whether the form said "answer anyway" for this very formula (the button names the formula it was for)."""
    from flask import request

    return request.form.get("sure") == formula


def unsure_value(hand: Hand, formula: str) -> str | None:
    """The value to ask about on a page the answer was sent back to (?unsure=1): printed, or None when the
    formula (changed since, or a made-up address) reads as no such answer."""
    from flask import request

    if not request.args.get("unsure") or not hand.is_open or not formula:
        return None
    result = check(formula, hand.roll, hand.rerolled, hand.set_faces)
    return result.display if result.valid and result.target is None else None


def dice_changes(before: Hand, after: Hand, chosen: Collection[str]) -> Changes:
    """Which dice a re-roll or a set face changed: a die re-rolled to the same face counts, the player chose it."""
    old = {die_id: (kind, face) for die_id, kind, face in before.dice()}
    return [
        (die_id, kind, old[die_id][1], face)
        for die_id, kind, face in after.dice()
        if face != old[die_id][1] or die_id in chosen
    ]


def _announce(changes: Changes) -> None:
    if not changes:
        return
    parts = [
        gettext("%(die)s → now %(face)s", die=die_label(die_id, kind, old), face=str(new))
        for die_id, kind, old, new in changes
    ]
    separator = "、" if lang() == "ja" else "; "
    flash(gettext("Changed: %(changes)s.", changes=separator.join(parts)), "info")
    session[CHANGED_KEY] = [die_id for die_id, _, _, _ in changes]


def changed_dice() -> list[str]:
    """The dice the last re-roll or set face changed (marked once on the page that follows it)."""
    found = session.pop(CHANGED_KEY, None)
    return [d for d in found if isinstance(d, str)][:20] if isinstance(found, list) else []


def value_of(hand: Hand) -> Response:
    """The value of the formula so far against the server's dice, as drill.js shows it."""
    from suji.rules.scoring import value_so_far

    data = json_body()
    formula = data.get("formula") if isinstance(data, dict) else None
    if not isinstance(formula, str):
        return jsonify(valid=False, value=None, display=None, target=None, error=None, unfinished=False)
    return jsonify(value_so_far(typed_formula(formula), hand.roll, lang()))


def makeable(hand: Hand) -> bool:
    """Whether the hand's dice can make any of its targets (the odds table, else the solver, knows)."""
    from suji.solver.odds import best_by_target, table_or_none

    best, _ = best_by_target(
        hand.number_dice, hand.operator_dice, targets=hand.roll.targets,
        table=table_or_none(current_app.config["ODDS_PATH"]),
    )  # fmt: skip
    return bool(best)
