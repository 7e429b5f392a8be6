"""Authentication and authorisation: every endpoint x {no token, bad token, expired JWT, each role,
the other doctor}. The doctor id comes only from the token; another doctor's episode is a 404."""

from __future__ import annotations

from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric import rsa
from fastapi.testclient import TestClient

from tests.jarvis.api.conftest import Keys, bearer, make_jwt

EPISODE = {"query": "Potassium 6.1 on spironolactone, what now?", "response": "Stop spironolactone."}
PATIENT = {"patient_id": "00482913"}
# (method, path, body, role allowed: one role or "any"); {episode} is replaced by an episode of doctor A.
ENDPOINTS: list[tuple[str, str, dict[str, Any] | None, str]] = [
    ("POST", "/v1/ask", {"query": "dose of cefepime in AKI?"}, "clinician"),
    ("POST", "/v1/episodes", {"episodes": [EPISODE]}, "clinician"),
    ("GET", "/v1/episodes/{episode}", None, "clinician"),
    ("POST", "/v1/episodes/{episode}/outcome", {"outcome": "accepted"}, "clinician"),
    ("POST", "/v1/memory/search", {"query": "potassium"}, "clinician"),
    ("POST", "/v1/patients/history", PATIENT, "clinician"),
    ("POST", "/v1/patients/facts", PATIENT, "clinician"),
    ("POST", "/v1/patients/facts/add", {**PATIENT, "category": "allergy", "text": "penicillin"}, "clinician"),
    ("DELETE", "/v1/episodes/{episode}", None, "clinician"),
    ("POST", "/v1/admin/api-keys", {"role": "auditor", "subject": "audit-2"}, "admin"),
    ("GET", "/v1/admin/api-keys", None, "admin"),
    ("GET", "/v1/audit/events", None, "auditor"),
    ("GET", "/v1/audit/verify", None, "auditor"),
    ("GET", "/v1/audit/export", None, "auditor"),
    ("GET", "/v1/whoami", None, "any"),
]
ROLES = ["doctor_a", "admin", "auditor"]


@pytest.fixture
def episode(client: TestClient, keys: Keys) -> str:
    response = client.post("/v1/episodes", json={"episodes": [EPISODE]}, headers=bearer(keys.doctor_a))
    assert response.status_code == 201
    return str(response.json()["episode_ids"][0])


def call(
    client: TestClient, method: str, path: str, body: dict[str, Any] | None, headers: dict[str, str]
) -> Any:
    return client.request(method, path, json=body, headers=headers)


@pytest.mark.parametrize(("method", "path", "body"), [(m, p, b) for m, p, b, _ in ENDPOINTS])
def test_without_a_valid_token_every_endpoint_is_401(
    client: TestClient,
    episode: str,
    signing_key: rsa.RSAPrivateKey,
    method: str,
    path: str,
    body: Any,
) -> None:
    path = path.format(episode=episode)
    expired = make_jwt(signing_key, exp=1_000_000, iat=999_000)
    wrong_audience = make_jwt(signing_key, aud="someone-else")
    not_yet = make_jwt(signing_key, nbf=4_000_000_000)
    for headers in (
        {},
        bearer("jvk_AAAAAAAAAAAA." + "A" * 43),
        bearer("not-a-token"),
        {"Authorization": "Basic abc"},
        bearer(expired),
        bearer(wrong_audience),
        bearer(not_yet),
        bearer(make_jwt(rsa.generate_private_key(public_exponent=65537, key_size=2048))),  # another signer
    ):
        response = call(client, method, path, body, headers)
        assert response.status_code == 401, (headers, response.text)
        assert response.json()["error"]["code"] == "unauthenticated"


@pytest.mark.parametrize(("method", "path", "body", "allowed"), ENDPOINTS)
@pytest.mark.parametrize("role", ROLES)
def test_roles(
    client: TestClient, keys: Keys, episode: str, method: str, path: str, body: Any, allowed: str, role: str
) -> None:
    response = call(client, method, path.format(episode=episode), body, bearer(getattr(keys, role)))
    permitted = (
        allowed == "any" or {"clinician": "doctor_a", "admin": "admin", "auditor": "auditor"}[allowed] == role
    )
    if permitted:
        assert response.status_code < 300, response.text
    else:
        assert response.status_code == 403 and response.json()["error"]["code"] == "forbidden"


@pytest.mark.parametrize(
    ("method", "path", "body"), [(m, p, b) for m, p, b, _ in ENDPOINTS if "{episode}" in p]
)
def test_another_doctors_episode_is_indistinguishable_from_a_missing_one(
    client: TestClient, keys: Keys, episode: str, method: str, path: str, body: Any
) -> None:
    other = call(client, method, path.format(episode=episode), body, bearer(keys.doctor_b))
    missing = call(
        client, method, path.format(episode="ep_doesnotexist000000000000"), body, bearer(keys.doctor_b)
    )
    assert other.status_code == missing.status_code == 404
    assert other.json()["error"] | {"request_id": None} == missing.json()["error"] | {"request_id": None}
    # Doctor A still has it, untouched.
    assert client.get(f"/v1/episodes/{episode}", headers=bearer(keys.doctor_a)).json()["outcome"] is None


