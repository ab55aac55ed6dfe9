"""Nicknames and player names: one rule for the daily leaderboard, pass-and-play tables and class mode.

A name is what a child types on a shared screen, so it is checked to be short, readable and safe to show:
letters of any script, digits, spaces, - and _, nothing invisible. It is a rule of the app, not of the game, so
it lives below every feature that takes a name.
"""

from __future__ import annotations

import unicodedata

from suji.core.errors import SujiError
from suji.core.i18n import N_

NICKNAME_MAX = 20


class NicknameError(SujiError):
    """A name that cannot be used; `code` says why."""

    MESSAGES = {
        "nickname_length": N_("A name must be 1 to 20 characters long."),
        "nickname_chars": N_("A name may use only letters, digits, kana, kanji, spaces, - and _."),
    }


_NAME_PUNCTUATION = {" ", "-", "_"}


# Letters by category that show nothing (Hangul fillers, the Braille blank is not a letter anyway): a name made
# of them would be a blank line on the leaderboard.
_INVISIBLE_LETTERS = frozenset("\u115f\u1160\u3164\uffa0")


def clean_nickname(name: object) -> str:
    """A nickname or player name, checked: 1–20 characters of letters, digits, kana, kanji, space, - and _.

    The text is NFC-normalised and trimmed; runs of spaces become one. Anything else raises NicknameError.
    """
    text = " ".join(unicodedata.normalize("NFC", str(name or "")).split())  # also turns U+3000 into a space
    if not 1 <= len(text) <= NICKNAME_MAX:
        raise NicknameError("nickname_length")
    for char in text:
        category = unicodedata.category(char)
        if char in _INVISIBLE_LETTERS or not (
            category.startswith("L") or category == "Nd" or char in _NAME_PUNCTUATION
        ):
            raise NicknameError("nickname_chars")
    return text
