"""A pupil's record on the database: homework and live lessons, each pupil's work, answers and attempts.

    the teacher's form ──suji.play.school.homework.parse_homework──▶ Homework ──create_homework──▶ Assignment
    Assignment ──homework_of, problems_of──▶ Homework, ClassProblem…            (the pure values the rules take)
    a pupil's formula ──answer_fixed (one transaction, the work row locked)──▶ AssignmentAnswer + AssignmentAttempt
    a pupil's practice item ──answer_adaptive (practice's transaction)──▶ PracticeAnswer + the work's counts
    a move in a live session (suji.web.classroom) ──keep_live_work──▶ the same rows, the lesson's record
    rows ──pupil_works──▶ suji.play.school.reports.PupilWork… and the mistakes (what the reports read)

One answer is one transaction: the pupil's work row is locked first (SELECT … FOR UPDATE on PostgreSQL; SQLite
takes the write lock at BEGIN, suji.web.models), then the problem's row, read afresh under the lock; the pure
move (suji.play.classroom.grade, skip, take_hint) is worked out on what was read and written before the commit.
Two answers at the same moment from one pupil's two devices queue: the second sees the first. A form that shows
an older state (its attempt count, or the item it showed) is refused as stale instead of counting twice.
Adaptive homework is practice (suji.web.practice): its answer's transaction locks the practice profile, then
this work row. Times are naive UTC, as everything stored.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime

from sqlalchemy import and_, func, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm.exc import StaleDataError

from suji.core.errors import SujiError
from suji.core.i18n import N_
from suji.play import classroom as core
from suji.play.classroom import ClassProblem, ClassSettings, Progress
from suji.play.school import homework as rules
from suji.play.school.homework import Homework
from suji.play.school.reports import PupilWork
from suji.rules.language.reader import MAX_FORMULA_LENGTH
from suji.web.classes.models import (
    ADAPTIVE,
    FIXED,
    LIVE,
    Assignment,
    AssignmentAnswer,
    AssignmentAttempt,
    AssignmentWork,
    ClassPupil,
    SchoolClass,
)
from suji.web.classes.store import new_public_id
from suji.web.classroom import store as classroom
from suji.web.classroom_models import ClassSession, ClassStudent
from suji.web.extensions import db
from suji.web.models import insert_or_keep, utcnow

MAX_FORMULA = MAX_FORMULA_LENGTH  # what a stored formula may hold (the column's size)

MESSAGES = {
    "not_open": N_("This homework opens on %(when)s."),
    "time_up": N_("Time is up for this homework. Everything you answered is kept."),
    "not_started": N_("Press “Start” first: the time begins then."),
    "finished": N_("You have finished this homework. Well done!"),
    "stale": N_("That was already done (the page may have been sent twice, or from another tablet). Here is where you are."),
    "gone": N_("This homework is no longer there. Your teacher may have deleted it."),
}


class WorkError(SujiError):
    """Why a pupil's answer is refused (nothing is counted then); `code` a key of MESSAGES."""

    MESSAGES = MESSAGES


# ---- assignments ----


def create_homework(cls: SchoolClass, homework: Homework) -> Assignment:
    """The class's new homework: a fixed set keeps its problems (the printed sheet's) with it."""
    homework = rules.with_seed(homework)
    problems = rules.problems(homework) if homework.kind == FIXED else ()
    row = Assignment(public_id=new_public_id(), class_id=cls.id, kind=homework.kind, title=homework.title,
                     settings_json=json.dumps(homework.to_dict(), ensure_ascii=False),
                     problems_json=json.dumps([p.to_dict() for p in problems], ensure_ascii=False),
                     opens_at=homework.opens_at, due_at=homework.due_at)  # fmt: skip
    db.session.add(row)
    db.session.commit()
    return row


