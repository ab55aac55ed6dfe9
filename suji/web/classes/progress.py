"""What a class's reports read from the rows: every answer of the weeks shown with its skills, the learner
model's levels, the alerts, and one pupil's report.

    PracticeAnswer (a pupil's practice, adaptive homework included) ──the item's families──┐
    AssignmentAttempt of fixed sets and live lessons ──the written formula's families──────┼─▶ Answered…
    PracticeProfile.learner_json ──suji.learner.mastery.levels──▶ each skill's level now ───┘
        ──suji.play.school.progress, .reports──▶ the grid's rows, the alerts, a pupil's report

A bounded number of queries a page, whatever the class holds: the answers of the weeks shown (at most
MAX_WEEKS) in two queries for the whole roster, the profiles in one; a pupil's report adds three a homework.
Days are the school's (SUJI_DAILY_TZ), weeks start on Monday. Adaptive homework answers are practice answers
(the pupil's own profile), so they are read there and not again from the attempts.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from datetime import UTC, date, datetime, time, timedelta
from fractions import Fraction

from sqlalchemy import func, select

from suji.core.i18n import translate
from suji.learner.families import FAMILY_NAMES
from suji.learner.mastery import LEVEL_NAMES, levels
from suji.play.classroom import SKIPPED, mistake_name
from suji.play.school import reports
from suji.play.school.progress import (
    PupilProgress,
    PupilReport,
    WorkLine,
    formula_skills,
    pupil_progress,
    strengths,
)
from suji.play.school.reports import Alert, Answered, DueWork, PupilFacts, assignment_report, week_starts
from suji.web.classes import store, work
from suji.web.classes.models import (
    ADAPTIVE,
    LIVE,
    Assignment,
    AssignmentAttempt,
    AssignmentWork,
    ClassPupil,
    SchoolClass,
)
from suji.web.extensions import db
from suji.web.models import utcnow
from suji.web.practice import store as practice
from suji.web.practice.models import PracticeAnswer, PracticeProfile
from suji.web.settings import local_time, local_zone

# 13 weeks is a term (学期): a teacher compares this term's weeks with the last one's at a glance.
WEEK_CHOICES = (4, 6, 8, 13)
MAX_WEEKS = max(WEEK_CHOICES)
# ?weeks=year: the class's school year so far, a column a month (at most 12, whatever the class holds: each month's
# answers are counted by the database, a row per pupil, problem and outcome, not read one by one).
YEAR = "year"
PUPIL_REPORT_WEEKS = 8  # the printed page for a parents' meeting, unless the teacher asks for another
# Not mistakes of a formula: a practice goal of points not reached (a target was made), a problem skipped.
NOT_MISTAKES = ("below_goal", SKIPPED)


def weeks_shown(raw: object) -> int:
    """The number of weeks a page asked for (?weeks=), one of WEEK_CHOICES, else reports.WEEKS."""
    text = str(raw or "")
    return int(text) if text.isdigit() and int(text) in WEEK_CHOICES else reports.WEEKS


def year_shown(raw: object) -> bool:
    """Whether a page asked for the school year by month (?weeks=year)."""
    return str(raw or "") == YEAR


def year_months(cls: SchoolClass, today: date | None = None) -> tuple[list[date], list[date]]:
    """The months of the class's school year up to today's (all of them once the year is over): each one's first
    day and the day after its last (reports.month_periods). A class made before its year begins shows its first
    month."""
    last = cls.ends_on
    first = _year_first_day(last)
    return reports.month_periods(first, max(first, min(today or store.today(), last)))


def _year_first_day(last: date) -> date:
    """The first day of the school year that ends on `last`: the first of the month after its month, a year
    earlier (1 April for 31 March, and for a 修了式 on 24 March too), so that the year has twelve months at most."""
    return date(last.year - 1 + last.month // 12, last.month % 12 + 1, 1)


def starts_of(weeks: int, today: date | None = None) -> list[date]:
    """The Mondays of the weeks shown, the school's current week last."""
    return week_starts(today or store.today(), weeks)


def _moment(day: date) -> datetime:
    """The start of a school day as a stored moment (naive UTC)."""
    return datetime.combine(day, time(0), tzinfo=local_zone()).astimezone(UTC).replace(tzinfo=None)


