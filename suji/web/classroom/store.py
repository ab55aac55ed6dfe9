"""Class mode's storage: the database rows (suji.web.classroom_models) to and from class mode's pure values.

    ClassSession row ──settings_of, problems_of, clock_of──▶ ClassSettings, ClassProblem…, Clock
    ClassAnswer row  ──progress_of──▶ Progress ──(a move in suji.play.classroom)──▶ Progress ──store_progress──▶ row
    every pupil, answer and attempt of a session ──results_of──▶ the grid (suji.play.classroom.results)

Everything lives in the database and nothing in a server's memory (the parsed problems are cached by their stored
text only), so several app servers behind one PostgreSQL database serve one class. Times are UTC.
"""

from __future__ import annotations

import hashlib
import json
from datetime import datetime, timedelta

from flask import current_app
from sqlalchemy import delete, func, select

from suji.core.caching import bounded
from suji.play.classroom import (
    DEFAULT_RETENTION_DAYS,
    ClassProblem,
    ClassSettings,
    Clock,
    Progress,
    Results,
    clock,
    results,
)
from suji.rules.language.reader import MAX_FORMULA_LENGTH
from suji.web.classroom_models import ClassAnswer, ClassAttempt, ClassJoinFailure, ClassSession, ClassStudent
from suji.web.extensions import db
from suji.web.models import utcnow

MAX_FORMULA = MAX_FORMULA_LENGTH  # what a stored formula may hold (the column's size)
JOIN_WINDOW = timedelta(minutes=10)
# A token hash no token has: the pupil's name is free for the next browser that joins with it, which then carries on
# with that pupil's work (a pupil whose browser lost its cookie: another device, cleared data, a private window).
RELEASED = "released:"
RELEASED_KEPT = 16  # hex digits of the old token's hash kept after RELEASED


def released_hash(token_hash: str) -> str:
    """What a released pupil's row keeps: the start of the old hash, so the browser that had the name is told."""
    return RELEASED + token_hash[:RELEASED_KEPT]


# ---- a session ----


def settings_of(cls: ClassSession) -> ClassSettings:
    return ClassSettings.from_dict(json.loads(cls.settings_json))


def problems_of(cls: ClassSession) -> tuple[ClassProblem, ...]:
    return _parse_problems(cls.problems_json)


@bounded("class_problems")
def _parse_problems(text: str) -> tuple[ClassProblem, ...]:
    # Keyed by the stored text itself, so a cached value can never belong to another or a changed session.
    return tuple(ClassProblem.from_dict(p) for p in json.loads(text))


def clock_of(cls: ClassSession) -> Clock:
    return Clock(cls.status, cls.started_at, cls.ends_at, cls.paused_at, cls.ended_at)


def store_clock(cls: ClassSession, new: Clock) -> None:
    """Write a moved clock back to its row (only what changed: an unchanged row is not written)."""
    for name in ("status", "started_at", "ends_at", "paused_at", "ended_at"):
        if getattr(cls, name) != getattr(new, name):
            setattr(cls, name, getattr(new, name))


def phase(cls: ClassSession, now: datetime | None = None) -> str:
    """The phase pupils are in now (suji.play.classroom.clock.phase)."""
    return clock.phase(clock_of(cls), now or utcnow())


def time_up(cls: ClassSession) -> bool:
    return clock.time_up(clock_of(cls), utcnow())


def seconds_left(cls: ClassSession) -> int | None:
    return clock.seconds_left(clock_of(cls), utcnow())


def retention_days() -> int:
    """How many days sessions are kept: SUJI_CLASS_RETENTION_DAYS (suji.web.settings), 30 by default."""
    raw = current_app.config.get("SUJI_CLASS_RETENTION_DAYS")
    try:
        days = int(raw) if raw is not None else DEFAULT_RETENTION_DAYS
    except ValueError:
        days = DEFAULT_RETENTION_DAYS
    return max(1, days)


def purge_expired(now: datetime | None = None, days: int | None = None) -> int:
    """Delete the sessions (with their pupils, answers and attempts) made more than `days` ago, and join
    failures older than the rate limit's window. Returns how many sessions went. Runs whenever a session is
    made; tests call it directly."""
    now = now or utcnow()
    cutoff = now - timedelta(days=days if days is not None else retention_days())
    old = select(ClassSession.id).where(ClassSession.created_at < cutoff).scalar_subquery()
    # Children first: the same on SQLite (even without foreign keys on) as on PostgreSQL.
    for table in (ClassAttempt, ClassAnswer, ClassStudent):
        db.session.execute(delete(table).where(table.session_id.in_(old)))
    gone = db.session.execute(delete(ClassSession).where(ClassSession.created_at < cutoff)).rowcount
    db.session.execute(delete(ClassJoinFailure).where(ClassJoinFailure.created_at < now - JOIN_WINDOW))
    db.session.commit()
    return gone or 0


