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
from jarvis.memory.records.store import RankFields, RecordStore
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
        vector = self._checked(doctor_id, clean_query, k, vector)
        ranked, rows = self._ranked(
            doctor_id, clean_query, vector, _wanted(k), patient_refs, boost_refs, lexical, outcomes
        )
        return _hits(ranked, rows, k, min_similarity)

    def search_with_patient(
        self,
        doctor_id: str,
        clean_query: str,
        refs: Sequence[str],
        *,
        k: int,
        patient_k: int,
        min_similarity: float | None,
        vector: Sequence[float] | None = None,
    ) -> tuple[list[SearchHit], list[SearchHit]]:
        """The doctor's k best episodes (the patient's boosted) and the patient's own `patient_k`
        best whatever their score, from one set of candidates: the doctor's nearest and best lexical
        matches, plus the patient's nearest (so the patient's are there even when nothing of theirs
        is near the doctor's top). Half the work of two searches."""
        vector = self._checked(doctor_id, clean_query, max(k, patient_k), vector)
        extra = dict(self._dense(doctor_id, vector, _wanted(patient_k), refs))
        ranked, rows = self._ranked(doctor_id, clean_query, vector, _wanted(k), None, refs, True, True, extra)
        mine = set(refs)
        patient = [r for r in ranked if rows[r.episode_id].patient_ref in mine]
        return _hits(ranked, rows, k, min_similarity), _hits(patient, rows, patient_k, None)

    def _checked(
        self, doctor_id: str, clean_query: str, k: int, vector: Sequence[float] | None
    ) -> Sequence[float]:
        validation.doctor_id(doctor_id)
        if not 1 <= k <= MAX_K:
            raise InputError(f"k must be between 1 and {MAX_K}")
        return self.embedder.embed_query(clean_query) if vector is None else vector

    def _ranked(
        self,
        doctor_id: str,
        clean_query: str,
        vector: Sequence[float],
        wanted: int,
        patient_refs: Sequence[str] | None,
        boost_refs: Sequence[str] | None,
        lexical: bool,
        outcomes: bool,
        extra: dict[str, float] | None = None,
    ) -> tuple[list[ranking.Ranked], dict[str, RankFields]]:
        """Dense and lexical candidates (and `extra` ones, with their cosines), ranked."""
        cosines = {**(extra or {}), **dict(self._dense(doctor_id, vector, wanted, patient_refs))}
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
        return ranked, rows

    def _dense(
        self, doctor_id: str, vector: Sequence[float], wanted: int, patient_refs: Sequence[str] | None
    ) -> list[tuple[str, float]]:
        """The doctor's nearest episodes; with patient_refs, the nearest of those patients' episodes
        (their ids come from the record store: Chroma holds no patient metadata)."""
        within = None if patient_refs is None else self.store.patient_episode_ids(doctor_id, patient_refs)
        return self.index.query(vector, doctor_id, wanted, within)


def _wanted(k: int) -> int:
    """Candidates each retriever proposes for k hits."""
    return max(k * CANDIDATES_PER_HIT, MIN_CANDIDATES)


def _hits(
    ranked: Sequence[ranking.Ranked], rows: dict[str, RankFields], k: int, min_similarity: float | None
) -> list[SearchHit]:
    kept = ranked if min_similarity is None else [r for r in ranked if r.score >= min_similarity]
    hits = []
    for r in kept[:k]:
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
