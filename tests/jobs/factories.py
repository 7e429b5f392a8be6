"""Episodes written below the service (no deid, no embedding): fills a collection fast."""

from __future__ import annotations

from datetime import datetime

import numpy as np

from jarvis.memory.records.store import COMMITTED, PENDING, NewEpisode
from jarvis.memory.records.tables import EpisodeRow
from jarvis.memory.service import MemoryService, _new_id
from jarvis.memory.vector_index import VectorItem


def bulk(memory: MemoryService, doctor: str, n: int, created_at: datetime, seed: int = 0) -> list[str]:
    if n == 0:
        return []
    rng = np.random.default_rng(seed)
    vectors = rng.normal(size=(n, memory.embedder.identity.dimension)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    new = []
    for i in range(n):
        episode_id = _new_id("ep")
        key, wrapped = memory.cipher.new_data_key(episode_id)
        row = EpisodeRow(
            id=episode_id, doctor_id=doctor, patient_ref=None, key_version=None, session_id=f"bulk-{i}", seq=1,
            created_at=created_at, query_deid="filler", response_deid="", summary="filler", tags=[],
            tools_used=[], confidence=None, embedding_model=memory.embedder.identity.model_id, state=PENDING,
            state_at=created_at, enc_query=memory.cipher.encrypt(key, episode_id, "query", "filler"),
            enc_response=memory.cipher.encrypt(key, episode_id, "response", ""), enc_patient_name=None,
        )  # fmt: skip
        new.append(NewEpisode(row, wrapped.master_version, wrapped.blob, "filler"))
    memory.store.insert_pending(new)
    memory.index.upsert(
        [VectorItem(n.row.id, v.tolist(), doctor) for n, v in zip(new, vectors, strict=True)]  # fmt: skip
    )
    memory.store.set_state([n.row.id for n in new], COMMITTED, created_at)
    return [n.row.id for n in new]
