"""Teacher accounts, the pure part: what a login name and a password must be, and every refusal's message.

    typed email ──clean_email──▶ the stored login name (NFKC, trimmed, lower case)
    typed passwords ──check_new_password──▶ the password to hash, or AccountError

No Flask and no database here. The email address is only a login name: nothing is ever sent to it, so it is
checked for the shape of an address (one @, a dot in the domain, no spaces) and nothing more.
"""

from __future__ import annotations

import unicodedata

from suji.core.errors import SujiError
from suji.core.i18n import N_

MAX_EMAIL = 254  # RFC 5321's limit on an address
MIN_PASSWORD, MAX_PASSWORD = 10, 200

MESSAGES = {
    "email": N_(
        "Type your email address, like name@school.example. It is only your login name: nothing is sent to it."
    ),
    "email_taken": N_("There is already an account with this email address. Log in instead."),
    "password_short": N_(
        "A password needs at least %(low)s characters. A few words together are easy to remember."
    ),
    "password_long": N_("A password may have at most %(high)s characters."),
    "password_email": N_("The password must not be your email address."),
    "password_mismatch": N_("The two passwords are not the same. Type the new password twice."),
    "login": N_("The email address or the password is wrong."),
    "current_password": N_("Your current password is wrong."),
    "too_many_account": N_(
        "Too many wrong passwords for this account. Wait %(minutes)s minutes, then try again, or ask the "
        "person who runs this server to reset your password."
    ),
    "too_many_address": N_(
        "Too many wrong logins from this network. Wait %(minutes)s minutes, then try again."
    ),
    "too_many_signups": N_(
        "Too many new accounts from this network. Wait %(minutes)s minutes, then try again."
    ),
}


class AccountError(SujiError):
    """Something the account pages refuse; `field` names the form field it is about (if any)."""

    MESSAGES = MESSAGES

    def __init__(self, code: str, field: str | None = None, **params: object) -> None:
        super().__init__(code, **params)
        self.field = field


def clean_email(text: object) -> str:
    """An email address as typed, in its stored form (NFKC: full-width letters become ASCII; lower case), or
    AccountError("email")."""
    email = unicodedata.normalize("NFKC", str(text or "")[: MAX_EMAIL * 2]).strip().lower()
    local, at, domain = email.rpartition("@")
    if (
        not at or not local or "@" in local or len(email) > MAX_EMAIL or "." not in domain.strip(".")
        or any(ch.isspace() or unicodedata.category(ch)[0] == "C" for ch in email)
        or domain.startswith(".") or domain.endswith(".") or ".." in domain
    ):  # fmt: skip
        raise AccountError("email", "email")
    return email


def check_new_password(password: object, again: object, email: str = "") -> str:
    """A new password as typed twice: long enough, not too long, the same both times, not the login name."""
    text = str(password or "")
    if len(text) > MAX_PASSWORD:
        raise AccountError("password_long", "password", high=MAX_PASSWORD)
    if len(text) < MIN_PASSWORD:
        raise AccountError("password_short", "password", low=MIN_PASSWORD)
    if email and text.strip().lower() == email:
        raise AccountError("password_email", "password")
    if text != str(again or ""):
        raise AccountError("password_mismatch", "password_again")
    return text
