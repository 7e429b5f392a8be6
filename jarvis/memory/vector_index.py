"""The vector index: Chroma, embedded (PersistentClient in the data dir) or a `chroma run` server.

Only episode ids and vectors go to Chroma: no text, no names (Chroma keeps deleted documents and
vectors on disk after delete: chroma issues #3793, #7659, #7662), and no metadata either. DESIGN §3
lists doctor_id, patient_ref, created_at and outcome. None is needed here: the collection is the
doctor's own; a patient-scoped search passes the patient's episode ids (read from the record store)
as Chroma's `ids` filter, which ranks exactly among them; recency and outcome weigh in ranking,
read from the record store. And each metadata key costs rows in Chroma's SQLite on every add,
drop and read: without any, Chroma adds a vector in half the time (0.13 against 0.26 ms, which a
purge's compaction pays for every retained vector) and answers a k=40 query in 1.7 ms against 2.9.
Outcome feedback never waits on Chroma.

Each doctor has a collection of their own (named from the embedder identity and a hash of the
doctor id): a search walks one doctor's HNSW graph, not a filtered 1% of everyone's, which keeps
latency and recall flat as the hospital grows, and isolation holds by construction. As defence in
depth, the record store checks every candidate's doctor before ranking (RecordStore.rank_fields):
a vector written into the wrong doctor's collection would still never reach that doctor.
The collection metadata carries the embedder identity (model id + dimension); opening a collection
made by another model is an error, so a collection never mixes vector spaces.

Compaction (jobs/retention.py) rebuilds a doctor's collection as a new *generation* (a name suffix)
while the old one keeps serving; the generation numbers live in the record store and are read here
(cached for GENERATION_TTL_S): reads use the current generation, writes reach the current one and
the one being built, so no retained episode is ever missing from what search reads.
"""

from __future__ import annotations

import ctypes
import hashlib
import logging
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any, Protocol, TypeVar

import httpx
import numpy as np

from jarvis.config import Settings
from jarvis.errors import ConfigurationError, UnavailableError, UnreachableError
from jarvis.memory.embedders.base import EmbedderIdentity
from jarvis.memory.records.generations import Generation

logger = logging.getLogger(__name__)
T = TypeVar("T")

# Larger than Chroma's default (100): filtered queries for one doctor must still find the exact
# top k among that doctor's vectors (the benchmark reports recall against exact search).
HNSW_EF_SEARCH = 200
# Chroma's default. 200 built the graph a fifth slower (0.38 against 0.31 ms a vector added, which
# a purge's compaction pays for every retained vector) for no gain: recall@10 against exact search
# was 1.0 with either, for 2,000- and 20,000-vector collections of MiniLM vectors queried at
# HNSW_EF_SEARCH. Collections made with 200 keep it (Chroma fixes it at creation).
HNSW_EF_CONSTRUCTION = 100
# How long a doctor's generation numbers are trusted before they are read again; compaction waits
# longer than this between its phases when other processes share the index.
GENERATION_TTL_S = 2.0


class GenerationSource(Protocol):
    def all(self) -> dict[str, Generation]:
        """Every doctor whose generation is not the initial one."""
        ...


@dataclass(frozen=True, slots=True)
class VectorItem:
    episode_id: str
    vector: Sequence[float]
    doctor_id: str


class VectorIndex(Protocol):
    """What the memory needs of a vector index. Every query is scoped to one doctor."""

    @property
    def identity(self) -> EmbedderIdentity: ...

    def upsert(self, items: Sequence[VectorItem]) -> None:
        """Write the vectors; UnreachableError only when none of them reached the index."""
        ...

    def query(
        self, vector: Sequence[float], doctor_id: str, k: int, within: Sequence[str] | None = None
    ) -> list[tuple[str, float]]:
        """The doctor's k nearest episodes as (episode_id, cosine similarity), best first; with
        `within`, only among those episode ids."""
        ...

    def vectors(self, doctor_id: str, episode_ids: Sequence[str]) -> dict[str, list[float]]: ...

    def delete(self, doctor_id: str, episode_ids: Sequence[str]) -> None: ...

    def count(self) -> int:
        """Vectors of every doctor (for operations and tests)."""
        ...

    def ping(self) -> None:
        """Raise UnavailableError unless the index answers."""
        ...


