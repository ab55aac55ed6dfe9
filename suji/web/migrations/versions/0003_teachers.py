"""Teacher accounts: teachers, refused logins, and the account a class session belongs to.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-02
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "teachers",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("email", sa.String(length=254), nullable=False),
        sa.Column("password_hash", sa.String(length=200), nullable=False),
        sa.Column("generation", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("password_changed_at", sa.DateTime(), nullable=False),
        sa.Column("last_login_at", sa.DateTime(), nullable=True),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("email"),
    )
    op.create_table(
        "auth_failures",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("scope", sa.String(length=10), nullable=False),
        sa.Column("key", sa.String(length=64), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("auth_failures", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_auth_failures_key"), ["key"], unique=False)
        batch_op.create_index(batch_op.f("ix_auth_failures_created_at"), ["created_at"], unique=False)
    # Existing sessions keep their private links and belong to no account until a signed-in teacher opens one.
    with op.batch_alter_table("class_sessions", schema=None) as batch_op:
        batch_op.add_column(sa.Column("teacher_id", sa.Integer(), nullable=True))
        batch_op.create_index(batch_op.f("ix_class_sessions_teacher_id"), ["teacher_id"], unique=False)
        batch_op.create_foreign_key(
            "fk_class_sessions_teacher_id", "teachers", ["teacher_id"], ["id"], ondelete="CASCADE"
        )


def downgrade():
    with op.batch_alter_table("class_sessions", schema=None) as batch_op:
        batch_op.drop_constraint("fk_class_sessions_teacher_id", type_="foreignkey")
        batch_op.drop_index(batch_op.f("ix_class_sessions_teacher_id"))
        batch_op.drop_column("teacher_id")
    with op.batch_alter_table("auth_failures", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_auth_failures_created_at"))
        batch_op.drop_index(batch_op.f("ix_auth_failures_key"))
    op.drop_table("auth_failures")
    op.drop_table("teachers")
