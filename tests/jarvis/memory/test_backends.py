"""The same behaviour on every storage mode of DESIGN §7: SQLite or PostgreSQL, embedded or server Chroma."""

from __future__ import annotations

from typing import Any

import chromadb
import pytest
from chromadb.config import Settings as ChromaSettings

from jarvis.memory.service import MemoryService
from tests.jarvis.memory.conftest import MemoryFactory
from tests.jarvis.memory.factories import DKA, HYPERKALEMIA, SEPSIS, draft


@pytest.fixture(params=["sqlite+embedded", "sqlite+server", "postgres+embedded", "postgres+server"])
def any_memory(request: pytest.FixtureRequest, make_memory: MemoryFactory) -> MemoryService:
    sql, chroma = request.param.split("+")
    kwargs: dict[str, Any] = {}
    if sql == "postgres":
        kwargs["url"] = request.getfixturevalue("postgres_url")
    if chroma == "server":
        host, port = request.getfixturevalue("chroma_server")
        kwargs["client"] = chromadb.HttpClient(
            host=host, port=port, settings=ChromaSettings(anonymized_telemetry=False)
        )
    memory = make_memory(**kwargs)
    if sql == "postgres" or chroma == "server":
        _empty_shared_stores(memory)
    return memory


def _empty_shared_stores(memory: MemoryService) -> None:
    """The server and the database outlive one test: start each test from empty stores."""
    from sqlalchemy import text

    with memory.store.engine.begin() as connection:
        connection.execute(text("DELETE FROM patient_facts"))
        connection.execute(text("DELETE FROM data_keys"))
        connection.execute(text("DELETE FROM episodes"))
    client = memory.index._client  # type: ignore[attr-defined]
    for collection in client.list_collections():
        client.delete_collection(collection.name)


def test_save_search_outcome_delete_and_isolation(any_memory: MemoryService) -> None:
    memory = any_memory
    sepsis, hyperk, dka = memory.save_batch("dr-a", [SEPSIS, HYPERKALEMIA, DKA])
    theirs = memory.save("dr-b", draft("Potassium 6.3 on spironolactone, what now?", "Stop it."))
    assert memory.get("dr-a", sepsis).patient_name == "Gita Bhat"

    hits = memory.search("dr-a", "hyperkalaemia on spironolactone", k=3, min_similarity=None)
    assert hits[0].episode_id == hyperk and theirs not in {h.episode_id for h in hits}

    memory.set_outcome("dr-a", hyperk, "accepted")
    # The outcome update must not disturb the doctor scoping kept in the index metadata.
    again = memory.search("dr-a", "hyperkalaemia on spironolactone", k=5, min_similarity=None)
    assert again[0].episode_id == hyperk and again[0].outcome is not None
    assert theirs not in {h.episode_id for h in again}
    assert [h.episode_id for h in memory.search("dr-b", "hyperkalaemia", min_similarity=None)] == [theirs]

    # Lexical matches come from the full-text index of this backend.
    rare = memory.search("dr-a", "cefepime", k=1, min_similarity=None)
    assert rare[0].episode_id == sepsis and rare[0].score > rare[0].similarity

    assert [e.episode_id for e in memory.history("dr-a", "00482913")] == [sepsis]
    memory.delete("dr-a", dka)
    assert dka not in {h.episode_id for h in memory.search("dr-a", "DKA insulin", min_similarity=None)}
    assert memory.store.count("dr-a") == 2


def test_the_index_holds_ids_and_vectors_only(any_memory: MemoryService) -> None:
    memory = any_memory
    episode = memory.save("dr-a", SEPSIS)
    memory.set_outcome("dr-a", episode, "accepted")
    collection = memory.index._collection("dr-a", create=False)  # type: ignore[attr-defined]
    got = collection.get(ids=[episode], include=["metadatas", "documents", "embeddings"])
    assert got["ids"] == [episode] and got["documents"] == [None] and got["metadatas"] == [None]
    assert len(got["embeddings"][0]) == memory.embedder.identity.dimension

    # Patient-scoped search ranks among the patient's episodes, whose ids come from the record store.
    other = memory.save(
        "dr-a", draft("Sepsis from a line infection, what now?", "Pull the line.", patient_id="00555123")
    )
    hits = memory.search("dr-a", "sepsis", patient_id=SEPSIS.patient_id, min_similarity=None)
    assert [h.episode_id for h in hits] == [episode]
    assert other in {h.episode_id for h in memory.search("dr-a", "sepsis", min_similarity=None)}


def test_a_vector_of_another_doctor_in_a_doctors_collection_is_never_returned(
    make_memory: MemoryFactory,
) -> None:
    """Defence in depth: were a vector of dr-b's episode ever written into dr-a's collection (a bug,
    a hand edit), the record store's ownership check drops it from dr-a's results."""
    from jarvis.memory.vector_index import VectorItem

    memory = make_memory()
    mine = memory.save("dr-a", draft("Potassium 6.3 on spironolactone, what now?", "Stop it."))
    theirs = memory.save("dr-b", draft("Potassium 6.4 on spironolactone, what now?", "Stop it."))
    vector = memory.embedder.embed_query("potassium 6.3 on spironolactone")
    index = memory.index
    index.upsert_into("dr-a", 0, [VectorItem(theirs, vector, "dr-a")])  # type: ignore[attr-defined]
    assert theirs in {e for e, _ in index.query(vector, "dr-a", 5)}  # the index alone cannot tell
    hits = memory.search("dr-a", "potassium 6.3 on spironolactone", min_similarity=None)
    assert [h.episode_id for h in hits] == [mine]
