"""SIGTERM to a replica while requests are in flight (a rolling restart, a scale-down).

The requests are held in flight by the model: the replica's Gemini is the fake server, told to
hold each answer for HOLD_S. While they wait, the replica gets SIGTERM. Expected: the port refuses
new connections at once, every request in flight still gets its 2xx answer, everything those
answers acknowledged is in the store, and the process (and every worker) exits with status 0.
"""

from __future__ import annotations

import os
import signal
import socket
from concurrent.futures import ThreadPoolExecutor

import pytest

from tests.fakes.gemini_server import PENDING, FakeGeminiServer, Hang
from tests.topology.client import Api, acknowledged, episode_states, wait_for
from tests.topology.conftest import Cluster, gemini_settings

IN_FLIGHT = 4
HOLD_S = 4.0  # how long the fake model holds each answer (under the replica's model timeout)


def refuses_connections(port: int) -> bool:
    try:
        socket.create_connection(("127.0.0.1", port), timeout=1).close()
    except ConnectionRefusedError:
        return True
    except OSError:  # a timeout: accepted by the kernel but nobody will serve it
        return False
    return False


def group_gone(pgid: int) -> bool:
    """No process is left in the replica's session (its uvicorn workers, multiprocessing helpers)."""
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return True
    return False


def held(server: FakeGeminiServer) -> int:
    return sum(r.status == PENDING for r in server.requests)


@pytest.mark.parametrize("workers", [1, 2])
def test_sigterm_finishes_requests_in_flight_refuses_new_ones_and_loses_nothing(
    cluster: Cluster, gemini: FakeGeminiServer, workers: int
) -> None:
    name, doctor = f"replica-term-{workers}", f"dr-sigterm-{workers}"
    replica = cluster.topology.start_replica(name, workers=workers, extra=gemini_settings(gemini, 20, 1))
    base = cluster.topology.urls[name]
    port = int(base.rsplit(":", 1)[1])
    api = cluster.api(base, doctor)
    assert api.ask("Warm-up: fluids in DKA?").status_code == 200
    gemini.clear()
    gemini.fail_next(*[Hang(HOLD_S)] * IN_FLIGHT)

    with ThreadPoolExecutor(max_workers=IN_FLIGHT) as pool:
        futures = [pool.submit(api.ask, f"Hyperkalaemia case {i}: calcium first?") for i in range(IN_FLIGHT)]
        assert wait_for(lambda: held(gemini) == IN_FLIGHT, timeout=30), "requests did not reach the model"
        replica.signal(signal.SIGTERM)
        assert wait_for(lambda: refuses_connections(port), timeout=5.0), "the port still accepts connections"
        assert held(gemini) > 0, "the requests finished before the port closed: nothing was tested"
        responses = [future.result(timeout=60) for future in futures]

    assert [r.status_code for r in responses] == [200] * IN_FLIGHT, [r.text[:200] for r in responses]
    # uvicorn re-raises the signal once it has shut down, so a graceful stop may end "killed by
    # SIGTERM"; the last log line is only written after the drain and the lifespan shutdown.
    assert replica.process is not None and replica.process.wait(timeout=60) in (0, -signal.SIGTERM)
    assert "Application shutdown complete" in replica.output()
    assert wait_for(lambda: group_gone(replica.pid), timeout=10), "a worker outlived the supervisor"
    acked = {episode_id for r in responses for episode_id in acknowledged(r)}
    assert len(acked) == IN_FLIGHT
    assert {e for e, state in episode_states(cluster.engine, doctor).items() if state == "committed"} >= acked
    survivor = Api(cluster.r1, api.token)
    assert all(survivor.get(episode_id).status_code == 200 for episode_id in acked)
