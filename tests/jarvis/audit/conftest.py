"""Audit log fixtures: a migrated SQLite file and, where a server answers on 127.0.0.1:5432, a
throw-away PostgreSQL database for the run with a fresh schema per test (tampering tests drop
triggers, so nothing is shared; a schema is much cheaper than a database per test).

The database itself comes from the session fixture `postgres_database` in tests/conftest.py.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import Engine, text

from jarvis.audit import AuditLog
from jarvis.memory.records.database import make_engine, migrate


@pytest.fixture
def postgres_url(postgres_database: str) -> str:
    schema = f"t_{secrets.token_hex(4)}"
    engine = make_engine(postgres_database)
    with engine.begin() as connection:
        connection.execute(text(f"CREATE SCHEMA {schema}"))
    engine.dispose()
    return f"{postgres_database}?options=-csearch_path%3D{schema}"


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'audit.sqlite3'}"


@pytest.fixture(params=["sqlite", "postgres"])
def url(request: pytest.FixtureRequest, sqlite_url: str) -> str:
    if request.param == "postgres":
        return str(request.getfixturevalue("postgres_url"))
    return sqlite_url


@pytest.fixture
def key() -> bytes:
    return secrets.token_bytes(32)


def migrated(url: str) -> Engine:
    engine = make_engine(url)
    migrate(engine)
    return engine


@pytest.fixture
def engine(url: str) -> Iterator[Engine]:
    engine = migrated(url)
    yield engine
    engine.dispose()


@pytest.fixture
def sqlite_engine(sqlite_url: str) -> Iterator[Engine]:
    engine = migrated(sqlite_url)
    yield engine
    engine.dispose()


@pytest.fixture
def audit(engine: Engine, key: bytes) -> AuditLog:
    return AuditLog(engine, key)


@pytest.fixture
def sqlite_audit(sqlite_engine: Engine, key: bytes) -> AuditLog:
    return AuditLog(sqlite_engine, key)
