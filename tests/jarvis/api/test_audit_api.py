"""Every access to memory, allowed or denied, is an audit event; auditors read, export and verify."""

from __future__ import annotations

import json

import pytest
from fastapi.testclient import TestClient

from jarvis.api.resources import Resources
from jarvis.errors import UnavailableError
from tests.jarvis.api.conftest import Keys, bearer

EPISODE = {"query": "Gita Bhat: potassium 6.1 on spironolactone?", "response": "Stop it.",
           "patient": {"id": "00482913", "name": "Gita Bhat"}}  # fmt: skip


def events(client: TestClient, keys: Keys, **params: str) -> list[dict]:
    response = client.get("/v1/audit/events", params=params, headers=bearer(keys.auditor))
    assert response.status_code == 200, response.text
    return list(response.json()["events"])


def test_reads_writes_and_refusals_are_audited_without_text(client: TestClient, keys: Keys) -> None:
    saved = client.post("/v1/episodes", json={"episodes": [EPISODE]}, headers=bearer(keys.doctor_a)).json()
    episode_id = saved["episode_ids"][0]
    client.get(f"/v1/episodes/{episode_id}", headers=bearer(keys.doctor_a))
    client.get(f"/v1/episodes/{episode_id}", headers=bearer(keys.doctor_b))  # other doctor: 404
    client.post("/v1/memory/search", json={"query": "x"})  # no token: 401
    log = events(client, keys)
    by_name = [(e["subtype"], e["outcome"], e["actor"]) for e in log]
    assert ("episode.create", "success", "dr-a") in by_name
    assert ("episode.read", "success", "dr-a") in by_name
    assert ("episode.read", "not_found", "dr-b") in by_name
    assert ("memory.search", "denied", "anonymous") in by_name
    create = next(e for e in log if e["subtype"] == "episode.create")
    assert create["episode_ids"] == [episode_id] and create["patient_refs"][0].startswith("p1_")
    assert all(e["request_id"] for e in log)
    text = json.dumps(log)
    assert "Gita" not in text and "Bhat" not in text and "00482913" not in text and "potassium" not in text


def test_auditor_filters_pages_exports_and_verifies(client: TestClient, keys: Keys) -> None:
    for _ in range(3):
        client.post("/v1/memory/search", json={"query": "x"}, headers=bearer(keys.doctor_a))
    first = client.get(
        "/v1/audit/events", params={"actor": "dr-a", "limit": 2}, headers=bearer(keys.auditor)
    ).json()
    assert len(first["events"]) == 2 and first["next_cursor"]
    rest = client.get(
        "/v1/audit/events",
        params={"actor": "dr-a", "cursor": first["next_cursor"]},
        headers=bearer(keys.auditor),
    ).json()
    assert len(rest["events"]) == 1 and rest["next_cursor"] is None
    export = client.get("/v1/audit/export", headers=bearer(keys.auditor))
    lines = [json.loads(line) for line in export.text.splitlines()]
    assert lines and all(line["resourceType"] == "AuditEvent" for line in lines)
    verified = client.get("/v1/audit/verify", headers=bearer(keys.auditor)).json()
    assert verified["ok"] is True and verified["events_checked"] >= 4 and verified["first_bad_seq"] is None


@pytest.mark.parametrize("role", ["doctor_a", "admin"])
def test_only_auditors_read_the_audit_log(client: TestClient, keys: Keys, role: str) -> None:
    for path in ("/v1/audit/events", "/v1/audit/export", "/v1/audit/verify"):
        assert client.get(path, headers=bearer(getattr(keys, role))).status_code == 403


def test_a_failed_audit_write_fails_the_request(
    client: TestClient, keys: Keys, resources: Resources, monkeypatch: pytest.MonkeyPatch
) -> None:
    def down(**_kwargs: object) -> None:
        raise UnavailableError("audit log unavailable")

    monkeypatch.setattr(resources.audit, "record", down)
    response = client.post("/v1/memory/search", json={"query": "x"}, headers=bearer(keys.doctor_a))
    assert response.status_code == 503
    refused = client.get("/v1/episodes/ep_missing0000000000000000", headers=bearer(keys.doctor_a))
    assert refused.status_code == 503  # a refusal that cannot be audited is not answered either


def test_writes_that_cannot_be_audited_are_not_kept(
    client: TestClient, keys: Keys, resources: Resources, monkeypatch: pytest.MonkeyPatch
) -> None:
    kept = client.post("/v1/episodes", json={"episodes": [EPISODE]}, headers=bearer(keys.doctor_a)).json()
    kept_id = kept["episode_ids"][0]

    def down(**_kwargs: object) -> None:
        raise UnavailableError("audit log unavailable")

    monkeypatch.setattr(resources.audit, "record", down)
    assert (
        client.post("/v1/episodes", json={"episodes": [EPISODE]}, headers=bearer(keys.doctor_a)).status_code
        == 503
    )
    assert client.post("/v1/ask", json={"query": "dose?"}, headers=bearer(keys.doctor_a)).status_code == 503
    assert client.delete(f"/v1/episodes/{kept_id}", headers=bearer(keys.doctor_a)).status_code == 503
    assert resources.memory is not None and resources.memory.store.count() == 1  # only the first episode
    assert resources.memory.get("dr-a", kept_id).episode_id == kept_id  # not deleted
