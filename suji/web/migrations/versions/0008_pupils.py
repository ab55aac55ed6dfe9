"""Pupils of a class on any device: sign-in cards, their practice, homework, live lessons and the daily board.

class_pupils gains the card's code hash and the practice profile; class_sessions the class a live session was
made for, class_students the roster pupil who joined it; new tables keep every pupil's record (assignments,
each pupil's work, answers and attempts) and their daily puzzles for the class's leaderboard. Existing rows
stay as they were (the new columns are empty).

Revision ID: 0008_pupils
Revises: 0007_work_slots
Create Date: 2026-12-03
"""

import sqlalchemy as sa
from alembic import op

revision = "0008_pupils"
down_revision = "0007_work_slots"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("class_pupils", schema=None) as batch_op:
        batch_op.add_column(sa.Column("signin_hash", sa.String(length=64), nullable=True))
        batch_op.add_column(sa.Column("card_made_at", sa.DateTime(), nullable=True))
        batch_op.add_column(sa.Column("profile_id", sa.Integer(), nullable=True))
        batch_op.create_unique_constraint(batch_op.f("uq_class_pupils_signin_hash"), ["signin_hash"])
        batch_op.create_unique_constraint(batch_op.f("uq_class_pupils_profile_id"), ["profile_id"])
        batch_op.create_foreign_key(
            batch_op.f("fk_class_pupils_profile_id_practice_profiles"), "practice_profiles", ["profile_id"], ["id"],
            ondelete="SET NULL",
        )  # fmt: skip
    with op.batch_alter_table("class_sessions", schema=None) as batch_op:
        batch_op.add_column(sa.Column("school_class_id", sa.Integer(), nullable=True))
        batch_op.create_index(batch_op.f("ix_class_sessions_school_class_id"), ["school_class_id"], unique=False)
        batch_op.create_foreign_key(
            batch_op.f("fk_class_sessions_school_class_id_school_classes"), "school_classes", ["school_class_id"],
            ["id"], ondelete="CASCADE",
        )  # fmt: skip
    with op.batch_alter_table("class_students", schema=None) as batch_op:
        batch_op.add_column(sa.Column("pupil_id", sa.Integer(), nullable=True))
        batch_op.create_index(batch_op.f("ix_class_students_pupil_id"), ["pupil_id"], unique=False)
        batch_op.create_foreign_key(
            batch_op.f("fk_class_students_pupil_id_class_pupils"), "class_pupils", ["pupil_id"], ["id"],
            ondelete="CASCADE",
        )  # fmt: skip

    op.create_table(
        "class_assignments",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("public_id", sa.String(length=24), nullable=False),
        sa.Column("class_id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=10), nullable=False),
        sa.Column("title", sa.String(length=60), nullable=False),
        sa.Column("settings_json", sa.Text(), nullable=False),
        sa.Column("problems_json", sa.Text(), nullable=False),
        sa.Column("opens_at", sa.DateTime(), nullable=True),
        sa.Column("due_at", sa.DateTime(), nullable=True),
        sa.Column("class_session_id", sa.Integer(), nullable=True),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["class_id"], ["school_classes.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["class_session_id"], ["class_sessions.id"], ondelete="SET NULL"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("public_id"),
        sa.UniqueConstraint("class_session_id"),
    )
    with op.batch_alter_table("class_assignments", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_class_assignments_class_id"), ["class_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_class_assignments_due_at"), ["due_at"], unique=False)

    op.create_table(
        "assignment_work",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("assignment_id", sa.Integer(), nullable=False),
        sa.Column("pupil_id", sa.Integer(), nullable=False),
        sa.Column("started_at", sa.DateTime(), nullable=False),
        sa.Column("finished_at", sa.DateTime(), nullable=True),
        sa.Column("finished_late", sa.Boolean(), nullable=False),
        sa.Column("last_answer_at", sa.DateTime(), nullable=True),
        sa.Column("items_done", sa.Integer(), nullable=False),
        sa.Column("items_made", sa.Integer(), nullable=False),
        sa.Column("seconds", sa.Float(), nullable=False),
        sa.Column("pending_json", sa.Text(), nullable=True),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["assignment_id"], ["class_assignments.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["pupil_id"], ["class_pupils.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("assignment_id", "pupil_id"),
    )
    with op.batch_alter_table("assignment_work", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_assignment_work_pupil_id"), ["pupil_id"], unique=False)

    op.create_table(
        "assignment_answers",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("work_id", sa.Integer(), nullable=False),
        sa.Column("assignment_id", sa.Integer(), nullable=False),
        sa.Column("problem", sa.Integer(), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("hints_used", sa.Integer(), nullable=False),
        sa.Column("solved", sa.Boolean(), nullable=False),
        sa.Column("done", sa.Boolean(), nullable=False),
        sa.Column("score", sa.Integer(), nullable=False),
        sa.Column("formula", sa.String(length=200), nullable=False),
        sa.Column("first_score", sa.Integer(), nullable=True),
        sa.Column("late", sa.Boolean(), nullable=False),
        sa.Column("updated_at", sa.DateTime(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["assignment_id"], ["class_assignments.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["work_id"], ["assignment_work.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("work_id", "problem"),
    )
    with op.batch_alter_table("assignment_answers", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_assignment_answers_assignment_id"), ["assignment_id"], unique=False)

    op.create_table(
        "assignment_attempts",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("work_id", sa.Integer(), nullable=False),
        sa.Column("assignment_id", sa.Integer(), nullable=False),
        sa.Column("pupil_id", sa.Integer(), nullable=False),
        sa.Column("problem", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("formula", sa.String(length=200), nullable=False),
        sa.Column("error_code", sa.String(length=40), nullable=True),
        sa.Column("made", sa.Boolean(), nullable=False),
        sa.Column("score", sa.Integer(), nullable=False),
        sa.Column("late", sa.Boolean(), nullable=False),
        sa.Column("item_key", sa.String(length=40), nullable=True),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(["assignment_id"], ["class_assignments.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["pupil_id"], ["class_pupils.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["work_id"], ["assignment_work.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("work_id", "problem", "number"),
    )
    with op.batch_alter_table("assignment_attempts", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_assignment_attempts_assignment_id"), ["assignment_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_assignment_attempts_pupil_id"), ["pupil_id"], unique=False)

    op.create_table(
        "class_daily_entries",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("class_id", sa.Integer(), nullable=False),
        sa.Column("pupil_id", sa.Integer(), nullable=False),
        sa.Column("day", sa.Date(), nullable=False),
        sa.Column("entry_id", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["class_id"], ["school_classes.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["entry_id"], ["daily_entries.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["pupil_id"], ["class_pupils.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("entry_id"),
        sa.UniqueConstraint("pupil_id", "day"),
    )
    with op.batch_alter_table("class_daily_entries", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_class_daily_entries_class_id"), ["class_id"], unique=False)


def downgrade():
    with op.batch_alter_table("class_daily_entries", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_class_daily_entries_class_id"))
    op.drop_table("class_daily_entries")
    with op.batch_alter_table("assignment_attempts", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_assignment_attempts_pupil_id"))
        batch_op.drop_index(batch_op.f("ix_assignment_attempts_assignment_id"))
    op.drop_table("assignment_attempts")
    with op.batch_alter_table("assignment_answers", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_assignment_answers_assignment_id"))
    op.drop_table("assignment_answers")
    with op.batch_alter_table("assignment_work", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_assignment_work_pupil_id"))
    op.drop_table("assignment_work")
    with op.batch_alter_table("class_assignments", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_class_assignments_due_at"))
        batch_op.drop_index(batch_op.f("ix_class_assignments_class_id"))
    op.drop_table("class_assignments")
    with op.batch_alter_table("class_students", schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f("fk_class_students_pupil_id_class_pupils"), type_="foreignkey")
        batch_op.drop_index(batch_op.f("ix_class_students_pupil_id"))
        batch_op.drop_column("pupil_id")
    with op.batch_alter_table("class_sessions", schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f("fk_class_sessions_school_class_id_school_classes"), type_="foreignkey")
        batch_op.drop_index(batch_op.f("ix_class_sessions_school_class_id"))
        batch_op.drop_column("school_class_id")
    with op.batch_alter_table("class_pupils", schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f("fk_class_pupils_profile_id_practice_profiles"), type_="foreignkey")
        batch_op.drop_constraint(batch_op.f("uq_class_pupils_profile_id"), type_="unique")
        batch_op.drop_constraint(batch_op.f("uq_class_pupils_signin_hash"), type_="unique")
        batch_op.drop_column("profile_id")
        batch_op.drop_column("card_made_at")
        batch_op.drop_column("signin_hash")
