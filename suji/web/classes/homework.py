"""The teacher's homework pages: set homework for a class, see who has done it, delete it; the live lessons.

/teacher/classes/<id>/homework/new (the form: a title, a fixed problem set chosen as a worksheet's — count,
level, seed, version, so the same problems as the printed sheet — or adaptive practice of N items or N minutes,
an opening time and a due date, a time limit, hints, "only the first attempt counts") → the class page, whose
"Homework" panel lists it; /homework/<hw> (who has started, finished, late, and each pupil's counted score)
and /homework/<hw>/delete. The rules are suji.play.school.homework's; the rows suji.web.classes.work's. The
class page's "Live lessons" panel lists the lessons' records and starts a live session for the class.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from fractions import Fraction

from flask import abort, flash, redirect, render_template, request, url_for
from flask_babel import gettext, lazy_gettext
from werkzeug.wrappers import Response

from suji.core.decimals import decimal_text
from suji.play.school import homework as rules
from suji.play.school.reports import assignment_report
from suji.play.school.roster import EXTRA_TIME
from suji.web.accounts.models import Teacher
from suji.web.classes import store, work
from suji.web.classes.access import bp, class_required
from suji.web.classes.models import ADAPTIVE, FIXED, LIVE, Assignment, SchoolClass
from suji.web.classes.views import CLASS_PAGE, lang
from suji.web.models import utcnow
from suji.web.settings import local_zone

FIELDS = ("title", "kind", "count", "level", "seed", "version", "time_limit", "hints", "hint_cost",
          "first_attempt_only", "amount_kind", "amount", "opens_at", "due_at")  # fmt: skip
SET = lazy_gettext("The homework is set. Your pupils see it on their page from its opening time.")
KIND_NAMES = {FIXED: lazy_gettext("Problem set"), ADAPTIVE: lazy_gettext("Adaptive practice")}


def local_input(moment: datetime | None) -> str:
    """A stored moment (naive UTC) as a datetime-local field shows it, in the school's time zone."""
    if moment is None:
        return ""
    return moment.replace(tzinfo=UTC).astimezone(local_zone()).strftime("%Y-%m-%dT%H:%M")


def _default_due() -> datetime:
    """A week from today at 17:00, the school's time, as naive UTC."""
    local = datetime.now(UTC).astimezone(local_zone()) + timedelta(days=7)
    return local.replace(hour=17, minute=0, second=0, microsecond=0).astimezone(UTC).replace(tzinfo=None)


def _form_page(teacher: Teacher, cls: SchoolClass, form: dict, errors: list, status: int = 200) -> tuple[str, int]:
    from suji.play.classroom import MAX_COUNT, MIN_COUNT
    from suji.solver.problems import LEVEL_NAMES, LEVELS, MIXED, VERSION_LABELS

    levels = [(str(n), gettext(LEVEL_NAMES[n])) for n in LEVELS] + [(MIXED, gettext("Mixed: each problem has its own level"))]
    return render_template(
        "classes/homework_form.html", teacher=teacher, cls=cls, form=form, levels=levels, versions=VERSION_LABELS,
        errors=[(getattr(e, "field", None), e.message(lang())) for e in errors], error_fields={getattr(e, "field", None) for e in errors},
        min_count=MIN_COUNT, max_count=MAX_COUNT, max_items=rules.MAX_ITEMS, max_minutes=rules.MAX_MINUTES,
        max_time=rules.MAX_TIME_LIMIT, zone=str(local_zone()),
    ), status  # fmt: skip


@bp.get("/teacher/classes/<class_id>/homework/new")
@class_required
def new_homework(teacher: Teacher, cls: SchoolClass) -> tuple[str, int]:
    return _form_page(teacher, cls, {"kind": FIXED, "count": "5", "level": "1", "version": "A", "amount": "10",
                                     "due_at": local_input(_default_due())}, [])  # fmt: skip


@bp.post("/teacher/classes/<class_id>/homework/new")
@class_required
def create_homework(teacher: Teacher, cls: SchoolClass) -> Response | tuple[str, int]:
    form = {k: str(request.form.get(k, ""))[:100] for k in FIELDS if k in request.form}
    homework, errors = rules.parse_homework(form, utcnow(), local_zone())
    if errors:
        return _form_page(teacher, cls, form, errors, 400)
    work.create_homework(cls, homework)
    flash(str(SET), "info")
    return redirect(url_for("classes.show", class_id=cls.public_id) + "#homework", code=303)


def _assignment(cls: SchoolClass, homework_id: str, kinds: tuple[str, ...] = (FIXED, ADAPTIVE)) -> Assignment:
    found = work.assignment_in(cls, homework_id)
    if found is None or found.kind not in kinds:
        abort(404)
    return found


def sheet_url(homework: rules.Homework) -> str:
    """The printed worksheet whose version holds exactly these problems."""
    return url_for("worksheets.print_view", count=homework.count, level=homework.level, seed=homework.seed,
                   versions=homework.version + 1)  # fmt: skip