# Failures before a request leaves this process: the server never saw it (a `chroma run` that is
# down refuses the connection). Anything later (reset, timeout, disconnect) may follow a write.
_NOT_SENT = (httpx.ConnectError, httpx.ConnectTimeout)


@contextmanager
def _chroma_errors() -> Iterator[None]:
    """Chroma and transport failures become UnavailableError (UnreachableError when the request
    was never sent); the type name is all we log."""
    try:
        yield
    except (ConfigurationError, UnavailableError):
        raise
    except _NOT_SENT as exc:
        raise UnreachableError(f"vector index unavailable ({type(exc).__name__})") from exc
    except Exception as exc:  # noqa: BLE001 - chromadb raises many unrelated types; all mean "index down"
        raise UnavailableError(f"vector index unavailable ({type(exc).__name__})") from exc


# A pooled connection that a restarted Chroma server no longer has fails the first request sent on
# it although the server is up (seen right after a restart: ReadError); such a request is sent once
# more at once, on a new connection. A refused connection is tried once more after REFUSED_RETRY_S:
# seen in CI, a save refused (ConnectError) a moment after the restarted server had answered its
# health check. Every call made here may be repeated (reads; upserts, updates and deletes by id; an
# `add` repeated fails on its ids and compaction then upserts).
_BROKEN = (httpx.ReadError, httpx.WriteError, httpx.RemoteProtocolError)
REFUSED_RETRY_S = 0.05


def _call(request: Callable[[], T]) -> T:
    """One request to Chroma, its failures translated (_chroma_errors), retried once on a broken or
    refused connection."""
    try:
        with _chroma_errors():
            try:
                return request()
            except _BROKEN as exc:
                logger.info("vector index connection broken (%s); sent again", type(exc).__name__)
    except UnreachableError:  # nothing was sent: a second refusal is an UnreachableError as well
        time.sleep(REFUSED_RETRY_S)
        with _chroma_errors():
            return request()
    try:
        with _chroma_errors():
            return request()
    except UnreachableError as exc:
        # The second attempt was refused, but the first may have been applied before the server
        # died (seen in CI: a save's vector kept after its rows were undone as "never sent").
        raise UnavailableError(exc.message) from exc


