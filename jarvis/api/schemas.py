"""Request and response models of the HTTP API (DESIGN §5). Limits live here and in the service."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from jarvis.memory.schemas import EpisodeIn, PatientIn

OutcomeName = Literal["accepted", "rejected", "modified"]
CategoryName = Literal["allergy", "contraindication", "adverse_reaction", "medication", "condition", "other"]
PatientId = Field(min_length=1, max_length=64, description="the patient's MRN; stored only as a keyed hash")


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
    query: str = Field(min_length=1, max_length=8_000, examples=["vancomycin dosing in AKI"])
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
    text: str = Field(min_length=1, max_length=4_000)


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


class ErrorBody(BaseModel):
    code: str
    message: str
    request_id: str | None = None


class ErrorOut(BaseModel):
    error: ErrorBody
