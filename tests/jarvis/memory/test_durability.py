"""No half-written episodes: injected failures mid-save, crashes reconciled at start-up, key rotation."""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import timedelta
from pathlib import Path
from typing import Any

import chromadb
import pytest
from chromadb.config import Settings as ChromaSettings

from deid import DeidError
from jarvis.errors import ConfigurationError, DeidentificationFailed, UnavailableError, UnreachableError
from jarvis.memory.embedders.base import EmbedderIdentity
from jarvis.memory.records.store import PENDING
from jarvis.memory.service import MemoryService
from jarvis.memory.types import Outcome
from jarvis.memory.vector_index import ChromaIndex, VectorItem
from jarvis.security.keys import KeyRing
from tests.jarvis.memory.conftest import MemoryFactory
from tests.jarvis.memory.factories import DKA, SEPSIS, draft


class WrappedIndex:
    """The real Chroma index, with `upsert` replaced by a subclass."""

    def __init__(self, real: ChromaIndex) -> None:
        self.real = real

    def __getattr__(self, name: str) -> object:
        return getattr(self.real, name)

    @property
    def identity(self) -> EmbedderIdentity:
        return self.real.identity


class FailingIndex(WrappedIndex):
    """The real Chroma index with a fault injected at upsert: an outage, or the process dying."""

    def __init__(self, real: ChromaIndex, error: BaseException) -> None:
        super().__init__(real)
        self.error = error

    def upsert(self, items: Sequence[VectorItem]) -> None:
        self.real.upsert(items[: len(items) // 2])  # part of the batch reached the index
        raise self.error


class OutageIndex(WrappedIndex):
    """The real Chroma index behind a switch: while `down`, every write fails before reaching it."""

    def __init__(self, real: ChromaIndex, error: type[UnavailableError]) -> None:
        super().__init__(real)
        self.error, self.down = error, True

    def upsert(self, items: Sequence[VectorItem]) -> None:
        if self.down:
            raise self.error("vector index unavailable (ConnectError)")
        self.real.upsert(items)

    def delete(self, doctor_id: str, episode_ids: Sequence[str]) -> None:
        if self.down:
            raise self.error("vector index unavailable (ConnectError)")
        self.real.delete(doctor_id, episode_ids)


def pending(memory: MemoryService) -> list[tuple[str, str]]:
    return memory.store.stale_ids(PENDING, memory._now() + timedelta(days=1))


def test_unreachable_index_undoes_the_rows_at_once(make_memory: MemoryFactory) -> None:
    healthy = make_memory()
    outage = OutageIndex(healthy.index, UnreachableError)
    memory = make_memory(index=outage)  # type: ignore[arg-type]
    with pytest.raises(UnavailableError):
        memory.save_batch("dr-a", [SEPSIS, DKA])
    # The index never saw the request, so there was nothing to undo there: the rows went at once.
    assert pending(memory) == [] and memory.rollback.owed == 0


def test_undo_owed_during_an_outage_is_finished_by_the_next_save(make_memory: MemoryFactory) -> None:
    healthy = make_memory()
    outage = OutageIndex(healthy.index, UnavailableError)  # ambiguous: the write may have landed
    memory = make_memory(index=outage)  # type: ignore[arg-type]
    with pytest.raises(UnavailableError):
        memory.save("dr-a", SEPSIS)
    # The undo could not delete the vector: the row stays pending (invisible) and is owed.
    assert len(pending(memory)) == 1 and memory.rollback.owed == 1
    assert memory.store.count() == 0
    outage.down = False
    kept = memory.save("dr-a", DKA)
    assert pending(memory) == [] and memory.rollback.owed == 0
    assert memory.store.count() == 1 and healthy.index.count() == 1
    assert memory.get("dr-a", kept).query == DKA.query


class DeadIndex(WrappedIndex):
    """The real Chroma index behind a switch: while `down`, every call to it fails."""

    down = False

    def __getattr__(self, name: str) -> object:
        if self.down:
            raise UnavailableError("vector index unavailable (ConnectError)")
        return getattr(self.real, name)


def test_outcome_feedback_does_not_need_the_vector_index(make_memory: MemoryFactory) -> None:
    """Outcomes weigh in ranking from the record store; Chroma holds no copy to keep in step."""
    healthy = make_memory()
    dead = DeadIndex(healthy.index)
    memory = make_memory(index=dead)  # type: ignore[arg-type]
    episode = memory.save("dr-a", SEPSIS)
    dead.down = True
    memory.set_outcome("dr-a", episode, "rejected", note="cultures grew MRSA")
    with pytest.raises(UnavailableError):  # the switch is real: search does need the index
        memory.search("dr-a", "urosepsis", min_similarity=None)
    dead.down = False
    assert memory.get("dr-a", episode).outcome is Outcome.REJECTED


class ProcessDied(BaseException):
    """Stands in for SIGKILL between the record write and the vector write: no cleanup runs."""


def test_index_failure_mid_save_leaves_nothing(make_memory: MemoryFactory) -> None:
    healthy = make_memory()
    broken = make_memory(index=FailingIndex(healthy.index, UnavailableError("vector index unavailable")))  # type: ignore[arg-type]
    with pytest.raises(UnavailableError):
        broken.save_batch("dr-a", [SEPSIS, DKA])
    assert healthy.store.count() == 0 and healthy.index.count() == 0
    assert healthy.store.stale_ids(PENDING, healthy._now() + timedelta(days=1)) == []


def test_crash_mid_save_is_invisible_then_reconciled_at_start_up(make_memory: MemoryFactory) -> None:
    healthy = make_memory()
    dying = make_memory(index=FailingIndex(healthy.index, ProcessDied()))  # type: ignore[arg-type]
    with pytest.raises(ProcessDied):
        dying.save_batch("dr-a", [SEPSIS, DKA])
    # The rows are there but pending: no read path shows them.
    assert healthy.store.count() == 0
    assert healthy.search("dr-a", "urosepsis antibiotics", min_similarity=None) == []
    # A recent pending row may be another replica's save in flight: left alone...
    assert healthy.reconcile() == 0
    # ...until it is older than the grace period, as at the next start-up.
    assert make_memory().reconcile(grace=timedelta(0)) == 2
    assert healthy.index.count() == 0
    assert healthy.store.stale_ids(PENDING, healthy._now() + timedelta(days=1)) == []


def test_deid_failure_stores_nothing(make_memory: MemoryFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    memory = make_memory()

    def broken(*_args: object, **_kwargs: object) -> None:
        raise DeidError("de-identification failed")

    monkeypatch.setattr(memory.deid, "deidentify_batch", broken)
    with pytest.raises(DeidentificationFailed, match="nothing was stored"):
        memory.save("dr-a", SEPSIS)
    assert memory.store.count() == 0 and memory.index.count() == 0


def test_interrupted_delete_is_finished_by_reconcile(make_memory: MemoryFactory) -> None:
    memory = make_memory()
    episode_id = memory.save("dr-a", DKA)
    assert memory.store.mark_deleting("dr-a", episode_id, memory._now())
    assert memory.store.count() == 0  # hidden at once
    assert make_memory().reconcile(grace=timedelta(0)) == 1
    assert memory.index.vectors("dr-a", [episode_id]) == {}


def test_master_key_rotation_rewraps_without_touching_ciphertexts(make_memory: MemoryFactory) -> None:
    old_ring = KeyRing({1: b"\x01" * 32})
    memory = make_memory(master_keys=old_ring)
    ids = memory.save_batch("dr-a", [SEPSIS, draft("second", patient_id="P-2", patient_name="Ann Lee")])
    before = {e: memory.store.get("dr-a", e)[0].enc_query for e in ids}  # type: ignore[index]
    rotated = make_memory(master_keys=old_ring.with_new_version())
    assert rotated.rewrap_data_keys(batch=1) == 2
    assert rotated.rewrap_data_keys() == 0
    only_new = make_memory(master_keys=KeyRing({2: rotated.cipher._master.keys[2]}))
    assert only_new.get("dr-a", ids[0]).query == SEPSIS.query
    assert only_new.get("dr-a", ids[1]).patient_name == "Ann Lee"
    assert {e: only_new.store.get("dr-a", e)[0].enc_query for e in ids} == before  # type: ignore[index]


def test_pseudonym_key_rotation_keeps_history_findable(make_memory: MemoryFactory) -> None:
    v1 = KeyRing({1: b"\x02" * 32})
    old = make_memory(pseudonym_keys=v1).save("dr-a", draft("old", patient_id="P-9"))
    rotated = make_memory(pseudonym_keys=v1.with_new_version())
    new = rotated.save("dr-a", draft("new", patient_id="P-9"))
    assert rotated.get("dr-a", new).patient_ref != rotated.get("dr-a", old).patient_ref
    assert {e.episode_id for e in rotated.history("dr-a", "P-9")} == {old, new}
    assert {h.episode_id for h in rotated.search("dr-a", "old", patient_id="P9", min_similarity=None)} >= {
        old
    }


def test_a_store_embedded_with_another_model_is_refused(make_memory: MemoryFactory, tmp_path: Path) -> None:
    memory = make_memory()
    memory.save("dr-a", DKA)
    other = EmbedderIdentity("gemini:gemini-embedding-001", 768)

    class OtherModel:
        identity = other

    client = chromadb.PersistentClient(
        path=str(tmp_path / "chroma"), settings=ChromaSettings(anonymized_telemetry=False)
    )
    with pytest.raises(ConfigurationError, match="embedded with all-MiniLM-L6-v2-onnx-int8/384"):
        MemoryService(
            store=memory.store,
            index=ChromaIndex(client, other),
            embedder=OtherModel(),  # type: ignore[arg-type]
            deid=memory.deid,
            pseudonyms=memory.pseudonyms,
            cipher=memory.cipher,
        )


def test_a_collection_of_another_model_is_refused(tmp_path: Path) -> None:
    client = chromadb.PersistentClient(
        path=str(tmp_path / "c"), settings=ChromaSettings(anonymized_telemetry=False)
    )
    index = ChromaIndex(client, EmbedderIdentity("model-a", 8))
    client.create_collection(
        index.collection_name("dr-a"), metadata={"embedding_model": "model-b", "dimension": 8}
    )
    with pytest.raises(ConfigurationError, match="holds vectors of model-b/8"):
        index.query([0.0] * 8, "dr-a", 5)


def test_vectors_of_the_wrong_dimension_are_refused(tmp_path: Path) -> None:
    client = chromadb.PersistentClient(
        path=str(tmp_path / "c"), settings=ChromaSettings(anonymized_telemetry=False)
    )
    index = ChromaIndex(client, EmbedderIdentity("model-a", 8))
    with pytest.raises(ConfigurationError, match="dimension 3"):
        index.upsert([VectorItem("ep_1", [0.1, 0.2, 0.3], "dr-a")])


def test_gemini_embeddings_are_a_separate_index(tmp_path: Path, deid: object, gemini_server: Any) -> None:
    """JARVIS_EMBEDDER=gemini end to end through the real SDK and the fake API on loopback."""
    from jarvis.config import Settings
    from jarvis.memory.factory import open_memory

    settings = Settings(
        data_dir=tmp_path / "data",
        embedder="gemini",
        gemini_api_key=gemini_server.api_key,  # type: ignore[arg-type]
        gemini_base_url=gemini_server.base_url,
        gemini_embedding_dim=256,
    )
    memory = open_memory(settings, deid=deid)  # type: ignore[arg-type]
    assert memory is not None and memory.index.identity == EmbedderIdentity(
        "gemini:gemini-embedding-001", 256
    )
    episode_id = memory.save("dr-a", SEPSIS)
    assert [h.episode_id for h in memory.search("dr-a", "urosepsis antibiotics cefepime")] == [episode_id]
    assert "Bhat" not in json.dumps([r.body for r in gemini_server.requests])  # only de-identified text left
