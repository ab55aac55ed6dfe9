"""Class mode: class sessions, their pupils, answers per problem, attempts, and refused join attempts.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-30
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "class_sessions",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("code", sa.String(length=12), nullable=False),
        sa.Column("teacher_hash", sa.String(length=64), nullable=False),
        sa.Column("settings_json", sa.Text(), nullable=False),
        sa.Column("problems_json", sa.Text(), nullable=False),
        sa.Column("status", sa.String(length=10), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("started_at", sa.DateTime(), nullable=True),
        sa.Column("ends_at", sa.DateTime(), nullable=True),
        sa.Column("paused_at", sa.DateTime(), nullable=True),
        sa.Column("ended_at", sa.DateTime(), nullable=True),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("code"),
        sa.UniqueConstraint("teacher_hash"),
    )
    with op.batch_alter_table("class_sessions", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_class_sessions_created_at"), ["created_at"], unique=False)

    op.create_table(
        "class_students",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("session_id", sa.Integer(), nullable=False),
        sa.Column("nickname", sa.String(length=40), nullable=False),
        sa.Column("name_key", sa.String(length=80), nullable=False),
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("joined_at", sa.DateTime(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["session_id"], ["class_sessions.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("session_id", "name_key"),
        sa.UniqueConstraint("session_id", "token_hash"),
    )
    with op.batch_alter_table("class_students", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_class_students_session_id"), ["session_id"], unique=False)

    op.create_table(
        "class_answers",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("session_id", sa.Integer(), nullable=False),
        sa.Column("student_id", sa.Integer(), nullable=False),
        sa.Column("problem", sa.Integer(), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("hints_used", sa.Integer(), nullable=False),
        sa.Column("solved", sa.Boolean(), nullable=False),
        sa.Column("done", sa.Boolean(), nullable=False),
        sa.Column("score", sa.Integer(), nullable=False),
        sa.Column("formula", sa.String(length=200), nullable=False),
        sa.Column("updated_at", sa.DateTime(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["session_id"], ["class_sessions.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["student_id"], ["class_students.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("student_id", "problem"),
    )
    with op.batch_alter_table("class_answers", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_class_answers_session_id"), ["session_id"], unique=False)

    op.create_table(
        "class_attempts",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("session_id", sa.Integer(), nullable=False),
        sa.Column("student_id", sa.Integer(), nullable=False),
        sa.Column("problem", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("formula", sa.String(length=200), nullable=False),
        sa.Column("error_code", sa.String(length=40), nullable=True),
        sa.Column("score", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(["session_id"], ["class_sessions.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["student_id"], ["class_students.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("student_id", "problem", "number"),
    )
    with op.batch_alter_table("class_attempts", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_class_attempts_session_id"), ["session_id"], unique=False)

    op.create_table(
        "class_join_failures",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("client", sa.String(length=64), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("class_join_failures", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_class_join_failures_client"), ["client"], unique=False)
        batch_op.create_index(batch_op.f("ix_class_join_failures_created_at"), ["created_at"], unique=False)


def downgrade():
    with op.batch_alter_table("class_join_failures", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_class_join_failures_created_at"))
        batch_op.drop_index(batch_op.f("ix_class_join_failures_client"))
    op.drop_table("class_join_failures")
    with op.batch_alter_table("class_attempts", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_class_attempts_session_id"))
    op.drop_table("class_attempts")
    with op.batch_alter_table("class_answers", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_class_answers_session_id"))
    op.drop_table("class_answers")
    with op.batch_alter_table("class_students", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_class_students_session_id"))
    op.drop_table("class_students")
    with op.batch_alter_table("class_sessions", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_class_sessions_created_at"))
    op.drop_table("class_sessions")
