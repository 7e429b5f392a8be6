"""Which memories each episode's prompt showed, in order, with the relevance they were shown with.

The agent loop keeps a session's memories in the prompt in the order they were first shown, so
consecutive prompts share their prefix (model prefix caches); this column is where that order lives.

Revision ID: 0008
Revises: 0007
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("episodes") as batch:
        batch.add_column(sa.Column("memories_used", sa.JSON, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("episodes") as batch:
        batch.drop_column("memories_used")
