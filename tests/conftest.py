"""Fixtures shared by every test.

The network guard is autouse: any attempt to reach a non-loopback address — a model or list
download slipping in at run time, a telemetry ping — fails the test that made it.
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Iterator
from typing import Any

import pytest

from deid import Deidentifier
from jarvis.memory.embedders.onnx_minilm import MiniLmOnnxEmbedder

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
