"""Teacher accounts' tables: the teachers and the refused logins that the rate limits count.

On the games' database (suji.web.models: the same `db`, SQLite or PostgreSQL), made by the Alembic migration
0003_teachers. A teacher row keeps the login name (an email address, never written to), the argon2id hash of
the password (suji.web.accounts.passwords) and a session generation: Flask-Login's session names the teacher
and the generation, so changing or resetting the password signs out every other browser at once, on every
server. Refused logins are rows too, so a limit holds across every process that shares the database.
"""

from __future__ import annotations

from datetime import datetime

from flask_login import UserMixin
from sqlalchemy import DateTime, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from suji.web.extensions import db
from suji.web.models import utcnow


class Teacher(UserMixin, db.Model):  # type: ignore[name-defined]
    """A teacher's account: the login name, the password's hash, when it was made and last used."""

    __tablename__ = "teachers"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    email: Mapped[str] = mapped_column(String(254), unique=True, nullable=False)
    password_hash: Mapped[str] = mapped_column(String(200), nullable=False)
    generation: Mapped[int] = mapped_column(Integer, nullable=False, default=1)  # +1: other sessions end
    created_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow, nullable=False)
    password_changed_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow, nullable=False)
    last_login_at: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)
    version: Mapped[int] = mapped_column(Integer, nullable=False, default=1)
    __mapper_args__ = {"version_id_col": version}

    def get_id(self) -> str:
        """What Flask-Login keeps in the session: the id and the generation (a new password ends old sessions)."""
        return f"{self.id}.{self.generation}"


class AuthFailure(db.Model):  # type: ignore[name-defined]
    """A refused login (or a new account) counted against one key: an account's or an address's hash."""

    __tablename__ = "auth_failures"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    scope: Mapped[str] = mapped_column(String(10), nullable=False)  # account, address or signup
    key: Mapped[str] = mapped_column(String(64), nullable=False, index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow, nullable=False, index=True)
