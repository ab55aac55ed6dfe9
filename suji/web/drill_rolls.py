"""The rolls of drill pages: each level's name, and the signed token a page carries to name its roll.

A drill roll is rebuilt from (level, seed) by the certified-problem chooser, so the browser never chooses dice;
the token is signed with the app's secret, so a second tab or a forged token never makes the API check, value
or hint a roll its page does not show. The drill blueprint and the JSON API both read rolls through here, and
the hints a page showed for its roll are kept here too (the API shows them, the drill's result counts them).
"""

from __future__ import annotations

from flask import current_app, session
from flask_babel import lazy_gettext
from itsdangerous import BadSignature, URLSafeSerializer

from suji.core.caching import bounded
from suji.rules.dice import Roll
from suji.solver.problems import LEVEL_NAMES, LEVELS, certified_roll

# Each drill level's name, as the pages show it (the levels themselves: suji.solver.search.LEVELS).
LEVEL_TITLES: dict[int, object] = {level: lazy_gettext(LEVEL_NAMES[level]) for level in LEVELS}


@bounded("drill_roll")
def roll_at(level: int, seed: int) -> Roll:
    """The drill roll at `level` from `seed`, certified solvable by the solver at that level."""
    return certified_roll(level, seed).roll


def _serializer() -> URLSafeSerializer:
    return URLSafeSerializer(current_app.config["SECRET_KEY"], salt="drill-roll")


def roll_token(level: int, seed: int) -> str:
    """The signed name of one drill roll, for the page that shows it."""
    return _serializer().dumps([level, seed])


def roll_of_token(token: object) -> tuple[int, int] | None:
    """(level, seed) of a signed roll token, or None when it is missing or forged."""
    if not isinstance(token, str) or len(token) > 200:
        return None
    try:
        level, seed = _serializer().loads(token)
    except (BadSignature, ValueError, TypeError):
        return None
    if level not in LEVELS or isinstance(seed, bool) or not isinstance(seed, int):
        return None
    return level, seed


def drill_roll(token: object) -> Roll | None:
    """The roll a drill page names by its token, or None."""
    named = roll_of_token(token)
    return roll_at(*named) if named else None


def drill_level_roll(token: object) -> tuple[Roll, int] | None:
    """The roll a drill page names by its token with the page's level, or None."""
    named = roll_of_token(token)
    return (roll_at(*named), named[0]) if named else None


HINTS_KEY = "drill_hints"  # level (as text) -> [seed, hints shown]: the hints the current roll's page asked for


def note_hint(level: int, seed: int, step: int) -> None:
    """Remember that hint number `step` (0 first) was shown for the drill roll (level, seed)."""
    kept = session.get(HINTS_KEY)
    kept = dict(kept) if isinstance(kept, dict) else {}
    kept[str(level)] = [seed, max(hints_shown(level, seed), step + 1)]
    session[HINTS_KEY] = kept


def hints_shown(level: int, seed: int) -> int:
    """How many hints were shown for the drill roll (level, seed): 0 for a roll whose page asked for none."""
    kept = session.get(HINTS_KEY)
    found = kept.get(str(level)) if isinstance(kept, dict) else None
    if not isinstance(found, list) or len(found) != 2 or found[0] != seed or isinstance(found[1], bool):
        return 0
    return found[1] if isinstance(found[1], int) and 0 <= found[1] <= 10 else 0
