"""Alembic environment for the games' database: the engine and metadata come from the Flask app.

No logging setup here (the app is running, its logging stays as it is). On PostgreSQL an advisory lock makes
app servers that start together apply the migrations one after the other.
"""

from __future__ import annotations

from alembic import context
from flask import current_app
from sqlalchemy import text

MIGRATION_LOCK = 7_316_471  # any fixed number: the key of the PostgreSQL advisory lock


def _metadata():  # type: ignore[no-untyped-def]
    return current_app.extensions["migrate"].db.metadata


def run_migrations_offline() -> None:
    """Print the SQL instead of running it (flask db upgrade --sql)."""
    url = current_app.extensions["migrate"].db.engine.url.render_as_string(hide_password=False)
    context.configure(url=url, target_metadata=_metadata(), literal_binds=True, render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    """Apply the migrations over the app's engine."""
    engine = current_app.extensions["migrate"].db.engine
    with engine.connect() as connection:
        sqlite = connection.dialect.name == "sqlite"
        if sqlite:
            # SQLite alters a table by copying it and dropping the old one; with foreign keys on, that drop would
            # delete every row that points at the table (ON DELETE CASCADE). Off for the migrations (it only takes
            # effect outside a transaction, so on the raw connection before SQLAlchemy begins one), on again after.
            connection.connection.driver_connection.execute("PRAGMA foreign_keys = OFF")
        context.configure(
            connection=connection,
            target_metadata=_metadata(),
            render_as_batch=connection.dialect.name == "sqlite",  # SQLite alters tables by copying them
            compare_type=True,
        )
        try:
            with context.begin_transaction():
                if connection.dialect.name == "postgresql":
                    connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
                context.run_migrations()
        finally:
            if sqlite:
                connection.connection.driver_connection.execute("PRAGMA foreign_keys = ON")


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