def _day(moment: datetime) -> date:
    return moment.replace(tzinfo=UTC).astimezone(local_zone()).date()


def answers_of(pupils: Sequence[ClassPupil], since: datetime) -> dict[int, list[tuple[datetime, Answered]]]:
    """Every answer of these pupils since `since`, oldest first, by the pupil's row id."""
    found: dict[int, list[tuple[datetime, Answered]]] = {p.id: [] for p in pupils}
    by_profile = {p.profile_id: p.id for p in pupils if p.profile_id is not None}
    bank = practice.bank()
    if by_profile:
        rows = db.session.execute(
            select(PracticeAnswer.profile_id, PracticeAnswer.item_key, PracticeAnswer.made_goal, PracticeAnswer.answered_at)
            .where(PracticeAnswer.profile_id.in_(list(by_profile)), PracticeAnswer.answered_at >= since)
        )  # fmt: skip
        for profile_id, key, made, at in rows:
            item = bank.get(key)
            skills = item.needs if item is not None else frozenset()
            found[by_profile[profile_id]].append((at, Answered(_day(at), bool(made), skills)))
    if pupils:
        rows = db.session.execute(
            select(AssignmentAttempt.pupil_id, AssignmentAttempt.formula, AssignmentAttempt.made, AssignmentAttempt.created_at)
            .where(AssignmentAttempt.pupil_id.in_([p.id for p in pupils]), AssignmentAttempt.item_key.is_(None),
                   AssignmentAttempt.created_at >= since)
        )  # fmt: skip
        for pupil_id, formula, made, at in rows:
            found[pupil_id].append((at, Answered(_day(at), bool(made), formula_skills(formula or ""))))
    for answers in found.values():
        answers.sort(key=lambda pair: pair[0])
    return found


def profiles_of(pupils: Sequence[ClassPupil]) -> dict[int, PracticeProfile]:
    """The pupils' practice profiles by the pupil's row id (a pupil who never signed in has none)."""
    ids = {p.profile_id: p.id for p in pupils if p.profile_id is not None}
    if not ids:
        return {}
    rows = db.session.scalars(select(PracticeProfile).where(PracticeProfile.id.in_(list(ids))))
    return {ids[row.id]: row for row in rows}


def levels_of(profile: PracticeProfile | None) -> dict[str, str]:
    """Each skill's mastery level now, from the learner model (all "not started" without a profile)."""
    return levels(practice.learner_of(profile), practice.references())


def month_answers_of(pupils: Sequence[ClassPupil], starts: Sequence[date], ends: Sequence[date]
                     ) -> dict[int, list[Answered]]:  # fmt: skip
    """Every answer of these pupils in each month, counted by the database: per month two queries, a row per
    pupil, problem (practice item or written formula) and outcome; each an Answered on the month's first day."""
    found: dict[int, list[Answered]] = {p.id: [] for p in pupils}
    by_profile = {p.profile_id: p.id for p in pupils if p.profile_id is not None}
    bank = practice.bank()
    for start, end in zip(starts, ends, strict=True):
        since, until = _moment(start), _moment(end)
        if by_profile:
            rows = db.session.execute(
                select(PracticeAnswer.profile_id, PracticeAnswer.item_key, PracticeAnswer.made_goal, func.count())
                .where(PracticeAnswer.profile_id.in_(list(by_profile)), PracticeAnswer.answered_at >= since,
                       PracticeAnswer.answered_at < until)
                .group_by(PracticeAnswer.profile_id, PracticeAnswer.item_key, PracticeAnswer.made_goal)
            )  # fmt: skip
            for profile_id, key, made, n in rows:
                item = bank.get(key)
                skills = item.needs if item is not None else frozenset()
                found[by_profile[profile_id]].append(Answered(start, bool(made), skills, n))
        if pupils:
            rows = db.session.execute(
                select(AssignmentAttempt.pupil_id, AssignmentAttempt.formula, AssignmentAttempt.made, func.count())
                .where(AssignmentAttempt.pupil_id.in_([p.id for p in pupils]), AssignmentAttempt.item_key.is_(None),
                       AssignmentAttempt.created_at >= since, AssignmentAttempt.created_at < until)
                .group_by(AssignmentAttempt.pupil_id, AssignmentAttempt.formula, AssignmentAttempt.made)
            )  # fmt: skip
            for pupil_id, formula, made, n in rows:
                found[pupil_id].append(Answered(start, bool(made), formula_skills(formula or ""), n))
    return found


