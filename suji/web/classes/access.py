"""Who may see a class: its teacher, signed in. The blueprint, its guards and the answers for everyone else.

`class_required` turns the URL's class id (a random public id) into the signed-in teacher's own class, or
answers 404 (a class of another teacher is as absent as one that never was: the page says nothing about
whether it exists); a browser not signed in goes to the login page and comes back. `pupil_in` does the same
for a pupil of that class. The views receive rows, never ids.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from flask import Blueprint, abort, redirect, request, url_for
from sqlalchemy import select
from werkzeug.wrappers import Response

from suji.web.accounts import current_teacher
from suji.web.accounts.models import Teacher
from suji.web.classes.models import ClassPupil, SchoolClass
from suji.web.errors import render_error, wants_json
from suji.web.extensions import db
from suji.web.furigana import teacher_pages
from suji.web.models import ensure_schema

bp = Blueprint("classes", __name__)
teacher_pages(bp)  # no furigana unless the reader chose a grade (suji.web.furigana)
MAX_PUBLIC_ID = 24


@bp.before_request
def _schema() -> None:
    ensure_schema()


@bp.after_request
def _no_store(response: Response) -> Response:
    response.headers["Cache-Control"] = "no-store"  # rosters and results stay off shared caches
    return response


@bp.context_processor
def _helpers() -> dict:
    from suji.core.i18n import translate
    from suji.play.classroom import mistake_name
    from suji.play.school.reports import STATUS_NAMES
    from suji.web.i18n import select_locale
    from suji.web.settings import local_date, local_time

    return {
        "local_time": local_time, "local_date": local_date, "mistake_name": mistake_name,
        "status_name": lambda status: translate(STATUS_NAMES[status], select_locale()),
    }  # fmt: skip


def _login() -> Response | tuple[str, int]:
    if wants_json():
        from flask_babel import gettext

        return render_error(
            401, "login", gettext("Log in first"), gettext("Log in as a teacher to see this page.")
        )
    return redirect(url_for("accounts.login", next=request.full_path.rstrip("?")), code=303)


def owned_class(teacher: Teacher, class_id: str) -> SchoolClass | None:
    """The class with this public id if it is `teacher`'s own."""
    if not 0 < len(class_id) <= MAX_PUBLIC_ID:
        return None
    return db.session.scalar(
        select(SchoolClass).where(SchoolClass.public_id == class_id, SchoolClass.teacher_id == teacher.id)
    )


def teacher_required(view: Callable[..., Any]) -> Callable[..., Any]:
    """`view(teacher, …)` for a signed-in teacher; the login page for anyone else."""

    @functools.wraps(view)
    def guarded(*args: Any, **kwargs: Any) -> Any:
        teacher = current_teacher()
        return view(teacher, *args, **kwargs) if teacher is not None else _login()

    return guarded


def class_required(view: Callable[..., Any]) -> Callable[..., Any]:
    """`view(teacher, cls, …)` for the signed-in teacher's own class of the URL's `class_id`; 404 otherwise."""

    @functools.wraps(view)
    def guarded(class_id: str, **kwargs: Any) -> Any:
        teacher = current_teacher()
        if teacher is None:
            return _login()
        cls = owned_class(teacher, class_id)
        if cls is None:
            abort(404)
        return view(teacher, cls, **kwargs)

    return guarded


def pupil_in(cls: SchoolClass, pupil_id: str) -> ClassPupil:
    """The pupil of this class with this public id, or 404 (a pupil of another class is not found here)."""
    pupil = None
    if 0 < len(pupil_id) <= MAX_PUBLIC_ID:
        pupil = db.session.scalar(
            select(ClassPupil).where(ClassPupil.public_id == pupil_id, ClassPupil.class_id == cls.id)
        )
    if pupil is None:
        abort(404)
    return pupil
