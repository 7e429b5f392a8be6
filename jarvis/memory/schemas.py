"""Wire shapes of episodes, shared by the HTTP API (POST /v1/episodes items) and `jarvis import`.

Length limits on text are enforced by the service (from settings), not here, so that both entry
points refuse the same inputs with the same messages.
"""

from __future__ import annotations

from datetime import datetime

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from jarvis.errors import InputError
from jarvis.memory.types import EpisodeDraft


class PatientIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    id: str = Field(
        min_length=1,
        max_length=64,
        pattern=r"^[A-Za-z0-9][A-Za-z0-9 ./-]{0,63}$",
        description="the patient's MRN; stored only as a keyed hash",
    )
    name: str | None = Field(default=None, max_length=200, description="display name; stored encrypted")


class EpisodeIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    query: str
    response: str
    summary: str | None = None
    patient: PatientIn | None = None
    session_id: str | None = None
    tools_used: list[str] = Field(default_factory=list)
    confidence: float | None = Field(default=None, ge=0.0, le=1.0)
    created_at: datetime | None = Field(default=None, description="may be in the past, never the future")

    def to_draft(self) -> EpisodeDraft:
        return EpisodeDraft(
            query=self.query,
            response=self.response,
            summary=self.summary,
            patient_id=self.patient.id if self.patient else None,
            patient_name=self.patient.name if self.patient else None,
            session_id=self.session_id,
            tools_used=tuple(self.tools_used),
            confidence=self.confidence,
            created_at=self.created_at,
        )


def describe(error: ValidationError) -> str:
    """Where and what, without the offending value (it may be clinical text)."""
    first = error.errors(include_input=False, include_url=False)[0]
    where = ".".join(str(part) for part in first["loc"]) or "record"
    more = f" (and {error.error_count() - 1} more)" if error.error_count() > 1 else ""
    return f"{where}: {first['msg']}{more}"


def parse_episode(record: object) -> EpisodeDraft:
    try:
        return EpisodeIn.model_validate(record).to_draft()
    except ValidationError as exc:
        raise InputError(describe(exc)) from None
