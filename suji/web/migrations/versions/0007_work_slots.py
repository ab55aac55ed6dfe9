"""Work shared by every server process: slots of bounded work (live advice, worksheets, new classes) and the
live solver's advice outcomes by roll.

Revision ID: 0007_work_slots
Revises: 0006_deployment
Create Date: 2026-12-03
"""

import sqlalchemy as sa
from alembic import op

revision = "0007_work_slots"
down_revision = "0006_deployment"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "work_slots",
        sa.Column("kind", sa.String(length=20), nullable=False),
        sa.Column("slot", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("client", sa.String(length=64), nullable=False),
        sa.Column("job", sa.String(length=120), nullable=False),
        sa.Column("token", sa.String(length=32), nullable=False),
        sa.Column("taken_at", sa.DateTime(), nullable=False),
        sa.Column("expires_at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("kind", "slot"),
        sa.UniqueConstraint("kind", "client"),
    )
    with op.batch_alter_table("work_slots", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_work_slots_expires_at"), ["expires_at"], unique=False)
    op.create_table(
        "advice_outcomes",
        sa.Column("roll_key", sa.String(length=120), nullable=False),
        sa.Column("scores_json", sa.Text(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("roll_key"),
    )
    with op.batch_alter_table("advice_outcomes", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_advice_outcomes_created_at"), ["created_at"], unique=False)


def downgrade():
    with op.batch_alter_table("advice_outcomes", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_advice_outcomes_created_at"))
    op.drop_table("advice_outcomes")
    with op.batch_alter_table("work_slots", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_work_slots_expires_at"))
    op.drop_table("work_slots")