def reschedule(assignment: Assignment, title: str, due_at: datetime) -> None:
    """A homework's new title and due date; what was handed in after it is marked late, and only that (a due date
    moved later clears the late marks of work done before it)."""
    data = json.loads(assignment.settings_json)
    data["title"] = title
    assignment.title, assignment.settings_json, assignment.due_at = title, json.dumps(data, ensure_ascii=False), due_at
    mine = AssignmentAttempt.assignment_id == assignment.id
    db.session.execute(update(AssignmentAttempt).where(mine).values(late=AssignmentAttempt.created_at > due_at))
    db.session.execute(
        update(AssignmentAnswer).where(AssignmentAnswer.assignment_id == assignment.id)
        .values(late=and_(AssignmentAnswer.done, AssignmentAnswer.updated_at > due_at))
    )  # fmt: skip
    db.session.execute(
        update(AssignmentWork).where(AssignmentWork.assignment_id == assignment.id)
        .values(finished_late=and_(AssignmentWork.finished_at.is_not(None), AssignmentWork.finished_at > due_at))
    )  # fmt: skip
    _commit()


def homework_of(assignment: Assignment) -> Homework:
    data = json.loads(assignment.settings_json)
    if assignment.kind == LIVE:  # a live lesson's settings are a class session's
        settings = ClassSettings.from_dict(data)
        return Homework(assignment.title, FIXED, None, None, settings.count, settings.level, settings.seed,
                        settings.version, None, settings.hints, settings.hint_cost)  # fmt: skip
    return Homework.from_dict(data, assignment.opens_at, assignment.due_at)


def problems_of(assignment: Assignment) -> tuple[ClassProblem, ...]:
    return tuple(ClassProblem.from_dict(p) for p in json.loads(assignment.problems_json))


def assignments_of(cls: SchoolClass, kinds: Sequence[str] = (FIXED, ADAPTIVE)) -> list[Assignment]:
    """The class's homework (or live lessons), the latest due (or made) first."""
    rows = db.session.scalars(
        select(Assignment).where(Assignment.class_id == cls.id, Assignment.kind.in_(kinds))
    ).all()
    return sorted(rows, key=lambda a: (a.due_at or a.created_at, a.id), reverse=True)


def assignment_in(cls: SchoolClass, public_id: str) -> Assignment | None:
    if not 0 < len(public_id) <= 24:
        return None
    return db.session.scalar(
        select(Assignment).where(Assignment.public_id == public_id, Assignment.class_id == cls.id)
    )


def delete_assignment(assignment: Assignment) -> None:
    """The assignment with every pupil's work on it, children first (as every delete here)."""
    delete_assignments([assignment.id])
    db.session.commit()


def delete_assignments(ids: list[int]) -> None:
    from sqlalchemy import delete

    if not ids:
        return
    for table in (AssignmentAttempt, AssignmentAnswer, AssignmentWork):
        db.session.execute(delete(table).where(table.assignment_id.in_(ids)))
    db.session.execute(delete(Assignment).where(Assignment.id.in_(ids)))


# ---- one pupil's work ----


def work_of(assignment: Assignment, pupil: ClassPupil) -> AssignmentWork | None:
    return db.session.scalar(
        select(AssignmentWork).where(AssignmentWork.assignment_id == assignment.id, AssignmentWork.pupil_id == pupil.id)
    )  # fmt: skip


def _locked_work(assignment: Assignment, pupil_id: int, now: datetime) -> AssignmentWork:
    """The pupil's work row, made (started now) if it is not there, locked until the transaction ends."""
    insert_or_keep(
        AssignmentWork,
        {"assignment_id": assignment.id, "pupil_id": pupil_id, "started_at": now, "finished_late": False,
         "items_done": 0, "items_made": 0, "seconds": 0.0, "version": 1},
    )  # fmt: skip
    return db.session.scalars(
        select(AssignmentWork)
        .where(AssignmentWork.assignment_id == assignment.id, AssignmentWork.pupil_id == pupil_id)
        .with_for_update()
        .execution_options(populate_existing=True)
    ).one()


def _answer_row(work: AssignmentWork, index: int) -> AssignmentAnswer:
    """The work's row for problem `index`, read afresh (it is under the work's lock), made empty on first use."""
    row = db.session.scalars(
        select(AssignmentAnswer)
        .where(AssignmentAnswer.work_id == work.id, AssignmentAnswer.problem == index)
        .execution_options(populate_existing=True)
    ).one_or_none()
    if row is None:
        row = AssignmentAnswer(work_id=work.id, assignment_id=work.assignment_id, problem=index, attempts=0,
                               hints_used=0, solved=False, done=False, score=0, formula="", late=False)  # fmt: skip
        db.session.add(row)
    return row


def progress_of(row: AssignmentAnswer | None) -> Progress:
    if row is None:
        return Progress()
    return Progress(row.attempts, row.hints_used, row.solved, row.done, row.score, row.formula)


