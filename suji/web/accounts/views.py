"""The account pages: sign up, log in, log out, change the password; every form with its CSRF token.

/teacher/signup and /teacher/login put the teacher in Flask-Login's session (a new session: whatever the browser
held before is dropped, and the session lasts SESSION_DAYS); /teacher/logout (a POST) ends it;
/teacher/password asks for the current password and ends every other session of the account. A refused form
comes back with its fields (never the passwords) and the reason in the reader's language, status 400 or 429.
"""

from __future__ import annotations

from datetime import timedelta

from flask import current_app, flash, redirect, render_template, request, session, url_for
from flask_babel import lazy_gettext
from flask_login import login_user, logout_user
from sqlalchemy import select
from werkzeug.wrappers import Response

from suji.web.accounts import store
from suji.web.accounts.access import bp, current_teacher, teacher_login_required
from suji.web.accounts.models import Teacher
from suji.web.accounts.rules import MIN_PASSWORD, AccountError
from suji.web.extensions import db
from suji.web.i18n import select_locale
from suji.web.redirects import safe_next
from suji.web.settings import local_time

SESSION_DAYS = 14
WELCOME = lazy_gettext("Your teacher account is ready. Make your first class.")
LOGGED_IN = lazy_gettext("You are logged in.")
LOGGED_OUT = lazy_gettext("You are logged out.")
CHANGED = lazy_gettext(
    "Your password is changed. Every other browser signed in to this account is logged out."
)
TOO_MANY = ("too_many_account", "too_many_address", "too_many_signups")


def _home() -> str:
    """Where a teacher lands: their classes (suji.web.classes) when that area is there, else the account page."""
    return (
        url_for("classes.index")
        if "classes.index" in current_app.view_functions
        else url_for("accounts.home")
    )


def _next() -> str:
    target = safe_next(str(request.values.get("next", ""))[:2000])
    return target if target != "/" else _home()


def _enter(teacher: Teacher) -> None:
    """Sign `teacher` in on this browser: a new session (the old one's contents dropped), kept SESSION_DAYS."""
    session.clear()
    session.permanent = True
    login_user(teacher, duration=timedelta(days=SESSION_DAYS))


def _form_page(template: str, error: AccountError | None, status: int, **fields: object) -> tuple[str, int]:
    message = error.message(select_locale()) if error is not None else None
    return render_template(template, error=message, field=getattr(error, "field", None), min_password=MIN_PASSWORD,
                           next=_next() if request.values.get("next") else "", **fields), status  # fmt: skip


def _status(error: AccountError) -> int:
    return 429 if error.code in TOO_MANY else 400


@bp.get("/teacher/signup")
def signup() -> Response | tuple[str, int]:
    if current_teacher() is not None:
        return redirect(_home(), code=303)
    return _form_page("accounts/signup.html", None, 200, email="")


@bp.post("/teacher/signup")
def signup_post() -> Response | tuple[str, int]:
    email = str(request.form.get("email", ""))[:300]
    try:
        teacher = store.sign_up(email, request.form.get("password"), request.form.get("password_again"),
                                request.remote_addr)  # fmt: skip
    except AccountError as error:
        return _form_page("accounts/signup.html", error, _status(error), email=email)
    _enter(teacher)
    flash(str(WELCOME), "info")
    return redirect(_home(), code=303)


@bp.get("/teacher/login")
def login() -> Response | tuple[str, int]:
    if current_teacher() is not None:
        return redirect(_next(), code=303)
    return _form_page("accounts/login.html", None, 200, email="")


@bp.post("/teacher/login")
def login_post() -> Response | tuple[str, int]:
    email = str(request.form.get("email", ""))[:300]
    try:
        teacher = store.log_in(email, request.form.get("password"), request.remote_addr)
    except AccountError as error:
        return _form_page("accounts/login.html", error, _status(error), email=email)
    _enter(teacher)
    flash(str(LOGGED_IN), "info")
    return redirect(_next(), code=303)


@bp.post("/teacher/logout")
def logout() -> Response:
    logout_user()
    session.clear()
    flash(str(LOGGED_OUT), "info")
    return redirect(url_for("accounts.login"), code=303)


@bp.get("/teacher/password")
@teacher_login_required
def password(teacher: Teacher) -> tuple[str, int]:
    return _form_page("accounts/password.html", None, 200, teacher=teacher)


@bp.post("/teacher/password")
@teacher_login_required
def password_post(teacher: Teacher) -> Response | tuple[str, int]:
    try:
        store.change_password(teacher, request.form.get("current"), request.form.get("password"),
                              request.form.get("password_again"))  # fmt: skip
    except AccountError as error:
        return _form_page("accounts/password.html", error, 400, teacher=teacher)
    _enter(teacher)  # this browser stays in with the account's new generation; every other one is out
    flash(str(CHANGED), "info")
    return redirect(_home(), code=303)


@bp.get("/teacher/account")
@teacher_login_required
def home(teacher: Teacher) -> str:
    """The account: the login name, the class sessions made while signed in, the password, logging out."""
    from suji.web.classroom_models import ClassSession

    sessions = db.session.scalars(
        select(ClassSession)
        .where(ClassSession.teacher_id == teacher.id)
        .order_by(ClassSession.id.desc())
        .limit(50)
    ).all()
    return render_template("accounts/home.html", teacher=teacher, sessions=sessions, local_time=local_time)
