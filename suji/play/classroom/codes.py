"""Join codes and pupils' names: what a pupil types from the board, read the one way.

Codes are 6 characters from an alphabet without look-alikes (no 0/O, 1/I/L, 5/S, 2/Z, 8/B), so that a code read
from the board is typed right; 25 characters: 25⁶ ≈ 244 million codes. A code may be typed in any case, in
full width, with spaces or dashes between groups. Names follow the leaderboard's rules (suji.core.nicknames), and
two names that differ only in case or width are the same pupil.
"""

from __future__ import annotations

import secrets
import unicodedata
from collections.abc import Iterable

from suji.core.nicknames import NicknameError, clean_nickname
from suji.core.text import whole_number
from suji.play.classroom.errors import ClassError

CODE_ALPHABET = "ACDEFGHJKMNPQRTUVWXY34679"
CODE_LENGTH = 6
# What a pupil may type for a code: lower case, full-width letters and digits (NFKC folds them), spaces or dashes
# between groups.
MAX_CODE_INPUT = 40


def new_code(taken: Iterable[str] = ()) -> str:
    """A random join code not in `taken` (the caller's database also refuses duplicates)."""
    used = set(taken)
    while True:
        code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
        if code not in used:
            return code


def typed_code(text: object) -> str:
    """A code as typed, folded the one way: NFKC, full-width letters and digits to ASCII, upper case, the spaces
    and dashes between groups dropped (practice's sign-in codes are read the same way, suji.learner.signin)."""
    raw = unicodedata.normalize("NFKC", str(text or "")[:MAX_CODE_INPUT])
    return "".join(ch for ch in raw.upper() if ch not in " -_\u3000ー")


def clean_code(text: object) -> str:
    """A code as typed (any case, full-width, spaces or dashes) in its stored form, or ClassError."""
    code = typed_code(text)
    if not code:
        raise ClassError("no_code", "code")
    if len(code) != CODE_LENGTH or not code.isascii() or not code.isalnum():
        raise ClassError("bad_code", "code", length=CODE_LENGTH, example="KM47TQ")
    if any(ch not in CODE_ALPHABET for ch in code):  # the right shape, but no class ever gets such a code
        raise ClassError("unknown_code", "code", given=code)
    return code


def clean_name(name: object) -> str:
    """A pupil's nickname by the leaderboard's rules (suji.core.nicknames), or ClassError."""
    try:
        return clean_nickname(str(name or "")[:200])
    except NicknameError as error:
        raise ClassError(error.code, "nickname") from None


MAX_CLASS_NUMBER = 99  # 出席番号, as a roster's


def clean_class_number(text: object) -> int | None:
    """An optional class number (出席番号) as typed (full-width digits too): None when empty, or ClassError."""
    raw = str(text if text is not None else "").strip()[:20]
    if not raw:
        return None
    number = whole_number(raw, 1, MAX_CLASS_NUMBER)
    if number is None:
        raise ClassError("class_number", "class_number", high=MAX_CLASS_NUMBER)
    return number


def name_key(name: str) -> str:
    """What two names must not share in one class: "Ken" and "ken" are the same pupil to a teacher."""
    return unicodedata.normalize("NFKC", name).casefold()
