"""Request and response models of the HTTP API (DESIGN §5). Limits live here and in the service."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from jarvis.memory.schemas import EpisodeIn, PatientIn

OutcomeName = Literal["accepted", "rejected", "modified"]
CategoryName = Literal["allergy", "contraindication", "adverse_reaction", "medication", "condition", "other"]
MRN_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9 ./-]{0,63}$"
NOT_BLANK = r"\S"
PatientId = Field(
    min_length=1,
    max_length=64,
    pattern=MRN_PATTERN,
    description="the patient's MRN; stored only as a keyed hash",
)


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class AskIn(Strict):
    query: str = Field(
        min_length=1, max_length=8_000, examples=["Potassium 6.1 on spironolactone, what now?"]
    )
    patient: PatientIn | None = None
    session_id: str | None = Field(
        default=None, min_length=1, max_length=64, pattern=r"^[A-Za-z0-9][A-Za-z0-9_-]*$"
    )


class MemoryOut(BaseModel):
    episode_id: str
    created_at: datetime
    summary: str
    similarity: float
    outcome: OutcomeName | None


class SafetyFactOut(BaseModel):
    category: CategoryName
    text: str
    recorded_at: datetime


class AskOut(BaseModel):
    answer: str
    episode_id: str | None
    session_id: str
    memories: list[MemoryOut]
    safety_facts: list[SafetyFactOut]
    degraded: bool
    model: str
    usage: dict[str, int | bool | None]


class EpisodesIn(Strict):
    episodes: list[EpisodeIn] = Field(min_length=1, max_length=500)


class EpisodeIdsOut(BaseModel):
    episode_ids: list[str]


class EpisodeOut(BaseModel):
    episode_id: str
    patient_ref: str | None
    patient_name: str | None
    session_id: str
    seq: int
    created_at: datetime
    query: str
    response: str
    summary: str
    tags: list[str]
    tools_used: list[str]
    confidence: float | None
    outcome: OutcomeName | None
    outcome_note: str | None
    outcome_at: datetime | None


class OutcomeIn(Strict):
    outcome: OutcomeName
    note: str | None = Field(default=None, max_length=4_000)


class SearchIn(Strict):
    query: str = Field(
        min_length=1, max_length=8_000, pattern=NOT_BLANK, examples=["vancomycin dosing in AKI"]
    )
    k: int = Field(default=5, ge=1, le=50)
    patient_id: str | None = Field(
        default=None, min_length=1, max_length=64, description="only this patient's episodes"
    )
    min_similarity: float | None = Field(default=None, ge=-1.0, le=2.0)


class HitOut(BaseModel):
    episode_id: str
    similarity: float
    score: float
    created_at: datetime
    summary: str
    outcome: OutcomeName | None


class SearchOut(BaseModel):
    hits: list[HitOut]


class HistoryIn(Strict):
    patient_id: str = PatientId
    limit: int = Field(default=20, ge=1, le=200)


class HistoryOut(BaseModel):
    episodes: list[EpisodeOut]


class PatientIdIn(Strict):
    patient_id: str = PatientId


class FactIn(Strict):
    patient_id: str = PatientId
    category: CategoryName
    text: str = Field(min_length=1, max_length=4_000, pattern=NOT_BLANK)


class FactOut(BaseModel):
    fact_id: str
    category: CategoryName
    text: str
    recorded_at: datetime
    source_episode_id: str | None


class FactsOut(BaseModel):
    facts: list[FactOut]


class ApiKeyIn(Strict):
    role: Literal["clinician", "admin", "auditor"]
    subject: str | None = Field(default=None, min_length=1, max_length=128)


class ApiKeyOut(BaseModel):
    key_id: str
    token: str = Field(description="shown once; store it now")
    role: str
    subject: str | None


class ApiKeyInfoOut(BaseModel):
    key_id: str
    role: Literal["clinician", "admin", "auditor"]
    subject: str | None
    created_at: datetime
    revoked_at: datetime | None


class ApiKeysOut(BaseModel):
    keys: list[ApiKeyInfoOut] = Field(description="newest first; secrets are never shown again")


class WhoAmIOut(BaseModel):
    role: Literal["clinician", "admin", "auditor"]
    subject: str | None = Field(description="the doctor id for clinicians; the admin's or auditor's id")
    key_id: str | None = Field(description="the API key id, or null for a JWT")
    method: Literal["api_key", "jwt"]


class ErrorBody(BaseModel):
    code: str
    message: str
    request_id: str | None = None


class ErrorOut(BaseModel):
    error: ErrorBody


_ERROR_MEANINGS = {
    400: "malformed request",
    401: "no, bad, expired or revoked token",
    403: "the role may not do this",
    404: "no such resource, or not the caller's",
    409: "conflict (e.g. a job already running)",
    413: "request too large",
    422: "invalid input",
    429: "rate limited",
    503: "a store, the model, de-identification or the audit log is unavailable",
}
ERRORS: dict[int | str, dict[str, object]] = {
    code: {"model": ErrorOut, "description": meaning} for code, meaning in _ERROR_MEANINGS.items()
}
