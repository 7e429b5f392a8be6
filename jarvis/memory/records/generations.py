"""Generations of each doctor's vector collection, kept in the record store (vector_generations).

Compaction rebuilds a doctor's collection as generation g+1 while g keeps serving: `building` makes
every writer write to both, `switch` makes g+1 current and g `retired`, and the retired collection
is dropped once no reader can still be using it. A doctor without a row is at generation 0.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import Engine, select
from sqlalchemy.orm import Session

from jarvis.memory.records.retention_tables import VectorGenerationRow


@dataclass(frozen=True, slots=True)
class Generation:
    current: int = 0
    building: int | None = None
    retired: int | None = None

    @property
    def writes(self) -> tuple[int, ...]:
        """Generations a write must reach: the current one and the one being built."""
        return (self.current,) if self.building is None else (self.current, self.building)


class GenerationStore:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def get(self, doctor_id: str) -> Generation:
        with Session(self.engine) as session:
            row = session.get(VectorGenerationRow, doctor_id)
            return Generation() if row is None else Generation(row.current, row.building, row.retired)

    def all(self) -> dict[str, Generation]:
        with Session(self.engine) as session:
            return {
                row.doctor_id: Generation(row.current, row.building, row.retired)
                for row in session.scalars(select(VectorGenerationRow))
            }

    def unfinished(self) -> list[str]:
        """Doctors whose last compaction stopped half-way (a build or a drop is left to do)."""
        with Session(self.engine) as session:
            rows = session.scalars(
                select(VectorGenerationRow.doctor_id).where(
                    (VectorGenerationRow.building.is_not(None)) | (VectorGenerationRow.retired.is_not(None))
                )
            )
            return list(rows)

    def put(self, doctor_id: str, generation: Generation) -> None:
        with Session(self.engine) as session, session.begin():
            session.merge(
                VectorGenerationRow(
                    doctor_id=doctor_id,
                    current=generation.current,
                    building=generation.building,
                    retired=generation.retired,
                    updated_at=datetime.now(UTC),
                )
            )
