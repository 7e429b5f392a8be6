"""The memory's domain types. The API maps its pydantic models onto these."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum


class Outcome(StrEnum):
    ACCEPTED = "accepted"
    REJECTED = "rejected"
    MODIFIED = "modified"


class FactCategory(StrEnum):
    ALLERGY = "allergy"
    CONTRAINDICATION = "contraindication"
    ADVERSE_REACTION = "adverse_reaction"
    MEDICATION = "medication"
    CONDITION = "condition"
    OTHER = "other"


# Always in context for the patient, whatever their age or similarity (DESIGN §3).
SAFETY_CATEGORIES = frozenset(
    {
        FactCategory.ALLERGY,
        FactCategory.CONTRAINDICATION,
        FactCategory.ADVERSE_REACTION,
        FactCategory.MEDICATION,
    }
)


@dataclass(frozen=True, slots=True)
class EpisodeDraft:
    """One exchange to remember, as the caller gives it (raw text; de-identified on save)."""

    query: str
    response: str
    summary: str | None = None
    patient_id: str | None = None
    patient_name: str | None = None
    session_id: str | None = None
    tools_used: tuple[str, ...] = ()
    confidence: float | None = None
    created_at: datetime | None = None
    # (episode id, similarity) shown in the prompt that produced this episode, in prompt order
    memories_used: tuple[tuple[str, float], ...] = ()


@dataclass(frozen=True, slots=True)
class Episode:
    """A stored episode as its owning doctor sees it (raw text decrypted)."""

    episode_id: str
    patient_ref: str | None
    patient_name: str | None
    session_id: str
    seq: int
    created_at: datetime
    query: str
    response: str
    query_deid: str
    response_deid: str
    summary: str
    tags: list[str] = field(default_factory=list)
    tools_used: list[str] = field(default_factory=list)
    confidence: float | None = None
    outcome: Outcome | None = None
    outcome_note: str | None = None
    outcome_at: datetime | None = None


@dataclass(frozen=True, slots=True)
class SearchHit:
    """similarity is the cosine of query and episode; score is what ranking sorted by."""

    episode_id: str
    similarity: float
    score: float
    created_at: datetime
    summary: str
    outcome: Outcome | None
    patient_ref: str | None


@dataclass(frozen=True, slots=True)
class PatientFact:
    fact_id: str
    category: FactCategory
    text: str
    recorded_at: datetime
    source_episode_id: str | None
