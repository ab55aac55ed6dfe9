"""Solo games and pass-and-play: start one, play the current hand, move on, and the solver's advice.

The server rolls every die: forms name dice by position only ("n0", "o3"), never faces to trust. Each action
form carries the hand's id ("turn") and version ("step"); an old or repeated request no longer matches and
changes nothing (suji.web.games.moves). A game belongs to the browser's player: another's is as good as missing.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from flask import current_app, flash, jsonify, redirect, render_template, request, url_for
from flask_babel import gettext
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm.exc import StaleDataError
from werkzeug.wrappers import Response

from suji.core.decimals import decimal_text
from suji.core.nicknames import NicknameError
from suji.play import games
from suji.play.games import GameError, Hand
from suji.rules.dice import DiceError, Roll
from suji.rules.language.reader import formula_field as typed_formula
from suji.web.advice import AdviceRefused, AlreadyAsking, advice_for, refusal_response
from suji.web.errors import render_error
from suji.web.extensions import db
from suji.web.furigana import with_ruby
from suji.web.games.common import (
    GAME_OVER,
    NO_GAME,
    STALE,
    bp,
    chosen_dice,
    current_player,
    face_choices,
    fail,
    formula_field,
    int_field,
    json_error,
    lang,
    rng,
)
from suji.web.games.moves import (
    answer_move,
    asking_to_give_up,
    change_hand,
    changed_dice,
    give_up_move,
    makeable,
    sure_of,
    unsure_value,
    value_of,
)
from suji.web.giving_up import sure_to_give_up
from suji.web.models import Answer, Game, Round, Seat
from suji.web.slots import client_key

DEFAULT_ROUNDS = 3
ADVICE_SHOWN = 4
MAX_ID = 2**63 - 1


@bp.post("/solo")
def new_solo() -> Response:
    """Start a solo game of N targets (5 unless chosen)."""
    try:
        count = games.check_count(request.form.get("targets"), 1, games.MAX_TARGETS, games.DEFAULT_TARGETS)
    except GameError as error:
        return fail(error.message(lang()), url_for("games.index"))
    player = current_player(create=True)
    assert player is not None
    game = Game(player=player, mode=games.SOLO, rounds_total=count)
    game.seats.append(Seat(seat=0, name=player.nickname or ""))
    _start_round(game, 0)
    db.session.add(game)
    db.session.commit()
    return redirect(url_for("games.play", game_id=game.id), code=303)


def _party_page(names: list[str]) -> str:
    return render_template(
        "games/party_new.html", max_players=games.MAX_PLAYERS, max_rounds=games.MAX_TARGETS,
        default_rounds=DEFAULT_ROUNDS, names=names,
    )  # fmt: skip


@bp.get("/party")
def party_form() -> str:
    """Names and the number of rounds for a pass-and-play game."""
    return _party_page([""] * games.MAX_PLAYERS)


@bp.post("/party")
def new_party() -> Response | tuple[str, int]:
    """Start a pass-and-play game for 2 to 6 named players."""
    names = [str(n)[:100] for n in request.form.getlist("name")][: games.MAX_PLAYERS + 4]
    try:
        players = games.clean_players(names)
        rounds = games.check_count(request.form.get("rounds"), 1, games.MAX_TARGETS, DEFAULT_ROUNDS)
    except (GameError, NicknameError) as error:
        flash(error.message(lang()), "error")
        return _party_page((names + [""] * games.MAX_PLAYERS)[: games.MAX_PLAYERS]), 400
    player = current_player(create=True)
    game = Game(player=player, mode=games.PARTY, rounds_total=rounds)
    for seat, name in enumerate(players):
        game.seats.append(Seat(seat=seat, name=name))
    _start_round(game, 0)
    db.session.add(game)
    db.session.commit()
    return redirect(url_for("games.play", game_id=game.id), code=303)


def _start_round(game: Game, number: int) -> None:
    """Roll the target dice of round `number` and deal the first player's dice."""
    dice_rng = rng()
    target = games.roll_target(dice_rng)
    round_ = Round(number=number, target_dice=games.dice_text(target))
    game.rounds.append(round_)
    _deal(round_, 0, dice_rng)
    game.current_round, game.current_seat = number, 0


def _deal(round_: Round, seat: int, dice_rng: random.Random) -> Answer:
    hand = games.deal(games.number_faces(round_.target_dice), dice_rng)
    answer = Answer(seat=seat)
    round_.answers.append(answer)  # (not answer.round = …: that would leave the answer out of the session)
    answer.store(hand)
    return answer


def _own_game(game_id: int) -> Game | None:
    """The game if it belongs to this browser's player (another player's game is as good as missing)."""
    if not 0 < game_id <= MAX_ID:
        return None  # beyond what the database's 64-bit ids hold (SQLite would raise OverflowError)
    player = current_player()
    game = db.session.get(Game, game_id)
    if game is None or player is None or game.player_id != player.id:
        return None
    return game


def _no_game() -> tuple[str, int] | Response:
    return render_error(404, "no_game", gettext("Game not found"), NO_GAME)


def current_answer(game: Game) -> Answer:
    """The hand whose turn it is (the last one played, once the game is over)."""
    return game.rounds[game.current_round].answers[game.current_seat]


@bp.get("/<int:game_id>")
def play(game_id: int) -> str | tuple[str, int] | Response:
    """The game as it is: the current hand to play, or the last answer with what comes next, or the end."""
    game = _own_game(game_id)
    if game is None:
        return _no_game()
    answer = current_answer(game)
    hand = answer.hand()
    seat_names = [s.name for s in game.seats]
    table = game.score_table()
    nxt = game.match().next_turn()
    formula = typed_formula(request.args.get("formula"))
    return render_template(
        "games/play.html", game=game, answer=answer, hand=hand, roll=hand.roll, seat_names=seat_names,
        table=table, running_total=sum(table.totals),
        next_seat=nxt[1] if nxt else None, next_is_new_round=bool(nxt and nxt[1] == 0),
        formula=formula, unsure=unsure_value(hand, formula), faces=face_choices(),
        asking_give_up=asking_to_give_up(hand), is_last=nxt is None, changed=changed_dice(),
        makeable=makeable(hand) if hand.is_open else True,
    )  # fmt: skip


