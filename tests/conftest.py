"""Fixtures shared by every test.

The network guard is autouse: any attempt to reach a non-loopback address — a model or list
download slipping in at run time, a telemetry ping — fails the test that made it.
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from deid import Deidentifier
from jarvis.memory.embedders.onnx_minilm import MiniLmOnnxEmbedder

# The recall tests' shared assertions report their operands as the tests' own asserts do (the hook
# must be set before the test modules import the helper; this file is imported before them).
pytest.register_assert_rewrite("tests.deid.recall_tables")

# The fake Gemini server (REST on 127.0.0.1) as a fixture for every test package.
pytest_plugins = ["tests.fakes.fixtures"]


class NetworkAccessError(AssertionError):
    """A test tried to leave the machine."""


def _is_loopback(host: object) -> bool:
    if host in ("localhost", "", None):
        return True
    try:
        return ipaddress.ip_address(str(host).split("%")[0]).is_loopback
    except ValueError:
        return False


@pytest.fixture(autouse=True)
def no_network(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    real_connect = socket.socket.connect
    real_connect_ex = socket.socket.connect_ex
    real_getaddrinfo = socket.getaddrinfo

    def check(address: Any) -> None:
        if isinstance(address, tuple) and not _is_loopback(address[0]):
            raise NetworkAccessError(f"test tried to connect to {address[0]!r}")

    def connect(self: socket.socket, address: Any) -> None:
        check(address)
        real_connect(self, address)

    def connect_ex(self: socket.socket, address: Any) -> int:
        check(address)
        return real_connect_ex(self, address)

    def getaddrinfo(host: Any, *args: Any, **kwargs: Any) -> Any:
        if not _is_loopback(host):
            raise NetworkAccessError(f"test tried to resolve {host!r}")
        return real_getaddrinfo(host, *args, **kwargs)

    monkeypatch.setattr(socket.socket, "connect", connect)
    monkeypatch.setattr(socket.socket, "connect_ex", connect_ex)
    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
    yield


@pytest.fixture(scope="session")
def deid() -> Deidentifier:
    """One de-identifier for the whole run: it loads spaCy and the word lists (~1 s)."""
    return Deidentifier()


@pytest.fixture(scope="session")
def embedder() -> MiniLmOnnxEmbedder:
    """The real ONNX MiniLM, loaded once (~0.3 s)."""
    return MiniLmOnnxEmbedder()


POSTGRES_ADMIN_URL = "postgresql+psycopg://postgres@127.0.0.1:5432/postgres"


@contextmanager
def scratch_postgres_database(prefix: str) -> Iterator[str]:
    """A new database on the server at 127.0.0.1:5432, dropped afterwards; the test is skipped,
    with the reason, where no server answers. Yields its name."""
    import secrets

    from sqlalchemy import text
    from sqlalchemy.exc import OperationalError

    from jarvis.memory.records.database import make_engine

    admin = make_engine(POSTGRES_ADMIN_URL)
    name = f"{prefix}_{secrets.token_hex(4)}"
    try:
        with admin.connect().execution_options(isolation_level="AUTOCOMMIT") as connection:
            connection.execute(text(f"CREATE DATABASE {name}"))
    except OperationalError:
        admin.dispose()
        pytest.skip("PostgreSQL is not reachable on 127.0.0.1:5432")
    try:
        yield name
    finally:
        with admin.connect().execution_options(isolation_level="AUTOCOMMIT") as connection:
            connection.execute(text(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
        admin.dispose()


@pytest.fixture(scope="session")
def postgres_database() -> Iterator[str]:
    """A throw-away PostgreSQL database on 127.0.0.1:5432 for the run; skipped, with the reason,
    where no server answers there."""
    with scratch_postgres_database("jarvis_test") as name:
        yield f"postgresql+psycopg://postgres@127.0.0.1:5432/{name}"
