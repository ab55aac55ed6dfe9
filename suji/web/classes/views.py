"""A teacher's classes: the list, a new class, the class page, its settings, the export and deleting it.

/teacher/ (the classes, newest school year first) → /teacher/classes/new → /teacher/classes/<id> (the roster,
the homework, the alerts, the reports, live sessions) with /settings, /export.json and /delete (a confirmation
page, then the POST). Every view runs behind `class_required` or `teacher_required` (suji.web.classes.access);
the rules are suji.play.school's, the rows suji.web.classes.store's.
"""

from __future__ import annotations

import json

from flask import flash, make_response, redirect, render_template, request, url_for
from flask_babel import gettext, lazy_gettext
from werkzeug.wrappers import Response

from suji.play.school import roster
from suji.play.school.errors import SchoolError
from suji.web.accounts.models import Teacher
from suji.web.classes import store
from suji.web.classes.access import bp, class_required, owned_class, teacher_required
from suji.web.classes.models import SchoolClass
from suji.web.i18n import select_locale
from suji.web.links import attachment

MADE = lazy_gettext("The class is made. Add your pupils below.")
SAVED = lazy_gettext("Saved.")
STALE = lazy_gettext(
    "This was changed meanwhile (in another tab, or the form was sent twice). Here it is as it is now."
)
BOARD_NAMES = {
    "off": lazy_gettext("Off: the class does not see the daily puzzle's leaderboard"),
    "anonymous": lazy_gettext("Anonymous: the class sees ranks and scores, no names"),
    "shown": lazy_gettext("Shown: the class sees names, ranks and scores"),
}


def lang() -> str:
    return select_locale()


def int_field(name: str) -> int | None:
    raw = str(request.form.get(name, "")).strip()
    return int(raw) if raw.isascii() and raw.isdigit() and len(raw) < 10 else None


@bp.get("/teacher/")
@teacher_required
def index(teacher: Teacher) -> str:
    """The teacher's classes (the ones past their keeping are deleted first)."""
    store.purge_expired()
    return render_template("classes/index.html", teacher=teacher, classes=store.classes_of(teacher.id),
                           kept_until=store.kept_until)  # fmt: skip


def _class_form(teacher: Teacher, cls: SchoolClass | None, form: dict, error: SchoolError | None,
                status: int = 200, roster_of: SchoolClass | None = None) -> tuple[str, int]:  # fmt: skip
    year = roster.current_school_year(store.today(), store.year_end())
    if roster_of is not None:  # next year's class: the year after the old one's, unless the teacher typed one
        year = max(year, roster_of.school_year + 1)
    return render_template(
        "classes/form.html", teacher=teacher, cls=cls, form=form, error=error.message(lang()) if error else None,
        field=getattr(error, "field", None), default_year=year, board_names=BOARD_NAMES,
        default_end=roster.default_year_end(year, store.year_end()).isoformat(), keep_days=store.keep_days(),
        roster_of=roster_of, roster_of_count=len(store.pupils_of(roster_of)) if roster_of is not None else 0,
    ), status  # fmt: skip


def _form_fields() -> dict:
    return {k: str(request.form.get(k, ""))[:200] for k in ("name", "school_year", "ends_on", "leaderboard")}


def _roster_of(teacher: Teacher, raw: object) -> SchoolClass | None:
    """The teacher's own class whose roster a new class starts with (?roster_of=, a hidden field), else None:
    another teacher's class, or one that is gone, is not found and the new class starts empty."""
    return owned_class(teacher, str(raw)) if raw else None


@bp.get("/teacher/classes/new")
@teacher_required
def new(teacher: Teacher) -> tuple[str, int]:
    return _class_form(teacher, None, {}, None, roster_of=_roster_of(teacher, request.args.get("roster_of")))


@bp.post("/teacher/classes/new")
@teacher_required
def create(teacher: Teacher) -> Response | tuple[str, int]:
    form = _form_fields()
    roster_of = _roster_of(teacher, request.form.get("roster_of"))
    try:
        info = roster.parse_class(form, store.today(), store.year_end())
    except SchoolError as error:
        return _class_form(teacher, None, form, error, 400, roster_of)
    # With roster_of, next year's class: the same pupils, their names, class numbers, extra time and free hints;
    # nothing they did, and no card (each gets a new one). The class and its pupils are made in one transaction.
    cls = store.create_class(teacher.id, info, roster_of)
    flash(str(MADE), "info")
    return redirect(url_for("classes.show", class_id=cls.public_id), code=303)


@bp.get("/teacher/classes/<class_id>")
@class_required
def show(teacher: Teacher, cls: SchoolClass) -> str:
    """The class page: the roster, and what the other areas add (homework, alerts, reports, live sessions)."""
    return render_template("classes/show.html", teacher=teacher, cls=cls, pupils=store.pupils_of(cls),
                           kept_until=store.kept_until(cls), board_names=BOARD_NAMES, extra=class_page_parts(cls),
                           roster_text="", error=None, max_pupils=roster.MAX_PUPILS)  # fmt: skip


# What other modules show on the class page: each a callable (class) → (template name, its variables).
CLASS_PAGE: list = []


def class_page_parts(cls: SchoolClass) -> list[tuple[str, dict]]:
    return [part(cls) for part in CLASS_PAGE]


@bp.get("/teacher/classes/<class_id>/settings")
@class_required
def settings(teacher: Teacher, cls: SchoolClass) -> tuple[str, int]:
    form = {"name": cls.name, "school_year": str(cls.school_year), "ends_on": cls.ends_on.isoformat(),
            "leaderboard": cls.leaderboard}  # fmt: skip
    return _class_form(teacher, cls, form, None)


@bp.post("/teacher/classes/<class_id>/settings")
@class_required
def save_settings(teacher: Teacher, cls: SchoolClass) -> Response | tuple[str, int]:
    form = _form_fields()
    try:
        info = roster.parse_class(form, store.today(), store.year_end())
        store.update_class(cls, info, int_field("version"))
    except SchoolError as error:
        return _class_form(teacher, cls, form, error, 400)
    except store.Conflict:
        flash(str(STALE), "error")
        return redirect(url_for("classes.settings", class_id=cls.public_id), code=303)
    flash(str(SAVED), "info")
    return redirect(url_for("classes.show", class_id=cls.public_id), code=303)


@bp.get("/teacher/classes/<class_id>/export.json")
@class_required
def export(teacher: Teacher, cls: SchoolClass) -> Response:
    """Everything kept about the class and its pupils, as one JSON file."""
    response = make_response(json.dumps(store.export(cls), ensure_ascii=False, indent=1))
    response.headers["Content-Type"] = "application/json; charset=utf-8"
    response.headers["Content-Disposition"] = attachment(f"suji-{cls.name}-{cls.school_year}.json")
    return response


@bp.get("/teacher/classes/<class_id>/delete")
@class_required
def delete_confirm(teacher: Teacher, cls: SchoolClass) -> str:
    return render_template("classes/delete.html", teacher=teacher, cls=cls, pupils=len(store.pupils_of(cls)))


@bp.post("/teacher/classes/<class_id>/delete")
@class_required
def delete(teacher: Teacher, cls: SchoolClass) -> Response:
    name = cls.name
    store.delete_class(cls)
    flash(gettext("The class %(name)s and everything about its pupils are deleted.", name=name), "info")
    return redirect(url_for("classes.index"), code=303)
