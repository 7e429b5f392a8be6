"""MemoryService: save, read, rank and forget episodes, one doctor at a time.

A save goes: validate -> de-identify (known names: patient, doctor) -> tag, summarise -> embed ->
encrypt raw fields -> record rows written `pending` -> vectors upserted -> rows `committed`.
Only committed rows are visible, so a failure at any step leaves no half-written episode: the
service undoes what it wrote (rollback.py: later, if a store is down at that moment), and
`reconcile()` clears what a crash left behind.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from deid import Deidentifier, DeidError
from jarvis.errors import (
    ConfigurationError,
    DeidentificationFailed,
    InputError,
    JarvisError,
    NotFoundError,
    UnreachableError,
)
from jarvis.memory import validation
from jarvis.memory.embedders.base import Embedder
from jarvis.memory.records.generations import GenerationStore
from jarvis.memory.records.store import COMMITTED, PENDING, NewEpisode, RecordStore
from jarvis.memory.records.tables import DataKeyRow, EpisodeRow, PatientFactRow
from jarvis.memory.retrieval import Retriever, aware
from jarvis.memory.rollback import Rollback, reconcile_unfinished
from jarvis.memory.text import clinical_tags, embedding_text, extractive_summary
from jarvis.memory.types import Episode, EpisodeDraft, FactCategory, Outcome, PatientFact, SearchHit
from jarvis.memory.validation import Limits
from jarvis.memory.vector_index import VectorIndex, VectorItem
from jarvis.security.fields import FieldCipher, WrappedKey
from jarvis.security.pseudonyms import PatientRef, Pseudonymizer

logger = logging.getLogger(__name__)

# Embeddings of saves run here, alongside the saves' row writes (one thread per save in flight).
WRITER_THREADS = 16
# A pending row older than this belongs to a save that died; younger ones may be in flight elsewhere.
RECONCILE_GRACE = timedelta(minutes=10)
_IDENTITY_KEY = "embedding_identity"


def _new_id(prefix: str) -> str:
    return f"{prefix}_{secrets.token_urlsafe(18)}"


def _utcnow() -> datetime:
    return datetime.now(UTC)


@dataclass(frozen=True, slots=True)
class Clean:
    """Fields of a draft that the caller has already de-identified (None: de-identify here)."""

    query: str | None = None
    response: str | None = None
    summary: str | None = None


@dataclass(frozen=True, slots=True)
class _Prepared:
    draft: EpisodeDraft
    ref: PatientRef | None
    query_deid: str
    response_deid: str
    summary: str
    tags: list[str] = field(default_factory=list)


class MemoryService:
    def __init__(
        self,
        *,
        store: RecordStore,
        index: VectorIndex,
        embedder: Embedder,
        deid: Deidentifier,
        pseudonyms: Pseudonymizer,
        cipher: FieldCipher,
        limits: Limits | None = None,
        clock: Callable[[], datetime] = _utcnow,
    ) -> None:
        if embedder.identity != index.identity:
            raise ConfigurationError("embedder and vector index disagree on the vector space")
        self.store, self.index, self.embedder, self.deid = store, index, embedder, deid
        self.pseudonyms, self.cipher = pseudonyms, cipher
        self.retriever = Retriever(store, index, embedder)
        self.rollback = Rollback(store, index)
        self.limits = limits or Limits()
        self._writers = ThreadPoolExecutor(max_workers=WRITER_THREADS, thread_name_prefix="memory-save")
        self._now = clock
        self._check_identity()
        attach = getattr(index, "attach_generations", None)
        if callable(attach):  # compaction switches collection generations through the record store
            attach(GenerationStore(store.engine))

    def _check_identity(self) -> None:
        """The store remembers which model its vectors came from; another one is a clear error."""
        identity = self.embedder.identity
        wanted = f"{identity.model_id}/{identity.dimension}"
        recorded = self.store.meta_setdefault(_IDENTITY_KEY, wanted)
        if recorded != wanted:
            raise ConfigurationError(
                f"this store's episodes were embedded with {recorded}; the configured embedder is {wanted}"
            )

    # -- saving -----------------------------------------------------------------------------
    def save(
        self,
        doctor_id: str,
        draft: EpisodeDraft,
        *,
        doctor_name: str | None = None,
        already_clean: Clean | None = None,
    ) -> str:
        """Save one episode. `already_clean`: fields the caller already has de-identified with the same
        known names (the agent loop's question; the offline responder's answer, which only repeats
        de-identified context), so they are not de-identified twice."""
        precleaned = {0: already_clean} if already_clean else {}
        return self.save_batch(doctor_id, [draft], doctor_name=doctor_name, _precleaned=precleaned)[0]

    def save_batch(
        self,
        doctor_id: str,
        drafts: Sequence[EpisodeDraft],
        *,
        doctor_name: str | None = None,
        _precleaned: dict[int, Clean] | None = None,
    ) -> list[str]:
        """Save all episodes or none; returns their ids in input order."""
        validation.doctor_id(doctor_id)
        now = self._now()
        checked = validation.batch(drafts, self.limits, now)
        prepared = self._prepare(checked, doctor_name, _precleaned or {})
        # The rows do not need the vectors: they are encrypted and written `pending` while the
        # embedding runs (both release the GIL), which takes the shorter of the two off a save.
        embedding = self._writers.submit(
            self.embedder.embed_documents, [embedding_text(p.query_deid, p.summary) for p in prepared]
        )
        try:
            new = [self._row(doctor_id, p, now) for p in prepared]
            self.store.insert_pending(new)
        except BaseException:
            wait([embedding])  # nothing of this save outlives it
            raise
        ids = [n.row.id for n in new]
        try:
            vectors = embedding.result()
        except BaseException:
            self.rollback.undo(doctor_id, ids, vectors_written=False)
            raise
        try:
            self.index.upsert(
                [VectorItem(n.row.id, vector, doctor_id) for n, vector in zip(new, vectors, strict=True)]
            )
        except JarvisError as exc:
            self.rollback.undo(doctor_id, ids, vectors_written=not isinstance(exc, UnreachableError))
            raise
        try:
            self.store.set_state(ids, COMMITTED, self._now())
        except JarvisError:
            self.rollback.undo(doctor_id, ids)
            raise
        self.rollback.retry()  # both stores just answered: finish undos an outage left owing
        return ids

    def _prepare(
        self, drafts: Sequence[EpisodeDraft], doctor_name: str | None, precleaned: dict[int, Clean]
    ) -> list[_Prepared]:
        """De-identify every text not already clean, grouped by known names: one deid batch per group."""
        fields: dict[int, dict[str, str | None]] = {}
        for i in range(len(drafts)):
            given = precleaned.get(i, Clean())
            fields[i] = {"query": given.query, "response": given.response, "summary": given.summary}
        todo: dict[tuple[str, ...], list[tuple[int, str, str]]] = {}
        for i, d in enumerate(drafts):
            names = tuple(n for n in (d.patient_name, doctor_name) if n and n.strip())
            for name, raw in (("query", d.query), ("response", d.response), ("summary", d.summary)):
                if raw is not None and fields[i][name] is None:
                    todo.setdefault(names, []).append((i, name, raw))
        for names, items in todo.items():
            try:
                results = self.deid.deidentify_batch([raw for _, _, raw in items], known_names=names)
            except DeidError:
                raise DeidentificationFailed("de-identification failed; nothing was stored") from None
            for (i, name, _), result in zip(items, results, strict=True):
                fields[i][name] = result.text
        prepared = []
        for i, d in enumerate(drafts):
            query, response = str(fields[i]["query"]), str(fields[i]["response"])
            summary = fields[i]["summary"] or extractive_summary(query, response)
            ref = self.pseudonyms.ref(d.patient_id) if d.patient_id is not None else None
            prepared.append(
                _Prepared(d, ref, query, response, summary, clinical_tags(f"{query}\n{response}"))
            )
        return prepared

    def _row(self, doctor_id: str, p: _Prepared, now: datetime) -> NewEpisode:
        episode_id = _new_id("ep")
        data_key, wrapped = self.cipher.new_data_key(episode_id)
        seal = self.cipher.encrypt
        name = p.draft.patient_name
        row = EpisodeRow(
            id=episode_id,
            doctor_id=doctor_id,
            patient_ref=p.ref.ref if p.ref else None,
            key_version=p.ref.key_version if p.ref else None,
            session_id=p.draft.session_id or _new_id("ses"),
            seq=0,
            created_at=p.draft.created_at or now,
            query_deid=p.query_deid,
            response_deid=p.response_deid,
            summary=p.summary,
            tags=p.tags,
            tools_used=list(p.draft.tools_used),
            confidence=p.draft.confidence,
            embedding_model=self.embedder.identity.model_id,
            state=PENDING,
            state_at=now,
            enc_query=seal(data_key, episode_id, "query", p.draft.query),
            enc_response=seal(data_key, episode_id, "response", p.draft.response),
            enc_patient_name=seal(data_key, episode_id, "patient_name", name) if name else None,
            memories_used=[[e, round(sim, 4)] for e, sim in p.draft.memories_used] or None,
        )
        body = f"{p.summary}\n{p.query_deid}\n{p.response_deid}"
        return NewEpisode(row, wrapped.master_version, wrapped.blob, body)

    def undo_save(self, doctor_id: str, episode_ids: Sequence[str]) -> None:
        """Take back saved episodes whose request cannot complete (their audit event failed): removed
        now or, if a store is down at this moment, after the next save that succeeds."""
        self.rollback.undo(doctor_id, episode_ids)

    def reconcile(self, grace: timedelta = RECONCILE_GRACE) -> int:
        """Remove saves that never committed and finish deletes that never completed."""
        return reconcile_unfinished(self.store, self.index, self._now() - grace)

    # -- reading ----------------------------------------------------------------------------
    def get(self, doctor_id: str, episode_id: str) -> Episode:
        found = self.store.get(validation.doctor_id(doctor_id), episode_id)
        if found is None:
            raise NotFoundError("episode not found")
        return self._episode(*found)

    def history(self, doctor_id: str, patient_id: str, limit: int = 20) -> list[Episode]:
        if not 1 <= limit <= 200:
            raise InputError("limit must be between 1 and 200")
        refs = [r.ref for r in self.pseudonyms.refs_for(patient_id)]
        return [
            self._episode(row, key)
            for row, key in self.store.history(validation.doctor_id(doctor_id), refs, limit)
        ]

    def _episode(self, row: EpisodeRow, key: DataKeyRow) -> Episode:
        data_key = self.cipher.unwrap(row.id, WrappedKey(key.master_version, key.wrapped))
        open_ = self.cipher.decrypt
        return Episode(
            episode_id=row.id,
            patient_ref=row.patient_ref,
            patient_name=open_(data_key, row.id, "patient_name", row.enc_patient_name)
            if row.enc_patient_name
            else None,
            session_id=row.session_id,
            seq=row.seq,
            created_at=aware(row.created_at),
            query=open_(data_key, row.id, "query", row.enc_query),
            response=open_(data_key, row.id, "response", row.enc_response),
            query_deid=row.query_deid,
            response_deid=row.response_deid,
            summary=row.summary,
            tags=list(row.tags),
            tools_used=list(row.tools_used),
            confidence=row.confidence,
            outcome=Outcome(row.outcome) if row.outcome else None,
            outcome_note=row.outcome_note,
            outcome_at=aware(row.outcome_at) if row.outcome_at else None,
        )

    # -- outcome and deletion ---------------------------------------------------------------
    def set_outcome(self, doctor_id: str, episode_id: str, outcome: str, note: str | None = None) -> None:
        try:
            chosen = Outcome(outcome)
        except ValueError:
            raise InputError("outcome must be accepted, rejected or modified") from None
        clean_note = None
        if note is not None and note.strip():
            validation.text(note, "note", validation.MAX_NOTE_CHARS)
            try:
                clean_note = self.deid.deidentify(note).text
            except DeidError:
                raise DeidentificationFailed("de-identification failed; nothing was stored") from None
        if not self.store.set_outcome(
            validation.doctor_id(doctor_id), episode_id, chosen, clean_note, self._now()
        ):
            raise NotFoundError("episode not found")

    def delete(self, doctor_id: str, episode_id: str) -> None:
        if not self.store.mark_deleting(validation.doctor_id(doctor_id), episode_id, self._now()):
            raise NotFoundError("episode not found")
        # Hidden from now on; if what follows fails, reconcile() finishes the job.
        self.index.delete(doctor_id, [episode_id])
        self.store.delete_rows([episode_id])

    # -- retrieval --------------------------------------------------------------------------
    def search(
        self,
        doctor_id: str,
        query: str,
        *,
        k: int = 5,
        patient_id: str | None = None,
        min_similarity: float | None = 0.25,
        boost_patient_id: str | None = None,
        lexical: bool = True,
        outcomes: bool = True,
    ) -> list[SearchHit]:
        """The doctor's k best episodes for a raw query (de-identified here before anything else).

        `lexical` and `outcomes` switch those ranking signals off (dense-only is the benchmark's baseline).
        """
        validation.text(query, "query", self.limits.max_query_chars)
        try:
            clean = self.deid.deidentify(query).text
        except DeidError:
            raise DeidentificationFailed("de-identification failed; the query was not searched") from None
        return self.retriever.search(
            validation.doctor_id(doctor_id),
            clean,
            k=k,
            patient_refs=self._refs(patient_id),
            boost_refs=self._refs(boost_patient_id),
            min_similarity=min_similarity,
            lexical=lexical,
            outcomes=outcomes,
        )

    def _refs(self, patient_id: str | None) -> list[str] | None:
        return None if patient_id is None else [r.ref for r in self.pseudonyms.refs_for(patient_id)]

    # -- patient facts ----------------------------------------------------------------------
    def add_fact(
        self,
        doctor_id: str,
        patient_id: str,
        category: str,
        text: str,
        *,
        source_episode_id: str | None = None,
    ) -> PatientFact:
        """Record a fact (de-identified first); an identical fact already on record is returned as is."""
        try:
            chosen = FactCategory(category)
        except ValueError:
            raise InputError("unknown fact category") from None
        validation.text(text, "text", validation.MAX_NOTE_CHARS)
        ref = self.pseudonyms.ref(patient_id)
        try:
            clean = " ".join(self.deid.deidentify(text).text.split())
        except DeidError:
            raise DeidentificationFailed("de-identification failed; nothing was stored") from None
        for existing in self.facts(doctor_id, patient_id):
            if existing.category is chosen and existing.text.lower() == clean.lower():
                return existing
        row = PatientFactRow(
            id=_new_id("fact"),
            doctor_id=validation.doctor_id(doctor_id),
            patient_ref=ref.ref,
            key_version=ref.key_version,
            category=chosen,
            text_deid=clean,
            source_episode_id=source_episode_id,
            recorded_at=self._now(),
        )
        self.store.add_fact(row)
        return PatientFact(row.id, chosen, clean, row.recorded_at, source_episode_id)

    def facts(self, doctor_id: str, patient_id: str) -> list[PatientFact]:
        refs = [r.ref for r in self.pseudonyms.refs_for(patient_id)]
        return [
            PatientFact(
                r.id, FactCategory(r.category), r.text_deid, aware(r.recorded_at), r.source_episode_id
            )
            for r in self.store.facts(validation.doctor_id(doctor_id), refs)
        ]

    # -- keys -------------------------------------------------------------------------------
    def rewrap_data_keys(self, batch: int = 500) -> int:
        """Re-wrap every data key under the current master key; field ciphertexts are untouched."""
        current = self.cipher.current_master_version
        done = 0
        while rows := self.store.data_keys_below(current, batch):
            for row in rows:
                wrapped = self.cipher.rewrap(row.episode_id, WrappedKey(row.master_version, row.wrapped))
                row.master_version, row.wrapped = wrapped.master_version, wrapped.blob
            self.store.replace_data_keys(rows)
            done += len(rows)
        return done
