"""Tables of retention, legal holds, vector-index generations and job leases (migration 0007)."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import DateTime, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from jarvis.memory.records.tables import Base

DEFAULT_POLICY = ""  # the retention_policy row that applies to every doctor without an override


class RetentionPolicyRow(Base):
    __tablename__ = "retention_policy"

    doctor_id: Mapped[str] = mapped_column(String(128), primary_key=True)
    days: Mapped[int] = mapped_column(Integer)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class LegalHoldRow(Base):
    """One row per pseudonym key version of the held patient; hold_id groups them."""

    __tablename__ = "legal_holds"

    patient_ref: Mapped[str] = mapped_column(String(64), primary_key=True)
    hold_id: Mapped[str] = mapped_column(String(40))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class VectorGenerationRow(Base):
    """Which generation of the doctor's collection readers use, which is being built, which is retired."""

    __tablename__ = "vector_generations"

    doctor_id: Mapped[str] = mapped_column(String(128), primary_key=True)
    current: Mapped[int] = mapped_column(Integer)
    building: Mapped[int | None] = mapped_column(Integer)
    retired: Mapped[int | None] = mapped_column(Integer)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class JobLeaseRow(Base):
    __tablename__ = "job_leases"

    name: Mapped[str] = mapped_column(String(64), primary_key=True)
    holder: Mapped[str] = mapped_column(String(64))
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