def _store_progress(row: AssignmentAnswer, progress: Progress, late: bool, now: datetime) -> None:
    row.attempts, row.hints_used, row.solved = progress.attempts, progress.hints_used, progress.solved
    row.done, row.score, row.formula = progress.done, progress.score, progress.formula[:MAX_FORMULA]
    row.late = row.late or (late and progress.done)
    row.updated_at = now


def answers_of(work: AssignmentWork | None) -> dict[int, AssignmentAnswer]:
    if work is None:
        return {}
    rows = db.session.scalars(select(AssignmentAnswer).where(AssignmentAnswer.work_id == work.id))
    return {r.problem: r for r in rows}


def settings_for(assignment: Assignment, pupil: ClassPupil) -> ClassSettings:
    """The problems' settings as they apply to this pupil: free hints cost nothing (an accommodation)."""
    settings = homework_of(assignment).class_settings()
    return replace(settings, hint_cost=False) if pupil.free_hints else settings


def deadline_of(assignment: Assignment, work: AssignmentWork | None, pupil: ClassPupil) -> datetime | None:
    """When a timed set stops taking this pupil's answers (×1.5, ×2 or untimed as their extra time says)."""
    return rules.deadline(homework_of(assignment), work.started_at if work else None, pupil.extra_time)


def _touch(pupil_id: int, now: datetime) -> None:
    # A plain UPDATE, not the ORM's versioned one: two answers at once from one pupil must not fail on this.
    db.session.execute(update(ClassPupil).where(ClassPupil.id == pupil_id).values(last_active_at=now))


def _late(assignment: Assignment, now: datetime) -> bool:
    return assignment.due_at is not None and now > assignment.due_at


def _check_open(assignment: Assignment, work: AssignmentWork, pupil: ClassPupil, now: datetime) -> None:
    """Refuse an answer before the opening time, or after this pupil's time limit (a timed set)."""
    homework = homework_of(assignment)
    if rules.window(homework, now) == rules.NOT_OPEN:
        raise WorkError("not_open", when=assignment.opens_at)
    end = rules.deadline(homework, work.started_at, pupil.extra_time)
    if end is not None and now > end:  # marked finished by settle_time_up, in a transaction of its own
        raise WorkError("time_up")


def _finish_if_done(assignment: Assignment, work: AssignmentWork, count: int, now: datetime) -> None:
    if work.finished_at is not None:
        return
    done = db.session.scalar(
        select(func.count()).where(AssignmentAnswer.work_id == work.id, AssignmentAnswer.done.is_(True))
    )
    if (done or 0) >= count:
        work.finished_at, work.finished_late = now, _late(assignment, now)


def start(assignment: Assignment, pupil: ClassPupil, now: datetime | None = None) -> AssignmentWork:
    """Begin the pupil's work (a timed set's time runs from now); starting again changes nothing."""
    now = now or utcnow()
    if rules.window(homework_of(assignment), now) == rules.NOT_OPEN:
        raise WorkError("not_open", when=assignment.opens_at)
    work = _locked_work(assignment, pupil.id, now)
    _touch(pupil.id, now)
    db.session.commit()
    return work


def _commit() -> None:
    try:
        db.session.commit()
    except (IntegrityError, StaleDataError):  # the same form from two devices at once: one of them counts
        db.session.rollback()
        raise WorkError("stale") from None