def delete_session(cls: ClassSession) -> None:
    """The session with every pupil, answer and attempt, in one transaction."""
    for table in (ClassAttempt, ClassAnswer, ClassStudent):
        db.session.execute(delete(table).where(table.session_id == cls.id))
    db.session.execute(delete(ClassSession).where(ClassSession.id == cls.id))
    db.session.commit()


def delete_teacher_sessions(teacher_id: int) -> None:
    """An account deleted (suji.web.accounts.store.delete_teacher): its sessions go with it (not committed)."""
    owned = select(ClassSession.id).where(ClassSession.teacher_id == teacher_id).scalar_subquery()
    for table in (ClassAttempt, ClassAnswer, ClassStudent):
        db.session.execute(delete(table).where(table.session_id.in_(owned)))
    db.session.execute(delete(ClassSession).where(ClassSession.teacher_id == teacher_id))


# ---- a pupil's work ----


def progress_of(answer: ClassAnswer | None) -> Progress:
    if answer is None:
        return Progress()
    return Progress(
        answer.attempts, answer.hints_used, answer.solved, answer.done, answer.score, answer.formula
    )


def answer_row(cls: ClassSession, me: ClassStudent, index: int) -> ClassAnswer:
    """The pupil's row for problem `index`, made (empty) on the first try."""
    row = db.session.scalar(
        select(ClassAnswer).where(ClassAnswer.student_id == me.id, ClassAnswer.problem == index)
    )
    if row is None:
        row = ClassAnswer(session_id=cls.id, student_id=me.id, problem=index, attempts=0, hints_used=0,
                          solved=False, done=False, score=0, formula="")  # fmt: skip
        db.session.add(row)
    return row


def store_progress(row: ClassAnswer, progress: Progress) -> None:
    row.attempts, row.hints_used, row.solved = progress.attempts, progress.hints_used, progress.solved
    row.done, row.score, row.formula = progress.done, progress.score, progress.formula[:MAX_FORMULA]
    row.updated_at = utcnow()


def answers_of(me: ClassStudent) -> dict[int, ClassAnswer]:
    """The pupil's rows by problem index."""
    return {
        a.problem: a for a in db.session.scalars(select(ClassAnswer).where(ClassAnswer.student_id == me.id))
    }


# ---- the whole class ----


def results_of(cls: ClassSession) -> Results:
    """The grid from the database: three queries, whatever the size of the class."""
    students = db.session.scalars(
        select(ClassStudent).where(ClassStudent.session_id == cls.id).order_by(ClassStudent.id)
    ).all()
    work: dict[int, dict[int, Progress]] = {s.id: {} for s in students}
    for a in db.session.scalars(select(ClassAnswer).where(ClassAnswer.session_id == cls.id)):
        work.setdefault(a.student_id, {})[a.problem] = progress_of(a)
    mistakes = db.session.execute(
        select(ClassAttempt.problem, ClassAttempt.error_code, func.count())
        .where(ClassAttempt.session_id == cls.id, ClassAttempt.error_code.is_not(None))
        .group_by(ClassAttempt.problem, ClassAttempt.error_code)
    ).all()  # fmt: skip
    return results(
        problems_of(cls), [(s.nickname, s.position, work[s.id]) for s in students],
        [(p, str(c), n) for p, c, n in mistakes],
    )  # fmt: skip


def waiting_names(cls: ClassSession) -> set[str]:
    """The pupils whose name the teacher let join again and who have not joined again yet."""
    return set(db.session.scalars(
        select(ClassStudent.nickname).where(ClassStudent.session_id == cls.id,
                                            ClassStudent.token_hash.startswith(RELEASED))
    ))  # fmt: skip


def student_count(cls: ClassSession) -> int:
    return db.session.scalar(select(func.count()).where(ClassStudent.session_id == cls.id)) or 0


# ---- joining ----


def client_key(address: str | None) -> str:
    """Who is joining, for the rate limit: a hash of the address (the address itself is not stored)."""
    return hashlib.sha256(f"class-join:{address}".encode()).hexdigest()


def join_failures(client: str, now: datetime | None = None) -> int:
    now = now or utcnow()
    return db.session.scalar(
        select(func.count()).where(ClassJoinFailure.client == client, ClassJoinFailure.created_at >= now - JOIN_WINDOW)
    ) or 0  # fmt: skip


def count_join_failure(client: str) -> None:
    db.session.add(ClassJoinFailure(client=client))
    db.session.commit()
