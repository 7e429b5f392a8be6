"""GeminiEmbedder with the real google-genai SDK against the local fake of the Gemini API."""

from __future__ import annotations

import math
import socket
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from jarvis.config import Settings
from jarvis.errors import ConfigurationError, InputError, UnavailableError
from jarvis.memory.embedders.base import Embedder
from jarvis.memory.embedders.gemini import GeminiEmbedder
from tests.fakes.fixtures import Sleeps
from tests.fakes.gemini_server import DISCONNECT, FakeGeminiServer, embedding_for

DOCUMENT = "Suspected sepsis; lactate 4.1, started piperacillin-tazobactam."  # de-identified text


@pytest.fixture
def make_embedder(
    gemini_server: FakeGeminiServer,
    sleeps: Sleeps,
) -> Iterator[Callable[..., GeminiEmbedder]]:
    """Builds embedders pointed at the fake, with no real sleeping; closes them afterwards."""
    made: list[GeminiEmbedder] = []

    def make(**overrides: Any) -> GeminiEmbedder:
        options: dict[str, Any] = {
            "api_key": gemini_server.api_key,
            "base_url": gemini_server.base_url,
            "dimension": 64,
            "sleep": sleeps,
            "timeout": 5.0,
        }
        embedder = GeminiEmbedder(**{**options, **overrides})
        made.append(embedder)
        return embedder

    yield make
    for embedder in made:
        embedder.close()


def _norm(vector: list[float]) -> float:
    return math.sqrt(sum(v * v for v in vector))


def _cosine(a: list[float], b: list[float]) -> float:
    return sum(x * y for x, y in zip(a, b, strict=True)) / (_norm(a) * _norm(b))


def test_vectors_have_the_configured_dimension_and_unit_length(make_embedder, gemini_server):
    embedder = make_embedder(dimension=48)

    vectors = embedder.embed_documents([DOCUMENT, "Penicillin allergy: rash in 2019."])
    query = embedder.embed_query("sepsis lactate")

    assert [len(v) for v in [*vectors, query]] == [48, 48, 48]
    assert all(_norm(v) == pytest.approx(1.0) for v in [*vectors, query])
    assert _norm(embedding_for(DOCUMENT, 48)) != pytest.approx(1.0)  # the server's were not
    assert {r.body["requests"][0]["outputDimensionality"] for r in gemini_server.requests} == {48}
    # texts sharing words stay closer than unrelated ones
    assert _cosine(query, vectors[0]) > _cosine(query, vectors[1])


def test_large_inputs_are_sent_in_batches_of_at_most_100_in_order(make_embedder, gemini_server):
    texts = [f"episode {i} note word{i} kidney" for i in range(250)]

    vectors = make_embedder().embed_documents(texts)

    assert [len(r.texts) for r in gemini_server.requests] == [100, 100, 50]
    assert [t for r in gemini_server.requests for t in r.texts] == texts
    expected = [embedding_for(t, 64) for t in texts]
    assert all(_cosine(v, e) == pytest.approx(1.0) for v, e in zip(vectors, expected, strict=True))


def test_requests_carry_task_type_model_and_key(make_embedder, gemini_server):
    embedder = make_embedder()

    embedder.embed_documents([DOCUMENT, "second"])
    embedder.embed_query("what did I decide last time?")

    documents, query = gemini_server.requests
    assert documents.path.endswith("/models/gemini-embedding-001:batchEmbedContents")
    assert documents.headers["x-goog-api-key"] == gemini_server.api_key
    assert [item["taskType"] for item in documents.body["requests"]] == ["RETRIEVAL_DOCUMENT"] * 2
    assert [item["taskType"] for item in query.body["requests"]] == ["RETRIEVAL_QUERY"]
    assert {item["model"] for item in documents.body["requests"]} == {"models/gemini-embedding-001"}


def test_empty_input_makes_no_request(make_embedder, gemini_server):
    assert make_embedder().embed_documents([]) == []
    assert gemini_server.requests == []


