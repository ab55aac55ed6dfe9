"""How a pupil of a class signs in on any device: the card's code, its hash, the pupil's cookie, the rate limit.

    a new card ──new_code──▶ the code (printed on the card, never stored) ──code_hash──▶ ClassPupil.signin_hash
    a code typed or scanned ──clean_code──▶ code_hash ──▶ the pupil ──▶ the pupil's cookie on this device
    the cookie (signed: the pupil's public id, the start of their code's hash) ──current_pupil──▶ ClassPupil

A code is 8 characters of class mode's alphabet without look-alikes (suji.learner.signin, as practice's cards;
printed KM47-TQXA): no email, no password. Only its SHA-256 is stored. A new card makes a new code, and every
device signed in with the old one is signed out at its next request (the cookie names the hash it was made
with). Wrong codes count against the client's address in the database (the accounts' auth_failures table,
scope "pupil"), so the limit holds over every server process. Signing in also puts the pupil's practice profile
on the device: suji.web.practice's own cookie names the profile the class keeps for the pupil.
"""

from __future__ import annotations

import hashlib
import secrets
from datetime import datetime, timedelta

from flask import current_app, g, request
from itsdangerous import BadSignature, URLSafeSerializer
from sqlalchemy import delete, func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm.exc import StaleDataError
from werkzeug.wrappers import Response

from suji.core.errors import SujiError
from suji.core.i18n import N_
from suji.learner import signin as codes
from suji.web.accounts.models import AuthFailure
from suji.web.classes.models import ClassPupil, SchoolClass
from suji.web.extensions import db
from suji.web.models import utcnow

COOKIE = "suji_pupil"
SCOPE = "pupil"  # AuthFailure.scope of a wrong sign-in code
WINDOW = timedelta(minutes=10)
LIMIT = 30  # wrong codes per address in WINDOW: a whole class behind one school address mistypes fewer
HASH_KEPT = 16  # hex digits of the code's hash the cookie names
MAX_COOKIE_DAYS = 400

MESSAGES = {
    "no_code": N_("Type the code from your card."),
    "bad_code": N_("A sign-in code has %(length)s letters and digits, like %(example)s."),
    "unknown_code": N_("No pupil has this code. Check the code on your card and try again."),
    "too_many": N_("Too many wrong codes from here. Wait ten minutes, then try again."),
}


class PupilSigninError(SujiError):
    """A sign-in code that signs nobody in; `code` names why."""

    MESSAGES = MESSAGES


class Conflict(Exception):
    """A pupil's row changed meanwhile (cards printed from two tabs at once)."""


def code_hash(code: str) -> str:
    """What the pupil's row stores of their card's code (another namespace than practice's own codes)."""
    return hashlib.sha256(f"class-pupil-signin:{code}".encode()).hexdigest()


def clean_code(text: object) -> str:
    """A code as typed (any case, full width, spaces or dashes) in its stored form, or PupilSigninError."""
    try:
        return codes.clean_code(text)
    except codes.SigninError as error:
        raise PupilSigninError(error.code, **error.params) from None


# ---- cards ----


def make_cards(pupils: list[ClassPupil], now: datetime | None = None) -> list[tuple[ClassPupil, str]]:
    """New codes for these pupils (their old cards stop working), committed: each pupil with the printed code."""
    now = now or utcnow()
    for _ in range(5):
        made = []
        for pupil in pupils:
            code = codes.new_code()
            pupil.signin_hash, pupil.card_made_at = code_hash(code), now
            made.append((pupil, codes.printed(code)))
        try:
            db.session.commit()
            return made
        except StaleDataError:
            db.session.rollback()
            raise Conflict from None
        except IntegrityError:  # another pupil has this code already: one in 10¹¹, draw again
            db.session.rollback()
    raise RuntimeError("no free sign-in codes")  # pragma: no cover


# ---- signing in ----


def _client() -> str:
    """Who is signing in, for the rate limit: a hash of the address (the address itself is not stored)."""
    return hashlib.sha256(f"pupil-signin:{request.remote_addr}".encode()).hexdigest()


def failures(now: datetime | None = None) -> int:
    since = (now or utcnow()) - WINDOW
    return db.session.scalar(
        select(func.count()).where(AuthFailure.scope == SCOPE, AuthFailure.key == _client(), AuthFailure.created_at >= since)
    ) or 0  # fmt: skip


