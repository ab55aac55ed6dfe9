"""The roster's pages: pupils added from a pasted list, one pupil's details and accommodations, deleting one.

POST /teacher/classes/<id>/pupils (the list: "12 佐藤はな" a line) → the class page; /pupils/<pupil>/edit (name,
出席番号, extra time ×1.5 / ×2 / untimed, free hints); /pupils/<pupil>/delete (a confirmation page, then the
POST that deletes the pupil and everything kept about them); /pupils/<pupil>/export.json (everything kept about
the pupil, for a parent who asks). The rules are suji.play.school.roster's.
"""

from __future__ import annotations

import json

from flask import flash, make_response, redirect, render_template, request, url_for
from flask_babel import gettext, lazy_gettext, ngettext
from werkzeug.wrappers import Response

from suji.play.school import roster
from suji.play.school.errors import SchoolError
from suji.web.accounts.models import Teacher
from suji.web.classes import store
from suji.web.classes.access import bp, class_required, pupil_in
from suji.web.classes.models import ClassPupil, SchoolClass
from suji.web.classes.views import BOARD_NAMES, SAVED, STALE, class_page_parts, int_field, lang
from suji.web.links import attachment

EXTRA_TIME_NAMES = {
    "1": lazy_gettext("As for everyone"),
    "1.5": lazy_gettext("1.5 times as long"),
    "2": lazy_gettext("Twice as long"),
    "untimed": lazy_gettext("No time limit"),
}


@bp.post("/teacher/classes/<class_id>/pupils")
@class_required
def add_pupils(teacher: Teacher, cls: SchoolClass) -> Response | tuple[str, int]:
    text = str(request.form.get("roster", ""))[:20_000]
    pupils = store.pupils_of(cls)
    try:
        added = store.add_pupils(cls, roster.parse_roster(text, len(pupils)))
    except SchoolError as error:
        page = render_template(
            "classes/show.html", teacher=teacher, cls=cls, pupils=pupils, kept_until=store.kept_until(cls),
            board_names=BOARD_NAMES, extra=class_page_parts(cls), roster_text=text, error=error.message(lang()),
            max_pupils=roster.MAX_PUPILS,
        )  # fmt: skip
        return page, 400
    except store.Conflict:
        flash(str(STALE), "error")
        return redirect(url_for("classes.show", class_id=cls.public_id), code=303)
    flash(ngettext("%(num)s pupil added. Print the sign-in cards when you are ready.",
                   "%(num)s pupils added. Print their sign-in cards when you are ready.", len(added)), "info")  # fmt: skip
    return redirect(url_for("classes.show", class_id=cls.public_id) + "#roster", code=303)


def _pupil_form(teacher: Teacher, cls: SchoolClass, pupil: ClassPupil, form: dict, error: SchoolError | None,
                status: int = 200) -> tuple[str, int]:  # fmt: skip
    return render_template(
        "classes/pupil_edit.html", teacher=teacher, cls=cls, pupil=pupil, form=form,
        error=error.message(lang()) if error else None, field=getattr(error, "field", None),
        extra_time_names=EXTRA_TIME_NAMES, max_number=roster.MAX_NUMBER,
    ), status  # fmt: skip


@bp.get("/teacher/classes/<class_id>/pupils/<pupil_id>/edit")
@class_required
def edit_pupil(teacher: Teacher, cls: SchoolClass, pupil_id: str) -> tuple[str, int]:
    pupil = pupil_in(cls, pupil_id)
    form = {"name": pupil.name, "number": "" if pupil.number is None else str(pupil.number),
            "extra_time": pupil.extra_time, "free_hints": "yes" if pupil.free_hints else "no"}  # fmt: skip
    return _pupil_form(teacher, cls, pupil, form, None)


@bp.post("/teacher/classes/<class_id>/pupils/<pupil_id>/edit")
@class_required
def save_pupil(teacher: Teacher, cls: SchoolClass, pupil_id: str) -> Response | tuple[str, int]:
    pupil = pupil_in(cls, pupil_id)
    form = {k: str(request.form.get(k, ""))[:100] for k in ("name", "number", "extra_time", "free_hints")}
    try:
        store.update_pupil(cls, pupil, roster.parse_pupil(form), int_field("version"))
    except SchoolError as error:
        return _pupil_form(teacher, cls, pupil, form, error, 400)
    except store.Conflict:
        flash(str(STALE), "error")
        return redirect(
            url_for("classes.edit_pupil", class_id=cls.public_id, pupil_id=pupil.public_id), code=303
        )
    flash(str(SAVED), "info")
    return redirect(url_for("classes.show", class_id=cls.public_id) + "#roster", code=303)


@bp.get("/teacher/classes/<class_id>/pupils/<pupil_id>/export.json")
@class_required
def export_pupil(teacher: Teacher, cls: SchoolClass, pupil_id: str) -> Response:
    """Everything kept about one pupil, as one JSON file (the class's export, that pupil alone)."""
    pupil = pupil_in(cls, pupil_id)
    response = make_response(json.dumps(store.export(cls, pupil), ensure_ascii=False, indent=1))
    response.headers["Content-Type"] = "application/json; charset=utf-8"
    number = f"{pupil.number:02d}-" if pupil.number is not None else ""
    response.headers["Content-Disposition"] = attachment(f"suji-{cls.name}-{cls.school_year}-{number}{pupil.name}.json")
    return response


@bp.get("/teacher/classes/<class_id>/pupils/<pupil_id>/delete")
@class_required
def delete_pupil_confirm(teacher: Teacher, cls: SchoolClass, pupil_id: str) -> str:
    return render_template(
        "classes/pupil_delete.html", teacher=teacher, cls=cls, pupil=pupil_in(cls, pupil_id)
    )


@bp.post("/teacher/classes/<class_id>/pupils/<pupil_id>/delete")
@class_required
def delete_pupil(teacher: Teacher, cls: SchoolClass, pupil_id: str) -> Response:
    pupil = pupil_in(cls, pupil_id)
    name = pupil.name
    store.delete_pupil(pupil)
    flash(gettext("%(name)s and everything kept about them are deleted.", name=name), "info")
    return redirect(url_for("classes.show", class_id=cls.public_id) + "#roster", code=303)