def _game_action(
    game_id: int, action: Callable[[Hand], Hand], chosen: list[str] | None = None
) -> Response | tuple[str, int]:
    """Run `action(hand) -> Hand` on the game's current hand, if the request is for that hand and still fresh."""
    game = _own_game(game_id)
    if game is None:
        return _no_game()
    page = url_for("games.play", game_id=game.id)
    if game.finished:
        return fail(GAME_OVER, page)
    answer = current_answer(game)
    if (
        int_field(request.form.get("turn")) != answer.id
        or int_field(request.form.get("step")) != answer.version
    ):
        return fail(STALE, page)

    def after(hand: Hand) -> None:
        if not hand.is_open:
            game.store_match(game.match().answered(hand))

    return change_hand(
        answer, action, page, lambda formula, **more: url_for("games.play", game_id=game.id, formula=formula, **more),
        still_fresh=lambda: not game.finished, stale=lambda: STALE, after=after, chosen=chosen,
    )  # fmt: skip


@bp.post("/<int:game_id>/reroll")
def reroll(game_id: int) -> Response | tuple[str, int]:
    """Re-roll the chosen dice (1 point each)."""
    dice = chosen_dice()
    return _game_action(game_id, lambda hand: games.reroll(hand, dice, rng()), chosen=dice)


@bp.post("/<int:game_id>/set")
def set_face(game_id: int) -> Response | tuple[str, int]:
    """Set one die to a chosen face (5 points)."""
    die, face = request.form.get("die", "")[:10], request.form.get("face", "")[:10]
    return _game_action(game_id, lambda hand: games.set_face(hand, die, face), chosen=[])


@bp.post("/<int:game_id>/answer")
def answer(game_id: int) -> Response | tuple[str, int]:
    """Answer the target with a formula."""
    formula = formula_field()
    return _game_action(game_id, answer_move(formula, sure_of(formula)))


@bp.post("/<int:game_id>/giveup")
def give_up(game_id: int) -> Response | tuple[str, int]:
    """Give up this target (0 points)."""
    return _game_action(game_id, give_up_move(sure_to_give_up()))


@bp.post("/<int:game_id>/next")
def next_turn(game_id: int) -> Response | tuple[str, int]:
    """Go on to the next player's turn or the next target, once the current one is answered."""
    game = _own_game(game_id)
    if game is None:
        return _no_game()
    page = url_for("games.play", game_id=game.id)
    if game.finished:
        return fail(GAME_OVER, page)
    answer = current_answer(game)
    if int_field(request.form.get("turn")) != answer.id or answer.status == games.OPEN:
        return fail(STALE, page)
    match, new_round = game.match().advanced()  # a game whose last turn is answered is finished
    round_number, seat = match.turn
    if new_round:
        _start_round(game, round_number)
    else:
        _deal(game.rounds[round_number], seat, rng())
    game.store_match(match)
    try:
        db.session.commit()
    except (StaleDataError, IntegrityError):
        db.session.rollback()
        return fail(STALE, page)
    return redirect(page, code=303)


def _advice(roll: Roll, rerolled: int, set_faces: int) -> tuple:
    """Every choice of up to two dice with its odds: from the odds table, else from the live queue (cached)."""
    return tuple(advice_for(roll, rerolled, set_faces, current_app.config["ODDS_PATH"], client_key()).options)


@bp.get("/<int:game_id>/advice")
def advice(game_id: int) -> Response | tuple[str, int]:
    """The solver's advice for the current hand (JSON): the best choices with their odds and expected scores."""
    game = _own_game(game_id)
    if game is None:
        return json_error("no_game", NO_GAME, 404)
    answer = current_answer(game)
    if game.finished or answer.status != games.OPEN:
        return json_error(
            "game_over" if game.finished else "stale", GAME_OVER if game.finished else STALE, 409
        )
    hand = answer.hand()
    db.session.rollback()  # the advice takes a while: hold no database transaction meanwhile
    try:
        options = _advice(hand.roll, hand.rerolled, hand.set_faces)
    except DiceError:
        return json_error("stale", STALE, 409)
    except (AlreadyAsking, AdviceRefused) as refused:
        return refusal_response(refused, lang())
    shown = [o.to_dict(lang()) for o in options[:ADVICE_SHOWN]]
    for item, option in zip(shown, options, strict=False):
        item["dice_ids"] = [f"{d.group[0]}{d.index}" for d in option.dice]
        # For a child: 100% and 36 points rather than 100.0% and 36.00 (a tenth where there is one: 87.5%, 31.5),
        # with the page's ruby on the kanji (text_html), as the page's own text has.
        item["text"] = gettext(
            "%(choice)s: chance of a target %(percent)s%%, expected score %(expected)s",
            choice=item["label"], percent=decimal_text(option.probability * 100, 1),
            expected=decimal_text(option.expected_score, 1),
        )  # fmt: skip
        with_ruby(item, lang(), "text")
    return jsonify(options=shown)


@bp.post("/<int:game_id>/value")
def value(game_id: int) -> Response | tuple[Response, int]:
    """The value of a formula so far with the current hand's dice (for the live display)."""
    game = _own_game(game_id)
    if game is None:
        return json_error("no_game", NO_GAME, 404)
    return value_of(current_answer(game).hand())