def _count_failure(now: datetime) -> None:
    db.session.add(AuthFailure(scope=SCOPE, key=_client(), created_at=now))
    db.session.execute(delete(AuthFailure).where(AuthFailure.scope == SCOPE, AuthFailure.created_at < now - WINDOW))
    db.session.commit()


def sign_in(text: object, now: datetime | None = None) -> ClassPupil:
    """The pupil whose card has this code (their practice profile made if they have none), or PupilSigninError;
    a wrong code is counted, and LIMIT of them in WINDOW refuse every code until the window has passed."""
    now = now or utcnow()
    if failures(now) >= LIMIT:
        raise PupilSigninError("too_many")
    try:
        code = clean_code(text)
        pupil = db.session.scalar(select(ClassPupil).where(ClassPupil.signin_hash == code_hash(code)))
        if pupil is None:
            raise PupilSigninError("unknown_code")
    except PupilSigninError as error:
        if error.code == "unknown_code":
            _count_failure(now)
        raise
    ensure_profile(pupil, now)
    return pupil


def ensure_profile(pupil: ClassPupil, now: datetime | None = None) -> None:
    """Give the pupil a practice profile of their own (suji.web.practice) if they have none yet; mark them active."""
    from suji.web.practice.answers import locked_profile

    now = now or utcnow()
    if pupil.profile_id is None:
        pupil.profile_id = locked_profile(secrets.token_urlsafe(16), now).id
    pupil.last_active_at = now
    try:
        db.session.commit()
    except StaleDataError:  # signed in on two devices at once: the other made the profile
        db.session.rollback()
        db.session.refresh(pupil)


# ---- the pupil's cookie ----


def _serializer() -> URLSafeSerializer:
    return URLSafeSerializer(current_app.config["SECRET_KEY"], salt="class-pupil")


def current_pupil() -> ClassPupil | None:
    """The pupil signed in on this device, or None (no cookie, a forged one, or a card made again since). A
    cookie of ours that no longer signs anyone in (a new card made, the pupil deleted) leaves
    `g.class_pupil_gone` True, for the sign-in page to say why."""
    if "class_pupil" in g:
        return g.class_pupil
    pupil = None
    g.class_pupil_gone = False
    raw = request.cookies.get(COOKIE, "")
    if 0 < len(raw) <= 400:
        try:
            data = _serializer().loads(raw)
        except (BadSignature, ValueError, TypeError):
            data = None
        if isinstance(data, list) and len(data) == 2 and all(isinstance(x, str) and len(x) <= 40 for x in data):
            found = db.session.scalar(select(ClassPupil).where(ClassPupil.public_id == data[0]))
            if found is not None and found.signin_hash and found.signin_hash[:HASH_KEPT] == data[1]:
                pupil = found
            else:
                g.class_pupil_gone = True
    g.class_pupil = pupil
    return pupil


def class_of(pupil: ClassPupil) -> SchoolClass:
    return db.session.get(SchoolClass, pupil.class_id)


def _secure() -> bool:
    return bool(current_app.config.get("SESSION_COOKIE_SECURE")) or request.is_secure


def signed_in(response: Response, pupil: ClassPupil, days: int) -> Response:
    """`response` putting the pupil on this device: their cookie, and their practice profile in practice's."""
    from suji.web.practice import store as practice
    from suji.web.practice.models import PracticeProfile

    age = max(1, min(days, MAX_COOKIE_DAYS)) * 86400
    value = _serializer().dumps([pupil.public_id, (pupil.signin_hash or "")[:HASH_KEPT]])
    response.set_cookie(COOKIE, value, max_age=age, httponly=True, samesite="Lax", secure=_secure())
    profile = db.session.get(PracticeProfile, pupil.profile_id) if pupil.profile_id else None
    if profile is not None:
        holder = practice.Holder(profile.public_id)
        response.set_cookie(practice.COOKIE, practice.cookie_value(holder), max_age=age, httponly=True,
                            samesite="Lax", secure=_secure())  # fmt: skip
    return response


def signed_out(response: Response) -> Response:
    """`response` taking the pupil off this device, their practice with them."""
    from suji.web.practice import store as practice

    for name in (COOKIE, practice.COOKIE):
        response.delete_cookie(name, httponly=True, samesite="Lax", secure=_secure())
    return response
