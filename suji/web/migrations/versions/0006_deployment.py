"""A school's or a district's deployment (issue 21): class sessions named by random public ids, code failures
counted per browser and per code as well as per address, and the app's secret key kept in the database.

- class_sessions.public_id: the id in a class session's addresses (16 random URL-safe characters), given to
  every session already there, so its dashboard opens at /class/<public_id>; the counted id stays the key.
- class_join_failures and practice_signin_failures: `browser` (a hash of the browser's signed id, NULL for a
  client without one) and `code` (a hash of the code tried), so one school's address is not locked out by one
  child and a page polling a deleted class counts once.
- app_secrets: the key that signs cookies and forms when SUJI_SECRET_KEY is not set and the database is SQLite
  (every process on the database then signs with the same key).

Revision ID: 0006_deployment
Revises: 0005
Create Date: 2027-01-15
"""

import secrets

import sqlalchemy as sa
from alembic import op

revision = "0006_deployment"
down_revision = "0005"
branch_labels = None
depends_on = None

FAILURE_TABLES = ("class_join_failures", "practice_signin_failures")


def new_public_id() -> str:
    """As suji.web.classroom.store.new_public_id: 16 URL-safe characters, never all digits (those name the old
    counted ids in addresses made before this migration)."""
    while True:
        value = secrets.token_urlsafe(12)
        if not value.isdigit():
            return value


def upgrade():
    op.add_column("class_sessions", sa.Column("public_id", sa.String(length=24), nullable=True))
    sessions = sa.table("class_sessions", sa.column("id", sa.Integer), sa.column("public_id", sa.String))
    connection = op.get_bind()
    for (session_id,) in connection.execute(sa.select(sessions.c.id)).all():
        connection.execute(
            sessions.update().where(sessions.c.id == session_id).values(public_id=new_public_id())
        )
    with op.batch_alter_table("class_sessions", schema=None) as batch_op:
        batch_op.alter_column("public_id", existing_type=sa.String(length=24), nullable=False)
        batch_op.create_unique_constraint(batch_op.f("uq_class_sessions_public_id"), ["public_id"])

    for table in FAILURE_TABLES:
        with op.batch_alter_table(table, schema=None) as batch_op:
            batch_op.add_column(sa.Column("browser", sa.String(length=64), nullable=True))
            batch_op.add_column(sa.Column("code", sa.String(length=64), nullable=True))
            batch_op.create_index(batch_op.f(f"ix_{table}_browser"), ["browser"], unique=False)

    op.create_table(
        "app_secrets",
        sa.Column("name", sa.String(length=40), nullable=False),
        sa.Column("value", sa.String(length=200), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("name"),
    )


def downgrade():
    op.drop_table("app_secrets")
    for table in FAILURE_TABLES:
        with op.batch_alter_table(table, schema=None) as batch_op:
            batch_op.drop_index(batch_op.f(f"ix_{table}_browser"))
            batch_op.drop_column("code")
            batch_op.drop_column("browser")
    with op.batch_alter_table("class_sessions", schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f("uq_class_sessions_public_id"), type_="unique")
        batch_op.drop_column("public_id")
