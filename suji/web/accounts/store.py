"""Teacher accounts' storage and transactions: sign up, log in, change or reset a password, delete an account.

    form fields ──rules.clean_email / check_new_password──▶ values ──here──▶ Teacher rows (suji.web.accounts.models)

The views (suji.web.accounts.views) and the operator's commands (`suji teacher …`, suji.cli.teacher) both call
these, so a reset from the command line does exactly what the pages would. Passwords are hashed by
suji.web.accounts.passwords; the limits are suji.web.accounts.limits'.
"""

from __future__ import annotations

from datetime import datetime

from flask import current_app
from sqlalchemy import delete, func, select
from sqlalchemy.exc import IntegrityError

from suji.web.accounts import limits, passwords
from suji.web.accounts.models import Teacher
from suji.web.accounts.rules import AccountError, check_new_password, clean_email
from suji.web.extensions import db
from suji.web.models import utcnow

# Things that belong to a teacher and go with the account (each a callable taking the teacher's id); the classes
# add theirs (suji.web.classes) so that this module needs to know nothing about them.
ON_DELETE: list = []


def _cost() -> str | None:
    return current_app.config.get("TEACHER_PASSWORD_COST")


def by_email(email: str) -> Teacher | None:
    return db.session.scalar(select(Teacher).where(Teacher.email == email))


def load(user_id: str) -> Teacher | None:
    """Flask-Login's loader: "id.generation" names the teacher while the generation is the account's own."""
    ident, _, generation = str(user_id).partition(".")
    if not (ident.isdigit() and generation.isdigit() and len(ident) < 19 and len(generation) < 10):
        return None
    teacher = db.session.get(Teacher, int(ident))
    return teacher if teacher is not None and teacher.generation == int(generation) else None


def sign_up(email_text: object, password: object, again: object, address: str | None) -> Teacher:
    """A new account (AccountError for a bad or taken address, a weak password, or too many from `address`)."""
    email = clean_email(email_text)
    text = check_new_password(password, again, email)
    if limits.signups_refused(address):
        raise AccountError("too_many_signups", minutes=int(limits.SIGNUP_WINDOW.total_seconds() // 60))
    if by_email(email) is not None:
        raise AccountError("email_taken", "email")
    teacher = Teacher(email=email, password_hash=passwords.hash_password(text, _cost()), generation=1)
    db.session.add(teacher)
    limits.count_signup(address)
    try:
        db.session.commit()
    except IntegrityError:  # the same address signed up a moment ago from another tab
        db.session.rollback()
        raise AccountError("email_taken", "email") from None
    return teacher


def log_in(email_text: object, password: object, address: str | None, now: datetime | None = None) -> Teacher:
    """The teacher whose login name and password these are, or AccountError (a wrong one is counted)."""
    try:
        email = clean_email(email_text)
    except AccountError:
        raise AccountError("login") from None
    why = limits.refused(email, address, now)
    if why is not None:
        raise AccountError(why, minutes=int(limits.LOGIN_WINDOW.total_seconds() // 60))
    text = str(password or "")[: 4 * 200]
    teacher = by_email(email)
    stored = teacher.password_hash if teacher is not None else passwords.dummy_hash(_cost())
    if not passwords.verify(stored, text, _cost()) or teacher is None:
        limits.count_failure(email, address, now)
        raise AccountError("login")
    if passwords.needs_rehash(teacher.password_hash, _cost()):
        teacher.password_hash = passwords.hash_password(text, _cost())
    teacher.last_login_at = now or utcnow()
    db.session.commit()
    return teacher


def change_password(teacher: Teacher, current: object, new: object, again: object) -> Teacher:
    """A new password for a signed-in teacher who knows the current one; every other session ends."""
    if not passwords.verify(teacher.password_hash, str(current or "")[:800], _cost()):
        raise AccountError("current_password", "current")
    _set_password(teacher, check_new_password(new, again, teacher.email))
    db.session.commit()
    return teacher


def reset_password(email_text: object, new: str) -> Teacher:
    """The operator's reset (no mail goes out, so the person who runs the server does it): a new password,
    every session of the account ended, its count of wrong passwords cleared. AccountError("email") for no such
    account."""
    email = clean_email(email_text)
    teacher = by_email(email)
    if teacher is None:
        raise AccountError("email", "email")
    _set_password(teacher, check_new_password(new, new, email))
    limits.forget_account(email)
    db.session.commit()
    return teacher


def _set_password(teacher: Teacher, text: str) -> None:
    teacher.password_hash = passwords.hash_password(text, _cost())
    teacher.generation += 1
    teacher.password_changed_at = utcnow()


def delete_teacher(teacher: Teacher) -> None:
    """The account and everything that belongs to it (classes, pupils, their work), in one transaction."""
    for forget in ON_DELETE:
        forget(teacher.id)
    db.session.execute(delete(Teacher).where(Teacher.id == teacher.id))
    db.session.commit()


def all_teachers() -> list[Teacher]:
    return list(db.session.scalars(select(Teacher).order_by(Teacher.email)))


def teacher_count() -> int:
    return db.session.scalar(select(func.count()).select_from(Teacher)) or 0