def answer_fixed(assignment: Assignment, pupil: ClassPupil, index: int, attempts_shown: int | None,
                 formula: str | None, now: datetime | None = None) -> tuple[Progress, core.Attempt | None]:  # fmt: skip
    """One formula for problem `index` (None: skip it), in one transaction; the new progress and the attempt.

    `attempts_shown` is the number of tries the pupil's page showed: another number means the page is stale
    (the form sent twice, or answered meanwhile on another device) and nothing is counted (WorkError "stale").
    Raises WorkError or ClassError (an empty formula, a problem done) and then counts nothing."""
    now = now or utcnow()
    problems = problems_of(assignment)
    if not 0 <= index < len(problems):
        raise WorkError("stale")
    try:
        work = _locked_work(assignment, pupil.id, now)  # made now if the pupil never pressed "Start"
        _check_open(assignment, work, pupil, now)
        row = _answer_row(work, index)
        if attempts_shown != row.attempts:
            raise WorkError("stale")
        before = progress_of(row)
        late = _late(assignment, now)
        if formula is None:
            after, attempt = core.skip(before), None
            number, code, shown, score = before.attempts + 1, core.SKIPPED, "", 0
        else:
            after, attempt = core.grade(formula, problems[index], before, settings_for(assignment, pupil))
            number, code, shown, score = attempt.number, attempt.error_code, attempt.formula, attempt.score
        _store_progress(row, after, late, now)
        if before.attempts == 0 and row.first_score is None:
            row.first_score = score if code is None else 0
        db.session.add(AssignmentAttempt(work_id=work.id, assignment_id=assignment.id, pupil_id=pupil.id,
                                         problem=index, number=number, formula=shown[:MAX_FORMULA], error_code=code,
                                         made=code is None, score=score, late=late, created_at=now))  # fmt: skip
        work.last_answer_at = now
        _finish_if_done(assignment, work, len(problems), now)
        _touch(pupil.id, now)
    except SujiError:
        db.session.rollback()
        raise
    _commit()
    return after, attempt


def hint_fixed(assignment: Assignment, pupil: ClassPupil, index: int, step: object,
               now: datetime | None = None) -> tuple[Progress, object]:  # fmt: skip
    """Hint `step` of problem `index` (counted and priced once, as in class mode), in one transaction."""
    now = now or utcnow()
    problems = problems_of(assignment)
    if not 0 <= index < len(problems):
        raise WorkError("stale")
    try:
        work = _locked_work(assignment, pupil.id, now)
        _check_open(assignment, work, pupil, now)
        row = _answer_row(work, index)
        after, shown = core.take_hint(problems[index], progress_of(row), settings_for(assignment, pupil), step)  # type: ignore[arg-type]
        _store_progress(row, after, False, now)
        _touch(pupil.id, now)
    except SujiError:
        db.session.rollback()
        raise
    _commit()
    return after, shown


def settle_time_up(assignment: Assignment, now: datetime | None = None) -> None:
    """Mark finished (when its time ran out) every pupil's timed work past its limit that nobody has looked at
    since: the reports then count it as finished. A live lesson's work is finished once the lesson has ended."""
    if assignment.kind == LIVE:
        settle_ended(assignment, now)
        return
    homework = homework_of(assignment)
    if homework.time_limit is None:
        return
    now = now or utcnow()
    rows = db.session.execute(
        select(AssignmentWork, ClassPupil.extra_time).join(ClassPupil, ClassPupil.id == AssignmentWork.pupil_id)
        .where(AssignmentWork.assignment_id == assignment.id, AssignmentWork.finished_at.is_(None))
    ).all()  # fmt: skip
    changed = False
    for work, extra in rows:
        end = rules.deadline(homework, work.started_at, extra)
        if end is not None and now > end:
            work.finished_at, work.finished_late, changed = end, _late(assignment, end), True
    if changed:
        try:
            db.session.commit()
        except StaleDataError:  # the pupil answered meanwhile; the next look settles it
            db.session.rollback()


def settle_ended(lesson: Assignment, now: datetime | None = None) -> None:
    """Mark finished, when the lesson ended for them, the work of every pupil who began it and is not done: a
    lesson the teacher ended, whose time ran out (a pupil's extra time counted), or whose session is gone."""
    now = now or utcnow()
    session = db.session.get(ClassSession, lesson.class_session_id) if lesson.class_session_id else None
    rows = db.session.execute(
        select(AssignmentWork).where(AssignmentWork.assignment_id == lesson.id, AssignmentWork.finished_at.is_(None))
    ).scalars().all()  # fmt: skip
    students = {}  # the session's rows of these pupils, read in one query
    if session is not None and rows:
        students = {s.pupil_id: s for s in db.session.scalars(
            select(ClassStudent).where(ClassStudent.session_id == session.id,
                                       ClassStudent.pupil_id.in_([w.pupil_id for w in rows]))
        )}  # fmt: skip
    changed = False
    for work in rows:
        if session is None:  # purged or deleted: long over
            end = work.last_answer_at or work.started_at or now
        else:
            student = students.get(work.pupil_id)
            if classroom.phase(session, now, student) != core.ENDED:
                continue
            lived = classroom.pupil_clock(session, student)
            end = min(filter(None, (lived.ended_at, lived.ends_at, now)))
        work.finished_at, work.finished_late, changed = end, False, True
    if changed:
        try:
            db.session.commit()
        except StaleDataError:  # a move meanwhile; the next look settles it
            db.session.rollback()


