"""Practice's tables: pupils' profiles, every answer, what answers taught about each item, refused sign-ins.

On the games' database (suji.web.models: the same `db`, SQLite or PostgreSQL), made by the Alembic migration
0005_practice. A profile has no name and no email: it is a random public id that only a cookie signed by the
server names (suji.web.practice.store), the learner model's state (suji.learner.model.Learner as JSON, with the
overall rating beside it as a column), days in a row, and the hash of its sign-in code. Every answer is a row:
the item, what was written (kept in print when it reads as dice, else only the mistake's code), the outcome,
hints, seconds and times, and the rating after it, which the progress chart draws. A class (issue 24) can point
at a profile's id.

`PracticeItemStat` holds what answers taught about one item of the bank (its correction and play count); it
names no pupil, so it stays when a pupil deletes their profile.
"""

from __future__ import annotations

from datetime import date, datetime

from sqlalchemy import Boolean, Date, DateTime, Float, ForeignKey, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from suji.rules.language.reader import MAX_FORMULA_LENGTH  # a stored formula holds at most so many characters
from suji.web.extensions import db
from suji.web.models import utcnow


class PracticeProfile(db.Model):  # type: ignore[name-defined]
    """One pupil's practice: the learner model, days in a row, the sign-in code's hash."""

    __tablename__ = "practice_profiles"
    # Ids are never used twice (on SQLite too), so nothing that points at a deleted pupil's id (a class
    # membership, issue 24) can ever point at someone else.
    __table_args__ = {"sqlite_autoincrement": True}
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    public_id: Mapped[str] = mapped_column(String(32), unique=True, nullable=False)
    signin_hash: Mapped[str | None] = mapped_column(String(64), unique=True, nullable=True)
    learner_json: Mapped[str] = mapped_column(Text, nullable=False)
    rating: Mapped[float] = mapped_column(Float, nullable=False, default=0.0)
    answered: Mapped[int] = mapped_column(Integer, nullable=False, default=0)
    since_review: Mapped[int] = mapped_column(Integer, nullable=False, default=0)
    days_last: Mapped[date | None] = mapped_column(Date, nullable=True)
    days_streak: Mapped[int] = mapped_column(Integer, nullable=False, default=0)
    days_longest: Mapped[int] = mapped_column(Integer, nullable=False, default=0)
    created_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow, nullable=False)
    last_seen_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow, nullable=False, index=True)
    version: Mapped[int] = mapped_column(Integer, nullable=False, default=1)
    __mapper_args__ = {"version_id_col": version}

    answers = relationship(
        "PracticeAnswer", back_populates="profile", cascade="all, delete-orphan", passive_deletes=True
    )


class PracticeAnswer(db.Model):  # type: ignore[name-defined]
    """One answer: the item served, what came of it, and the rating after it."""

    __tablename__ = "practice_answers"
    __table_args__ = (UniqueConstraint("profile_id", "problem"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    profile_id: Mapped[int] = mapped_column(
        ForeignKey("practice_profiles.id", ondelete="CASCADE"), nullable=False, index=True
    )
    problem: Mapped[str] = mapped_column(String(24), nullable=False)  # the served problem's random name
    item_key: Mapped[str] = mapped_column(String(40), nullable=False, index=True)
    mode: Mapped[str] = mapped_column(String(10), nullable=False)  # adaptive, review, mistake or new (suji.learner.selection.MODES)
    level: Mapped[int] = mapped_column(Integer, nullable=False)
    goal: Mapped[int] = mapped_column(Integer, nullable=False)
    predicted: Mapped[float] = mapped_column(Float, nullable=False)  # the chance when it was served
    expected: Mapped[float] = mapped_column(Float, nullable=False)  # the chance the update used
    made_goal: Mapped[bool] = mapped_column(Boolean, nullable=False)
    gave_up: Mapped[bool] = mapped_column(Boolean, nullable=False, default=False)
    score: Mapped[int] = mapped_column(Integer, nullable=False, default=0)
    outcome: Mapped[float] = mapped_column(Float, nullable=False)
    hints_used: Mapped[int] = mapped_column(Integer, nullable=False, default=0)
    seconds: Mapped[float | None] = mapped_column(Float, nullable=True)
    formula: Mapped[str] = mapped_column(String(MAX_FORMULA_LENGTH), nullable=False, default="")
    error_code: Mapped[str | None] = mapped_column(String(40), nullable=True)
    rating_after: Mapped[float] = mapped_column(Float, nullable=False)
    changes_json: Mapped[str] = mapped_column(Text, nullable=False, default="[]")
    served_at: Mapped[datetime] = mapped_column(DateTime, nullable=False)
    answered_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow, nullable=False)

    profile = relationship("PracticeProfile", back_populates="answers")


class PracticeItemStat(db.Model):  # type: ignore[name-defined]
    """What answers taught about one item: the correction to its prior and TwoA's bookkeeping."""

    __tablename__ = "practice_item_stats"
    item_key: Mapped[str] = mapped_column(String(40), primary_key=True)
    correction: Mapped[float] = mapped_column(Float, nullable=False, default=0.0)
    uncertainty: Mapped[float] = mapped_column(Float, nullable=False, default=1.0)
    plays: Mapped[int] = mapped_column(Integer, nullable=False, default=0)
    made: Mapped[int] = mapped_column(Integer, nullable=False, default=0)
    last_played_at: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)


class PracticeSigninFailure(db.Model):  # type: ignore[name-defined]
    """A sign-in refused for a wrong code: the client (a hash of its address), the browser (a hash of its signed
    id, if it had one) and the code (a hash). The limit counts distinct codes per browser and per address
    (suji.web.clients)."""

    __tablename__ = "practice_signin_failures"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    client: Mapped[str] = mapped_column(String(64), nullable=False, index=True)
    browser: Mapped[str | None] = mapped_column(String(64), nullable=True, index=True)
    code: Mapped[str | None] = mapped_column(String(64), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow, nullable=False, index=True)
