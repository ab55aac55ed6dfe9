"""A class number (出席番号) beside a pupil's name in a live class session: typed on joining (optional), or the
roster's for a session made for a class. The grid and the CSV show it.

Revision ID: 0009_student_numbers
Revises: 0008_pupils
Create Date: 2026-12-03
"""

import sqlalchemy as sa
from alembic import op

revision = "0009_student_numbers"
down_revision = "0008_pupils"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("class_students") as batch:
        batch.add_column(sa.Column("class_number", sa.Integer(), nullable=True))


def downgrade():
    with op.batch_alter_table("class_students") as batch:
        batch.drop_column("class_number")
