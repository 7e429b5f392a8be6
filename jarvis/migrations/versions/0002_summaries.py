"""Long-term summaries: one per doctor and one per session, with the episode count they were made at.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "summaries",
        sa.Column("doctor_id", sa.String(128), primary_key=True),
        # "" for the doctor's long-term summary, else the session whose milestones these are
        sa.Column("session_id", sa.String(64), primary_key=True),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("episode_count", sa.Integer, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("summaries")
