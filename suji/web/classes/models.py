"""The tables of the classes a teacher keeps for a school year: classes, pupils, and every pupil's record.

On the games' database (suji.web.models: the same `db`, SQLite or PostgreSQL), made by the Alembic migrations
0004_classes and 0008_pupils. A class belongs to one teacher account (suji.web.accounts) and goes with it.
Pages name classes, pupils and assignments by a random public id, never by the counted row id, so an address
says nothing about how many there are and cannot be guessed. A pupil is a name or nickname the teacher typed, an
optional class number (出席番号), their accommodations (extra time, free hints), the hash of their sign-in
card's code and their practice profile: no email, no password, no real name needed. Rows a request changes
carry a version counter: a form sent twice, or two tabs at once, fails instead of overwriting.

A pupil's record (what the reports read; every row goes with the pupil and with the class):

    Assignment          what the class was set: homework (a fixed problem set or adaptive practice, with an
                        opening time and a due date) or a live lesson (a class session made for the class; the
                        record stays when the session itself is purged or deleted)
    AssignmentWork      one pupil's work on one assignment: started, finished (late or not), adaptive counts
    AssignmentAnswer    one pupil's work on one problem of a fixed set or live lesson (class mode's Progress)
    AssignmentAttempt   every formula sent or problem skipped, with the checker's error code (the mistakes),
                        and every adaptive item answered
    ClassDailyEntry     a pupil's daily puzzle of one day (the class's leaderboard)

A pupil's practice (suji.web.practice's profile and answers) is theirs through ClassPupil.profile_id.
"""

from __future__ import annotations

from datetime import date, datetime

from sqlalchemy import Boolean, Date, DateTime, Float, ForeignKey, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from suji.web.extensions import db
from suji.web.models import utcnow


class SchoolClass(db.Model):  # type: ignore[name-defined]
    """A teacher's class for one school year: the name, the year and its last day, the leaderboard switch."""

    __tablename__ = "school_classes"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    public_id: Mapped[str] = mapped_column(String(24), unique=True, nullable=False)
    teacher_id: Mapped[int] = mapped_column(
        ForeignKey("teachers.id", ondelete="CASCADE"), nullable=False, index=True
    )
    name: Mapped[str] = mapped_column(String(40), nullable=False)
    school_year: Mapped[int] = mapped_column(Integer, nullable=False)
    ends_on: Mapped[date] = mapped_column(Date, nullable=False, index=True)  # the school year's last day
    leaderboard: Mapped[str] = mapped_column(String(10), nullable=False, default="off")
    created_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow, nullable=False)
    version: Mapped[int] = mapped_column(Integer, nullable=False, default=1)
    __mapper_args__ = {"version_id_col": version}


class ClassPupil(db.Model):  # type: ignore[name-defined]
    """A pupil on a class's roster: the name the teacher typed, the class number, accommodations."""

    __tablename__ = "class_pupils"
    __table_args__ = (UniqueConstraint("class_id", "name_key"), UniqueConstraint("class_id", "number"))
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    public_id: Mapped[str] = mapped_column(String(24), unique=True, nullable=False)
    class_id: Mapped[int] = mapped_column(
        ForeignKey("school_classes.id", ondelete="CASCADE"), nullable=False, index=True
    )
    name: Mapped[str] = mapped_column(String(40), nullable=False)
    name_key: Mapped[str] = mapped_column(String(80), nullable=False)
    number: Mapped[int | None] = mapped_column(Integer, nullable=True)  # 出席番号
    extra_time: Mapped[str] = mapped_column(
        String(8), nullable=False, default="1"
    )  # suji.play.school.EXTRA_TIME
    free_hints: Mapped[bool] = mapped_column(Boolean, nullable=False, default=False)
    created_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow, nullable=False)
    last_active_at: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)
    # The sign-in card (migration 0006): the SHA-256 of its code (suji.web.classes.signin), when it was made.
    signin_hash: Mapped[str | None] = mapped_column(String(64), unique=True, nullable=True)
    card_made_at: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)
    # The pupil's practice: a profile of suji.web.practice, made at the first sign-in, kept as long as the class.
    profile_id: Mapped[int | None] = mapped_column(
        ForeignKey("practice_profiles.id", ondelete="SET NULL"), unique=True, nullable=True
    )
    version: Mapped[int] = mapped_column(Integer, nullable=False, default=1)
    __mapper_args__ = {"version_id_col": version}


# ---- a pupil's record: homework and live lessons ----

FIXED, ADAPTIVE, LIVE = "fixed", "adaptive", "live"  # Assignment.kind (suji.play.school.homework's first two)


class Assignment(db.Model):  # type: ignore[name-defined]
    """What a class was set: homework (FIXED, ADAPTIVE) with its window, or a LIVE lesson's record."""

    __tablename__ = "class_assignments"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    public_id: Mapped[str] = mapped_column(String(24), unique=True, nullable=False)
    class_id: Mapped[int] = mapped_column(
        ForeignKey("school_classes.id", ondelete="CASCADE"), nullable=False, index=True
    )
    kind: Mapped[str] = mapped_column(String(10), nullable=False)
    title: Mapped[str] = mapped_column(String(60), nullable=False, default="")
    # Homework.to_dict() (suji.play.school.homework), or a live lesson's ClassSettings.to_dict()
    settings_json: Mapped[str] = mapped_column(Text, nullable=False)
    problems_json: Mapped[str] = mapped_column(Text, nullable=False, default="[]")  # ClassProblem.to_dict()…
    opens_at: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)  # None: open at once
    due_at: Mapped[datetime | None] = mapped_column(DateTime, nullable=True, index=True)  # None for live lessons
    # A live lesson's session while it exists (suji.web.classroom_models); purged sessions leave the record.
    class_session_id: Mapped[int | None] = mapped_column(
        ForeignKey("class_sessions.id", ondelete="SET NULL"), unique=True, nullable=True
    )
    created_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow, nullable=False)
    version: Mapped[int] = mapped_column(Integer, nullable=False, default=1)
    __mapper_args__ = {"version_id_col": version}


