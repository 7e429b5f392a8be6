"""Relational schema of the record store (SQLAlchemy 2). Migrations in jarvis/migrations own the DDL.

Only de-identified text is stored in the clear; raw text and display names are ciphertexts under
the episode's data key (data_keys), which is deleted with the episode.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import (
    JSON,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    String,
    Text,
    UniqueConstraint,
    text,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Base(DeclarativeBase):
    pass


class EpisodeRow(Base):
    __tablename__ = "episodes"
    __table_args__ = (
        UniqueConstraint("doctor_id", "session_id", "seq", name="uq_episodes_session_seq"),
        Index("ix_episodes_doctor_patient_created", "doctor_id", "patient_ref", "created_at"),
        Index("ix_episodes_created", "created_at"),
        Index("ix_episodes_doctor_created", "doctor_id", "created_at"),
        Index("ix_episodes_doctor_state", "doctor_id", "state"),  # counts read the index only
        # Only unfinished writes are indexed by state: nearly every row is 'committed'.
        Index(
            "ix_episodes_unfinished",
            "state",
            "state_at",
            sqlite_where=text("state <> 'committed'"),
            postgresql_where=text("state <> 'committed'"),
        ),
    )

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    doctor_id: Mapped[str] = mapped_column(String(128))
    patient_ref: Mapped[str | None] = mapped_column(String(64))
    key_version: Mapped[int | None] = mapped_column(Integer)
    session_id: Mapped[str] = mapped_column(String(64))
    seq: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    query_deid: Mapped[str] = mapped_column(Text)
    response_deid: Mapped[str] = mapped_column(Text)
    summary: Mapped[str] = mapped_column(Text)
    tags: Mapped[list[str]] = mapped_column(JSON)
    tools_used: Mapped[list[str]] = mapped_column(JSON)
    confidence: Mapped[float | None] = mapped_column(Float)
    outcome: Mapped[str | None] = mapped_column(String(16))
    outcome_note: Mapped[str | None] = mapped_column(Text)
    outcome_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    embedding_model: Mapped[str] = mapped_column(String(128))
    # pending: written, vector not yet indexed (invisible); committed: visible; deleting: being removed
    state: Mapped[str] = mapped_column(String(16))
    state_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    enc_query: Mapped[bytes] = mapped_column(LargeBinary)
    enc_response: Mapped[bytes] = mapped_column(LargeBinary)
    enc_patient_name: Mapped[bytes | None] = mapped_column(LargeBinary)
    # [[episode_id, similarity], ...] shown in this episode's prompt, in prompt order (agent loop)
    memories_used: Mapped[list[list[str | float]] | None] = mapped_column(JSON)


class DataKeyRow(Base):
    __tablename__ = "data_keys"

    episode_id: Mapped[str] = mapped_column(
        String(40), ForeignKey("episodes.id", ondelete="CASCADE"), primary_key=True
    )
    master_version: Mapped[int] = mapped_column(Integer)
    wrapped: Mapped[bytes] = mapped_column(LargeBinary)


class PatientFactRow(Base):
    __tablename__ = "patient_facts"
    __table_args__ = (Index("ix_patient_facts_doctor_patient", "doctor_id", "patient_ref"),)

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    doctor_id: Mapped[str] = mapped_column(String(128))
    patient_ref: Mapped[str] = mapped_column(String(64))
    key_version: Mapped[int] = mapped_column(Integer)
    category: Mapped[str] = mapped_column(String(32))
    text_deid: Mapped[str] = mapped_column(Text)
    source_episode_id: Mapped[str | None] = mapped_column(
        String(40), ForeignKey("episodes.id", ondelete="SET NULL")
    )
    recorded_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class StoreMetaRow(Base):
    """Facts about the store itself, e.g. which embedding model its vectors come from."""

    __tablename__ = "store_meta"

    key: Mapped[str] = mapped_column(String(64), primary_key=True)
    value: Mapped[str] = mapped_column(Text)


class SummaryRow(Base):
    """A doctor's long-term summary (session_id "") or a session's milestones, de-identified."""

    __tablename__ = "summaries"

    doctor_id: Mapped[str] = mapped_column(String(128), primary_key=True)
    session_id: Mapped[str] = mapped_column(String(64), primary_key=True)
    text: Mapped[str] = mapped_column(Text)
    episode_count: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
