"""HTTP behaviour: error shape, request ids, limits, bad input, operations endpoints, ask."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from jarvis.api.app import create_app
from jarvis.api.resources import Resources
from jarvis.config import Settings
from tests.jarvis.api.conftest import Keys, bearer


def test_errors_have_one_shape_with_the_request_id(client: TestClient, keys: Keys) -> None:
    response = client.get(
        "/v1/episodes/ep_missing", headers={**bearer(keys.doctor_a), "X-Request-ID": "req-12345678"}
    )
    assert response.status_code == 404
    assert response.json() == {
        "error": {"code": "not_found", "message": "episode not found", "request_id": "req-12345678"}
    }
    assert response.headers["x-request-id"] == "req-12345678"
    assert len(client.get("/healthz").headers["x-request-id"]) == 16  # generated when not given


@pytest.mark.parametrize(
    ("body", "content_type", "status", "fragment"),
    [
        (b'{"query": ', "application/json", 422, "JSON"),
        (b'{"query": 5}', "application/json", 422, "query"),
        (b'{"query": ""}', "application/json", 422, "query"),
        (b'{"query": "ok", "k": 1000}', "application/json", 422, "k"),
        (b'{"query": "ok", "unknown": 1}', "application/json", 422, "unknown"),
        (b'{"query": "\xff\xfe Gita Bhat"}', "application/json", 400, ""),
        (b'{"query": "' + b"x" * 9000 + b'"}', "application/json", 422, "query"),
    ],
)
def test_bad_input_is_a_clear_4xx_that_does_not_echo_the_input(
    client: TestClient, keys: Keys, body: bytes, content_type: str, status: int, fragment: str
) -> None:
    response = client.post(
        "/v1/memory/search", content=body, headers={**bearer(keys.doctor_a), "Content-Type": content_type}
    )
    assert response.status_code == status, response.text
    error = response.json()["error"]
    assert (
        error["code"] == ("invalid_input" if status == 422 else "bad_request")
        and fragment in error["message"]
    )
    assert "Gita" not in response.text and "xxxxxxxx" not in response.text


def test_oversized_bodies_are_413_and_store_nothing(
    client: TestClient, keys: Keys, resources: Resources
) -> None:
    big = {"episodes": [{"query": "q" * 7000, "response": "r" * 25000}] * 10}
    response = client.post("/v1/episodes", json=big, headers=bearer(keys.doctor_a))
    assert response.status_code == 413 and response.json()["error"]["code"] == "input_too_large"
    assert resources.memory is not None and resources.memory.store.count() == 0


def test_batch_of_501_is_refused(client: TestClient, keys: Keys, resources: Resources) -> None:
    batch = {"episodes": [{"query": f"q{n}", "response": "r"} for n in range(501)]}
    response = client.post("/v1/episodes", json=batch, headers=bearer(keys.doctor_a))
    assert response.status_code == 422 and "episodes" in response.json()["error"]["message"]
    assert resources.memory is not None and resources.memory.store.count() == 0


def test_rate_limit_per_token_is_429(settings: Settings, resources: Resources, keys: Keys) -> None:
    limited = settings.model_copy(update={"rate_limit_per_minute": 3})
    with TestClient(create_app(limited, resources)) as client:
        codes = [
            client.post("/v1/memory/search", json={"query": "x"}, headers=bearer(keys.doctor_a)).status_code
            for _ in range(5)
        ]
        assert codes[:3] == [200, 200, 200] and codes[3:] == [429, 429]
        # Another token has its own bucket.
        assert (
            client.post("/v1/memory/search", json={"query": "x"}, headers=bearer(keys.doctor_b)).status_code
            == 200
        )


def test_operations_endpoints(client: TestClient, keys: Keys) -> None:
    assert client.get("/healthz").json() == {"status": "ok"}
    ready = client.get("/readyz").json()
    assert ready["status"] == "ready" and ready["checks"] == {"database": "ok", "vector_index": "ok"}
    saved = client.post(
        "/v1/episodes", json={"episodes": [{"query": "q", "response": "r"}]}, headers=bearer(keys.doctor_a)
    )
    episode_id = saved.json()["episode_ids"][0]
    client.get(f"/v1/episodes/{episode_id}", headers=bearer(keys.doctor_a))
    metrics = client.get("/metrics").text
    assert 'route="/v1/episodes/{episode_id}"' in metrics and episode_id not in metrics
    assert "jarvis_http_request_seconds_bucket" in metrics


def test_ask_through_the_api_offline(client: TestClient, keys: Keys) -> None:
    body = {"query": "Gita Bhat is allergic to penicillin - anaphylaxis. Cellulitis, what now?",
            "patient": {"id": "00482913", "name": "Gita Bhat"}, "session_id": "s1"}  # fmt: skip
    first = client.post("/v1/ask", json=body, headers=bearer(keys.doctor_a))
    assert first.status_code == 200, first.text
    answer = first.json()
    assert answer["model"] == "offline" and answer["session_id"] == "s1" and answer["episode_id"]
    assert answer["safety_facts"][0]["text"] == "penicillin: anaphylaxis" and "Bhat" not in answer["answer"]
    second = client.post(
        "/v1/ask",
        json={"query": "Amoxicillin ok?", "patient": {"id": "00482913"}},
        headers=bearer(keys.doctor_a),
    ).json()
    assert answer["episode_id"] in {m["episode_id"] for m in second["memories"]}


def test_openapi_describes_every_route_with_models(client: TestClient) -> None:
    schema = client.get("/openapi.json").json()
    paths = schema["paths"]
    for path in (
        "/v1/ask",
        "/v1/episodes",
        "/v1/episodes/{episode_id}",
        "/v1/memory/search",
        "/v1/patients/facts/add",
    ):
        assert path in paths
    assert "AskOut" in schema["components"]["schemas"] and "ErrorOut" in schema["components"]["schemas"]