@pytest.mark.parametrize("faults", [[429], [503], [500, 429, 503], [DISCONNECT]])
def test_transient_failures_are_retried_with_growing_backoff(make_embedder, gemini_server, sleeps, faults):
    gemini_server.fail_next(*faults)

    vector = make_embedder(initial_backoff=1.0, max_attempts=5).embed_query("sepsis")

    assert len(vector) == 64
    assert [r.status for r in gemini_server.requests] == [*faults, 200]
    assert len(sleeps) == len(faults)
    for retry, delay in enumerate(sleeps, start=1):  # equal jitter: between half and all of 2^(n-1)
        assert 2 ** (retry - 1) / 2 <= delay <= 2 ** (retry - 1)


def test_backoff_is_capped(make_embedder, gemini_server, sleeps):
    gemini_server.fail_next(503, 503, 503, 503)

    make_embedder(initial_backoff=1.0, max_backoff=2.5, random_fraction=lambda: 1.0).embed_query("x")

    assert sleeps == [1.0, 2.0, 2.5, 2.5]


def test_gives_up_after_max_attempts_without_leaking_text(make_embedder, gemini_server, sleeps):
    gemini_server.fail_next(*[503] * 10)

    with pytest.raises(UnavailableError) as raised:
        make_embedder(max_attempts=3).embed_documents([DOCUMENT])

    assert len(gemini_server.requests) == 3
    assert len(sleeps) == 2
    assert "503" in raised.value.message
    assert "sepsis" not in str(raised.value).lower()
    assert gemini_server.requests[0].texts == [DOCUMENT]  # it was the text that was sent


def test_unreachable_server_is_unavailable(sleeps, unused_port):
    embedder = GeminiEmbedder(
        api_key="k", base_url=f"http://127.0.0.1:{unused_port}", max_attempts=2, sleep=sleeps
    )
    try:
        with pytest.raises(UnavailableError, match="ConnectError"):
            embedder.embed_query("sepsis")
    finally:
        embedder.close()
    assert len(sleeps) == 1


@pytest.mark.parametrize(
    ("status", "error"),
    [(400, InputError), (403, UnavailableError), (404, UnavailableError)],
)
def test_client_errors_are_not_retried(make_embedder, gemini_server, sleeps, status, error):
    gemini_server.fail_next(status)

    with pytest.raises(error) as raised:
        make_embedder().embed_documents([DOCUMENT])

    assert type(raised.value) is error
    assert str(status) in raised.value.message and "sepsis" not in raised.value.message.lower()
    assert len(gemini_server.requests) == 1
    assert sleeps == []


def test_invalid_api_key_is_unavailable_not_bad_input(make_embedder, gemini_server):
    with pytest.raises(UnavailableError):
        make_embedder(api_key="not-the-key").embed_query("sepsis")
    assert len(gemini_server.requests) == 1


def test_unknown_model_is_unavailable(make_embedder):
    with pytest.raises(UnavailableError, match="404"):
        make_embedder(model="no-such-embedding-model").embed_query("sepsis")


@pytest.mark.parametrize("texts", [[""], ["ok", "   "], "a single string"])
def test_blank_texts_are_refused_locally(make_embedder, gemini_server, texts):
    with pytest.raises(InputError):
        make_embedder().embed_documents(texts)
    assert gemini_server.requests == []


def test_identity(make_embedder):
    embedder = make_embedder(model="models/gemini-embedding-001", dimension=768)

    assert isinstance(embedder, Embedder)
    assert embedder.identity.model_id == "gemini:gemini-embedding-001"
    assert embedder.identity.dimension == 768
    assert embedder.identity.slug == "gemini-gemini-embedding-001-768"


def test_from_settings(gemini_server, monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)  # no stray .env file
    settings = Settings(
        gemini_api_key=gemini_server.api_key,
        gemini_base_url=gemini_server.base_url,
        gemini_embedding_dim=32,
    )
    embedder = GeminiEmbedder.from_settings(settings)
    try:
        assert len(embedder.embed_query("sepsis")) == 32
    finally:
        embedder.close()
    assert embedder.identity.model_id == "gemini:gemini-embedding-001"


def test_from_settings_needs_a_key(monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ConfigurationError):
        GeminiEmbedder.from_settings(Settings(gemini_api_key=None))


@pytest.fixture
def unused_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])
