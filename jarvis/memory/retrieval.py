"""Retrieval over de-identified text: dense and lexical candidates for one doctor, re-ranked.

Callers de-identify first (MemoryService.search does; the agent loop passes the question it already
de-identified). Every candidate source is scoped to the doctor in its own query.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime

from jarvis.errors import InputError
from jarvis.memory import ranking, validation
from jarvis.memory.embedders.base import Embedder
from jarvis.memory.records.store import RecordStore
from jarvis.memory.text import search_terms
from jarvis.memory.types import Outcome, SearchHit
from jarvis.memory.vector_index import VectorIndex

MAX_K = 50
# Each retriever proposes this many candidates per requested hit before the hybrid re-rank.
CANDIDATES_PER_HIT = 4
MIN_CANDIDATES = 40


class Retriever:
    def __init__(self, store: RecordStore, index: VectorIndex, embedder: Embedder) -> None:
        self.store, self.index, self.embedder = store, index, embedder

    def search(
        self,
        doctor_id: str,
        clean_query: str,
        *,
        k: int = 5,
        patient_refs: Sequence[str] | None = None,
        boost_refs: Sequence[str] | None = None,
        min_similarity: float | None = 0.25,
        lexical: bool = True,
        outcomes: bool = True,
        vector: Sequence[float] | None = None,
    ) -> list[SearchHit]:
        """The doctor's k best episodes for an already de-identified query (`vector`: its embedding,
        when the caller already has it)."""
        validation.doctor_id(doctor_id)
        if not 1 <= k <= MAX_K:
            raise InputError(f"k must be between 1 and {MAX_K}")
        if vector is None:
            vector = self.embedder.embed_query(clean_query)
        wanted = max(k * CANDIDATES_PER_HIT, MIN_CANDIDATES)
        cosines = dict(self.index.query(vector, doctor_id, wanted, patient_refs))
        matches = (
            dict(self.store.lexical(doctor_id, search_terms(clean_query), patient_refs, wanted))
            if lexical
            else {}
        )
        missing = [e for e in matches if e not in cosines]
        for episode_id, other in self.index.vectors(doctor_id, missing).items():
            cosines[episode_id] = ranking.cosine(vector, other)
        rows = self.store.rank_fields(doctor_id, list(cosines))
        boosted = frozenset(e for e, row in rows.items() if boost_refs and row.patient_ref in boost_refs)
        ranked = ranking.rank(
            {e: c for e, c in cosines.items() if e in rows},
            matches,
            {e: Outcome(row.outcome) if row.outcome else None for e, row in rows.items()},
            boosted=boosted,
            use_outcomes=outcomes,
        )
        hits = []
        for r in (
            ranked[:k] if min_similarity is None else [r for r in ranked if r.score >= min_similarity][:k]
        ):
            row = rows[r.episode_id]
            hits.append(
                SearchHit(
                    episode_id=r.episode_id,
                    similarity=round(r.similarity, 4),
                    score=round(r.score, 4),
                    created_at=aware(row.created_at),
                    summary=row.summary,
                    outcome=Outcome(row.outcome) if row.outcome else None,
                    patient_ref=row.patient_ref,
                )
            )
        return hits


def aware(value: datetime) -> datetime:
    """SQLite hands back naive datetimes; everything stored is UTC."""
    return value if value.tzinfo else value.replace(tzinfo=UTC)
