"""The vector index: Chroma, embedded (PersistentClient in the data dir) or a `chroma run` server.

Only ids, vectors and the metadata that filtering needs go to Chroma — doctor_id, patient_ref,
created_at (epoch seconds) and outcome. Never text or names: Chroma keeps deleted documents and
vectors on disk after delete (chroma issues #3793, #7659, #7662).

The collection's name and metadata carry the embedder identity (model id + dimension); opening a
collection made by another model is an error, so one collection never mixes vector spaces.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from jarvis.config import Settings
from jarvis.errors import ConfigurationError, UnavailableError
from jarvis.memory.embedders.base import EmbedderIdentity

logger = logging.getLogger(__name__)

# Larger than Chroma's default (100): filtered queries for one doctor must still find the exact
# top k among that doctor's vectors (the benchmark reports recall against exact search).
HNSW_EF_SEARCH = 200
HNSW_EF_CONSTRUCTION = 200
NO_PATIENT = ""  # Chroma metadata cannot hold None


@dataclass(frozen=True, slots=True)
class VectorItem:
    episode_id: str
    vector: Sequence[float]
    doctor_id: str
    patient_ref: str | None
    created_at: float
    outcome: str | None


class VectorIndex(Protocol):
    """What the memory needs of a vector index. Every query is scoped to one doctor."""

    @property
    def identity(self) -> EmbedderIdentity: ...

    def upsert(self, items: Sequence[VectorItem]) -> None: ...

    def query(
        self, vector: Sequence[float], doctor_id: str, k: int, patient_refs: Sequence[str] | None = None
    ) -> list[tuple[str, float]]:
        """The doctor's k nearest episodes as (episode_id, cosine similarity), best first."""
        ...

    def vectors(self, doctor_id: str, episode_ids: Sequence[str]) -> dict[str, list[float]]: ...

    def update_outcome(self, episode_id: str, outcome: str | None) -> None: ...

    def delete(self, episode_ids: Sequence[str]) -> None: ...

    def count(self) -> int: ...


@contextmanager
def _chroma_errors() -> Iterator[None]:
    """Chroma and transport failures become UnavailableError; the type name is all we log."""
    try:
        yield
    except (ConfigurationError, UnavailableError):
        raise
    except Exception as exc:  # noqa: BLE001 - chromadb raises many unrelated types; all mean "index down"
        raise UnavailableError(f"vector index unavailable ({type(exc).__name__})") from exc


def _where(doctor_id: str, patient_refs: Sequence[str] | None) -> dict[str, Any]:
    if patient_refs is None:
        return {"doctor_id": doctor_id}
    return {"$and": [{"doctor_id": doctor_id}, {"patient_ref": {"$in": list(patient_refs)}}]}


class ChromaIndex:
    def __init__(self, client: Any, identity: EmbedderIdentity, name_prefix: str = "episodes") -> None:
        self._identity = identity
        name = f"{name_prefix}-{identity.slug}"
        with _chroma_errors():
            self._collection = client.get_or_create_collection(
                name,
                configuration={
                    "hnsw": {
                        "space": "cosine",
                        "ef_search": HNSW_EF_SEARCH,
                        "ef_construction": HNSW_EF_CONSTRUCTION,
                    }
                },
                metadata={"embedding_model": identity.model_id, "dimension": identity.dimension},
                embedding_function=None,  # vectors are always passed in; Chroma's default would download a model
            )
        found = dict(self._collection.metadata or {})
        if found.get("embedding_model") != identity.model_id or found.get("dimension") != identity.dimension:
            raise ConfigurationError(
                f"collection {name} holds vectors of {found.get('embedding_model')}/{found.get('dimension')}, "
                f"not {identity.model_id}/{identity.dimension}"
            )

    @property
    def identity(self) -> EmbedderIdentity:
        return self._identity

    def upsert(self, items: Sequence[VectorItem]) -> None:
        if not items:
            return
        for item in items:
            if len(item.vector) != self._identity.dimension:
                raise ConfigurationError(
                    f"vector of dimension {len(item.vector)} for an index of {self._identity.dimension}"
                )
        with _chroma_errors():
            self._collection.upsert(
                ids=[i.episode_id for i in items],
                embeddings=[list(i.vector) for i in items],
                metadatas=[
                    {
                        "doctor_id": i.doctor_id,
                        "patient_ref": i.patient_ref or NO_PATIENT,
                        "created_at": i.created_at,
                        "outcome": i.outcome or "none",
                    }
                    for i in items
                ],
            )

    def query(
        self, vector: Sequence[float], doctor_id: str, k: int, patient_refs: Sequence[str] | None = None
    ) -> list[tuple[str, float]]:
        with _chroma_errors():
            result = self._collection.query(
                query_embeddings=[list(vector)],
                n_results=k,
                where=_where(doctor_id, patient_refs),
                include=["distances", "metadatas"],
            )
        hits: list[tuple[str, float]] = []
        for episode_id, distance, meta in zip(
            result["ids"][0], result["distances"][0], result["metadatas"][0], strict=True
        ):
            # Defence in depth: the where clause scopes to the doctor; check what came back anyway.
            if meta.get("doctor_id") != doctor_id:
                logger.error("vector index returned another doctor's vector; dropped")
                continue
            hits.append((episode_id, 1.0 - float(distance)))
        return hits

    def vectors(self, doctor_id: str, episode_ids: Sequence[str]) -> dict[str, list[float]]:
        if not episode_ids:
            return {}
        with _chroma_errors():
            got = self._collection.get(
                ids=list(episode_ids), where={"doctor_id": doctor_id}, include=["embeddings"]
            )
        return {i: [float(x) for x in v] for i, v in zip(got["ids"], got["embeddings"], strict=True)}

    def all_for_doctor(self, doctor_id: str) -> tuple[list[str], Any]:
        """Every vector of one doctor (exact-search baseline in the benchmark)."""
        with _chroma_errors():
            got = self._collection.get(where={"doctor_id": doctor_id}, include=["embeddings"])
        return list(got["ids"]), got["embeddings"]

    def update_outcome(self, episode_id: str, outcome: str | None) -> None:
        with _chroma_errors():
            self._collection.update(ids=[episode_id], metadatas=[{"outcome": outcome or "none"}])

    def delete(self, episode_ids: Sequence[str]) -> None:
        if episode_ids:
            with _chroma_errors():
                self._collection.delete(ids=list(episode_ids))

    def count(self) -> int:
        with _chroma_errors():
            return int(self._collection.count())


def chroma_client(settings: Settings) -> Any:
    """The Chroma client for the configured mode; telemetry off (it would phone home)."""
    import chromadb
    from chromadb.config import Settings as ChromaSettings

    chroma_settings = ChromaSettings(anonymized_telemetry=False)
    with _chroma_errors():
        if settings.chroma_mode == "http":
            return chromadb.HttpClient(
                host=settings.chroma_host, port=settings.chroma_port, settings=chroma_settings
            )
        path: Path = settings.data_dir / "chroma"
        path.mkdir(parents=True, exist_ok=True)
        return chromadb.PersistentClient(path=str(path), settings=chroma_settings)
