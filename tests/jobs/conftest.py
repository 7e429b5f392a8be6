"""Real stores for the job tests (the memory fixtures), a travelling clock and the job's bundle."""

from __future__ import annotations

import secrets
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from jarvis.audit.log import AuditLog
from jarvis.memory.service import MemoryService
from jobs.retention import Stores
from tests.jarvis.memory.conftest import chroma_server, make_memory, postgres_url  # noqa: F401 - fixtures

START = datetime(2026, 1, 10, 9, 0, tzinfo=UTC)


class Clock:
    """Injected time: tests move it forward instead of sleeping."""

    def __init__(self, now: datetime = START) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now

    def travel(self, **delta: float) -> datetime:
        self.now += timedelta(**delta)
        return self.now


@dataclass
class Env:
    memory: MemoryService
    stores: Stores
    audit: AuditLog
    clock: Clock
    data_dir: Path


EnvFactory = Callable[..., Env]


@pytest.fixture(params=["sqlite"])
def backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def make_env(make_memory: Callable[..., MemoryService], tmp_path: Path) -> EnvFactory:  # noqa: F811
    audit_key = secrets.token_bytes(32)

    def build(url: str | None = None, **memory_kwargs: object) -> Env:
        clock = Clock()
        memory = make_memory(url=url, clock=clock, **memory_kwargs)
        stores = Stores.of(memory, chroma_path=tmp_path / "chroma", sleep=lambda _s: None)
        return Env(memory, stores, AuditLog(memory.store.engine, audit_key), clock, tmp_path)

    return build


@pytest.fixture
def env(make_env: EnvFactory) -> Env:
    return make_env()


@pytest.fixture
def fresh_postgres() -> Iterator[str]:
    """A PostgreSQL database of this test's own (retention counts every row in the database)."""
    import psycopg

    name = f"jarvis_jobs_{secrets.token_hex(4)}"

    def admin(statement: str) -> None:
        connection = psycopg.connect(
            "host=127.0.0.1 port=5432 user=postgres dbname=postgres", autocommit=True
        )
        try:
            connection.execute(statement)  # type: ignore[arg-type]
        finally:
            connection.close()

    try:
        admin(f"CREATE DATABASE {name}")
    except psycopg.OperationalError:
        pytest.skip("PostgreSQL is not reachable on 127.0.0.1:5432")
    yield f"postgresql+psycopg://postgres@127.0.0.1:5432/{name}"
    admin(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


def invariants(env: Env) -> None:
    """What every finished run leaves: records and vectors agree, no orphan keys, no half-done work."""
    from sqlalchemy import text

    with env.memory.store.engine.connect() as connection:
        rows = connection.execute(text("SELECT id, doctor_id, state FROM episodes")).all()
        orphan_keys = connection.execute(
            text("SELECT count(*) FROM data_keys WHERE episode_id NOT IN (SELECT id FROM episodes)")
        ).scalar()
    assert orphan_keys == 0
    assert {r.state for r in rows} <= {"committed"}
    index = env.stores.index
    for doctor in {r.doctor_id for r in rows} | {"dr-a", "dr-b"}:
        generation = env.stores.generations.get(doctor)
        assert generation.building is None and generation.retired is None
        assert index.stray_generations(doctor, keep=[generation.current]) == []
        vectors = set(index.contents(doctor, generation.current, vectors=False))
        assert vectors == {r.id for r in rows if r.doctor_id == doctor}
