"""Audit log: hash-chained events, their patient index and signed checkpoints — all append-only.

The database itself refuses UPDATE and DELETE on the three tables (and TRUNCATE on PostgreSQL),
so a bug or a careless script cannot rewrite history; someone who drops the triggers first is
caught by chain verification instead. In production, also grant the service's role only INSERT
and SELECT on these tables.

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None

_TABLES = ("audit_events", "audit_event_patients", "audit_checkpoints")
_SEQ = sa.BigInteger().with_variant(sa.Integer(), "sqlite")

_PG_FUNCTION = """CREATE FUNCTION audit_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'audit log is append-only: % on % refused', TG_OP, TG_TABLE_NAME
        USING ERRCODE = 'restrict_violation';
END $$"""


def _sqlite_triggers(table: str) -> list[str]:
    return [
        f"""CREATE TRIGGER {table}_no_{op_name.lower()} BEFORE {op_name} ON {table} BEGIN
            SELECT RAISE(ABORT, 'audit log is append-only: {op_name} on {table} refused'); END"""
        for op_name in ("UPDATE", "DELETE")
    ]


def _postgres_triggers(table: str) -> list[str]:
    return [
        f"""CREATE TRIGGER {table}_append_only BEFORE UPDATE OR DELETE ON {table}
            FOR EACH ROW EXECUTE FUNCTION audit_append_only()""",
        # Row triggers do not fire on TRUNCATE; a statement trigger does.
        f"""CREATE TRIGGER {table}_no_truncate BEFORE TRUNCATE ON {table}
            FOR EACH STATEMENT EXECUTE FUNCTION audit_append_only()""",
    ]


def upgrade() -> None:
    op.create_table(
        "audit_events",
        sa.Column("seq", _SEQ, primary_key=True, autoincrement=False),
        sa.Column("recorded_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("actor", sa.String(128), nullable=False),
        sa.Column("action", sa.String(1), nullable=False),
        sa.Column("outcome", sa.String(16), nullable=False),
        sa.Column("event", sa.Text, nullable=False),
        sa.Column("prev_hash", sa.String(64), nullable=False),
        sa.Column("hash", sa.String(64), nullable=False),
    )
    op.create_index("ix_audit_events_recorded_at", "audit_events", ["recorded_at"])
    op.create_index("ix_audit_events_actor_seq", "audit_events", ["actor", "seq"])
    op.create_index("ix_audit_events_outcome_seq", "audit_events", ["outcome", "seq"])
    op.create_table(
        "audit_event_patients",
        sa.Column("patient_ref", sa.String(64), primary_key=True),
        sa.Column("seq", _SEQ, sa.ForeignKey("audit_events.seq"), primary_key=True),
    )
    op.create_table(
        "audit_checkpoints",
        sa.Column("seq", _SEQ, primary_key=True, autoincrement=False),
        sa.Column("head", sa.String(64), nullable=False),
        sa.Column("signed_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("signature", sa.String(64), nullable=False),
    )
    dialect = op.get_bind().dialect.name
    if dialect == "postgresql":
        op.execute(_PG_FUNCTION)
    for table in _TABLES:
        for statement in _sqlite_triggers(table) if dialect == "sqlite" else _postgres_triggers(table):
            op.execute(statement)


def downgrade() -> None:
    # Dropping a table drops its triggers; the audit log goes with it (a downgrade is destructive).
    for table in reversed(_TABLES):
        op.drop_table(table)
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP FUNCTION audit_append_only()")
