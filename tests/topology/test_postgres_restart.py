"""PostgreSQL restarted under a replica: quickly (pooled connections are dead), and with an outage.

A private PostgreSQL server (tests/topology/private_postgres.py), so that stopping it disturbs
nobody; a `chroma run` and one replica of a topology of their own. During the outage every request
must fail cleanly — the error envelope with 503, never a 500 — and everything works again once
the server is back, with what was saved before it still there and the audit chain intact.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import httpx
import pytest
from sqlalchemy import text

from jarvis.memory.records.database import make_engine
from scripts.topology import Topology, new_secrets
from tests.topology.client import Api, Traffic, acknowledged, bearer, episode_states, is_clean_error, wait_for
from tests.topology.conftest import SETTINGS, assert_no_phi_in_logs
from tests.topology.private_postgres import PrivatePostgres, unavailable

Request = Callable[[], httpx.Response]


@pytest.fixture(scope="module")
def postgres() -> Iterator[PrivatePostgres]:
    reason = unavailable()
    if reason is not None:
        pytest.skip(reason)
    server = PrivatePostgres()
    try:
        server.init().start()
        engine = make_engine(server.url())
        with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as connection:
            connection.execute(text("CREATE DATABASE jarvis"))
        engine.dispose()
        yield server
    finally:
        server.destroy()


@pytest.fixture(scope="module")
def replica(
    postgres: PrivatePostgres, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[str, str, str]]:
    """(replica URL, clinician token, auditor token) on the private server."""
    root = tmp_path_factory.mktemp("topology-pg")
    with Topology(postgres.url("jarvis"), root, new_secrets(), settings=SETTINGS) as topology:
        (url,) = topology.start(replicas=1, scheduler=False)
        keys = topology.create_keys(
            [("clinician", "dr-pg"), ("clinician", "dr-pg-traffic"), ("auditor", "audit-pg")]
        )
        yield url, *keys
        log = topology.services["replica-1"].output()
    # Every failure was an expected one: nothing reached the catch-all handler or uvicorn's own.
    assert "unexpected" not in log and "Exception in ASGI application" not in log
    assert_no_phi_in_logs(root)


def every_kind(url: str, doctor: str, auditor: str, episode_id: str) -> dict[str, Request]:
    api = Api(url, doctor, timeout=30)
    return {
        "save": lambda: api.save("AKI on vancomycin, trough 25: next dose?"),
        "ask": lambda: api.ask("AKI on vancomycin, trough 25: next dose?"),
        "search": lambda: api.search("vancomycin trough"),
        "read": lambda: api.get(episode_id),
        "outcome": lambda: api.outcome(episode_id, "modified"),
        "audit": lambda: httpx.get(f"{url}/v1/audit/verify", headers=bearer(auditor), timeout=30),
        "readyz": lambda: httpx.get(f"{url}/readyz", timeout=30),
    }


def test_postgres_restart_fails_cleanly_during_the_outage_and_recovers(
    postgres: PrivatePostgres, replica: tuple[str, str, str, str]
) -> None:
    url, doctor, _, auditor = replica
    saved = Api(url, doctor).save()
    assert saved.status_code == 201
    (episode_id,) = saved.json()["episode_ids"]
    requests = every_kind(url, doctor, auditor, episode_id)
    assert {kind: send().status_code for kind, send in requests.items()} == {
        "save": 201, "ask": 200, "search": 200, "read": 200, "outcome": 204, "audit": 200, "readyz": 200,
    }  # fmt: skip

    # A quick restart: every pooled connection is dead, and none of that reaches the caller.
    postgres.stop("fast")
    postgres.start()
    assert {kind: send().is_success for kind, send in requests.items()} == dict.fromkeys(requests, True)

    # An outage: clean 503s for every kind of request, not one 500.
    postgres.stop("fast")
    during = {kind: send() for kind, send in requests.items()}
    assert {kind: is_clean_error(r, 503) for kind, r in during.items()} == dict.fromkeys(requests, True), {
        kind: (r.status_code, r.text[:120]) for kind, r in during.items()
    }
    postgres.start()
    assert wait_for(lambda: requests["search"]().status_code == 200, timeout=30)
    assert {kind: send().is_success for kind, send in requests.items()} == dict.fromkeys(requests, True)
    assert Api(url, doctor).get(episode_id).json()["outcome"] == "modified"  # saved before, still there
    verified = requests["audit"]().json()
    assert verified["ok"] is True and verified["first_bad_seq"] is None


def test_postgres_stopped_mid_traffic_loses_nothing_acknowledged_and_leaves_nothing_half_written(
    postgres: PrivatePostgres, replica: tuple[str, str, str, str]
) -> None:
    """Requests caught half-way (a save between its row and its commit, an audit write) when the
    server goes: still a clean 503, and the store converges once it is back."""
    import time

    url, _, doctor, _ = replica
    with Traffic([Api(url, doctor, timeout=30)], workers=4) as traffic:
        time.sleep(1.5)
        postgres.stop("fast")
        traffic.phase = "down"
        time.sleep(2.0)
        postgres.start()
        traffic.phase = "up"
        assert wait_for(lambda: any(e.sent == "up" and e.kind == "save" and e.response.status_code == 201
                                    for e in traffic.exchanges), timeout=30)  # fmt: skip
        time.sleep(1.0)
    responses = [e.response for e in traffic.exchanges]
    assert all(r.is_success or is_clean_error(r, 503) for r in responses), {r.status_code for r in responses}
    assert any(is_clean_error(r, 503) for r in responses) and traffic.within("down", "save")
    acked = {episode_id for r in responses for episode_id in acknowledged(r)}
    engine = make_engine(postgres.url("jarvis"))
    try:
        # Exactly what was acknowledged, all committed: a save refused with 503 after its rows were
        # written (its audit event failed with the server gone) was taken back once the server
        # returned; nothing pending or half-deleted remains.
        assert wait_for(
            lambda: episode_states(engine, "dr-pg-traffic") == dict.fromkeys(acked, "committed"), 10
        )
    finally:
        engine.dispose()
