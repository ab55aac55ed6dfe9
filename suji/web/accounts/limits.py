"""The login limits, kept in the database so that they hold over every server process.

A wrong password counts once against the account (a hash of its login name, whether or not such an account
exists, so the limit says nothing about who has one) and once against the address it came from (a hash; the
address itself is not stored). Before a password is even looked at, LOGIN_WINDOW's count of either at its limit
refuses the login with a message that says how long to wait. New accounts count against the address too.
Rows older than the window are deleted as new ones are written.
"""

from __future__ import annotations

import hashlib
from datetime import datetime, timedelta

from sqlalchemy import delete, func, select

from suji.web.accounts.models import AuthFailure
from suji.web.extensions import db
from suji.web.models import utcnow

LOGIN_WINDOW = timedelta(minutes=15)
ACCOUNT_LIMIT = 10  # wrong passwords for one account in the window
ADDRESS_LIMIT = 30  # wrong logins from one address in the window (a school behind one address has many)
SIGNUP_WINDOW = timedelta(hours=1)
SIGNUP_LIMIT = 20  # new accounts from one address in an hour (a staff room signing up together)
ACCOUNT, ADDRESS, SIGNUP = "account", "address", "signup"


def key_of(scope: str, text: str | None) -> str:
    return hashlib.sha256(f"suji-login:{scope}:{text}".encode()).hexdigest()


def count(scope: str, key: str, window: timedelta, now: datetime | None = None) -> int:
    since = (now or utcnow()) - window
    return db.session.scalar(
        select(func.count()).where(AuthFailure.scope == scope, AuthFailure.key == key, AuthFailure.created_at >= since)
    ) or 0  # fmt: skip


def refused(email: str, address: str | None, now: datetime | None = None) -> str | None:
    """Why a login is refused before its password is checked ("too_many_account" / "too_many_address"), or None."""
    if count(ACCOUNT, key_of(ACCOUNT, email), LOGIN_WINDOW, now) >= ACCOUNT_LIMIT:
        return "too_many_account"
    if count(ADDRESS, key_of(ADDRESS, address), LOGIN_WINDOW, now) >= ADDRESS_LIMIT:
        return "too_many_address"
    return None


def count_failure(email: str, address: str | None, now: datetime | None = None) -> None:
    """A wrong password: one row against the account, one against the address (committed at once)."""
    now = now or utcnow()
    db.session.add(AuthFailure(scope=ACCOUNT, key=key_of(ACCOUNT, email), created_at=now))
    db.session.add(AuthFailure(scope=ADDRESS, key=key_of(ADDRESS, address), created_at=now))
    _forget_old(now)
    db.session.commit()


def signups_refused(address: str | None, now: datetime | None = None) -> bool:
    return count(SIGNUP, key_of(SIGNUP, address), SIGNUP_WINDOW, now) >= SIGNUP_LIMIT


def count_signup(address: str | None, now: datetime | None = None) -> None:
    """A new account from `address` (added to the caller's transaction)."""
    db.session.add(AuthFailure(scope=SIGNUP, key=key_of(SIGNUP, address), created_at=now or utcnow()))


def _forget_old(now: datetime) -> None:
    longest = max(LOGIN_WINDOW, SIGNUP_WINDOW)
    db.session.execute(delete(AuthFailure).where(AuthFailure.created_at < now - longest))


def forget_account(email: str) -> None:
    """An operator's reset: the account's wrong passwords no longer count (suji teacher reset-password)."""
    db.session.execute(
        delete(AuthFailure).where(AuthFailure.scope == ACCOUNT, AuthFailure.key == key_of(ACCOUNT, email))
    )
