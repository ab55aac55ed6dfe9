"""Practice: pupils' profiles, their answers, what answers taught about each item, refused sign-ins.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-01
"""

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "practice_profiles",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("public_id", sa.String(length=32), nullable=False),
        sa.Column("signin_hash", sa.String(length=64), nullable=True),
        sa.Column("learner_json", sa.Text(), nullable=False),
        sa.Column("rating", sa.Float(), nullable=False),
        sa.Column("answered", sa.Integer(), nullable=False),
        sa.Column("since_review", sa.Integer(), nullable=False),
        sa.Column("days_last", sa.Date(), nullable=True),
        sa.Column("days_streak", sa.Integer(), nullable=False),
        sa.Column("days_longest", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("last_seen_at", sa.DateTime(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("public_id"),
        sa.UniqueConstraint("signin_hash"),
        sqlite_autoincrement=True,
    )
    with op.batch_alter_table("practice_profiles", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_practice_profiles_last_seen_at"), ["last_seen_at"], unique=False)

    op.create_table(
        "practice_answers",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("profile_id", sa.Integer(), nullable=False),
        sa.Column("problem", sa.String(length=24), nullable=False),
        sa.Column("item_key", sa.String(length=40), nullable=False),
        sa.Column("mode", sa.String(length=10), nullable=False),
        sa.Column("level", sa.Integer(), nullable=False),
        sa.Column("goal", sa.Integer(), nullable=False),
        sa.Column("predicted", sa.Float(), nullable=False),
        sa.Column("expected", sa.Float(), nullable=False),
        sa.Column("made_goal", sa.Boolean(), nullable=False),
        sa.Column("gave_up", sa.Boolean(), nullable=False),
        sa.Column("score", sa.Integer(), nullable=False),
        sa.Column("outcome", sa.Float(), nullable=False),
        sa.Column("hints_used", sa.Integer(), nullable=False),
        sa.Column("seconds", sa.Float(), nullable=True),
        sa.Column("formula", sa.String(length=200), nullable=False),
        sa.Column("error_code", sa.String(length=40), nullable=True),
        sa.Column("rating_after", sa.Float(), nullable=False),
        sa.Column("changes_json", sa.Text(), nullable=False),
        sa.Column("served_at", sa.DateTime(), nullable=False),
        sa.Column("answered_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(["profile_id"], ["practice_profiles.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("profile_id", "problem"),
    )
    with op.batch_alter_table("practice_answers", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_practice_answers_profile_id"), ["profile_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_practice_answers_item_key"), ["item_key"], unique=False)

    op.create_table(
        "practice_item_stats",
        sa.Column("item_key", sa.String(length=40), nullable=False),
        sa.Column("correction", sa.Float(), nullable=False),
        sa.Column("uncertainty", sa.Float(), nullable=False),
        sa.Column("plays", sa.Integer(), nullable=False),
        sa.Column("made", sa.Integer(), nullable=False),
        sa.Column("last_played_at", sa.DateTime(), nullable=True),
        sa.PrimaryKeyConstraint("item_key"),
    )

    op.create_table(
        "practice_signin_failures",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("client", sa.String(length=64), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("practice_signin_failures", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_practice_signin_failures_client"), ["client"], unique=False)
        batch_op.create_index(
            batch_op.f("ix_practice_signin_failures_created_at"), ["created_at"], unique=False
        )


def downgrade():
    with op.batch_alter_table("practice_signin_failures", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_practice_signin_failures_created_at"))
        batch_op.drop_index(batch_op.f("ix_practice_signin_failures_client"))
    op.drop_table("practice_signin_failures")
    op.drop_table("practice_item_stats")
    with op.batch_alter_table("practice_answers", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_practice_answers_item_key"))
        batch_op.drop_index(batch_op.f("ix_practice_answers_profile_id"))
    op.drop_table("practice_answers")
    with op.batch_alter_table("practice_profiles", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_practice_profiles_last_seen_at"))
    op.drop_table("practice_profiles")
