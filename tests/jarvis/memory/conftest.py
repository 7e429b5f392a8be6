"""Real stores for the memory tests: SQLite and PostgreSQL, embedded Chroma and a `chroma run` server.

PostgreSQL tests use a throw-away database on 127.0.0.1:5432 and are skipped, with the reason,
where no server answers there. The Chroma server is started once per run on a free loopback port.
"""

from __future__ import annotations

import secrets
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import chromadb
import pytest
from chromadb.config import Settings as ChromaSettings

from deid import Deidentifier
from jarvis.memory.embedders.onnx_minilm import MiniLmOnnxEmbedder
from jarvis.memory.records.database import make_engine, migrate
from jarvis.memory.records.store import RecordStore
from jarvis.memory.service import MemoryService
from jarvis.memory.vector_index import ChromaIndex
from jarvis.security.fields import FieldCipher
from jarvis.security.keys import KeyRing
from jarvis.security.pseudonyms import Pseudonymizer


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="session")
def chroma_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, int]]:
    chroma = Path(sys.executable).parent / "chroma"
    port = _free_port()
    path = tmp_path_factory.mktemp("chroma-server")
    process = subprocess.Popen(
        [str(chroma), "run", "--path", str(path), "--host", "127.0.0.1", "--port", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 30
    while True:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/api/v2/heartbeat", timeout=1).close()
            break
        except OSError:
            if process.poll() is not None or time.monotonic() > deadline:
                process.kill()
                pytest.fail("chroma run did not start")
            time.sleep(0.1)
    yield "127.0.0.1", port
    process.terminate()
    process.wait(timeout=10)


@pytest.fixture(scope="session")
def postgres_url(postgres_database: str) -> str:
    """The run's throw-away PostgreSQL database (tests/conftest.py), public schema."""
    return postgres_database


def new_keys() -> KeyRing:
    return KeyRing({1: secrets.token_bytes(32)})


MemoryFactory = Callable[..., MemoryService]


@pytest.fixture
def make_memory(tmp_path: Path, deid: Deidentifier, embedder: MiniLmOnnxEmbedder) -> Iterator[MemoryFactory]:
    """Builds services on one data dir; several calls share the stores (a restart, another replica)."""
    master, pseudonym = new_keys(), new_keys()
    engines: list[Any] = []

    def build(
        *,
        url: str | None = None,
        client: Any = None,
        index: Any = None,
        master_keys: KeyRing | None = None,
        pseudonym_keys: KeyRing | None = None,
        **kwargs: Any,
    ) -> MemoryService:
        engine = make_engine(url or f"sqlite:///{tmp_path / 'jarvis.sqlite3'}")
        engines.append(engine)
        migrate(engine)
        if index is None:
            client = client or chromadb.PersistentClient(
                path=str(tmp_path / "chroma"), settings=ChromaSettings(anonymized_telemetry=False)
            )
            index = ChromaIndex(client, embedder.identity)
        return MemoryService(
            store=RecordStore(engine),
            index=index,
            embedder=embedder,
            deid=deid,
            pseudonyms=Pseudonymizer(pseudonym_keys or pseudonym),
            cipher=FieldCipher(master_keys or master),
            **kwargs,
        )

    yield build
    for engine in engines:
        engine.dispose()


@pytest.fixture
def memory(make_memory: MemoryFactory) -> MemoryService:
    return make_memory()


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    return tmp_path


def remove_tree(path: Path) -> None:
    shutil.rmtree(path, ignore_errors=True)