# ---- what the reports and the pages read ----


@dataclass(frozen=True)
class ClassFigures:
    """What a pupil may see of the class's work on an assignment: counts and a mean, no names."""

    pupils: int
    finished: int
    mean_score: float | None  # over the pupils who finished, once `min_group` have
    min_group: int  # suji.play.school.reports.MEAN_MIN_GROUP


def pupil_works(assignment: Assignment, pupils: Sequence[ClassPupil]) -> tuple[list[PupilWork], list[tuple[int, str, int]]]:
    """Every pupil's work on the assignment as suji.play.school.reports reads it (in the order of `pupils`, the
    ones who have not started with empty work), and the mistakes as (problem index, error code, times)."""
    works = {w.pupil_id: w for w in db.session.scalars(
        select(AssignmentWork).where(AssignmentWork.assignment_id == assignment.id))}  # fmt: skip
    cells: dict[int, dict[int, AssignmentAnswer]] = {}
    for row in db.session.scalars(select(AssignmentAnswer).where(AssignmentAnswer.assignment_id == assignment.id)):
        cells.setdefault(row.work_id, {})[row.problem] = row
    out = []
    for pupil in pupils:
        work = works.get(pupil.id)
        if work is None:
            out.append(PupilWork(pupil.name, pupil.number, cells={}, first_scores={}))
            continue
        mine = cells.get(work.id, {})
        out.append(PupilWork(
            pupil.name, pupil.number, work.started_at, work.finished_at, work.finished_late,
            {i: progress_of(r) for i, r in mine.items()}, {i: r.first_score for i, r in mine.items()},
            frozenset(i for i, r in mine.items() if r.late), work.items_done, work.items_made, work.seconds,
        ))  # fmt: skip
    mistakes = db.session.execute(
        select(AssignmentAttempt.problem, AssignmentAttempt.error_code, func.count())
        .where(AssignmentAttempt.assignment_id == assignment.id, AssignmentAttempt.error_code.is_not(None))
        .group_by(AssignmentAttempt.problem, AssignmentAttempt.error_code)
    ).all()  # fmt: skip
    return out, [(p, str(c), n) for p, c, n in mistakes]


def class_figures(assignment: Assignment, pupils: int) -> ClassFigures:
    """How the class did, without names: how many finished and their mean counted score (items made, adaptive)."""
    from suji.play.school.reports import MEAN_MIN_GROUP, assignment_report, class_mean

    if assignment.kind == ADAPTIVE:
        rows = db.session.execute(
            select(AssignmentWork.items_made).where(AssignmentWork.assignment_id == assignment.id,
                                                    AssignmentWork.finished_at.is_not(None))
        ).scalars().all()  # fmt: skip
        scores = list(rows)
    else:
        works, _ = pupil_works(assignment, _roster(assignment.class_id))
        report = assignment_report(problems_of(assignment), works, [], homework_of(assignment).first_attempt_only)
        scores = [r.score for r in report.rows if r.work.finished_at is not None]
    return ClassFigures(pupils, len(scores), class_mean(scores), MEAN_MIN_GROUP)


def _roster(class_id: int) -> list[ClassPupil]:
    return list(db.session.scalars(select(ClassPupil).where(ClassPupil.class_id == class_id)))


def counted_score(assignment: Assignment, work: AssignmentWork | None) -> int:
    """What the pupil's work scores (only the first tries when the teacher said so; items made, adaptive)."""
    if work is None:
        return 0
    if assignment.kind == ADAPTIVE:
        return work.items_made
    return sum(counted_by_problem(assignment, answers_of(work)).values())


def counted_by_problem(assignment: Assignment, answers: dict[int, AssignmentAnswer]) -> dict[int, int]:
    """What each answered problem of a fixed set counts (with "only the first attempt counts", the first try's
    score): the one figure the pupil's table, their total and the teacher's report all show."""
    first_only = homework_of(assignment).first_attempt_only
    return {i: rules.counted(progress_of(r), r.first_score, first_only) for i, r in answers.items()}
