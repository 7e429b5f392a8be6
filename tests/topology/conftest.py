"""The scale-out topology with real processes on loopback (DESIGN §7), shared by the tests here.

One topology for the session, started by scripts/topology.py exactly as the README runs it: a
database of its own on the PostgreSQL server at 127.0.0.1:5432 (skipped, with the reason, where
none answers), `chroma run` on a free port, two `jarvis serve` replicas and the scheduler, all
started at once on the empty database. Tests that break a component bring it back (Chroma) or
break processes of their own (a replica to SIGTERM, a private PostgreSQL to restart). Every
process is stopped when the session ends, whether the tests passed or not.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from sqlalchemy import Engine

from jarvis.memory.records.database import make_engine
from jarvis.security.api_keys import ApiKeys
from scripts.topology import Topology, new_secrets
from tests.conftest import scratch_postgres_database
from tests.fakes.gemini_server import FakeGeminiServer
from tests.topology.client import PHI, Api

# Every process of the topology gets these; the rate limit is per token and process and is not
# what these tests are about.
SETTINGS = {
    "JARVIS_RATE_LIMIT_PER_MINUTE": "100000",
    "JARVIS_RETENTION_AT": "00:00",  # the scheduler's first run happens at its start, on an empty store
    "JARVIS_SCHEDULER_POLL_S": "1",
    "JARVIS_LOG_LEVEL": "INFO",
}


@dataclass
class Cluster:
    topology: Topology
    engine: Engine  # the topology's database, to look inside
    admin: str
    auditor: str
    first_doctor: str  # made with `jarvis keys create`, like the admin and auditor keys
    _keys: ApiKeys = field(init=False)

    def __post_init__(self) -> None:
        self._keys = ApiKeys(self.engine)

    @property
    def r1(self) -> str:
        return self.topology.urls["replica-1"]

    @property
    def r2(self) -> str:
        return self.topology.urls["replica-2"]

    def doctor(self, doctor_id: str) -> str:
        """A clinician token for a doctor of the test's own (made in-process on the same database:
        the CLI path is exercised by the session's first keys, and each CLI start costs ~2 s)."""
        return self._keys.create("clinician", doctor_id).token

    def api(self, base: str, doctor_id: str) -> Api:
        return Api(base, self.doctor(doctor_id))


@pytest.fixture(scope="session")
def topology_database() -> Iterator[str]:
    """A database of the session's own on the shared server at 127.0.0.1:5432."""
    with scratch_postgres_database("jarvis_topology") as name:
        yield f"postgresql://postgres@127.0.0.1:5432/{name}"


@pytest.fixture(scope="session")
def cluster(topology_database: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    root = tmp_path_factory.mktemp("topology")
    topology = Topology(topology_database, root, new_secrets(), settings=SETTINGS)
    engine = None
    try:
        topology.start(replicas=2, scheduler=True)
        admin, auditor, doctor = topology.create_keys(
            [("admin", "ops-1"), ("auditor", "audit-1"), ("clinician", "dr-first")]
        )
        engine = make_engine(topology_database)
        yield Cluster(topology, engine, admin, auditor, doctor)
    finally:
        topology.stop()
        if engine is not None:
            engine.dispose()
    assert_no_phi_in_logs(root)


@pytest.fixture(scope="session")
def gemini() -> Iterator[FakeGeminiServer]:
    """The fake Gemini API on loopback, for replicas started with gemini_settings()."""
    with FakeGeminiServer() as server:
        yield server


def gemini_settings(server: FakeGeminiServer, timeout_s: float, attempts: int) -> dict[str, str]:
    """Settings of a replica whose model is Gemini, reached at the fake server."""
    assert server.api_key is not None
    return {
        "JARVIS_GEMINI_API_KEY": server.api_key,
        "JARVIS_GEMINI_BASE_URL": server.base_url,
        "JARVIS_MODEL_TIMEOUT_S": str(timeout_s),
        "JARVIS_MODEL_MAX_ATTEMPTS": str(attempts),
    }


def assert_no_phi_in_logs(root: Path) -> None:
    """No log line of any process names the patient or quotes the clinical text sent."""
    for log in (root / "logs").glob("*.log"):
        text_ = log.read_text(encoding="utf-8", errors="replace")
        for value in PHI:
            assert value not in text_, f"{value!r} found in {log.name}"
