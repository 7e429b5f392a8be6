"""Build the memory from settings: the one place that picks adapters (DESIGN §2).

Heavy objects (spaCy, ONNX, Chroma clients, database engines) are built here, once, by the CLI
entry or the API lifespan — never at import time.
"""

from __future__ import annotations

import os

from deid import Deidentifier
from jarvis.config import Settings
from jarvis.memory.embedders.base import Embedder
from jarvis.memory.records.database import default_url, make_engine, migrate
from jarvis.memory.records.store import RecordStore
from jarvis.memory.service import MemoryService
from jarvis.memory.validation import Limits
from jarvis.memory.vector_index import ChromaIndex, chroma_client
from jarvis.security.fields import FieldCipher
from jarvis.security.keys import load_secrets
from jarvis.security.pseudonyms import Pseudonymizer


def build_embedder(settings: Settings) -> Embedder:
    if settings.embedder == "gemini":
        from jarvis.memory.embedders.gemini import GeminiEmbedder

        return GeminiEmbedder.from_settings(settings)
    from jarvis.memory.embedders.onnx_minilm import MiniLmOnnxEmbedder

    return MiniLmOnnxEmbedder(threads=settings.embed_threads)


def build_deidentifier(settings: Settings) -> Deidentifier:
    return Deidentifier(model_name=settings.deid_spacy_model, max_chars=settings.deid_max_chars)


def prepare_data_dir(settings: Settings) -> None:
    """The data directory holds clinical data: readable by the service's user only."""
    settings.data_dir.mkdir(parents=True, exist_ok=True)
    os.chmod(settings.data_dir, 0o700)


def open_memory(
    settings: Settings, *, deid: Deidentifier | None = None, embedder: Embedder | None = None
) -> MemoryService | None:
    """The memory service, or None when JARVIS_MEMORY_ENABLED=false (nothing is opened or created)."""
    if not settings.memory_enabled:
        return None
    prepare_data_dir(settings)
    secrets = load_secrets(settings)
    embedder = embedder or build_embedder(settings)
    engine = make_engine(settings.database_url or default_url(settings.data_dir))
    migrate(engine)
    service = MemoryService(
        store=RecordStore(engine),
        index=ChromaIndex(chroma_client(settings), embedder.identity),
        embedder=embedder,
        deid=deid or build_deidentifier(settings),
        pseudonyms=Pseudonymizer(secrets.pseudonym),
        cipher=FieldCipher(secrets.master),
        limits=Limits(settings.max_query_chars, settings.max_response_chars, settings.max_batch),
    )
    service.store.refresh_statistics()
    service.reconcile()
    return service