class ChromaIndex:
    def __init__(self, client: Any, identity: EmbedderIdentity, name_prefix: str = "episodes") -> None:
        self._client, self._identity = client, identity
        self._prefix = f"{name_prefix}-{identity.slug}-"
        self._collections: dict[str, Any] = {}
        self._lock = threading.Lock()
        self._generations: GenerationSource | None = None
        # Every doctor's generation, read at once: a read per doctor was a query on most searches.
        self._generation_cache: tuple[float, dict[str, Generation]] = (0.0, {})
        self.generation_ttl_s = GENERATION_TTL_S

    def attach_generations(self, source: GenerationSource) -> None:
        """Read each doctor's collection generation from the record store (compaction switches it)."""
        self._generations = source

    def generation(self, doctor_id: str) -> Generation:
        if self._generations is None:
            return Generation()
        now = time.monotonic()
        with self._lock:
            expires, known = self._generation_cache
        if expires <= now:
            with _chroma_errors():
                known = self._generations.all()
            with self._lock:
                self._generation_cache = (now + self.generation_ttl_s, known)
        return known.get(doctor_id, Generation())

    def forget_generation(self, doctor_id: str) -> None:  # noqa: ARG002 - the whole cache goes
        """Drop the cached generations (this process just changed the doctor's)."""
        with self._lock:
            self._generation_cache = (0.0, {})

    @property
    def identity(self) -> EmbedderIdentity:
        return self._identity

    def collection_name(self, doctor_id: str, generation: int = 0) -> str:
        base = self._prefix + hashlib.sha256(doctor_id.encode()).hexdigest()[:24]
        return base if generation == 0 else f"{base}-g{generation}"

    def _collection(self, doctor_id: str, *, create: bool, generation: int | None = None) -> Any:
        """The doctor's collection (cached); None when it does not exist and `create` is False."""
        if generation is None:
            generation = self.generation(doctor_id).current
        name = self.collection_name(doctor_id, generation)
        with self._lock:
            if name in self._collections:
                return self._collections[name]
        collection = _call(lambda: self._open(name) if create else self._existing(name))
        if collection is None:
            return None
        found = dict(collection.metadata or {})
        if (
            found.get("embedding_model") != self._identity.model_id
            or found.get("dimension") != self._identity.dimension
        ):
            raise ConfigurationError(
                f"collection {name} holds vectors of {found.get('embedding_model')}/{found.get('dimension')}, "
                f"not {self._identity.model_id}/{self._identity.dimension}"
            )
        with self._lock:
            self._collections[name] = collection
        return collection

    def _open(self, name: str) -> Any:
        return self._client.get_or_create_collection(
            name,
            configuration={
                "hnsw": {
                    "space": "cosine",
                    "ef_search": HNSW_EF_SEARCH,
                    "ef_construction": HNSW_EF_CONSTRUCTION,
                }
            },
            metadata={"embedding_model": self._identity.model_id, "dimension": self._identity.dimension},
            embedding_function=None,  # vectors are always passed in; Chroma's default would download a model
        )

    def _existing(self, name: str) -> Any:
        """The collection, or None when there is none by that name."""
        try:
            return self._client.get_collection(name, embedding_function=None)
        except Exception as exc:  # noqa: BLE001 - chromadb signals "no such collection" with several types
            if "does not exist" in str(exc) or type(exc).__name__ in (
                "NotFoundError",
                "InvalidCollectionException",
            ):
                return None
            raise

    def upsert(self, items: Sequence[VectorItem]) -> None:
        by_doctor: dict[str, list[VectorItem]] = {}
        for item in items:
            if len(item.vector) != self._identity.dimension:
                raise ConfigurationError(
                    f"vector of dimension {len(item.vector)} for an index of {self._identity.dimension}"
                )
            by_doctor.setdefault(item.doctor_id, []).append(item)
        written = False
        for doctor_id, group in by_doctor.items():
            for generation in self.generation(doctor_id).writes:
                try:
                    self.upsert_into(doctor_id, generation, group)
                except UnreachableError as exc:
                    if written:  # an earlier doctor or generation was written: there is something to undo
                        raise UnavailableError(exc.message) from exc
                    raise
                written = True

    def upsert_into(
        self, doctor_id: str, generation: int, group: Sequence[VectorItem], *, new: bool = False
    ) -> None:
        """Write to one generation; `new`: ids known to be absent there (add is cheaper than upsert)."""
        collection = self._collection(doctor_id, create=True, generation=generation)
        _call(
            lambda: (collection.add if new else collection.upsert)(
                ids=[i.episode_id for i in group],
                # float32 arrays are what Chroma stores and passes through unconverted; a list of
                # floats per vector was converted twice (to Python floats here, back by Chroma),
                # with the garbage collection that set off; arrays took 12% off a compaction's copy.
                embeddings=[np.asarray(i.vector, dtype=np.float32) for i in group],
            )
        )

    def query(
        self, vector: Sequence[float], doctor_id: str, k: int, within: Sequence[str] | None = None
    ) -> list[tuple[str, float]]:
        collection = self._collection(doctor_id, create=False)
        if collection is None or (within is not None and not within):
            return []
        result = _call(
            lambda: collection.query(
                query_embeddings=[np.asarray(vector, dtype=np.float32)],
                ids=None if within is None else list(within),
                n_results=k,
                include=["distances"],
            )
        )
        return [(i, 1.0 - float(d)) for i, d in zip(result["ids"][0], result["distances"][0], strict=True)]

    def vectors(self, doctor_id: str, episode_ids: Sequence[str]) -> dict[str, list[float]]:
        collection = self._collection(doctor_id, create=False) if episode_ids else None
        if collection is None:
            return {}
        got = _call(lambda: collection.get(ids=list(episode_ids), include=["embeddings"]))
        if not got["ids"]:
            return {}
        rows = np.asarray(got["embeddings"], dtype=np.float64).tolist()  # one C-level conversion
        return dict(zip(got["ids"], rows, strict=True))

    def all_for_doctor(self, doctor_id: str) -> tuple[list[str], Any]:
        """Every vector of one doctor (exact-search baseline in the benchmark)."""
        collection = self._collection(doctor_id, create=False)
        if collection is None:
            return [], []
        got = _call(lambda: collection.get(include=["embeddings"]))
        return list(got["ids"]), got["embeddings"]

    def delete(self, doctor_id: str, episode_ids: Sequence[str]) -> None:
        for generation in self.generation(doctor_id).writes if episode_ids else ():
            self.delete_from(doctor_id, generation, episode_ids)

    def delete_from(self, doctor_id: str, generation: int, episode_ids: Sequence[str]) -> None:
        collection = self._collection(doctor_id, create=False, generation=generation)
        if collection is not None:
            for start in range(0, len(episode_ids), 5_000):
                batch = list(episode_ids[start : start + 5_000])
                _call(partial(collection.delete, ids=batch))

    # -- compaction (jobs/retention.py) ---------------------------------------------------------
    def contents(
        self, doctor_id: str, generation: int, ids: Sequence[str] | None = None, *, vectors: bool = True
    ) -> dict[str, Any]:
        """{episode id: vector (or None)} of one generation: all of it, or the given ids."""
        collection = self._collection(doctor_id, create=False, generation=generation)
        if collection is None:
            return {}
        got = _call(
            lambda: collection.get(
                ids=list(ids) if ids is not None else None, include=["embeddings"] if vectors else []
            )
        )
        if not vectors:
            return dict.fromkeys(got["ids"])
        return dict(zip(got["ids"], got["embeddings"], strict=True))

    def drop(self, doctor_id: str, generation: int) -> None:
        """Delete one generation's collection; a missing one is already dropped."""
        name = self.collection_name(doctor_id, generation)
        with self._lock:
            self._collections.pop(name, None)
        if self._collection(doctor_id, create=False, generation=generation) is None:
            return
        with self._lock:
            self._collections.pop(name, None)
        _call(lambda: self._client.delete_collection(name))

    def collection_names(self) -> list[str]:
        return [c if isinstance(c, str) else str(c.name) for c in _call(self._client.list_collections)]

    def stray_generations(
        self, doctor_id: str, keep: Sequence[int], names: Sequence[str] | None = None
    ) -> list[int]:
        """Generations of the doctor's collection that exist but are not in `keep`."""
        base = self.collection_name(doctor_id)
        found = []
        for name in self.collection_names() if names is None else names:
            if name == base:
                found.append(0)
            elif name.startswith(base + "-g") and name[len(base) + 2 :].isdigit():
                found.append(int(name[len(base) + 2 :]))
        return [g for g in found if g not in keep]

    def ping(self) -> None:
        _call(self._client.heartbeat)

    def count(self) -> int:
        return _call(
            lambda: sum(
                int(c.count())
                for c in self._client.list_collections()
                if str(c.name).startswith(self._prefix)
            )
        )


_M_PERTURB = -6  # glibc mallopt(3)


def wipe_reused_memory() -> bool:
    """Make glibc fill every new allocation (and every freed one) with a fixed byte.

    Chroma (1.x) persists a new HNSW index's whole preallocated buffer, slots it has not written
    included; glibc hands out recycled memory uninitialised, so those slots could hold vectors of
    indexes this process freed earlier — a purged vector would reappear in the file of the
    collection rebuilt to remove it. With M_PERTURB the recycled bytes are overwritten first.
    Chroma's native library allocates through glibc (no jemalloc/mimalloc). False where unavailable.
    """
    try:
        libc = ctypes.CDLL(None)
        return bool(libc.mallopt(_M_PERTURB, 0x5A))
    except (OSError, AttributeError):
        return False


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
        wipe_reused_memory()  # this process hosts the embedded index (see wipe_reused_memory)
        path: Path = settings.data_dir / "chroma"
        path.mkdir(parents=True, exist_ok=True)
        return chromadb.PersistentClient(path=str(path), settings=chroma_settings)