class AssignmentWork(db.Model):  # type: ignore[name-defined]
    """One pupil's work on one assignment: when they started and finished, and adaptive practice's counts."""

    __tablename__ = "assignment_work"
    __table_args__ = (UniqueConstraint("assignment_id", "pupil_id"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    assignment_id: Mapped[int] = mapped_column(
        ForeignKey("class_assignments.id", ondelete="CASCADE"), nullable=False
    )
    pupil_id: Mapped[int] = mapped_column(
        ForeignKey("class_pupils.id", ondelete="CASCADE"), nullable=False, index=True
    )
    started_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow, nullable=False)
    finished_at: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)
    finished_late: Mapped[bool] = mapped_column(Boolean, nullable=False, default=False)
    last_answer_at: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)
    # adaptive practice: items answered and made, practice time counted, the item on the pupil's screen
    items_done: Mapped[int] = mapped_column(Integer, nullable=False, default=0)
    items_made: Mapped[int] = mapped_column(Integer, nullable=False, default=0)
    seconds: Mapped[float] = mapped_column(Float, nullable=False, default=0.0)
    pending_json: Mapped[str | None] = mapped_column(Text, nullable=True)
    version: Mapped[int] = mapped_column(Integer, nullable=False, default=1)
    __mapper_args__ = {"version_id_col": version}


class AssignmentAnswer(db.Model):  # type: ignore[name-defined]
    """One pupil's work on one problem of a fixed set or a live lesson (suji.play.classroom.Progress)."""

    __tablename__ = "assignment_answers"
    __table_args__ = (UniqueConstraint("work_id", "problem"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    work_id: Mapped[int] = mapped_column(ForeignKey("assignment_work.id", ondelete="CASCADE"), nullable=False)
    assignment_id: Mapped[int] = mapped_column(
        ForeignKey("class_assignments.id", ondelete="CASCADE"), nullable=False, index=True
    )
    problem: Mapped[int] = mapped_column(Integer, nullable=False)  # 0-based index
    attempts: Mapped[int] = mapped_column(Integer, nullable=False, default=0)
    hints_used: Mapped[int] = mapped_column(Integer, nullable=False, default=0)
    solved: Mapped[bool] = mapped_column(Boolean, nullable=False, default=False)
    done: Mapped[bool] = mapped_column(Boolean, nullable=False, default=False)
    score: Mapped[int] = mapped_column(Integer, nullable=False, default=0)
    formula: Mapped[str] = mapped_column(String(200), nullable=False, default="")
    first_score: Mapped[int | None] = mapped_column(Integer, nullable=True)  # what the first try made (0: a miss)
    late: Mapped[bool] = mapped_column(Boolean, nullable=False, default=False)  # finished after the due date
    updated_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow, nullable=False)
    version: Mapped[int] = mapped_column(Integer, nullable=False, default=1)
    __mapper_args__ = {"version_id_col": version}


class AssignmentAttempt(db.Model):  # type: ignore[name-defined]
    """A formula sent or a problem skipped (a fixed set, a live lesson), or one adaptive item answered."""

    __tablename__ = "assignment_attempts"
    __table_args__ = (UniqueConstraint("work_id", "problem", "number"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    work_id: Mapped[int] = mapped_column(ForeignKey("assignment_work.id", ondelete="CASCADE"), nullable=False)
    assignment_id: Mapped[int] = mapped_column(
        ForeignKey("class_assignments.id", ondelete="CASCADE"), nullable=False, index=True
    )
    pupil_id: Mapped[int] = mapped_column(
        ForeignKey("class_pupils.id", ondelete="CASCADE"), nullable=False, index=True
    )
    problem: Mapped[int] = mapped_column(Integer, nullable=False)  # the problem's index; adaptive: the item's
    number: Mapped[int] = mapped_column(Integer, nullable=False)  # 1 for the first try (adaptive: always 1)
    formula: Mapped[str] = mapped_column(String(200), nullable=False, default="")  # in print when it reads
    error_code: Mapped[str | None] = mapped_column(String(40), nullable=True)  # None: made (class mode's codes)
    made: Mapped[bool] = mapped_column(Boolean, nullable=False, default=False)
    score: Mapped[int] = mapped_column(Integer, nullable=False, default=0)
    late: Mapped[bool] = mapped_column(Boolean, nullable=False, default=False)
    item_key: Mapped[str | None] = mapped_column(String(40), nullable=True)  # adaptive: the practice item
    created_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow, nullable=False)


class ClassDailyEntry(db.Model):  # type: ignore[name-defined]
    """A pupil's daily puzzle of one day, for the class's leaderboard (the games' entry, counted once a day)."""

    __tablename__ = "class_daily_entries"
    __table_args__ = (UniqueConstraint("pupil_id", "day"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    class_id: Mapped[int] = mapped_column(
        ForeignKey("school_classes.id", ondelete="CASCADE"), nullable=False, index=True
    )
    pupil_id: Mapped[int] = mapped_column(ForeignKey("class_pupils.id", ondelete="CASCADE"), nullable=False)
    day: Mapped[date] = mapped_column(Date, nullable=False)
    entry_id: Mapped[int] = mapped_column(
        ForeignKey("daily_entries.id", ondelete="CASCADE"), unique=True, nullable=False
    )
