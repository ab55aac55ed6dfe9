"""A class's reports: the skills grid over weeks, each homework's report, the alerts, one pupil's printed page,
and every one of them as CSV.

    /teacher/classes/<id>/reports                 pupils × skills: each skill's level now and its weeks
        ?weeks=4|6|8|13|year, ?skill=<family>     (year: the school year by month; one skill: pupils × weeks or
                                                  months, answers made of answered)
    /teacher/classes/<id>/reports/skills.csv      the same grid, a line per pupil and skill
    /teacher/classes/<id>/alerts.csv              the class page's alerts
    /teacher/classes/<id>/homework/<hw>/report.csv  who finished, each problem's score (the page: .homework)
    /teacher/classes/<id>/pupils/<p>/report       one pupil's page for a parents' meeting, print ready
    /teacher/classes/<id>/pupils/<p>/report.csv   the same as CSV

Every view runs behind `class_required` (the signed-in teacher's own class, else 404) and reads the rows
through suji.web.classes.progress; the rules are suji.play.school's. The class page's "Alerts" panel comes
from here too. Pupils never see these pages.
"""

from __future__ import annotations

from flask import abort, make_response, render_template, request
from werkzeug.wrappers import Response

from suji.core.dates import date_text, month_text
from suji.core.decimals import decimal_text
from suji.core.i18n import N_, translate
from suji.learner.families import FAMILIES, FAMILY_NAMES
from suji.learner.mastery import LEVEL_NAMES, LEVELS
from suji.play.school import reports as rules
from suji.play.school.progress import LEVEL_MARKS, SHORT_NAMES, at_least, pupil_csv
from suji.play.school.reports import STATUS_NAMES, assignment_report, report_csv
from suji.web.accounts.models import Teacher
from suji.web.classes import progress, store, work
from suji.web.classes.access import bp, class_required, pupil_in
from suji.web.classes.models import ADAPTIVE, FIXED, LIVE, ClassPupil, SchoolClass
from suji.web.classes.views import CLASS_PAGE, lang
from suji.web.links import attachment
from suji.web.settings import local_time

MAX_ALERTS_SHOWN = 12  # the class page lists the first ones; the rest are on the reports page and in the CSV


def csv_response(data: bytes, name: str) -> Response:
    """A CSV download (already UTF-8 with a BOM, suji.core.spreadsheet) named `name`."""
    response = make_response(data)
    response.headers["Content-Type"] = "text/csv; charset=utf-8"
    response.headers["Content-Disposition"] = attachment(name)
    return response


def _names(language: str) -> dict:
    return {
        "skill_names": {s: translate(FAMILY_NAMES[s], language) for s in FAMILIES},
        "short_names": {s: translate(SHORT_NAMES[s], language) for s in FAMILIES},
        "level_names": {lv: translate(LEVEL_NAMES[lv], language) for lv in LEVELS},
        "marks": LEVEL_MARKS,
    }


@bp.get("/teacher/classes/<class_id>/reports")
@class_required
def reports_page(teacher: Teacher, cls: SchoolClass) -> str:
    """The skills grid: each pupil's level now in every skill and their answers week by week; one skill's
    weeks in figures with ?skill=; the alerts; each homework's report."""
    skill = request.args.get("skill", "")
    skill = skill if skill in FAMILIES else None
    pupils = store.pupils_of(cls)
    months, weeks, starts, rows = progress.grid_asked(cls, pupils, request.args.get("weeks"))
    alerts = progress.class_alerts(cls, pupils)
    language = lang()
    return render_template(
        "classes/reports.html", teacher=teacher, cls=cls, rows=rows, starts=starts, weeks=weeks, skill=skill,
        months=months, period_names=_period_names(starts, months, language), year=progress.YEAR,
        week_choices=progress.WEEK_CHOICES, families=FAMILIES, levels=LEVELS, at_least=at_least,
        alerts=[(a, progress.alert_text(a, language)) for a in alerts], assignments=work.assignments_of(cls, (FIXED, ADAPTIVE, LIVE)),
        **_names(language),
    )  # fmt: skip


def _period_names(starts: list, months: bool, language: str) -> list[str]:
    """The grid's column heads: "Week of 6 Apr", or the month ("April 2026", 2026年4月)."""
    if months:
        return [month_text(day, language) for day in starts]
    return [translate(N_("Week of %(day)s"), language, day=date_text(day, language)) for day in starts]