@bp.get("/teacher/classes/<class_id>/homework/<homework_id>")
@class_required
def homework_page(teacher: Teacher, cls: SchoolClass, homework_id: str) -> str:
    """The homework's (or live lesson's) report: who has not started, is working, finished or finished late, each
    pupil's counted score and problems, each problem's share solved and most common mistake (CSV: .reports)."""
    return _homework_page(teacher, cls, _assignment(cls, homework_id, (FIXED, ADAPTIVE, LIVE)))


@bp.post("/teacher/classes/<class_id>/homework/<homework_id>/edit")
@class_required
def edit_homework(teacher: Teacher, cls: SchoolClass, homework_id: str) -> Response | tuple[str, int]:
    """A new title and due date (a class that needs more time, a pupil away); late marks follow the new date."""
    assignment = _assignment(cls, homework_id)
    form = {k: str(request.form.get(k, ""))[:100] for k in ("title", "due_at")}
    title, due_at, errors = rules.parse_schedule(form, utcnow(), local_zone(), assignment.opens_at)
    if errors or due_at is None:
        return _homework_page(teacher, cls, assignment, form, errors), 400
    try:
        work.reschedule(assignment, title, due_at)
    except work.WorkError as error:  # changed meanwhile in another tab
        flash(error.message(lang()), "error")
    else:
        flash(gettext("Saved. Work handed in after the new due date is marked late, and only that."), "info")
    return redirect(url_for("classes.homework_page", class_id=cls.public_id, homework_id=assignment.public_id),
                    code=303)  # fmt: skip


def _homework_page(teacher: Teacher, cls: SchoolClass, assignment: Assignment, edit_form: dict | None = None,
                   edit_errors: list | tuple = ()) -> str:  # fmt: skip
    work.settle_time_up(assignment)
    homework = work.homework_of(assignment)
    pupils = store.pupils_of(cls)
    works, mistakes = work.pupil_works(assignment, pupils)
    report = assignment_report(work.problems_of(assignment), works, mistakes, homework.first_attempt_only)
    return render_template(
        "classes/homework.html", teacher=teacher, cls=cls, assignment=assignment, hw=homework, report=report,
        pupils=pupils, rows=list(zip(report.rows, pupils, strict=True)), kind_names=KIND_NAMES,
        window=rules.window(homework, utcnow()), minutes=lambda seconds: decimal_text(Fraction(seconds) / 60, 1),
        sheet_url=sheet_url(homework) if assignment.kind != ADAPTIVE else None, extra_time=EXTRA_TIME,
        edit_form=edit_form or {"title": assignment.title, "due_at": local_input(assignment.due_at)},
        edit_errors=[(getattr(e, "field", None), e.message(lang())) for e in edit_errors],
    )  # fmt: skip


@bp.get("/teacher/classes/<class_id>/homework/<homework_id>/delete")
@class_required
def delete_homework_confirm(teacher: Teacher, cls: SchoolClass, homework_id: str) -> str:
    assignment = _assignment(cls, homework_id, (FIXED, ADAPTIVE, LIVE))
    return render_template("classes/homework_delete.html", teacher=teacher, cls=cls, assignment=assignment)


@bp.post("/teacher/classes/<class_id>/homework/<homework_id>/delete")
@class_required
def delete_homework(teacher: Teacher, cls: SchoolClass, homework_id: str) -> Response:
    assignment = _assignment(cls, homework_id, (FIXED, ADAPTIVE, LIVE))
    work.delete_assignment(assignment)
    flash(gettext("Deleted, with every pupil's work on it."), "info")
    return redirect(url_for("classes.show", class_id=cls.public_id), code=303)


# ---- the class page's panels ----


def homework_part(cls: SchoolClass) -> tuple[str, dict]:
    """The "Homework" panel: each assignment with its window and how many have finished."""
    from sqlalchemy import func, select

    from suji.web.classes.models import AssignmentWork
    from suji.web.extensions import db

    assignments = work.assignments_of(cls)
    finished = dict(db.session.execute(
        select(AssignmentWork.assignment_id, func.count()).where(
            AssignmentWork.assignment_id.in_([a.id for a in assignments]), AssignmentWork.finished_at.is_not(None))
        .group_by(AssignmentWork.assignment_id)
    ).all())  # fmt: skip
    now = utcnow()
    rows = [(a, work.homework_of(a), rules.window(work.homework_of(a), now), finished.get(a.id, 0)) for a in assignments]
    return "classes/_homework.html", {"first": True, "homework_rows": rows, "kind_names": KIND_NAMES,
                                      "pupil_count": len(store.pupils_of(cls))}  # fmt: skip


def lessons_part(cls: SchoolClass) -> tuple[str, dict]:
    """The "Live lessons" panel: start one for the class, and the records of those held."""
    lessons = work.assignments_of(cls, (LIVE,))
    return "classes/_lessons.html", {"lessons": lessons}


for _part in (homework_part, lessons_part):
    if _part not in CLASS_PAGE:
        CLASS_PAGE.append(_part)
