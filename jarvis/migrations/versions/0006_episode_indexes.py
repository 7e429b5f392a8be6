"""Indexes that match the queries: a partial index for unfinished writes, doctor + time for recency.

An index on `state` alone was chosen by SQLite for "the doctor's committed episodes, newest first"
and made it scan every committed episode of every doctor; `state` is almost always 'committed', so
only the rare unfinished rows are worth indexing (reconciliation looks for exactly those).

Revision ID: 0006
Revises: 0005
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None

UNFINISHED = sa.text("state <> 'committed'")


def upgrade() -> None:
    op.drop_index("ix_episodes_state", table_name="episodes")
    op.create_index(
        "ix_episodes_unfinished",
        "episodes",
        ["state", "state_at"],
        sqlite_where=UNFINISHED,
        postgresql_where=UNFINISHED,
    )
    op.create_index("ix_episodes_doctor_created", "episodes", ["doctor_id", "created_at"])


def downgrade() -> None:
    op.drop_index("ix_episodes_doctor_created", table_name="episodes")
    op.drop_index("ix_episodes_unfinished", table_name="episodes")
    op.create_index("ix_episodes_state", "episodes", ["state"])
