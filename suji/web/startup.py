"""What `create_app` makes sure of before it serves anyone: readable settings, one secret key for every process,
and a database that is there and can be written.

    Settings ──invalid texts?──▶ StartupError
             ──SUJI_SECRET_KEY──▶ the key
               else SQLite ──▶ the key kept in the database (made once; an older instance folder's key is
                               taken over, so nobody's cookies break on the upgrade)
               else       ──▶ StartupError: a shared database needs SUJI_SECRET_KEY
    the database ──a write, rolled back──▶ fine, or StartupError (cannot be opened; read-only)

Every process on one database must sign cookies and forms with the same key, or a form drawn by one process is
refused by another ("the form has expired"). A key made by each process in its own instance folder cannot be
that; SQLite's key can live in the database itself, which every process using that file shares. A database
server shared over the network gets its key from the operator (SUJI_SECRET_KEY, the same in every process's
environment): a key in such a database would let anyone who can read a backup sign in as any teacher.

A read-only database (a file copied in without write permission, a full or read-only disk, a standby server)
is found here, with a message, instead of by the first pupil whose answer fails. The messages are the
operator's (`suji serve` prints them in the environment's language; any other WSGI server shows the English).
"""

from __future__ import annotations

import secrets
from pathlib import Path

from flask import Flask
from sqlalchemy import select, text
from sqlalchemy.exc import IntegrityError, SQLAlchemyError

from suji.core.errors import SujiError
from suji.core.i18n import N_
from suji.web.settings import Settings

SECRET_NAME = "secret_key"
LEGACY_KEY_FILE = "secret_key"  # where the instance folder kept the key before migration 0006_deployment

# What each setting read as a number must be (suji.web.settings.NUMBERS), for the message.
MESSAGES = {
    "bad_number": N_("%(name)s must be a whole number from %(low)s to %(high)s (it is “%(value)s”)."),
    "bad_public_url": N_(
        "SUJI_PUBLIC_URL must be the address people open, such as https://suji.example.org or "
        "https://school.example.org/suji (it is “%(value)s”)."
    ),
    "secret_key_needed": N_(
        "SUJI_SECRET_KEY is not set, and the database (%(database)s) is shared by every app process: they must "
        "all sign cookies and forms with the same key. Set SUJI_SECRET_KEY to the same long random text in "
        "every process's environment, for example the output of: python3 -c 'import secrets; "
        "print(secrets.token_hex(32))'"
    ),
    "database_unreachable": N_(
        "Cannot open the database %(database)s: %(reason)s. Check SUJI_DATABASE_URL (or SUJI_INSTANCE_PATH for "
        "SQLite) and that the database server is running."
    ),
    "database_read_only": N_(
        "The database %(database)s cannot be written: %(reason)s. The app needs to write to it (with SQLite, "
        "to the file and to the folder it is in)."
    ),
}


class StartupError(SujiError):
    """Why the app cannot start: a setting to put right, a key to set, a database to reach or to make writable."""

    MESSAGES = MESSAGES

    def __str__(self) -> str:  # a WSGI server logs the English
        return self.message("en")


def check_settings(settings: Settings) -> None:
    """StartupError for the first setting whose text could not be read."""
    from suji.web.settings import NUMBERS

    for name, value in settings.invalid:
        if name == "SUJI_PUBLIC_URL":
            raise StartupError("bad_public_url", value=value)
        _, low, high = NUMBERS[name]
        raise StartupError("bad_number", name=name, value=value, low=low, high=high)


def _shown(app: Flask) -> str:
    from suji.web.extensions import db

    return db.engine.url.render_as_string(hide_password=True)


def _reason(error: BaseException) -> str:
    """The driver's own words (its first line), without SQLAlchemy's long tail."""
    original = getattr(error, "orig", None) or error
    lines = str(original).strip().splitlines()
    return lines[0] if lines else type(original).__name__


def check_database(app: Flask) -> None:
    """StartupError unless the database can be opened and written to (a write, rolled back)."""
    from suji.web.extensions import db

    engine = db.engine
    try:
        connection = engine.connect()
    except SQLAlchemyError as error:
        reason = _reason(error)
        # SQLite sets WAL mode as it connects, which a read-only file or folder refuses already
        code = "database_read_only" if "readonly" in reason.replace("-", "").lower() else "database_unreachable"
        raise StartupError(code, database=_shown(app), reason=reason) from None
    try:
        with connection:
            transaction = connection.begin()
            try:
                if engine.dialect.name == "sqlite":
                    # The file's header written back unchanged: refused when the file, its folder (WAL's files)
                    # or the disk is read-only.
                    version = connection.exec_driver_sql("PRAGMA user_version").scalar() or 0
                    connection.exec_driver_sql(f"PRAGMA user_version = {int(version)}")
                else:
                    read_only = connection.execute(text("SHOW transaction_read_only")).scalar()
                    if str(read_only).lower() == "on":
                        raise StartupError("database_read_only", database=_shown(app),
                                           reason="transaction_read_only = on")  # fmt: skip
            finally:
                transaction.rollback()
    except StartupError:
        raise
    except SQLAlchemyError as error:
        raise StartupError("database_read_only", database=_shown(app), reason=_reason(error)) from None


def secret_key(app: Flask, settings: Settings) -> str:
    """The key every process on this database signs with: SUJI_SECRET_KEY, else SQLite's own, else StartupError."""
    from suji.web.extensions import db

    if settings.secret_key:
        return settings.secret_key
    if db.engine.dialect.name != "sqlite":
        raise StartupError("secret_key_needed", database=_shown(app))
    return _database_key(Path(app.instance_path))


def _database_key(instance: Path) -> str:
    """The key kept in the SQLite database, made on first use (the instance folder's older key if there is one).

    Two processes starting at once may both try to make it: the database keeps the first, and both read that.
    """
    from suji.web.extensions import db
    from suji.web.models import AppSecret, ensure_schema

    ensure_schema()  # the table is migration 0006's
    found = db.session.scalar(select(AppSecret.value).where(AppSecret.name == SECRET_NAME))
    if found:
        db.session.remove()
        return found
    legacy = instance / LEGACY_KEY_FILE
    try:
        value = legacy.read_text(encoding="ascii").strip()
    except (OSError, UnicodeError):
        value = ""
    db.session.add(AppSecret(name=SECRET_NAME, value=value if 32 <= len(value) <= 200 else secrets.token_hex(32)))
    try:
        db.session.commit()
    except IntegrityError:  # another process made it a moment ago
        db.session.rollback()
    found = db.session.scalar(select(AppSecret.value).where(AppSecret.name == SECRET_NAME))
    db.session.remove()
    if not found:  # pragma: no cover - committed above or by the other process
        raise RuntimeError("no secret key in the database")
    return found