def class_year_progress(cls: SchoolClass, pupils: Sequence[ClassPupil]
                        ) -> tuple[list[date], list[date], list[PupilProgress]]:  # fmt: skip
    """The grid over the school year so far: the months' first days, the days after them, a row per pupil."""
    starts, ends = year_months(cls)
    answers = month_answers_of(pupils, starts, ends)
    profiles = profiles_of(pupils)
    rows = [pupil_progress(p.public_id, p.name, p.number, levels_of(profiles.get(p.id)), answers[p.id], starts,
                           ends) for p in pupils]  # fmt: skip
    return starts, ends, rows


def grid_asked(cls: SchoolClass, pupils: Sequence[ClassPupil], raw: object
               ) -> tuple[bool, int | str, list[date], list[PupilProgress]]:  # fmt: skip
    """The grid a page asked for with ?weeks= (raw): whether by month, the choice (a number of weeks or YEAR), the
    periods' first days and a row per pupil; the reports page and its CSV read it alike."""
    if year_shown(raw):
        starts, _, rows = class_year_progress(cls, pupils)
        return True, YEAR, starts, rows
    weeks = weeks_shown(raw)
    starts, rows = class_progress(pupils, weeks)
    return False, weeks, starts, rows


def class_progress(pupils: Sequence[ClassPupil], weeks: int) -> tuple[list[date], list[PupilProgress]]:
    """The grid: the Mondays of the weeks shown, and a row per pupil in the roster's order."""
    starts = starts_of(weeks)
    answers = answers_of(pupils, _moment(starts[0]))
    profiles = profiles_of(pupils)
    rows = [pupil_progress(p.public_id, p.name, p.number, levels_of(profiles.get(p.id)),
                           [a for _, a in answers[p.id]], starts) for p in pupils]  # fmt: skip
    return starts, rows


# ---- alerts ----


def _open_homework(cls: SchoolClass, now: datetime) -> list[DueWork]:
    """The class's homework due within the alerts' two days, with who has started each."""
    soon = [a for a in work.assignments_of(cls) if a.due_at is not None
            and now <= a.due_at <= now + timedelta(days=reports.NOT_STARTED_DAYS)]  # fmt: skip
    if not soon:
        return []
    started: dict[int, set[str]] = {a.id: set() for a in soon}
    rows = db.session.execute(
        select(AssignmentWork.assignment_id, ClassPupil.public_id).join(ClassPupil, ClassPupil.id == AssignmentWork.pupil_id)
        .where(AssignmentWork.assignment_id.in_(list(started)))
    )  # fmt: skip
    for assignment_id, public_id in rows:
        started[assignment_id].add(public_id)
    return [DueWork(a.title, a.opens_at, a.due_at, frozenset(started[a.id])) for a in soon]  # type: ignore[arg-type]


def class_alerts(cls: SchoolClass, pupils: Sequence[ClassPupil], now: datetime | None = None) -> list[Alert]:
    """The class page's alerts (suji.play.school.reports.class_alerts) over the answers of the weeks shown."""
    now = now or utcnow()
    answers = answers_of(pupils, _moment(starts_of(reports.WEEKS)[0]))
    facts = []
    for pupil in pupils:
        mine = answers[pupil.id]
        moments = [m for m in (pupil.last_active_at, mine[-1][0] if mine else None) if m is not None]
        facts.append(PupilFacts(pupil.public_id, pupil.name, pupil.created_at, max(moments) if moments else None,
                                [(a.made, a.skills) for _, a in mine]))  # fmt: skip
    return reports.class_alerts(facts, _open_homework(cls, now), now)


def alert_text(alert: Alert, lang: str) -> str:
    """An alert in the teacher's language: the skill by its name, the due date in the school's time."""

    def shown(name: str, value: object, lang: str) -> object:
        if name == "skill":
            return translate(FAMILY_NAMES[value], lang) if value in FAMILY_NAMES else value
        if name == "due" and isinstance(value, datetime):
            return local_time(value)
        return value

    return alert.message(lang, shown)


