"""Audit tables (SQLAlchemy 2), on the record store's Base; migration 0004 owns the DDL.

`event` is the canonical JSON the chain covers and the only source of truth. The other columns
copy parts of it so that queries can filter with indexes; verification checks that they agree.
The database refuses UPDATE and DELETE on all three tables (triggers, see migration 0004), and
this package has no code path that issues either.
"""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import BigInteger, DateTime, ForeignKey, Index, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from jarvis.memory.records.tables import Base

# INTEGER PRIMARY KEY is SQLite's rowid (fast, ordered); PostgreSQL needs 64 bits for a long-lived log.
SeqType = BigInteger().with_variant(Integer(), "sqlite")


class AuditEventRow(Base):
    __tablename__ = "audit_events"
    __table_args__ = (
        Index("ix_audit_events_recorded_at", "recorded_at"),
        Index("ix_audit_events_actor_seq", "actor", "seq"),
        Index("ix_audit_events_outcome_seq", "outcome", "seq"),
    )

    seq: Mapped[int] = mapped_column(SeqType, primary_key=True, autoincrement=False)
    recorded_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    actor: Mapped[str] = mapped_column(String(128))
    action: Mapped[str] = mapped_column(String(1))
    outcome: Mapped[str] = mapped_column(String(16))
    event: Mapped[str] = mapped_column(Text)
    prev_hash: Mapped[str] = mapped_column(String(64))
    hash: Mapped[str] = mapped_column(String(64))


class AuditEventPatientRow(Base):
    """One row per (patient_ref, event): the patient filter is an index look-up, not a LIKE scan."""

    __tablename__ = "audit_event_patients"

    patient_ref: Mapped[str] = mapped_column(String(64), primary_key=True)
    seq: Mapped[int] = mapped_column(SeqType, ForeignKey("audit_events.seq"), primary_key=True)


class AuditCheckpointRow(Base):
    __tablename__ = "audit_checkpoints"

    seq: Mapped[int] = mapped_column(SeqType, primary_key=True, autoincrement=False)
    head: Mapped[str] = mapped_column(String(64))
    signed_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    signature: Mapped[str] = mapped_column(String(64))


def as_utc(value: datetime) -> datetime:
    """SQLite hands timestamps back without a zone; they were written in UTC."""
    return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)
