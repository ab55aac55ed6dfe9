"""What the game pages share: the blueprint, the player behind a request, form fields, messages, the day.

The player is known by a random token in a cookie (only its hash stored); a request that needs a player and has
none makes one and sets the cookie on its response (`after_this_request`), so nothing passes between handlers
through flask.g. The daily puzzle's day is the app's time zone's (suji.web.settings.local_zone).
"""

from __future__ import annotations

import random
import secrets
from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from flask import Blueprint, after_this_request, current_app, flash, redirect, request
from flask_babel import lazy_gettext
from sqlalchemy import select
from werkzeug.wrappers import Response

from suji.core.text import whole_number
from suji.play import games
from suji.rules.language.reader import formula_field as typed_formula
from suji.web.errors import error_response
from suji.web.extensions import db
from suji.web.i18n import select_locale
from suji.web.models import Player, ensure_schema, token_hash
from suji.web.settings import local_zone

bp = Blueprint("games", __name__, url_prefix="/games")

PLAYER_COOKIE = "suji_player"
PLAYER_COOKIE_MAX_AGE = 2 * 365 * 24 * 3600

STALE = lazy_gettext(
    "That was already done (the page may have been sent twice). Here is the game as it is now."
)
GAME_OVER = lazy_gettext("This game is over.")
NO_GAME = lazy_gettext("There is no such game on this device.")


@bp.before_request
def _schema() -> None:
    ensure_schema()


def lang() -> str:
    return select_locale()


def rng() -> random.Random:
    """The generator for games' dice: the system's, so nobody can predict a roll (tests may set their own)."""
    return current_app.config.get("SUJI_GAMES_RNG") or random.SystemRandom()


def current_player(create: bool = False) -> Player | None:
    """The player of this browser (from the cookie); with `create`, a new anonymous player if there is none,
    whose cookie the response sets (only when the request succeeds). Call it once per request."""
    token = request.cookies.get(PLAYER_COOKIE, "")
    player = None
    if 20 <= len(token) <= 100:
        player = db.session.scalar(select(Player).where(Player.token_hash == token_hash(token)))
    if player is None and create:
        token = secrets.token_urlsafe(32)
        player = Player(token_hash=token_hash(token))
        db.session.add(player)
        db.session.flush()

        @after_this_request
        def _player_cookie(response: Response) -> Response:
            if response.status_code < 400:
                response.set_cookie(
                    PLAYER_COOKIE, token, max_age=PLAYER_COOKIE_MAX_AGE, httponly=True, samesite="Lax",
                    secure=bool(current_app.config.get("SESSION_COOKIE_SECURE")) or request.is_secure,
                )  # fmt: skip
            return response

    return player


def fail(message: object, target: str) -> Response:
    """Show `message` on the page at `target` (after a redirect, so a reload repeats nothing)."""
    flash(str(message), "error")
    return redirect(target, code=303)


def json_error(code: str, message: object, status: int) -> Response:
    """The JSON error every endpoint answers with: {"error": {"code", "message"}} (suji.web.errors)."""
    return error_response({"code": code, "message": str(message)}, status)


def int_field(value: object) -> int | None:
    return whole_number(value, 0, 10**9 - 1, digits=9)


def formula_field() -> str:
    return typed_formula(request.form.get("formula"))


def chosen_dice() -> list[str]:
    """The dice a re-roll form names, by position ("n0", "o3"): never faces, which the server rolls."""
    return request.form.getlist("die")[:20]


def face_choices() -> dict:
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


def die_label(die_id: str, kind: str, face: object) -> str:
    """A die as named everywhere (suji.solver.advice.RolledDie.label): number die 2 (B) showing 4."""
    from suji.solver.advice import RolledDie

    group = "number" if die_id.startswith("n") else "operator"
    return RolledDie(group, int(die_id[1:]), kind, face).label(lang())  # type: ignore[arg-type]


# ---- the day ----


def daily_zone() -> ZoneInfo:
    """The daily puzzle's time zone: the app's (suji.web.settings.local_zone)."""
    return local_zone()


def today() -> date:
    """Today in the daily puzzle's time zone."""
    return datetime.now(daily_zone()).date()


def next_puzzle_at(day: date) -> datetime:
    """When the puzzle after `day` starts: midnight in the daily puzzle's time zone (an aware datetime)."""
    return datetime.combine(day + timedelta(days=1), time.min, tzinfo=daily_zone())


def local_day(moment: datetime) -> str:
    """The calendar day of a stored moment (UTC in the database) in the daily puzzle's time zone, as the
    daily puzzle counts days: one calendar for every date a player sees."""
    aware = moment if moment.tzinfo else moment.replace(tzinfo=ZoneInfo("UTC"))
    return aware.astimezone(daily_zone()).date().isoformat()


def local_day_words(moment: datetime) -> str:
    """The calendar day of a stored moment as a page says it (12月2日 / 2 Dec), never ISO."""
    from suji.core.dates import date_text

    return date_text(date.fromisoformat(local_day(moment)), lang())


def zone_words() -> str:
    """The daily puzzle's time zone as words (日本時間 / Japan Time), for a reader whose own day is another."""
    from babel.dates import get_timezone_location

    zone = daily_zone()
    if zone.key in ("UTC", "Etc/UTC"):
        return "UTC"
    return get_timezone_location(zone, locale="ja" if lang() == "ja" else "en_GB")


@bp.context_processor
def _die_names() -> dict:
    return {"die_name": die_label, "local_day": local_day, "local_day_words": local_day_words, "zone_words": zone_words}
