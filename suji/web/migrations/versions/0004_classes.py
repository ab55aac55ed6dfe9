"""Classes that last the school year: a teacher's classes and their pupils.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-02
"""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "school_classes",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("public_id", sa.String(length=24), nullable=False),
        sa.Column("teacher_id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=40), nullable=False),
        sa.Column("school_year", sa.Integer(), nullable=False),
        sa.Column("ends_on", sa.Date(), nullable=False),
        sa.Column("leaderboard", sa.String(length=10), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["teacher_id"], ["teachers.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("public_id"),
    )
    with op.batch_alter_table("school_classes", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_school_classes_teacher_id"), ["teacher_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_school_classes_ends_on"), ["ends_on"], unique=False)
    op.create_table(
        "class_pupils",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("public_id", sa.String(length=24), nullable=False),
        sa.Column("class_id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=40), nullable=False),
        sa.Column("name_key", sa.String(length=80), nullable=False),
        sa.Column("number", sa.Integer(), nullable=True),
        sa.Column("extra_time", sa.String(length=8), nullable=False),
        sa.Column("free_hints", sa.Boolean(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("last_active_at", sa.DateTime(), nullable=True),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["class_id"], ["school_classes.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("public_id"),
        sa.UniqueConstraint("class_id", "name_key"),
        sa.UniqueConstraint("class_id", "number"),
    )
    with op.batch_alter_table("class_pupils", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_class_pupils_class_id"), ["class_id"], unique=False)


def downgrade():
    with op.batch_alter_table("class_pupils", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_class_pupils_class_id"))
    op.drop_table("class_pupils")
    with op.batch_alter_table("school_classes", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_school_classes_ends_on"))
        batch_op.drop_index(batch_op.f("ix_school_classes_teacher_id"))
    op.drop_table("school_classes")
