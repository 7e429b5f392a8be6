"""The doctor's long-term summary and each session's milestones (context part 2).

Regenerated every N episodes (not every request) and stored with the episode count they were made
at, then reused unchanged, so that the prompt prefix stays byte-identical between regenerations.
Model-written when a language model is configured; extractive (tags, accepted advice) offline.
"""

from __future__ import annotations

import logging
from collections import Counter
from datetime import UTC, datetime

from jarvis.agent.models.base import ChatModel, Content, Prompt
from jarvis.agent.models.offline import MODEL_ID as OFFLINE
from jarvis.errors import JarvisError
from jarvis.memory.records.store import RecordStore
from jarvis.memory.records.tables import EpisodeRow, SummaryRow

logger = logging.getLogger(__name__)

DOCTOR_WINDOW = 50  # episodes the doctor summary is made from
MAX_SUMMARY_CHARS = 1_500
_INSTRUCTION = (
    "Summarise this clinician's recent interactions with a clinical assistant for the assistant's own "
    "future reference: recurring topics, preferences shown by accepted and rejected advice, and open "
    "threads. At most 8 bullet points. The text is de-identified; keep placeholders such as [NAME] as they are."
)


def _extractive_doctor(rows: list[EpisodeRow], total: int) -> str:
    tags = Counter(tag for row in rows for tag in row.tags)
    topics = ", ".join(f"{tag} ({n})" for tag, n in tags.most_common(8)) or "none tagged"
    accepted = [r.summary for r in rows if r.outcome == "accepted"][:3]
    rejected = [r.summary for r in rows if r.outcome == "rejected"][:2]
    lines = [f"{total} interactions so far. Frequent topics: {topics}."]
    lines += [f"- accepted: {s}" for s in accepted]
    lines += [f"- rejected: {s}" for s in rejected]
    return "\n".join(lines)[:MAX_SUMMARY_CHARS]


def _extractive_session(rows: list[EpisodeRow]) -> str:
    return "\n".join(f"{r.seq}. {r.summary}" for r in rows)[:MAX_SUMMARY_CHARS]


class Summaries:
    def __init__(self, store: RecordStore, model: ChatModel, every: int) -> None:
        self.store, self.model, self.every = store, model, every

    def current(self, doctor_id: str, session_id: str) -> tuple[str | None, str | None]:
        doctor = self.store.summary(doctor_id, "")
        session = self.store.summary(doctor_id, session_id)
        return (doctor.text if doctor else None, session.text if session else None)

    def refresh(self, doctor_id: str, session_id: str) -> None:
        """Regenerate what is N or more episodes old (called after a save). Both sit in the same
        part of the prompt, so when one is due the other is brought up to date too: one change of
        the prompt prefix instead of two a few turns apart."""
        total, in_session, doctor_at, session_at = self.store.summary_counts(doctor_id, session_id)
        doctor_due = total >= self.every and (doctor_at is None or total - doctor_at >= self.every)
        session_due = in_session >= self.every and (
            session_at is None or in_session - session_at >= self.every
        )
        if not (doctor_due or session_due):
            return
        if total >= self.every and (doctor_at is None or doctor_at < total):
            rows = self.store.recent(doctor_id, DOCTOR_WINDOW)
            self._put(doctor_id, "", self._write(_extractive_doctor(rows, total)), total)
        if in_session >= self.every and (session_at is None or session_at < in_session):
            rows = self.store.session_turns(doctor_id, session_id, in_session)
            self._put(doctor_id, session_id, _extractive_session(rows), in_session)

    def _write(self, material: str) -> str:
        """A model-written summary of the extractive material, or the material itself offline."""
        if self.model.model_id == OFFLINE:
            return material
        try:
            reply = self.model.generate(
                Prompt(_INSTRUCTION, [Content("user", material)], max_output_tokens=400, temperature=0.0)
            )
        except JarvisError:
            logger.warning("summary model call failed; kept the extractive summary")
            return material
        return (reply.text.strip() or material)[:MAX_SUMMARY_CHARS]

    def _put(self, doctor_id: str, session_id: str, text: str, count: int) -> None:
        self.store.put_summary(
            SummaryRow(
                doctor_id=doctor_id,
                session_id=session_id,
                text=text,
                episode_count=count,
                created_at=datetime.now(UTC),
            )
        )
