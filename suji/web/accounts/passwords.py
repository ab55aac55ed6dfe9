"""Password hashes: argon2id from argon2-cffi (the reference implementation's bindings), nothing hand-made.

A stored hash is the PHC string argon2-cffi writes (`$argon2id$v=19$m=…,t=…,p=…$salt$hash`): it names its own
parameters, so a hash made with older or test parameters still verifies, and `needs_rehash` tells the login to
store a new one with today's. Production uses argon2-cffi's defaults (RFC 9106's second recommended profile:
64 MiB, 3 passes, 4 lanes); the tests set TEACHER_PASSWORD_COST = "test" for a cheap hasher, since hundreds of
logins at 64 MiB each would be most of their time.
"""

from __future__ import annotations

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

from suji.core.caching import bounded

_HASHERS = {
    "default": PasswordHasher(),
    "test": PasswordHasher(time_cost=1, memory_cost=64, parallelism=1),  # 64 KiB: for the tests only
}


def hasher(cost: str | None = None) -> PasswordHasher:
    return _HASHERS.get(cost or "default", _HASHERS["default"])


def hash_password(password: str, cost: str | None = None) -> str:
    """The stored form of a password (a new random salt each time)."""
    return hasher(cost).hash(password)


def verify(stored: str, password: str, cost: str | None = None) -> bool:
    """Whether `password` is the one `stored` was made from (a broken stored hash is a no)."""
    try:
        return hasher(cost).verify(stored, password)
    except (VerifyMismatchError, VerificationError, InvalidHashError):
        return False


def needs_rehash(stored: str, cost: str | None = None) -> bool:
    """Whether `stored` was made with other parameters than today's (the login then stores a new hash)."""
    try:
        return hasher(cost).check_needs_rehash(stored)
    except InvalidHashError:
        return True


# A hash to verify against when no account has the email typed, so that a login takes as long either way.
@bounded("dummy_password")
def dummy_hash(cost: str | None = None) -> str:
    return hash_password("no account has this password", cost)
