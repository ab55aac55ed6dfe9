"""The tables of work shared by every server process: slots of bounded work, and live advice solved once.

On the games' database (suji.web.models), made by the migration 0007_work_slots. A slot is one row per piece of
expensive work under way (live advice, a worksheet, a new class): its kind, its number (0 … the limit − 1, so
the primary key itself bounds the work however many processes race), who asked (a hash, unique per kind: one
piece of work per client) and when it is given up should its process die. An advice outcome row keeps the
live solver's best score of every outcome of one roll, so that no process solves the same dice twice.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import DateTime, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from suji.web.extensions import db
from suji.web.models import utcnow


class WorkSlot(db.Model):  # type: ignore[name-defined]
    """One piece of expensive work under way (suji.web.slots)."""

    __tablename__ = "work_slots"
    __table_args__ = (UniqueConstraint("kind", "client"),)
    kind: Mapped[str] = mapped_column(String(20), primary_key=True)
    slot: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    client: Mapped[str] = mapped_column(String(64), nullable=False)  # SHA-256 of who asked
    job: Mapped[str] = mapped_column(String(120), nullable=False, default="")  # what: a roll's key for advice
    token: Mapped[str] = mapped_column(String(32), nullable=False)  # the holder's, so only it frees the slot
    taken_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow, nullable=False)
    expires_at: Mapped[datetime] = mapped_column(DateTime, nullable=False, index=True)


class AdviceOutcome(db.Model):  # type: ignore[name-defined]
    """The best score of every outcome of one roll, solved live once (suji.web.advice)."""

    __tablename__ = "advice_outcomes"
    roll_key: Mapped[str] = mapped_column(String(120), primary_key=True)
    scores_json: Mapped[str] = mapped_column(Text, nullable=False)
    created_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow, nullable=False, index=True)
