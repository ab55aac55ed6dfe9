"""Game pages: solo games, the daily puzzle and pass-and-play, kept in the database (suji.web.models).

The rules are in suji.play.games; this blueprint stores hands, checks who may act, and turns every bad request into a
message on the page. The server rolls every die: forms name dice by position only ("n0", "o3"), never faces
to trust. Each action form carries the hand's version ("step"); an old or repeated request no longer matches
and changes nothing, and two requests at once cannot both succeed (the rows' version counters).
"""

from __future__ import annotations

import hashlib
import random
import secrets
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from flask import (
    Blueprint,
    current_app,
    flash,
    g,
    jsonify,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from flask_babel import gettext, lazy_gettext
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm.exc import StaleDataError
from werkzeug.wrappers import Response

from suji.core.nicknames import NicknameError, clean_nickname
from suji.play import games
from suji.play.games import GameError, Hand
from suji.rules.dice import DiceError, Roll
from suji.web.errors import error_response, render_error
from suji.web.extensions import db
from suji.web.i18n import select_locale
from suji.web.jsonbody import json_body
from suji.web.models import Answer, DailyEntry, Game, Player, Round, Seat, ensure_schema, token_hash
from suji.web.settings import local_zone
from suji.web.solver_pool import AlreadyAsking, advice_for, client_key

bp = Blueprint("games", __name__, url_prefix="/games")

PLAYER_COOKIE = "suji_player"
PLAYER_COOKIE_MAX_AGE = 2 * 365 * 24 * 3600

MAX_FORMULA = 200
DEFAULT_ROUNDS = 3
ADVICE_SHOWN = 4
LEADERBOARD_SIZE = 50

STALE = lazy_gettext(
    "That was already done (the page may have been sent twice). Here is the game as it is now."
)
GAME_OVER = lazy_gettext("This game is over.")
ALREADY_ASKING = lazy_gettext(
    "Your last question to the solver is still being worked out. Wait for its answer."
)
NO_GAME = lazy_gettext("There is no such game on this device.")
OLD_DAY = lazy_gettext("That puzzle is from another day. Here is today's puzzle.")
ALREADY_DAILY = lazy_gettext("You have already answered today's puzzle. Come back tomorrow!")
NICKNAME_SAVED = lazy_gettext("Your name is saved.")
HISTORY_DELETED = lazy_gettext("Your history is deleted.")
NOTHING_TO_DELETE = lazy_gettext("There is no history to delete.")


# ---- the player behind the request ----


def _rng() -> random.Random:
    """The generator for games' dice: the system's, so nobody can predict a roll (tests may set their own)."""
    return current_app.config.get("SUJI_GAMES_RNG") or random.SystemRandom()


def current_player(create: bool = False) -> Player | None:
    """The player of this browser (from the cookie); with `create`, a new anonymous player if there is none."""
    if "suji_player" in g:
        return g.suji_player
    token = request.cookies.get(PLAYER_COOKIE, "")
    player = None
    if 20 <= len(token) <= 100:
        player = db.session.scalar(select(Player).where(Player.token_hash == token_hash(token)))
    if player is None and create:
        token = secrets.token_urlsafe(32)
        player = Player(token_hash=token_hash(token))
        db.session.add(player)
        db.session.flush()
        g.suji_new_token = token
    if player is not None or create:
        g.suji_player = player
    return player


@bp.before_request
def _schema() -> None:
    ensure_schema()


@bp.after_request
def _player_cookie(response: Response) -> Response:
    token = g.pop("suji_new_token", None)
    if token and response.status_code < 400:
        response.set_cookie(
            PLAYER_COOKIE, token, max_age=PLAYER_COOKIE_MAX_AGE, httponly=True, samesite="Lax",
            secure=bool(current_app.config.get("SESSION_COOKIE_SECURE")) or request.is_secure,
        )  # fmt: skip
    return response


@bp.teardown_request
def _rollback(error: BaseException | None) -> None:
    if error is not None:
        db.session.rollback()


def lang() -> str:
    return select_locale()


def _fail(message: object, target: str) -> Response:
    """Show `message` on the page at `target` (after a redirect, so a reload repeats nothing)."""
    flash(str(message), "error")
    return redirect(target, code=303)


def _int(value: object) -> int | None:
    text = str(value or "").strip()
    return int(text) if text.isascii() and text.isdigit() and len(text) < 10 else None


# ---- the index: modes, history, nickname ----


@bp.get("/")
def index() -> str:
    """The three ways to play, the player's nickname and their best and recent games."""
    player = current_player()
    best, recent = [], []
    if player is not None:
        best = db.session.scalars(
            select(Game).where(Game.player_id == player.id, Game.mode == games.SOLO, Game.status == games.FINISHED)
            .order_by(Game.total.desc(), Game.finished_at).limit(5)
        ).all()  # fmt: skip
        recent = db.session.scalars(
            select(Game)
            .where(Game.player_id == player.id)
            .order_by(Game.created_at.desc(), Game.id.desc())
            .limit(10)
        ).all()
    return render_template(
        "games/index.html", player=player, best=best, recent=recent, default_targets=games.DEFAULT_TARGETS,
        max_targets=games.MAX_TARGETS, summary=game_summary,
    )  # fmt: skip


@bp.post("/nickname")
def nickname() -> Response:
    """Set or change the player's nickname (shown on the daily leaderboard)."""
    back = _safe_back(request.form.get("next", ""))
    try:
        name = clean_nickname(request.form.get("nickname", ""))
    except NicknameError as error:
        return _fail(error.message(lang()), back)
    player = current_player(create=True)
    assert player is not None
    player.nickname = name
    db.session.commit()
    flash(str(NICKNAME_SAVED), "info")
    return redirect(back, code=303)


def _safe_back(target: str) -> str:
    """Only pages of this blueprint are places to go back to."""
    prefix = url_for("games.index")
    return target if target.startswith(prefix) and "//" not in target and "\\" not in target else prefix


@bp.get("/history/delete")
def delete_confirm() -> str:
    """Ask before deleting the player's history."""
    return render_template("games/delete.html", player=current_player())


@bp.post("/history/delete")
def delete_history() -> Response:
    """Delete the player, their games, daily answers and nickname, and forget the cookie."""
    player = current_player()
    if player is None:
        flash(str(NOTHING_TO_DELETE), "info")
    else:
        db.session.delete(player)
        db.session.commit()
        flash(str(HISTORY_DELETED), "info")
    response = redirect(url_for("games.index"), code=303)
    response.delete_cookie(PLAYER_COOKIE, httponly=True, samesite="Lax")
    return response


# ---- solo and pass-and-play games ----


@bp.post("/solo")
def new_solo() -> Response:
    """Start a solo game of N targets (5 unless chosen)."""
    try:
        count = games.check_count(request.form.get("targets"), 1, games.MAX_TARGETS, games.DEFAULT_TARGETS)
    except GameError as error:
        return _fail(error.message(lang()), url_for("games.index"))
    player = current_player(create=True)
    assert player is not None
    game = Game(player=player, mode=games.SOLO, rounds_total=count)
    game.seats.append(Seat(seat=0, name=player.nickname or ""))
    _start_round(game, 0)
    db.session.add(game)
    db.session.commit()
    return redirect(url_for("games.play", game_id=game.id), code=303)


@bp.get("/party")
def party_form() -> str:
    """Names and the number of rounds for a pass-and-play game."""
    return render_template(
        "games/party_new.html", max_players=games.MAX_PLAYERS, max_rounds=games.MAX_TARGETS,
        default_rounds=DEFAULT_ROUNDS, names=[""] * games.MAX_PLAYERS,
    )  # fmt: skip


@bp.post("/party")
def new_party() -> Response | tuple[str, int]:
    """Start a pass-and-play game for 2 to 6 named players."""
    names = [str(n)[:100] for n in request.form.getlist("name")][: games.MAX_PLAYERS + 4]
    try:
        players = games.clean_players(names)
        rounds = games.check_count(request.form.get("rounds"), 1, games.MAX_TARGETS, DEFAULT_ROUNDS)
    except (GameError, NicknameError) as error:
        flash(error.message(lang()), "error")
        shown = (names + [""] * games.MAX_PLAYERS)[: games.MAX_PLAYERS]
        page = render_template(
            "games/party_new.html", max_players=games.MAX_PLAYERS, max_rounds=games.MAX_TARGETS,
            default_rounds=DEFAULT_ROUNDS, names=shown,
        )  # fmt: skip
        return page, 400
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
    rng = _rng()
    target = games.roll_target(rng)
    round_ = Round(number=number, target_dice=games.dice_text(target))
    game.rounds.append(round_)
    _deal(round_, 0, rng)
    game.current_round, game.current_seat = number, 0


def _deal(round_: Round, seat: int, rng: random.Random) -> Answer:
    hand = games.deal(games.number_faces(round_.target_dice), rng)
    answer = Answer(seat=seat)
    round_.answers.append(answer)  # (not answer.round = …: that would leave the answer out of the session)
    answer.store(hand)
    return answer


MAX_ID = 2**63 - 1


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


def game_summary(game: Game) -> dict:
    """A line of history: the solo total and best, or the pass-and-play winners."""
    if game.mode == games.SOLO:
        return {"total": game.total, "best_total": game.best_total}
    table = game.score_table()
    return {"winners": table.winner_names, "top": max(table.totals, default=0)}


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
    return render_template(
        "games/play.html", game=game, answer=answer, hand=hand, roll=hand.roll, seat_names=seat_names,
        table=table, running_total=sum(table.totals),
        next_seat=nxt[1] if nxt else None, next_is_new_round=bool(nxt and nxt[1] == 0),
        formula=request.args.get("formula", "")[:MAX_FORMULA], faces=_face_choices(),
        is_last=nxt is None, changed=_changed_dice(),
        makeable=_makeable(hand) if hand.is_open else True,
    )  # fmt: skip


def _game_action(game_id: int, action: Callable[[Hand], Hand]) -> Response | tuple[str, int]:
    """Run `action(hand) -> Hand` on the game's current hand, if the request is for that hand and still fresh."""
    game = _own_game(game_id)
    if game is None:
        return _no_game()
    page = url_for("games.play", game_id=game.id)
    if game.finished:
        return _fail(GAME_OVER, page)
    answer = current_answer(game)
    if _int(request.form.get("turn")) != answer.id or _int(request.form.get("step")) != answer.version:
        return _fail(STALE, page)

    def after(hand: Hand) -> None:
        if not hand.is_open:
            game.store_match(game.match().answered(hand))

    return _change_hand(
        answer, action, page, lambda formula: url_for("games.play", game_id=game.id, formula=formula),
        still_fresh=lambda: not game.finished, stale=lambda: STALE, after=after,
    )  # fmt: skip


def _change_hand(
    row: Answer | DailyEntry,
    action: Callable[[Hand], Hand],
    page: str,
    page_with_formula: Callable[[str], str],
    still_fresh: Callable[[], bool],
    stale: Callable[[], object],
    after: Callable[[Hand], None] | None = None,
) -> Response:
    """The one way a move changes a stored hand (a game's turn or a daily entry), safe against races.

    The hand is read at the version the form was made for; the transaction ends while the move runs (the
    solver may take a moment), and the version is checked again before the new hand is stored: of two
    requests at once, or a form sent twice, only one changes anything; the other hears `stale()`.
    """
    step = row.version
    hand = row.hand()
    db.session.commit()  # let other requests write while the move runs; the version is checked again below
    try:
        hand = action(hand)
    except GameError as error:
        if error.code == "invalid_formula":  # handed back to be fixed, with the formula still in its box
            page = page_with_formula(_formula())
        return _fail(error.message(lang()), page)
    if row.version != step or not still_fresh():
        db.session.rollback()
        return _fail(stale(), page)
    row.store(hand)
    if after is not None:
        after(hand)
    try:
        db.session.commit()
    except (StaleDataError, IntegrityError):
        db.session.rollback()
        return _fail(STALE, page)
    _announce_changes()
    return redirect(page, code=303)


# ---- what a re-roll or a set face changed: said once, and the dice marked on the next page ----

CHANGED_KEY = "changed_dice"


def _noted(before: Hand, after: Hand) -> Hand:
    """Keep (for after the commit) which dice a re-roll or a set face changed: a die re-rolled to the same face
    counts, the player chose it."""
    old = {die_id: (kind, face) for die_id, kind, face in before.dice()}
    spent = after.rerolled - before.rerolled
    changed = [
        (die_id, kind, old[die_id][1], face)
        for die_id, kind, face in after.dice()
        if face != old[die_id][1] or die_id in g.get("chosen_dice", ())
    ]
    g.dice_changes = changed if (changed or spent) else None
    return after


def _announce_changes() -> None:
    changes = g.get("dice_changes")
    if not changes:
        return
    parts = [
        gettext("%(die)s → now %(face)s", die=_die_label(die_id, kind, old), face=str(new))
        for die_id, kind, old, new in changes
    ]
    separator = "、" if lang() == "ja" else "; "
    flash(gettext("Changed: %(changes)s.", changes=separator.join(parts)), "info")
    session[CHANGED_KEY] = [die_id for die_id, _, _, _ in changes]


@bp.context_processor
def _die_names() -> dict:
    return {"die_name": _die_label, "local_day": local_day}


def local_day(moment: datetime) -> str:
    """The calendar day of a stored moment (UTC in the database) in the daily puzzle's time zone, as the
    daily puzzle counts days: one calendar for every date a player sees."""
    aware = moment if moment.tzinfo else moment.replace(tzinfo=ZoneInfo("UTC"))
    return aware.astimezone(daily_zone()).date().isoformat()


def _makeable(hand: Hand) -> bool:
    """Whether the hand's dice can make any of its targets (the odds table, else the solver, knows)."""
    from suji.solver.odds import best_by_target, table_or_none

    best, _ = best_by_target(
        hand.number_dice, hand.operator_dice, targets=hand.roll.targets,
        table=table_or_none(current_app.config["ODDS_PATH"]),
    )  # fmt: skip
    return bool(best)


def _changed_dice() -> list[str]:
    """The dice the last re-roll or set face changed (marked once on the page that follows it)."""
    found = session.pop(CHANGED_KEY, None)
    return [d for d in found if isinstance(d, str)][:20] if isinstance(found, list) else []


def _die_label(die_id: str, kind: str, face: object) -> str:
    """A die as named everywhere (suji.solver.advice.RolledDie.label): number die 2 (B) showing 4."""
    from suji.solver.advice import RolledDie

    group = "number" if die_id.startswith("n") else "operator"
    return RolledDie(group, int(die_id[1:]), kind, face).label(lang())  # type: ignore[arg-type]


def _formula() -> str:
    return request.form.get("formula", "")[:MAX_FORMULA]


@bp.post("/<int:game_id>/reroll")
def reroll(game_id: int) -> Response | tuple[str, int]:
    """Re-roll the chosen dice (1 point each)."""
    dice = request.form.getlist("die")[:20]
    g.chosen_dice = set(dice)
    return _game_action(game_id, lambda hand: _noted(hand, games.reroll(hand, dice, _rng())))


@bp.post("/<int:game_id>/set")
def set_face(game_id: int) -> Response | tuple[str, int]:
    """Set one die to a chosen face (5 points)."""
    die, face = request.form.get("die", "")[:10], request.form.get("face", "")[:10]
    return _game_action(game_id, lambda hand: _noted(hand, games.set_face(hand, die, face)))


@bp.post("/<int:game_id>/answer")
def answer(game_id: int) -> Response | tuple[str, int]:
    """Answer the target with a formula."""
    formula = _formula()
    return _game_action(game_id, lambda hand: games.answer(hand, formula)[0])


@bp.post("/<int:game_id>/giveup")
def give_up(game_id: int) -> Response | tuple[str, int]:
    """Give up this target (0 points)."""
    return _game_action(game_id, games.give_up)


@bp.post("/<int:game_id>/next")
def next_turn(game_id: int) -> Response | tuple[str, int]:
    """Go on to the next player's turn or the next target, once the current one is answered."""
    game = _own_game(game_id)
    if game is None:
        return _no_game()
    page = url_for("games.play", game_id=game.id)
    if game.finished:
        return _fail(GAME_OVER, page)
    answer = current_answer(game)
    if _int(request.form.get("turn")) != answer.id or answer.status == games.OPEN:
        return _fail(STALE, page)
    match, new_round = game.match().advanced()  # a game whose last turn is answered is finished
    round_number, seat = match.turn
    if new_round:
        _start_round(game, round_number)
    else:
        _deal(game.rounds[round_number], seat, _rng())
    game.store_match(match)
    try:
        db.session.commit()
    except (StaleDataError, IntegrityError):
        db.session.rollback()
        return _fail(STALE, page)
    return redirect(page, code=303)


def _json_error(code: str, message: object, status: int) -> Response:
    """The JSON error every endpoint answers with: {"error": {"code", "message"}} (suji.web.errors)."""
    return error_response({"code": code, "message": str(message)}, status)


def _advice(roll: Roll, rerolled: int, set_faces: int) -> tuple:
    """Every choice of up to two dice with its odds: from the odds table, else solved live in turn (cached)."""
    return tuple(advice_for(roll, rerolled, set_faces, current_app.config["ODDS_PATH"], client_key()).options)


@bp.get("/<int:game_id>/advice")
def advice(game_id: int) -> Response | tuple[str, int]:
    """The solver's advice for the current hand (JSON): the best choices with their odds and expected scores."""
    game = _own_game(game_id)
    if game is None:
        return _json_error("no_game", NO_GAME, 404)
    answer = current_answer(game)
    if game.finished or answer.status != games.OPEN:
        return _json_error(
            "game_over" if game.finished else "stale", GAME_OVER if game.finished else STALE, 409
        )
    hand = answer.hand()
    db.session.rollback()  # the advice takes a while: hold no database transaction meanwhile
    try:
        options = _advice(hand.roll, hand.rerolled, hand.set_faces)
    except DiceError:
        return _json_error("stale", STALE, 409)
    except AlreadyAsking:
        return _json_error("already_asking", ALREADY_ASKING, 429)
    shown = [o.to_dict(lang()) for o in options[:ADVICE_SHOWN]]
    for item, option in zip(shown, options, strict=False):
        item["dice_ids"] = [f"{d.group[0]}{d.index}" for d in option.dice]
        item["text"] = gettext(
            "%(choice)s: chance of a target %(percent)s%%, expected score %(expected)s",
            choice=item["label"], percent=item["probability_percent"], expected=item["expected_score_decimal"],
        )  # fmt: skip
    return jsonify(options=shown)


def _value_of(hand: Hand) -> Response:
    """The value of the formula so far against the server's dice, as drill.js shows it."""
    from suji.rules.scoring import value_so_far

    data = json_body()
    formula = data.get("formula") if isinstance(data, dict) else None
    if not isinstance(formula, str):
        return jsonify(valid=False, value=None, display=None, target=None, error=None, unfinished=False)
    return jsonify(value_so_far(formula[:MAX_FORMULA], hand.roll, lang()))


@bp.post("/<int:game_id>/value")
def value(game_id: int) -> Response | tuple[Response, int]:
    """The value of a formula so far with the current hand's dice (for the live display)."""
    game = _own_game(game_id)
    if game is None:
        return _json_error("no_game", NO_GAME, 404)
    return _value_of(current_answer(game).hand())


@bp.post("/daily/value")
def daily_value() -> Response:
    """The value of a formula so far with the player's daily dice."""
    day = today()
    entry = _daily_entry(current_player(), day)
    return _value_of(entry.hand() if entry else games.daily_hand(day))


def _face_choices() -> dict:
    """Every face a die can be set to, for the set-a-face form (the server checks the die has it)."""
    return {
        "number": sorted({f for k in ("A", "B", "C") for f in games.NUMBER_DICE_FACES[k]}),
        "operator": list(dict.fromkeys(games.OPERATOR_DICE_FACES["A"] + games.OPERATOR_DICE_FACES["B"])),
        "by_die": {die: [str(f) for f in games.die_faces(die)] for die in _all_dice()},
    }


def _all_dice() -> list[str]:
    return [f"n{i}" for i in range(len(games.NUMBER_KINDS))] + [
        f"o{i}" for i in range(len(games.OPERATOR_KINDS))
    ]


# ---- the daily puzzle ----


def daily_zone() -> ZoneInfo:
    """The daily puzzle's time zone: the app's (suji.web.settings.local_zone)."""
    return local_zone()


def today() -> date:
    """Today in the daily puzzle's time zone."""
    return datetime.now(daily_zone()).date()


def next_puzzle_at(day: date) -> datetime:
    """When the puzzle after `day` starts: midnight in the daily puzzle's time zone (an aware datetime)."""
    return datetime.combine(day + timedelta(days=1), time.min, tzinfo=daily_zone())


def _daily_entry(player: Player | None, day: date) -> DailyEntry | None:
    if player is None:
        return None
    return db.session.scalar(
        select(DailyEntry).where(DailyEntry.day == day, DailyEntry.player_id == player.id)
    )


@dataclass(frozen=True)
class Place:
    """One line of the daily ranking: the rank (equal scores share it), the entry, the name as shown."""

    rank: int
    entry: DailyEntry
    name: str | None
    tag: str = ""  # tells apart players who chose the same nickname: a short mark from the player's id


def player_tag(player_id: int) -> str:
    """A short, stable mark for a player (not their id, which would tell how many play): e.g. "#K3"."""
    digest = hashlib.sha256(f"suji-player:{player_id}".encode()).digest()
    alphabet = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no look-alikes
    return "#" + "".join(alphabet[b % len(alphabet)] for b in digest[:3])


def leaderboard(day: date) -> list[Place]:
    """The day's answers, best first (earlier answers first among equal scores, which share a rank)."""
    rows = db.session.execute(
        select(DailyEntry, Player.nickname).join(Player, Player.id == DailyEntry.player_id)
        .where(DailyEntry.day == day, DailyEntry.status != games.OPEN)
        .order_by(DailyEntry.score.desc(), DailyEntry.answered_at, DailyEntry.id).limit(LEADERBOARD_SIZE)
    ).all()  # fmt: skip
    names = Counter(name for _, name in rows if name)
    places: list[Place] = []
    for position, (entry, name) in enumerate(rows, 1):
        # Standard competition ranking: 1, 1, 3 for scores 30, 30, 20.
        rank = places[-1].rank if places and places[-1].entry.score == entry.score else position
        tag = player_tag(entry.player_id) if name and names[name] > 1 else ""
        places.append(Place(rank, entry, name, tag))
    return places


@bp.get("/daily")
def daily() -> str:
    """Today's puzzle (the same dice for everyone), the player's answer once given, and the leaderboard."""
    day = today()
    player = current_player()
    entry = _daily_entry(player, day)
    hand = entry.hand() if entry else games.daily_hand(day)
    answered = db.session.scalar(
        select(db.func.count())
        .select_from(DailyEntry)
        .where(DailyEntry.day == day, DailyEntry.status != games.OPEN)
    )
    return render_template(
        "games/daily.html", day=day, player=player, entry=entry, hand=hand, roll=hand.roll,
        step=entry.version if entry else 0, board=leaderboard(day), answered=answered,
        next_at=next_puzzle_at(day), changed=_changed_dice(),
        formula=request.args.get("formula", "")[:MAX_FORMULA], faces=_face_choices(),
    )  # fmt: skip


def _daily_action(action) -> Response:  # type: ignore[no-untyped-def]
    """Run `action(hand, day) -> Hand` on the player's daily hand (made on the first action)."""
    page = url_for("games.daily")
    day = today()
    if request.form.get("day") != day.isoformat():
        return _fail(OLD_DAY, page)
    step = _int(request.form.get("step"))
    player = current_player(create=True)
    assert player is not None
    entry = _daily_entry(player, day)
    if entry is None:
        if step != 0:
            return _fail(STALE, page)
        hand = games.daily_hand(day)
        entry = DailyEntry(day=day, player_id=player.id, target_dice=games.dice_text(hand.target_dice))
        entry.store(hand)
        db.session.add(entry)
        try:
            db.session.flush()
        except IntegrityError:  # the same player's other request made it first
            db.session.rollback()
            return _fail(STALE, page)
        step = entry.version
    elif step != entry.version:
        return _fail(ALREADY_DAILY if entry.status != games.OPEN else STALE, page)
    if entry.status != games.OPEN:
        return _fail(ALREADY_DAILY, page)
    return _change_hand(
        entry, lambda hand: action(hand, day), page, lambda formula: url_for("games.daily", formula=formula),
        still_fresh=lambda: True, stale=lambda: ALREADY_DAILY if entry.status != games.OPEN else STALE,
    )  # fmt: skip


@bp.post("/daily/reroll")
def daily_reroll() -> Response:
    """Re-roll chosen dice of the daily puzzle: seeded, so the same choice gives everyone the same dice."""
    dice = request.form.getlist("die")[:20]
    g.chosen_dice = set(dice)
    return _daily_action(lambda hand, day: _noted(hand, games.daily_reroll(hand, day, dice)))


@bp.post("/daily/set")
def daily_set() -> Response:
    """Set a die of the daily puzzle to a chosen face (5 points)."""
    die, face = request.form.get("die", "")[:10], request.form.get("face", "")[:10]
    return _daily_action(lambda hand, day: _noted(hand, games.set_face(hand, die, face)))


@bp.post("/daily/answer")
def daily_answer() -> Response:
    """Answer the daily puzzle (once a day)."""
    formula = _formula()
    return _daily_action(lambda hand, day: games.answer(hand, formula)[0])


@bp.post("/daily/giveup")
def daily_give_up() -> Response:
    """Give up the daily puzzle (0 points, and it counts as today's answer)."""
    return _daily_action(lambda hand, day: games.give_up(hand))
