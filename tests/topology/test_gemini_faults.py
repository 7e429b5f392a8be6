"""The Gemini API misbehaving, seen over HTTP through a replica of the topology.

The model adapter's retry policy is unit-tested in tests/jarvis/agent/test_gemini_model.py (with
the sleeps stubbed); here a real `jarvis serve` talks to the fake Gemini server on loopback, with
real back-off sleeps, and what is checked is what a clinician and an auditor see: a transient
fault is absorbed, a persistent one (429, 500, timeouts) ends after a bounded number of attempts in
a clean 503, no episode is saved for an answer that never came, and the next ask works again.
"""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest

from tests.fakes.gemini_server import FakeGeminiServer, Fault, Hang
from tests.topology.client import audit_events_after, audit_head, episode_states, is_clean_error
from tests.topology.conftest import Cluster, gemini_settings

ATTEMPTS, TIMEOUT_S = 3, 2
MIN_BACKOFF_S = 0.25 + 0.5  # equal jitter: at least half of 0.5 s, then half of 1 s (jarvis.gemini_common)


@pytest.fixture(scope="module")
def replica(cluster: Cluster, gemini: FakeGeminiServer) -> Iterator[str]:
    """A third replica of the topology whose model is Gemini (the fake), with short timeouts."""
    name = "replica-gemini"
    cluster.topology.start_replica(name, extra=gemini_settings(gemini, TIMEOUT_S, ATTEMPTS))
    yield cluster.topology.urls[name]
    cluster.topology.services[name].stop()


def generations(server: FakeGeminiServer) -> int:
    return sum(r.path.endswith(":generateContent") for r in server.requests)


def test_a_transient_429_is_retried_and_the_answer_saved(
    cluster: Cluster, gemini: FakeGeminiServer, replica: str
) -> None:
    api = cluster.api(replica, "dr-gemini-ok")
    gemini.clear()
    gemini.fail_next(429)
    response = api.ask("Cellulitis with penicillin allergy: which antibiotic?")
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["model"] == "gemini-2.5-flash" and "[fake-gemini]" in body["answer"]
    assert generations(gemini) == 2
    assert episode_states(cluster.engine, "dr-gemini-ok") == {body["episode_id"]: "committed"}


@pytest.mark.parametrize(
    ("fault", "named"),
    [(429, "HTTP 429"), (500, "HTTP 500"), (Hang(TIMEOUT_S + 1.5), "Timeout")],
    ids=["429", "500", "timeout"],
)
def test_a_persistent_fault_ends_in_a_clean_503_after_bounded_retries_and_saves_nothing(
    cluster: Cluster, gemini: FakeGeminiServer, replica: str, fault: Fault, named: str
) -> None:
    doctor = f"dr-gemini-{named.split()[-1].lower()}"
    api = cluster.api(replica, doctor)
    gemini.clear()
    gemini.fail_next(*[fault] * ATTEMPTS)
    start, began = audit_head(cluster.engine), time.monotonic()
    response = api.ask("Septic shock on norepinephrine: add vasopressin when?")
    took = time.monotonic() - began

    assert is_clean_error(response, 503), response.text
    message = response.json()["error"]["message"]
    assert f"after {ATTEMPTS} attempts" in message and named in message
    assert generations(gemini) == ATTEMPTS  # bounded: no attempt beyond the budget
    per_attempt = TIMEOUT_S if isinstance(fault, Hang) else 0.0
    assert MIN_BACKOFF_S + ATTEMPTS * per_attempt <= took < 30  # backed off, and gave up in time
    assert episode_states(cluster.engine, doctor) == {}  # no answer, no episode
    (ask_event,) = [e for e in audit_events_after(cluster.engine, start) if e["subtype"] == "ask"]
    assert ask_event["outcome"] == "error" and ask_event["episode_ids"] == []

    recovered = api.ask("Septic shock on norepinephrine: add vasopressin when?")
    assert recovered.status_code == 200 and recovered.json()["episode_id"]
    assert list(episode_states(cluster.engine, doctor).values()) == ["committed"]
