"""The guard in conftest.py must stop traffic to other hosts and let loopback through."""

from __future__ import annotations

import socket
import threading

import pytest

from tests.conftest import NetworkAccessError


@pytest.mark.parametrize("address", [("10.255.255.1", 9), ("192.0.2.1", 443), ("2001:db8::1", 80)])
def test_connection_to_another_host_fails_the_test(address: tuple[str, int]) -> None:
    family = socket.AF_INET6 if ":" in address[0] else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as sock, pytest.raises(NetworkAccessError):
        sock.connect(address)


def test_name_resolution_of_another_host_fails_the_test() -> None:
    with pytest.raises(NetworkAccessError):
        socket.getaddrinfo("pypi.org", 443)


def test_loopback_is_allowed() -> None:
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(1)
    port = server.getsockname()[1]
    accepted: list[socket.socket] = []
    thread = threading.Thread(target=lambda: accepted.append(server.accept()[0]))
    thread.start()
    with socket.create_connection(("127.0.0.1", port), timeout=5):
        pass
    thread.join(timeout=5)
    for conn in accepted:
        conn.close()
    server.close()
    assert len(accepted) == 1