def test_the_doctor_id_comes_only_from_the_token(client: TestClient, keys: Keys) -> None:
    sneaky = {"episodes": [EPISODE], "doctor_id": "dr-a"}
    assert client.post("/v1/episodes", json=sneaky, headers=bearer(keys.doctor_b)).status_code == 422
    ids = client.post("/v1/episodes", json={"episodes": [EPISODE]}, headers=bearer(keys.doctor_b)).json()[
        "episode_ids"
    ]
    hits = client.post(
        "/v1/memory/search", json={"query": "potassium"}, headers=bearer(keys.doctor_a)
    ).json()["hits"]
    assert not set(ids) & {h["episode_id"] for h in hits}


def test_a_clinician_jwt_works_like_a_key(client: TestClient, signing_key: rsa.RSAPrivateKey) -> None:
    token = make_jwt(signing_key, sub="dr-jwt")
    saved = client.post("/v1/episodes", json={"episodes": [EPISODE]}, headers=bearer(token))
    assert saved.status_code == 201
    episode_id = saved.json()["episode_ids"][0]
    assert client.get(f"/v1/episodes/{episode_id}", headers=bearer(token)).status_code == 200
    admin = make_jwt(signing_key, sub="ops", jarvis_role="admin")
    assert client.get(f"/v1/episodes/{episode_id}", headers=bearer(admin)).status_code == 403
    no_role = make_jwt(signing_key, jarvis_role=None)
    assert client.get(f"/v1/episodes/{episode_id}", headers=bearer(no_role)).status_code == 401


def test_revoked_keys_stop_working(client: TestClient, keys: Keys) -> None:
    created = client.post(
        "/v1/admin/api-keys", json={"role": "clinician", "subject": "dr-c"}, headers=bearer(keys.admin)
    )
    token, key_id = created.json()["token"], created.json()["key_id"]
    assert client.post("/v1/memory/search", json={"query": "x"}, headers=bearer(token)).status_code == 200
    assert client.delete(f"/v1/admin/api-keys/{key_id}", headers=bearer(keys.admin)).status_code == 204
    assert client.post("/v1/memory/search", json={"query": "x"}, headers=bearer(token)).status_code == 401
    assert client.delete(f"/v1/admin/api-keys/{key_id}", headers=bearer(keys.admin)).status_code == 404


def test_patient_history_and_facts_are_per_doctor(client: TestClient, keys: Keys) -> None:
    a = bearer(keys.doctor_a)
    client.post("/v1/episodes", json={"episodes": [{**EPISODE, "patient": {"id": "00482913"}}]}, headers=a)
    client.post(
        "/v1/patients/facts/add", json={**PATIENT, "category": "allergy", "text": "penicillin"}, headers=a
    )
    assert len(client.post("/v1/patients/history", json=PATIENT, headers=a).json()["episodes"]) == 1
    b = bearer(keys.doctor_b)
    assert client.post("/v1/patients/history", json=PATIENT, headers=b).json() == {"episodes": []}
    assert client.post("/v1/patients/facts", json=PATIENT, headers=b).json() == {"facts": []}


def test_jwt_keys_can_come_from_a_jwks_endpoint(signing_key: rsa.RSAPrivateKey) -> None:
    """JARVIS_JWT_JWKS_URL: the keys are fetched (here from loopback) and matched by kid."""
    import json
    import threading
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    from jwt.algorithms import RSAAlgorithm

    from jarvis.config import Settings
    from jarvis.security.jwt_auth import JwtVerifier
    from tests.jarvis.api.conftest import AUDIENCE, ISSUER

    jwk = json.loads(RSAAlgorithm.to_jwk(signing_key.public_key())) | {
        "kid": "k1",
        "use": "sig",
        "alg": "RS256",
    }

    class Jwks(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 - http.server's naming
            body = json.dumps({"keys": [jwk]}).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *_args: object) -> None:
            return None

    server = ThreadingHTTPServer(("127.0.0.1", 0), Jwks)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        verifier = JwtVerifier(
            Settings(
                jwt_issuer=ISSUER,
                jwt_audience=AUDIENCE,
                jwt_jwks_url=f"http://127.0.0.1:{server.server_port}/jwks",
            )
        )
        import jwt as pyjwt

        token = pyjwt.encode(
            {"iss": ISSUER, "aud": AUDIENCE, "sub": "dr-k", "jarvis_role": "clinician", "exp": 4_000_000_000},
            signing_key,
            algorithm="RS256",
            headers={"kid": "k1"},
        )
        principal = verifier.authenticate(token)
        assert principal is not None and principal.subject == "dr-k" and principal.method == "jwt"
        assert verifier.authenticate(make_jwt(signing_key)) is None  # no kid: no key to match
    finally:
        server.shutdown()
        server.server_close()
