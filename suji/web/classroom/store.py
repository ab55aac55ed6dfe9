"""Class mode's storage: the database rows (suji.web.classroom_models) to and from class mode's pure values.

    ClassSession row ──settings_of, problems_of, clock_of──▶ ClassSettings, ClassProblem…, Clock
    ClassAnswer row  ──progress_of──▶ Progress ──(a move in suji.play.classroom)──▶ Progress ──store_progress──▶ row
    every pupil, answer and attempt of a session ──results_of──▶ the grid (suji.play.classroom.results)
    a session made for a teacher's class ──roster (hooks set by suji.web.classes.live)──▶ each pupil's clock
        with their extra time (pupil_clock), their settings with free hints (pupil_settings), and every move
        kept in the class's record too (keep_work)

Everything lives in the database and nothing in a server's memory (the parsed problems are cached by their stored
text only), so several app servers behind one PostgreSQL database serve one class. Times are UTC.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import datetime, timedelta

from flask import current_app
from sqlalchemy import delete, func, select

from suji.core.caching import bounded
from suji.play.classroom import (
    DEFAULT_RETENTION_DAYS,
    NOT_TARGET,
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
from suji.web.clients import FailureLimit
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


# ---- a session made for a teacher's class (suji.web.classes sets these; class mode knows nothing else of it) ----


def _nothing(*args: object) -> None:
    return None


@dataclass
class RosterHooks:
    """What a class with a roster adds to a session made for it: its name, the teacher's classes to choose from,
    this browser's signed-in pupil of the class, a pupil's accommodations (extra time, free hints), and keeping
    each move in the pupil's record there. The defaults are a session without a class."""

    class_name: Callable[[int], str | None] = _nothing  # school_class_id → its name
    teacher_classes: Callable[[int], list[tuple[str, str]]] = lambda teacher_id: []  # → (public id, name)…
    owned_class: Callable[[int, str], int | None] = _nothing  # (teacher id, public id) → school_class_id
    signed_in_pupil: Callable[[int], tuple[int, str] | None] = _nothing  # school_class_id → (pupil id, name)
    accommodations: Callable[[int], tuple[str, bool]] = lambda pupil_id: ("1", False)  # (extra time, free hints)
    keep_work: Callable[..., None] = _nothing  # (session, student, index, Progress, Attempt or None, now)
    session_made: Callable[[ClassSession], None] = _nothing
    numbers: Callable[[list[int]], dict[int, int | None]] = lambda pupil_ids: {}  # pupil ids → 出席番号


roster = RosterHooks()


def _accommodations(me: ClassStudent | None) -> tuple[str, bool]:
    return roster.accommodations(me.pupil_id) if me is not None and me.pupil_id is not None else ("1", False)


def pupil_clock(cls: ClassSession, me: ClassStudent | None) -> Clock:
    """The session's clock as this pupil lives it: with extra time (×1.5, ×2, untimed) their time runs out later."""
    from suji.play.school.roster import extended_end

    base = clock_of(cls)
    extra, _ = _accommodations(me)
    if extra == "1":
        return base
    return replace(base, ends_at=extended_end(base.ends_at, settings_of(cls).time_limit, extra))


def pupil_settings(cls: ClassSession, me: ClassStudent | None) -> ClassSettings:
    """The session's settings as they apply to this pupil: free hints cost nothing."""
    settings = settings_of(cls)
    return replace(settings, hint_cost=False) if _accommodations(me)[1] else settings


def extra_time(cls: ClassSession) -> list[tuple[str, datetime | None]]:
    """The pupils of a class's running session with extra time and when their time runs out (None: untimed)."""
    if cls.school_class_id is None or cls.ends_at is None:  # no time limit, or not started yet
        return []
    students = db.session.scalars(
        select(ClassStudent).where(ClassStudent.session_id == cls.id, ClassStudent.pupil_id.is_not(None))
    )
    return sorted(
        (s.nickname, pupil_clock(cls, s).ends_at) for s in students if _accommodations(s)[0] != "1"
    )


def keep_work(cls: ClassSession, me: ClassStudent, index: int, progress: Progress, attempt: object = None) -> None:
    """A roster pupil's move, kept in their class's record too (in the caller's transaction)."""
    if me.pupil_id is not None and cls.school_class_id is not None:
        roster.keep_work(cls, me, index, progress, attempt, utcnow())


def store_clock(cls: ClassSession, new: Clock) -> None:
    """Write a moved clock back to its row (only what changed: an unchanged row is not written)."""
    for name in ("status", "started_at", "ends_at", "paused_at", "ended_at"):
        if getattr(cls, name) != getattr(new, name):
            setattr(cls, name, getattr(new, name))


def phase(cls: ClassSession, now: datetime | None = None, me: ClassStudent | None = None) -> str:
    """The phase pupils (or this pupil, with their extra time) are in now (suji.play.classroom.clock.phase)."""
    return clock.phase(pupil_clock(cls, me), now or utcnow())


def time_up(cls: ClassSession, me: ClassStudent | None = None) -> bool:
    return clock.time_up(pupil_clock(cls, me), utcnow())


def seconds_left(cls: ClassSession, me: ClassStudent | None = None) -> int | None:
    return clock.seconds_left(pupil_clock(cls, me), utcnow())


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
    """The grid from the database: four queries, whatever the size of the class."""
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
    not_targets: dict[int, list[str]] = {}
    for problem, formula in db.session.execute(
        select(ClassAttempt.problem, ClassAttempt.formula)
        .where(ClassAttempt.session_id == cls.id, ClassAttempt.error_code == NOT_TARGET)
    ):  # fmt: skip
        not_targets.setdefault(problem, []).append(formula)
    roster_numbers = roster.numbers([s.pupil_id for s in students if s.pupil_id is not None])
    numbers = {s.id: roster_numbers.get(s.pupil_id) if s.pupil_id is not None else s.class_number for s in students}
    return results(
        problems_of(cls), [(s.nickname, s.position, work[s.id], numbers[s.id]) for s in students],
        [(p, str(c), n) for p, c, n in mistakes], not_targets,
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

# Wrong codes, on joining and on every address with a code in it, per browser and per address (suji.web.clients;
# the limits are SUJI_CLASS_JOIN_LIMIT and SUJI_CLASS_JOIN_ADDRESS_LIMIT).
JOIN_LIMIT = FailureLimit("class-join", ClassJoinFailure, JOIN_WINDOW, browser_limit=20, address_limit=200)


def join_refused() -> bool:
    """Whether this browser (or its address) has tried too many codes that led nowhere."""
    config = current_app.config
    return JOIN_LIMIT.refused(config.get("SUJI_CLASS_JOIN_LIMIT"), config.get("SUJI_CLASS_JOIN_ADDRESS_LIMIT"))


def count_join_failure(code: str) -> None:
    """A code that led nowhere for this browser (unknown, or a class it has not joined)."""
    JOIN_LIMIT.count(code)


def new_public_id() -> str:
    """A session's id in its addresses: 16 random URL-safe characters, never all digits (an address with digits
    names a session made before migration 0006_deployment by its counted id)."""
    while True:
        value = secrets.token_urlsafe(12)
        if not value.isdigit():
            return value