def skill_name(skill: str, lang: str) -> str:
    return translate(FAMILY_NAMES[skill], lang)


def level_name(level: str, lang: str) -> str:
    return translate(LEVEL_NAMES[level], lang) if level in LEVEL_NAMES else ""


# ---- one pupil ----


def _work_line(assignment: Assignment, pupil: ClassPupil, pupils: Sequence[ClassPupil]) -> WorkLine:
    """The pupil's line of one homework or live lesson, with how the class did (counts and a mean, no names)."""
    work.settle_time_up(assignment)
    homework = work.homework_of(assignment)
    works, _ = work.pupil_works(assignment, pupils)
    report = assignment_report(work.problems_of(assignment), works, [], homework.first_attempt_only)
    row = next(r for r, p in zip(report.rows, pupils, strict=True) if p.id == pupil.id)
    finished = [r.score for r in report.rows if r.work.finished_at is not None]
    adaptive = assignment.kind == ADAPTIVE
    return WorkLine(
        assignment.title, assignment.kind, assignment.due_at or assignment.created_at, row.status,
        None if row.status == reports.NOT_STARTED else row.score, None if adaptive else report.best_total,
        row.work.items_done, row.late, len(finished), len(pupils),
        Fraction(sum(finished), len(finished)) if finished else None,
    )  # fmt: skip


def _mistake(pupil: ClassPupil) -> tuple[str | None, int]:
    """The mistake the pupil's answers ran into most often (ties to the first by name), of every answer kept:
    homework, live lessons and practice. A formula the checker refuses is no answer and is not kept, so this is
    "not a target" (or, from rows kept before that rule, a checker's code)."""
    counts: Counter[str] = Counter()
    for code, n in db.session.execute(
        select(AssignmentAttempt.error_code, func.count()).where(
            AssignmentAttempt.pupil_id == pupil.id, AssignmentAttempt.error_code.is_not(None),
            AssignmentAttempt.error_code.not_in(NOT_MISTAKES))
        .group_by(AssignmentAttempt.error_code)
    ):  # fmt: skip
        counts[str(code)] += n
    if pupil.profile_id is not None:
        for code, n in db.session.execute(
            select(PracticeAnswer.error_code, func.count()).where(
                PracticeAnswer.profile_id == pupil.profile_id, PracticeAnswer.error_code.is_not(None),
                PracticeAnswer.error_code.not_in(NOT_MISTAKES))
            .group_by(PracticeAnswer.error_code)
        ):  # fmt: skip
            counts[str(code)] += n
    ranked = sorted(counts.items(), key=lambda item: (-item[1], item[0]))
    return (ranked[0][0], ranked[0][1]) if ranked else (None, 0)


def pupil_report(cls: SchoolClass, pupil: ClassPupil, weeks: int) -> PupilReport:
    """Everything the printed page says about one pupil of `cls`."""
    pupils = store.pupils_of(cls)
    starts = starts_of(weeks)
    answers = answers_of([pupil], _moment(starts[0]))[pupil.id]
    profile = profiles_of([pupil]).get(pupil.id)
    progress = pupil_progress(pupil.public_id, pupil.name, pupil.number, levels_of(profile),
                              [a for _, a in answers], starts)  # fmt: skip
    alerts = [a for a in class_alerts(cls, [pupil]) if a.pupil_id == pupil.public_id]
    homework = sorted(work.assignments_of(cls), key=lambda a: (a.due_at or a.created_at, a.id))
    lessons = sorted(work.assignments_of(cls, (LIVE,)), key=lambda a: (a.created_at, a.id))
    mistake, times = _mistake(pupil)
    strong, weak = strengths(progress.levels, alerts)
    days = practice.days_of(profile)
    return PupilReport(
        progress, tuple(starts), tuple(_work_line(a, pupil, pupils) for a in homework),
        tuple(_work_line(a, pupil, pupils) for a in lessons), tuple(alerts), mistake, times,
        days.current(store.today()), days.longest, strong, weak,
    )  # fmt: skip


def mistake_text(code: str | None, lang: str) -> str:
    return mistake_name(code, lang)

