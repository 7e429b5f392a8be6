"""Episodes for the memory tests."""

from __future__ import annotations

from datetime import datetime

from jarvis.memory.types import EpisodeDraft

SEPSIS = EpisodeDraft(
    query="Mrs Gita Bhat (MRN 00482913) has urosepsis, lactate 4.1. Which antibiotics?",
    response="Start cefepime 2 g IV every 8 hours after blood cultures; add vancomycin if MRSA risk.",
    patient_id="00482913",
    patient_name="Gita Bhat",
)
HYPERKALEMIA = EpisodeDraft(
    query="Potassium 6.1 on spironolactone and lisinopril, what should I do?",
    response="Stop spironolactone, give calcium gluconate if the ECG changes, then insulin with dextrose.",
)
DKA = EpisodeDraft(
    query="DKA with potassium 3.1: when do I start the insulin infusion?",
    response="Hold insulin until potassium is above 3.3 and replace potassium chloride first.",
)


def draft(query: str, response: str = "Noted.", **kwargs: object) -> EpisodeDraft:
    return EpisodeDraft(query=query, response=response, **kwargs)  # type: ignore[arg-type]


def at(text: str) -> datetime:
    return datetime.fromisoformat(text)
