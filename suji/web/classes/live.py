"""Live lessons for a class: class mode's sessions made for a teacher's class, and their record in the class.

    the teacher's classes ──teacher_classes, owned_class──▶ the session's school_class_id (suji.web.classroom)
    this browser's signed-in pupil (suji.web.classes.signin) ──signed_in_pupil──▶ joining, named from the roster
    the pupil's row ──accommodations──▶ extra time (×1.5, ×2, untimed) and free hints in the session
    each move of a roster pupil ──keep_work──▶ the lesson's record: an Assignment of kind "live" with the
        pupil's AssignmentWork, AssignmentAnswer and AssignmentAttempt rows, in the move's own transaction

Class mode knows nothing of classes: it calls the hooks of suji.web.classroom.store.roster, set here. The record
is the class's, not the session's: purging or deleting the session (SUJI_CLASS_RETENTION_DAYS, 30 days by
default) leaves it (its class_session_id becomes empty), and it goes with the pupil, or with the class
SUJI_CLASS_KEEP_DAYS after its school year ends.
"""

from __future__ import annotations

import json
from datetime import datetime

from sqlalchemy import delete, select

from suji.play import classroom as core
from suji.play.classroom import Progress
from suji.rules.language.reader import MAX_FORMULA_LENGTH
from suji.web.classes.models import LIVE, Assignment, AssignmentAttempt, ClassPupil, SchoolClass
from suji.web.classes.store import new_public_id
from suji.web.classes.work import _answer_row, _finish_if_done, _locked_work, _store_progress, _touch
from suji.web.classroom import store as classroom
from suji.web.classroom_models import ClassAnswer, ClassAttempt, ClassSession, ClassStudent
from suji.web.extensions import db
from suji.web.models import insert_or_keep, utcnow


def class_name(class_id: int) -> str | None:
    return db.session.scalar(select(SchoolClass.name).where(SchoolClass.id == class_id))


def teacher_classes(teacher_id: int) -> list[tuple[str, str]]:
    rows = db.session.execute(
        select(SchoolClass.public_id, SchoolClass.name).where(SchoolClass.teacher_id == teacher_id)
        .order_by(SchoolClass.school_year.desc(), SchoolClass.name)
    ).all()  # fmt: skip
    return [(p, n) for p, n in rows]


def owned_class(teacher_id: int, public_id: str) -> int | None:
    if not 0 < len(public_id) <= 24:
        return None
    return db.session.scalar(
        select(SchoolClass.id).where(SchoolClass.public_id == public_id, SchoolClass.teacher_id == teacher_id)
    )


def signed_in_pupil(class_id: int) -> tuple[int, str] | None:
    """This browser's signed-in pupil, if they are on that class's roster."""
    from suji.web.classes.signin import current_pupil

    pupil = current_pupil()
    return (pupil.id, pupil.name) if pupil is not None and pupil.class_id == class_id else None


def numbers(pupil_ids: list[int]) -> dict[int, int | None]:
    """The roster's class numbers (出席番号) of these pupils."""
    if not pupil_ids:
        return {}
    return dict(db.session.execute(select(ClassPupil.id, ClassPupil.number).where(ClassPupil.id.in_(pupil_ids))).all())


def accommodations(pupil_id: int) -> tuple[str, bool]:
    pupil = db.session.get(ClassPupil, pupil_id)
    return (pupil.extra_time, pupil.free_hints) if pupil is not None else ("1", False)


def lesson_of(session: ClassSession) -> Assignment:
    """The lesson's record in the class, made (in the caller's transaction) if the session has none yet."""
    insert_or_keep(
        Assignment,
        {"public_id": new_public_id(), "class_id": session.school_class_id, "kind": LIVE, "title": "",
         "settings_json": session.settings_json, "problems_json": session.problems_json, "opens_at": None,
         "due_at": None, "class_session_id": session.id, "created_at": session.created_at, "version": 1},
    )  # fmt: skip
    return db.session.scalars(select(Assignment).where(Assignment.class_session_id == session.id)).one()


def session_made(session: ClassSession) -> None:
    """A session made for a class: its record exists from the start (so the class page lists the lesson)."""
    lesson_of(session)
    db.session.commit()


def keep_work(session: ClassSession, student: ClassStudent, index: int, progress: Progress,
              attempt: object, now: datetime | None = None) -> None:  # fmt: skip
    """Copy a roster pupil's move into the lesson's record: their progress on the problem, and the attempt (a
    core.Attempt, core.SKIPPED for a skip, None for a hint). In the move's transaction; the caller commits."""
    now = now or utcnow()
    lesson = lesson_of(session)
    work = _locked_work(lesson, student.pupil_id, now)  # type: ignore[arg-type]
    row = _answer_row(work, index)
    _store_progress(row, progress, False, now)
    if attempt is not None:
        if isinstance(attempt, core.Attempt):
            number, formula, code, score = attempt.number, attempt.formula, attempt.error_code, attempt.score
        else:  # a skip: the attempt after the last one
            number, formula, code, score = progress.attempts + 1, "", core.SKIPPED, 0
        if number == 1 and row.first_score is None:
            row.first_score = score if code is None else 0
        db.session.add(AssignmentAttempt(work_id=work.id, assignment_id=lesson.id, pupil_id=student.pupil_id,
                                         problem=index, number=number, formula=formula[:MAX_FORMULA_LENGTH], error_code=code,
                                         made=code is None, score=score, late=False, created_at=now))  # fmt: skip
        work.last_answer_at = now
        _finish_if_done(lesson, work, len(json.loads(lesson.problems_json)), now)
    _touch(student.pupil_id, now)  # type: ignore[arg-type]


def install() -> None:
    """Give class mode its hooks (suji.web.classroom.store.roster)."""
    hooks = classroom.roster
    hooks.class_name, hooks.teacher_classes, hooks.owned_class = class_name, teacher_classes, owned_class
    hooks.signed_in_pupil, hooks.accommodations = signed_in_pupil, accommodations
    hooks.keep_work, hooks.session_made, hooks.numbers = keep_work, session_made, numbers


# ---- what a class deletes ----


def delete_pupils_sessions(pupil_ids: list[int]) -> None:
    """The pupils' rows in live sessions, with their answers and attempts (a pupil deleted from the class)."""
    if not pupil_ids:
        return
    theirs = select(ClassStudent.id).where(ClassStudent.pupil_id.in_(pupil_ids)).scalar_subquery()
    for table in (ClassAttempt, ClassAnswer):
        db.session.execute(delete(table).where(table.student_id.in_(theirs)))
    db.session.execute(delete(ClassStudent).where(ClassStudent.pupil_id.in_(pupil_ids)))


def delete_class_sessions(class_ids: list[int]) -> None:
    """The live sessions made for these classes, with everyone in them (a class deleted)."""
    if not class_ids:
        return
    theirs = select(ClassSession.id).where(ClassSession.school_class_id.in_(class_ids)).scalar_subquery()
    for table in (ClassAttempt, ClassAnswer, ClassStudent):
        db.session.execute(delete(table).where(table.session_id.in_(theirs)))
    db.session.execute(delete(ClassSession).where(ClassSession.school_class_id.in_(class_ids)))
