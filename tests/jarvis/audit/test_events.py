"""Audit events carry ids, pseudonyms, codes and counts only: anything text-like is refused."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta, timezone
from typing import Any

import pytest

from jarvis.audit import AuditEvent, AuditLog, canonical
from jarvis.errors import InputError
from tests.jarvis.audit.factories import episode_id, event, patient_ref


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("actor", "Dr Gita Bhat"),
        ("actor", ""),
        ("role", "doctor"),
        ("action", "READ"),
        ("outcome", "ok"),
        ("subtype", "read Gita's chart"),
        ("subtype", "Episode.Read"),
        ("episode_ids", ("Patient John Smith",)),
        ("episode_ids", ("ep_1",)),  # not shaped like a generated id
        ("episode_ids", "ep_abcdefghijklmnopqrstuvwx"),  # a string, not a list
        ("patient_refs", ("00123456",)),  # a raw MRN
        ("patient_refs", ("MRN 00123",)),
        ("patient_refs", ("p1_short",)),
        ("source_address", "Gita Bhat's laptop"),
        ("request_id", "request for Gita"),
        ("event_id", "x"),
        ("detail", {"note": "patient has sepsis"}),
        ("detail", {"name": "Gita"}),
        ("detail", {"Patient Name": 1}),
        ("detail", {"flag": True}),
        ("detail", {"ratio": float("nan")}),
        ("detail", {"ids": [1, 2]}),
        ("detail", {f"k{i}": i for i in range(17)}),
        ("recorded_at", datetime(2025, 1, 5, 9, 0)),  # naive
        ("seq", 0),
    ],
)
def test_text_like_values_are_refused(field: str, value: Any) -> None:
    with pytest.raises(InputError) as caught:
        event(**{field: value})
    assert "Gita" not in str(caught.value) and "sepsis" not in str(caught.value)


def test_too_many_ids_point_to_counts() -> None:
    with pytest.raises(InputError, match="counts in detail"):
        event(episode_ids=tuple(episode_id() for _ in range(1_001)))


def test_a_well_formed_event_round_trips_through_its_canonical_form() -> None:
    original = event(
        episode_ids=(e := episode_id(), e, episode_id()),  # duplicates dropped, order kept
        patient_refs=(patient_ref(),),
        source_address="::ffff:127.0.0.1",
        detail={"hits": 3, "seconds": 0.5, "mode": "dry_run"},
        recorded_at=datetime(2025, 1, 5, 10, 0, 0, 123456, tzinfo=timezone(timedelta(hours=1))),
        seq=7,
    )
    assert original.episode_ids == (e, original.episode_ids[1]) and len(original.episode_ids) == 2
    body = canonical(original)
    assert b" " not in body and list(json.loads(body)) == sorted(json.loads(body))
    assert json.loads(body)["recorded_at"] == "2025-01-05T09:00:00.123456Z"
    assert AuditEvent.from_dict(json.loads(body)) == original


def test_canonical_form_needs_a_seq() -> None:
    with pytest.raises(InputError):
        canonical(event())


def test_record_leaves_out_ids_that_may_be_text_and_counts_them(sqlite_audit: AuditLog) -> None:
    kept = episode_id()
    recorded = sqlite_audit.record(
        action="R",
        name="episode.read",
        actor="dr-a",
        role="clinician",
        outcome="not_found",
        source="testclient",
        request_id="abc123",
        episode_ids=[kept, "John Smith"],
        patient_refs=["MRN 00123"],
    )
    assert recorded.episode_ids == (kept,) and recorded.patient_refs == ()
    assert dict(recorded.detail) == {"rejected_ids": 2}
    assert recorded.recorded_at.tzinfo is UTC or recorded.recorded_at.utcoffset() == timedelta(0)
    assert sqlite_audit.verify()["ok"]
