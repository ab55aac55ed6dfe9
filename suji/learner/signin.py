"""Sign-in codes: how a pupil carries a practice profile to another device without a name or an email.

A code is SIGNIN_LENGTH characters of class mode's alphabet, which has no look-alikes (no 0/O, 1/I/L, 2/Z,
5/S, 8/B: suji.play.classroom.codes.CODE_ALPHABET), printed in two groups of four (``KM47-TQXA``): 25⁸ ≈ 1.5·10¹¹
codes, and a client that types wrong codes is made to wait (suji.web.practice). Only the code's SHA-256 is
stored with the profile; the code itself lives on the pupil's card and in the devices' signed cookies.

Data flows: `new_code` → shown once per device, printed on a card (suji.worksheets.signin_card) → typed or
scanned on another device → `clean_code` (any case, full-width, spaces or dashes) → `code_hash` → the profile.
"""

from __future__ import annotations

import hashlib
import secrets

from suji.core.errors import SujiError
from suji.core.i18n import N_
from suji.play.classroom.codes import CODE_ALPHABET, typed_code

SIGNIN_LENGTH = 8

MESSAGES = {
    "no_code": N_("Type the code from your card."),
    "bad_code": N_("A sign-in code has %(length)s letters and digits, like %(example)s."),
    "unknown_code": N_("There is no practice with this code. Check the code on your card and try again."),
    "too_many": N_("Too many wrong codes from here. Wait ten minutes, then try again."),
}
EXAMPLE = "KM47-TQXA"


class SigninError(SujiError):
    """A sign-in code that cannot be used; `code` names why."""

    MESSAGES = MESSAGES


def new_code() -> str:
    """A fresh random code (stored form: no dash)."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(SIGNIN_LENGTH))


def printed(code: str) -> str:
    """The code as cards and pages print it, in two groups: KM47-TQXA."""
    half = SIGNIN_LENGTH // 2
    return f"{code[:half]}-{code[half:]}"


def clean_code(text: object) -> str:
    """A code as typed (any case, full-width, spaces or dashes) in its stored form, or SigninError."""
    code = typed_code(text)
    if not code:
        raise SigninError("no_code")
    if len(code) != SIGNIN_LENGTH or not code.isascii() or not code.isalnum():
        raise SigninError("bad_code", length=SIGNIN_LENGTH, example=EXAMPLE)
    if any(ch not in CODE_ALPHABET for ch in code):  # the right shape, but no profile ever gets such a code
        raise SigninError("unknown_code")
    return code


def code_hash(code: str) -> str:
    """What the profile stores of its code."""
    return hashlib.sha256(f"practice-signin:{code}".encode()).hexdigest()
