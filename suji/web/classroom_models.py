"""Class mode's tables: sessions, pupils, their work per problem, every attempt, and refused join attempts.

On the games' database (suji.web.models: the same `db`, SQLite or PostgreSQL), made by the Alembic migration
0002_class_mode. Everything a class needs lives here, nothing in a server's memory, so several app servers
behind one PostgreSQL database show the same class. Secrets are stored only as SHA-256 hashes (the teacher's
link, each pupil's cookie). Rows a request changes carry a version counter: an update made from a stale copy
(a form sent twice, two tabs at once) fails instead of overwriting; the unique constraints refuse a second
pupil of the same name and a doubled attempt.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Boolean, DateTime, ForeignKey, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from suji.rules.language.reader import MAX_FORMULA_LENGTH  # a stored formula holds at most so many characters
from suji.web.extensions import db
from suji.web.models import utcnow


class ClassSession(db.Model):  # type: ignore[name-defined]
    """One class session: the settings and problems (JSON, fixed when made), the phase and its times."""

    __tablename__ = "class_sessions"
    __table_args__ = (UniqueConstraint("public_id", name="uq_class_sessions_public_id"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    # The id in the session's addresses: random, so an address says nothing about other sessions (migration
    # 0006_deployment); the counted id above stays the key the other tables use.
    public_id: Mapped[str] = mapped_column(String(24), nullable=False)
    code: Mapped[str] = mapped_column(String(12), unique=True, nullable=False)
    teacher_hash: Mapped[str] = mapped_column(String(64), unique=True, nullable=False)
    # The teacher's account when the session was made (or its private link opened) signed in: the dashboard then
    # opens on any browser of that account, beside the private link (migration 0003_teachers).
    teacher_id: Mapped[int | None] = mapped_column(
        ForeignKey("teachers.id", ondelete="CASCADE"), nullable=True, index=True
    )
    # The teacher's class (suji.web.classes) when the session was made for one (migration 0006): its roster pupils
    # join signed in with their cards, and their work joins their records there.
    school_class_id: Mapped[int | None] = mapped_column(
        ForeignKey("school_classes.id", ondelete="CASCADE"), nullable=True, index=True
    )
    settings_json: Mapped[str] = mapped_column(Text, nullable=False)
    problems_json: Mapped[str] = mapped_column(Text, nullable=False)
    status: Mapped[str] = mapped_column(String(10), nullable=False, default="waiting")
    created_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow, nullable=False, index=True)
    started_at: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)
    ends_at: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)  # with a time limit
    paused_at: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)
    ended_at: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)
    version: Mapped[int] = mapped_column(Integer, nullable=False, default=1)
    __mapper_args__ = {"version_id_col": version}

    students = relationship(
        "ClassStudent", back_populates="session", order_by="ClassStudent.id",
        cascade="all, delete-orphan", passive_deletes=True,
    )  # fmt: skip


class ClassStudent(db.Model):  # type: ignore[name-defined]
    """A pupil in one session: the nickname, the hash of the browser's cookie token, the current problem."""

    __tablename__ = "class_students"
    __table_args__ = (
        UniqueConstraint("session_id", "name_key"),
        UniqueConstraint("session_id", "token_hash"),
    )
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    session_id: Mapped[int] = mapped_column(
        ForeignKey("class_sessions.id", ondelete="CASCADE"), nullable=False, index=True
    )
    nickname: Mapped[str] = mapped_column(String(40), nullable=False)
    name_key: Mapped[str] = mapped_column(String(80), nullable=False)
    token_hash: Mapped[str] = mapped_column(String(64), nullable=False)
    position: Mapped[int] = mapped_column(Integer, nullable=False, default=0)  # index of the current problem
    # 出席番号 as typed on joining (optional; migration 0009); a roster pupil's comes from the roster instead
    class_number: Mapped[int | None] = mapped_column(Integer, nullable=True)
    # The roster pupil (suji.web.classes) of a session made for a class, signed in with their card (migration 0006)
    pupil_id: Mapped[int | None] = mapped_column(
        ForeignKey("class_pupils.id", ondelete="CASCADE"), nullable=True, index=True
    )
    joined_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow, nullable=False)
    version: Mapped[int] = mapped_column(Integer, nullable=False, default=1)
    __mapper_args__ = {"version_id_col": version}

    session = relationship("ClassSession", back_populates="students")


class ClassAnswer(db.Model):  # type: ignore[name-defined]
    """A pupil's work on one problem (suji.play.classroom.Progress as a row)."""

    __tablename__ = "class_answers"
    __table_args__ = (UniqueConstraint("student_id", "problem"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    session_id: Mapped[int] = mapped_column(
        ForeignKey("class_sessions.id", ondelete="CASCADE"), nullable=False, index=True
    )
    student_id: Mapped[int] = mapped_column(
        ForeignKey("class_students.id", ondelete="CASCADE"), nullable=False
    )
    problem: Mapped[int] = mapped_column(Integer, nullable=False)  # 0-based index
    attempts: Mapped[int] = mapped_column(Integer, nullable=False, default=0)
    hints_used: Mapped[int] = mapped_column(Integer, nullable=False, default=0)
    solved: Mapped[bool] = mapped_column(Boolean, nullable=False, default=False)
    done: Mapped[bool] = mapped_column(Boolean, nullable=False, default=False)
    score: Mapped[int] = mapped_column(Integer, nullable=False, default=0)
    formula: Mapped[str] = mapped_column(String(MAX_FORMULA_LENGTH), nullable=False, default="")
    updated_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow, nullable=False)
    version: Mapped[int] = mapped_column(Integer, nullable=False, default=1)
    __mapper_args__ = {"version_id_col": version}


class ClassAttempt(db.Model):  # type: ignore[name-defined]
    """One formula sent (or a skip): the database refuses a second attempt with the same number."""

    __tablename__ = "class_attempts"
    __table_args__ = (UniqueConstraint("student_id", "problem", "number"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    session_id: Mapped[int] = mapped_column(
        ForeignKey("class_sessions.id", ondelete="CASCADE"), nullable=False, index=True
    )
    student_id: Mapped[int] = mapped_column(
        ForeignKey("class_students.id", ondelete="CASCADE"), nullable=False
    )
    problem: Mapped[int] = mapped_column(Integer, nullable=False)
    number: Mapped[int] = mapped_column(Integer, nullable=False)  # 1 for the first; a skip takes the next
    formula: Mapped[str] = mapped_column(String(MAX_FORMULA_LENGTH), nullable=False, default="")
    error_code: Mapped[str | None] = mapped_column(String(40), nullable=True)  # None: a target was made
    score: Mapped[int] = mapped_column(Integer, nullable=False, default=0)
    created_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow, nullable=False)


class ClassJoinFailure(db.Model):  # type: ignore[name-defined]
    """A class code that led nowhere for this browser (joining, or any address with a code in it): the client (a
    hash of its address), the browser (a hash of its signed id, if it had one) and the code (a hash). The limit
    counts the distinct codes per browser and per address (suji.web.clients)."""

    __tablename__ = "class_join_failures"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    client: Mapped[str] = mapped_column(String(64), nullable=False, index=True)
    browser: Mapped[str | None] = mapped_column(String(64), nullable=True, index=True)
    code: Mapped[str | None] = mapped_column(String(64), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow, nullable=False, index=True)