@bp.get("/teacher/classes/<class_id>/reports/skills.csv")
@class_required
def skills_csv(teacher: Teacher, cls: SchoolClass) -> Response:
    months, _, starts, rows = progress.grid_asked(cls, store.pupils_of(cls), request.args.get("weeks"))
    lines = [(r.name, r.number, dict(r.levels), dict(r.weeks)) for r in rows]
    data = rules.skills_csv(lines, FAMILIES, starts, progress.skill_name, progress.level_name, lang(), months=months)
    return csv_response(data, f"suji-{cls.name}-{cls.school_year}-skills{'-year' if months else ''}.csv")


@bp.get("/teacher/classes/<class_id>/alerts.csv")
@class_required
def alerts_csv(teacher: Teacher, cls: SchoolClass) -> Response:
    language = lang()
    alerts = progress.class_alerts(cls, store.pupils_of(cls))
    data = rules.alerts_csv(alerts, language, lambda alert: progress.alert_text(alert, language))
    return csv_response(data, f"suji-{cls.name}-{cls.school_year}-alerts.csv")


@bp.get("/teacher/classes/<class_id>/homework/<homework_id>/report.csv")
@class_required
def homework_csv(teacher: Teacher, cls: SchoolClass, homework_id: str) -> Response:
    """One homework's (or live lesson's) report: a line per pupil, their status, counted score and problems."""
    assignment = work.assignment_in(cls, homework_id)
    if assignment is None:
        abort(404)
    work.settle_time_up(assignment)
    works, mistakes = work.pupil_works(assignment, store.pupils_of(cls))
    report = assignment_report(work.problems_of(assignment), works, mistakes, work.homework_of(assignment).first_attempt_only)
    return csv_response(report_csv(report, lang()), f"suji-{cls.name}-{cls.school_year}-{assignment.kind}-{assignment.title or assignment.public_id}.csv")


def _pupil(cls: SchoolClass, pupil_id: str) -> ClassPupil:
    return pupil_in(cls, pupil_id)


@bp.get("/teacher/classes/<class_id>/pupils/<pupil_id>/report")
@class_required
def pupil_report(teacher: Teacher, cls: SchoolClass, pupil_id: str) -> str:
    """One pupil's page for a parents' meeting: skills and weeks, homework, lessons, what to work on."""
    pupil = _pupil(cls, pupil_id)
    weeks = progress.weeks_shown(request.args.get("weeks") or progress.PUPIL_REPORT_WEEKS)
    report = progress.pupil_report(cls, pupil, weeks)
    language = lang()
    return render_template(
        "classes/pupil_report.html", teacher=teacher, cls=cls, pupil=pupil, report=report, weeks=weeks,
        week_choices=progress.WEEK_CHOICES, families=FAMILIES, printed_on=store.today(),
        alerts=[progress.alert_text(a, language) for a in report.alerts], decimal=lambda v: decimal_text(v, 1),
        **_names(language),
    )  # fmt: skip


@bp.get("/teacher/classes/<class_id>/pupils/<pupil_id>/report.csv")
@class_required
def pupil_report_csv(teacher: Teacher, cls: SchoolClass, pupil_id: str) -> Response:
    pupil = _pupil(cls, pupil_id)
    weeks = progress.weeks_shown(request.args.get("weeks") or progress.PUPIL_REPORT_WEEKS)
    report = progress.pupil_report(cls, pupil, weeks)
    data = pupil_csv(report, lang(), progress.skill_name, progress.level_name,
                     lambda status, language: translate(STATUS_NAMES[status], language), local_time)  # fmt: skip
    number = f"{pupil.number:02d}-" if pupil.number is not None else ""
    return csv_response(data, f"suji-{cls.name}-{cls.school_year}-{number}{pupil.name}.csv")


# ---- the class page's "Alerts" panel ----


def alerts_part(cls: SchoolClass) -> tuple[str, dict]:
    language = lang()
    alerts = rules.grouped(progress.class_alerts(cls, store.pupils_of(cls)))
    return "classes/_alerts.html", {
        "first": True, "alerts": [(a, progress.alert_text(a, language)) for a in alerts[:MAX_ALERTS_SHOWN]],
        "more": max(0, len(alerts) - MAX_ALERTS_SHOWN),
    }  # fmt: skip


if alerts_part not in CLASS_PAGE:
    CLASS_PAGE.insert(0, alerts_part)
