"""Retention: policy, legal holds, per-doctor vector-index generations and job leases.

- retention_policy: days to keep, per doctor ("" is the default for every other doctor).
- legal_holds: patient refs (one row per pseudonym key version) whose episodes and facts are kept.
- vector_generations: which generation of a doctor's Chroma collection is current, which is being
  built (writes go to both) and which is retired (dropped once no reader can still use it).
- job_leases: one runner at a time for SQLite (PostgreSQL uses an advisory lock as well).

Revision ID: 0007
Revises: 0006
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "retention_policy",
        sa.Column("doctor_id", sa.String(128), primary_key=True),
        sa.Column("days", sa.Integer, nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "legal_holds",
        sa.Column("patient_ref", sa.String(64), primary_key=True),
        sa.Column("hold_id", sa.String(40), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_legal_holds_hold", "legal_holds", ["hold_id"])
    op.create_table(
        "vector_generations",
        sa.Column("doctor_id", sa.String(128), primary_key=True),
        sa.Column("current", sa.Integer, nullable=False),
        sa.Column("building", sa.Integer),
        sa.Column("retired", sa.Integer),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "job_leases",
        sa.Column("name", sa.String(64), primary_key=True),
        sa.Column("holder", sa.String(64), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_patient_facts_recorded", "patient_facts", ["recorded_at"])


def downgrade() -> None:
    op.drop_index("ix_patient_facts_recorded", table_name="patient_facts")
    op.drop_table("job_leases")
    op.drop_table("vector_generations")
    op.drop_index("ix_legal_holds_hold", table_name="legal_holds")
    op.drop_table("legal_holds")
    op.drop_table("retention_policy")
