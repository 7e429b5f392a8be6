"""GET /v1/whoami (who the token is, for the console) and GET /v1/admin/api-keys (never a secret)."""

from __future__ import annotations

from datetime import datetime

from cryptography.hazmat.primitives.asymmetric import rsa
from fastapi.testclient import TestClient

from tests.jarvis.api.conftest import Keys, bearer, make_jwt


def key_id(token: str) -> str:
    return token.removeprefix("jvk_").split(".")[0]


def test_whoami_names_the_role_subject_and_key_of_each_token(
    client: TestClient, keys: Keys, signing_key: rsa.RSAPrivateKey
) -> None:
    for token, role, subject in (
        (keys.doctor_a, "clinician", "dr-a"),
        (keys.admin, "admin", "ops-1"),
        (keys.auditor, "auditor", "audit-1"),
    ):
        response = client.get("/v1/whoami", headers=bearer(token))
        assert response.status_code == 200
        assert response.json() == {
            "role": role,
            "subject": subject,
            "key_id": key_id(token),
            "method": "api_key",
        }
    jwt_token = make_jwt(signing_key, sub="dr-jwt")
    assert client.get("/v1/whoami", headers=bearer(jwt_token)).json() == {
        "role": "clinician",
        "subject": "dr-jwt",
        "key_id": None,
        "method": "jwt",
    }


def test_whoami_checks_are_audited_refused_ones_too(client: TestClient, keys: Keys) -> None:
    client.get("/v1/whoami", headers=bearer(keys.doctor_a))
    client.get("/v1/whoami", headers=bearer("jvk_AAAAAAAAAAAA." + "A" * 43))
    events = client.get("/v1/audit/events", headers=bearer(keys.auditor)).json()["events"]
    checks = [(e["actor"], e["outcome"]) for e in events if e["subtype"] == "auth.whoami"]
    assert checks == [("dr-a", "success"), ("anonymous", "denied")]


def test_admins_list_keys_newest_first_with_revocations_and_no_secrets(
    client: TestClient, keys: Keys
) -> None:
    admin = bearer(keys.admin)
    created = client.post(
        "/v1/admin/api-keys", json={"role": "clinician", "subject": "dr-c"}, headers=admin
    ).json()
    assert client.delete(f"/v1/admin/api-keys/{created['key_id']}", headers=admin).status_code == 204
    response = client.get("/v1/admin/api-keys", headers=admin)
    assert response.status_code == 200
    listed = response.json()["keys"]
    assert listed[0]["key_id"] == created["key_id"]
    assert listed[0]["subject"] == "dr-c" and listed[0]["role"] == "clinician"
    assert listed[0]["revoked_at"] is not None
    assert datetime.fromisoformat(listed[0]["created_at"]).tzinfo is not None
    assert {k["key_id"] for k in listed} >= {key_id(t) for t in (keys.doctor_a, keys.admin, keys.auditor)}
    assert all(k["revoked_at"] is None for k in listed[1:])
    assert set(listed[0]) == {"key_id", "role", "subject", "created_at", "revoked_at"}
    for token in (created["token"], keys.doctor_a, keys.admin, keys.auditor):
        assert token.split(".")[1] not in response.text
    assert len(client.get("/v1/admin/api-keys?limit=2", headers=admin).json()["keys"]) == 2
    assert client.get("/v1/admin/api-keys?limit=0", headers=admin).status_code == 422
