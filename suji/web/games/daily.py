"""The daily puzzle: the same roll for everyone, one answer a day each, and the day's leaderboard.

The day is the app's time zone's (suji.web.games.common.today). A re-roll is seeded by the day and the dice
chosen, so the same choice gives everyone the same dice; the player's entry is made on their first action, and
each form carries the entry's version, so a repeated or late request changes nothing. The ranking is
suji.play.leaderboard's; this module only reads the day's answers in order. A signed-in pupil of a teacher's
class sees their class's board instead, as the class's setting says (CLASS_BOARDS, set by suji.web.classes).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date

from flask import render_template, request, url_for
from flask_babel import lazy_gettext
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from werkzeug.wrappers import Response

from suji.play import games
from suji.play.games import Hand
from suji.play.leaderboard import Place, places
from suji.rules.language.reader import formula_field as typed_formula
from suji.web.extensions import db
from suji.web.games import common
from suji.web.games.common import STALE, bp, chosen_dice, current_player, face_choices, fail
from suji.web.games.moves import (
    answer_move,
    asking_to_give_up,
    change_hand,
    changed_dice,
    give_up_move,
    sure_of,
    unsure_value,
    value_of,
)
from suji.web.giving_up import sure_to_give_up
from suji.web.models import DailyEntry, Player

LEADERBOARD_SIZE = 50
# The board a signed-in pupil of a class sees instead of the public one (suji.web.classes.daily: the class's
# setting, shown, anonymous or off): each callable (day, player, their entry) → a board, or None for anyone else.
CLASS_BOARDS: list[Callable[[date, Player | None, DailyEntry | None], object | None]] = []
OLD_DAY = lazy_gettext("That puzzle is from another day. Here is today's puzzle.")
ALREADY_DAILY = lazy_gettext("You have already answered today's puzzle. Come back tomorrow!")


def _daily_entry(player: Player | None, day: date) -> DailyEntry | None:
    if player is None:
        return None
    return db.session.scalar(
        select(DailyEntry).where(DailyEntry.day == day, DailyEntry.player_id == player.id)
    )


def leaderboard(day: date) -> list[Place[DailyEntry]]:
    """The day's answers, best first (earlier answers first among equal scores, which share a rank)."""
    rows = db.session.execute(
        select(DailyEntry, Player.nickname).join(Player, Player.id == DailyEntry.player_id)
        .where(DailyEntry.day == day, DailyEntry.status != games.OPEN)
        .order_by(DailyEntry.score.desc(), DailyEntry.answered_at, DailyEntry.id).limit(LEADERBOARD_SIZE)
    ).all()  # fmt: skip
    return places([(entry, entry.score, entry.player_id, name) for entry, name in rows])


@bp.get("/daily")
def daily() -> str:
    """Today's puzzle (the same dice for everyone), the player's answer once given, and the leaderboard."""
    day = common.today()
    player = current_player()
    entry = _daily_entry(player, day)
    hand = entry.hand() if entry else games.daily_hand(day)
    answered = db.session.scalar(
        select(db.func.count())
        .select_from(DailyEntry)
        .where(DailyEntry.day == day, DailyEntry.status != games.OPEN)
    )
    class_board = next((b for b in (hook(day, player, entry) for hook in CLASS_BOARDS) if b is not None), None)
    formula = typed_formula(request.args.get("formula"))
    return render_template(
        "games/daily.html", day=day, player=player, entry=entry, hand=hand, roll=hand.roll, class_board=class_board,
        step=entry.version if entry else 0, board=leaderboard(day), answered=answered,
        next_at=common.next_puzzle_at(day), changed=changed_dice(),
        formula=formula, unsure=unsure_value(hand, formula), faces=face_choices(),
        asking_give_up=asking_to_give_up(hand),
    )  # fmt: skip


def _daily_action(action, chosen: list[str] | None = None) -> Response:  # type: ignore[no-untyped-def]
    """Run `action(hand, day) -> Hand` on the player's daily hand (made on the first action)."""
    page = url_for("games.daily")
    day = common.today()
    if request.form.get("day") != day.isoformat():
        return fail(OLD_DAY, page)
    step = common.int_field(request.form.get("step"))
    player = current_player(create=True)
    assert player is not None
    entry = _daily_entry(player, day)
    if entry is None:
        if step != 0:
            return fail(STALE, page)
        hand = games.daily_hand(day)
        entry = DailyEntry(day=day, player_id=player.id, target_dice=games.dice_text(hand.target_dice))
        entry.store(hand)
        db.session.add(entry)
        try:
            db.session.flush()
        except IntegrityError:  # the same player's other request made it first
            db.session.rollback()
            return fail(STALE, page)
        step = entry.version
    elif step != entry.version:
        return fail(ALREADY_DAILY if entry.status != games.OPEN else STALE, page)
    if entry.status != games.OPEN:
        return fail(ALREADY_DAILY, page)
    return change_hand(
        entry, lambda hand: action(hand, day), page, lambda formula, **more: url_for("games.daily", formula=formula, **more),
        still_fresh=lambda: True, stale=lambda: ALREADY_DAILY if entry.status != games.OPEN else STALE,
        chosen=chosen,
    )  # fmt: skip


@bp.post("/daily/reroll")
def daily_reroll() -> Response:
    """Re-roll chosen dice of the daily puzzle: seeded, so the same choice gives everyone the same dice."""
    dice = chosen_dice()
    return _daily_action(lambda hand, day: games.daily_reroll(hand, day, dice), chosen=dice)


@bp.post("/daily/set")
def daily_set() -> Response:
    """Set a die of the daily puzzle to a chosen face (5 points)."""
    die, face = request.form.get("die", "")[:10], request.form.get("face", "")[:10]
    return _daily_action(lambda hand, day: games.set_face(hand, die, face), chosen=[])


@bp.post("/daily/answer")
def daily_answer() -> Response:
    """Answer the daily puzzle (once a day)."""
    formula = common.formula_field()
    move = answer_move(formula, sure_of(formula))
    return _daily_action(lambda hand, day: move(hand))


@bp.post("/daily/giveup")
def daily_give_up() -> Response:
    """Give up the daily puzzle (0 points, and it counts as today's answer)."""
    move = give_up_move(sure_to_give_up())
    return _daily_action(lambda hand, day: move(hand))


@bp.post("/daily/value")
def daily_value() -> Response:
    """The value of a formula so far with the player's daily dice."""
    day = common.today()
    entry = _daily_entry(current_player(), day)
    hand: Hand = entry.hand() if entry else games.daily_hand(day)
    return value_of(hand)
