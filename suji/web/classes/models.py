"""The tables of the classes a teacher keeps for a school year: the classes and their pupils.

On the games' database (suji.web.models: the same `db`, SQLite or PostgreSQL), made by the Alembic migration
0004_classes. A class belongs to one teacher account (suji.web.accounts) and goes with it. Pages name classes
and pupils by a random public id, never by the counted row id, so an address says nothing about how many there
are and cannot be guessed. A pupil is a name or nickname the teacher typed, an optional class number
(出席番号), their accommodations (extra time, free hints) and when they were last active: no email, no
password, no real name needed. Rows a request changes carry a version counter: a form sent twice, or two tabs
at once, fails instead of overwriting.
"""

from __future__ import annotations

from datetime import date, datetime

from sqlalchemy import Boolean, Date, DateTime, ForeignKey, Integer, String, UniqueConstraint
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
    version: Mapped[int] = mapped_column(Integer, nullable=False, default=1)
    __mapper_args__ = {"version_id_col": version}
