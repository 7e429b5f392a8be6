"""Two stateless replicas over one PostgreSQL database and one Chroma server, plus the scheduler."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta

import httpx
from sqlalchemy import text

from jarvis.memory.records.database import head_revision
from jobs.locks import job_lock
from tests.topology.client import Api, audit_events_after, audit_head, bearer, episode_states, wait_for
from tests.topology.conftest import Cluster


def test_all_processes_started_together_on_an_empty_database(cluster: Cluster) -> None:
    """Replicas and scheduler migrated the same empty database at once; the schema is at head."""
    with cluster.engine.connect() as connection:
        assert connection.execute(text("SELECT version_num FROM alembic_version")).scalar() == head_revision()
    for name in ("replica-1", "replica-2", "scheduler", "chroma"):
        assert cluster.topology.services[name].running, name
    for base in (cluster.r1, cluster.r2):
        assert httpx.get(f"{base}/readyz").json()["checks"] == {"database": "ok", "vector_index": "ok"}


def test_an_episode_saved_through_one_replica_is_found_through_the_other(cluster: Cluster) -> None:
    token = cluster.doctor("dr-cross")
    one, two = Api(cluster.r1, token), Api(cluster.r2, token)
    saved = one.save("Hyperkalaemia 6.4 on spironolactone; which treatment first?")
    assert saved.status_code == 201
    (episode_id,) = saved.json()["episode_ids"]

    got = two.get(episode_id)
    assert got.status_code == 200 and got.json()["query"].startswith("Hyperkalaemia 6.4")
    hits = two.search("hyperkalaemia spironolactone").json()["hits"]
    assert [h["episode_id"] for h in hits] == [episode_id]
    asked = two.ask("Potassium high on spironolactone again, what did I do last time?")
    assert asked.status_code == 200 and not asked.json()["degraded"]
    assert episode_id in [m["episode_id"] for m in asked.json()["memories"]]
    # An outcome written through replica 2 is what replica 1 reads.
    assert two.outcome(episode_id).status_code == 204
    assert one.get(episode_id).json()["outcome"] == "accepted"
    # The clinician key made with `jarvis keys create` works on both replicas.
    for base in (cluster.r1, cluster.r2):
        assert Api(base, cluster.first_doctor).search().status_code == 200


def test_the_audit_chain_stays_valid_under_concurrent_writes_from_both_replicas(cluster: Cluster) -> None:
    token = cluster.doctor("dr-audit")
    start = audit_head(cluster.engine)
    saved = Api(cluster.r1, token).save("Sepsis bundle timing").json()["episode_ids"][0]

    def request(n: int) -> int:
        base, name = (cluster.r1, "r1") if n % 2 else (cluster.r2, "r2")
        api, request_id = Api(base, token), f"{name}-audit-{n:04d}"
        kind = n % 3
        if kind == 0:
            body = {"episodes": [{"query": f"Fluid bolus {n}", "response": "30 ml/kg crystalloid."}]}
            return api.call("POST", "/v1/episodes", body, request_id).status_code
        if kind == 1:
            return api.call("GET", f"/v1/episodes/{saved}", request_id=request_id).status_code
        return api.call("POST", "/v1/memory/search", {"query": "fluids"}, request_id).status_code

    with ThreadPoolExecutor(max_workers=12) as pool:
        statuses = list(pool.map(request, range(48)))
    assert set(statuses) <= {200, 201}

    events = audit_events_after(cluster.engine, start)
    ours = [e for e in events if str(e.get("request_id") or "").startswith(("r1-audit", "r2-audit"))]
    assert len(ours) == 48
    assert {e["request_id"][:2] for e in ours} == {"r1", "r2"}  # both replicas wrote into one chain
    seqs = [e["seq"] for e in events]
    assert seqs == list(range(start + 1, start + 1 + len(events)))  # no gap, no duplicate
    verified = httpx.get(f"{cluster.r2}/v1/audit/verify", headers=bearer(cluster.auditor), timeout=60).json()
    assert verified["ok"] is True and verified["first_bad_seq"] is None
    assert verified["events_checked"] >= start + 48


def test_only_one_retention_run_happens_when_both_replicas_try_at_once(cluster: Cluster) -> None:
    old = (datetime.now(UTC) - timedelta(days=200)).isoformat()
    for doctor in ("dr-expired-1", "dr-expired-2"):  # each purged doctor's collection is rebuilt
        api = cluster.api(cluster.r1, doctor)
        body = {
            "episodes": [{"query": f"Old note {i}", "response": "Done.", "created_at": old} for i in range(3)]
        }
        assert api.call("POST", "/v1/episodes", body).status_code == 201
    start = audit_head(cluster.engine)
    barrier = threading.Barrier(2)

    def run(base: str) -> httpx.Response:
        barrier.wait()
        return httpx.post(f"{base}/v1/admin/retention/run", json={"dry_run": False},
                          headers=bearer(cluster.admin), timeout=120)  # fmt: skip

    with ThreadPoolExecutor(max_workers=2) as pool:
        responses = list(pool.map(run, (cluster.r1, cluster.r2)))
    statuses = sorted(r.status_code for r in responses)
    assert statuses == [200, 409], [r.text for r in responses]
    refused = next(r for r in responses if r.status_code == 409).json()["error"]
    assert refused["code"] == "conflict" and "in progress" in refused["message"]
    report = next(r for r in responses if r.status_code == 200).json()
    assert report["deleted"] == 6 and report["doctors_compacted"] == 2
    runs = [e for e in audit_events_after(cluster.engine, start) if e["subtype"] == "retention.run"]
    assert [e["outcome"] for e in runs].count("success") == 1
    for doctor in ("dr-expired-1", "dr-expired-2"):
        assert episode_states(cluster.engine, doctor) == {}


def test_the_scheduler_skips_retention_while_another_process_holds_the_run(cluster: Cluster) -> None:
    """The lock is the database's, so it holds across every process: replicas and the scheduler."""
    topology = cluster.topology
    with job_lock(cluster.engine, "retention"):
        refused = httpx.post(f"{cluster.r2}/v1/admin/retention/run", json={"dry_run": False},
                             headers=bearer(cluster.admin), timeout=60)  # fmt: skip
        assert refused.status_code == 409
        second = topology.start_scheduler("scheduler-2")
        try:
            assert wait_for(lambda: "job retention skipped" in second.output(), timeout=60)
        finally:
            second.stop()
    assert "job retention skipped: another run holds its lock" in second.output()
    done = httpx.post(f"{cluster.r1}/v1/admin/retention/run", json={"dry_run": False},
                      headers=bearer(cluster.admin), timeout=60)  # fmt: skip
    assert done.status_code == 200
