"""Filters and cursor pagination; NDJSON export of FHIR R4 AuditEvent resources."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime, timedelta

import pytest

from jarvis.audit import MAX_LIMIT, AuditLog, AuditQuery, fhir
from jarvis.audit.query import encode_cursor
from jarvis.errors import InputError
from tests.jarvis.audit.factories import episode_id, event, patient_ref

T0 = datetime(2025, 1, 5, 9, 0, tzinfo=UTC)
P1, P2 = patient_ref(), patient_ref()


@pytest.fixture
def filled(audit: AuditLog) -> AuditLog:
    audit.append_many(
        [
            event(actor="dr-a", recorded_at=T0, patient_refs=(P1,), episode_ids=(episode_id(),)),
            event(actor="dr-b", recorded_at=T0 + timedelta(hours=1), outcome="not_found"),
            event(actor="dr-a", recorded_at=T0 + timedelta(hours=2), action="C", subtype="ask", patient_refs=(P1, P2)),
            event(actor="adm-1", role="admin", recorded_at=T0 + timedelta(hours=3), action="E", subtype="retention.run",
                  outcome="error", source_address="::1", detail={"deleted": 0, "seconds": 0.25}),
            event(actor="dr-b", recorded_at=T0 + timedelta(hours=4), outcome="denied", patient_refs=(P2,),
                  source_address="testclient"),
            event(actor="aud-1", role="auditor", recorded_at=T0 + timedelta(hours=5), subtype="audit.read",
                  source_address=None, request_id=None),
        ]
    )  # fmt: skip
    return audit


FILTER_CASES: list[tuple[dict[str, object], list[int]]] = [
    ({}, [1, 2, 3, 4, 5, 6]),
    ({"actor": "dr-a"}, [1, 3]),
    ({"patient_ref": P1}, [1, 3]),
    ({"patient_ref": P2, "actor": "dr-b"}, [5]),
    ({"action": "C"}, [3]),
    ({"outcome": "denied"}, [5]),
    ({"since": T0 + timedelta(hours=2)}, [3, 4, 5, 6]),
    ({"until": T0 + timedelta(hours=2)}, [1, 2]),
    ({"since": (T0 + timedelta(hours=1)).replace(tzinfo=None), "until": T0 + timedelta(hours=3)}, [2, 3]),
    ({"since": T0.replace(hour=10).astimezone(), "outcome": "error"}, [4]),  # any zone
]


def test_filters(filled: AuditLog) -> None:
    """One database per backend for the whole table (a PostgreSQL database per case is slow)."""
    for filters, expected_seqs in FILTER_CASES:
        page = filled.query(AuditQuery(**filters))  # type: ignore[arg-type]
        assert [e.seq for e in page.events] == expected_seqs, filters
        assert page.next_cursor is None


def test_cursor_pagination_walks_every_event_once(filled: AuditLog) -> None:
    seen, cursor = [], None
    while True:
        page = filled.query(AuditQuery(limit=4 if cursor is None else 1, cursor=cursor))
        seen += [e.seq for e in page.events]
        if page.next_cursor is None:
            break
        cursor = page.next_cursor
    assert seen == [1, 2, 3, 4, 5, 6]
    filtered = filled.query(AuditQuery(actor="dr-b", limit=1))
    assert [e.seq for e in filtered.events] == [2] and filtered.next_cursor
    rest = filled.query(AuditQuery(actor="dr-b", limit=1, cursor=filtered.next_cursor))
    assert [e.seq for e in rest.events] == [5] and rest.next_cursor is None


@pytest.mark.parametrize(
    "bad",
    [
        {"cursor": "not a cursor"},
        {"cursor": "MTIz"},  # base64 of "123": not ours
        {"cursor": encode_cursor(1)[:-1] + "!"},
        {"limit": 0},
        {"limit": MAX_LIMIT + 1},
        {"actor": "Gita Bhat"},
        {"patient_ref": "MRN 00123"},
        {"action": "X"},
        {"outcome": "ok"},
    ],
)
def test_bad_query_parameters_are_input_errors(bad: dict[str, object]) -> None:
    with pytest.raises(InputError):
        AuditQuery(**bad)  # type: ignore[arg-type]


# R4 value sets used by the export (http://hl7.org/fhir/R4/auditevent.html and its bindings)
FHIR_INSTANT = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})")
FHIR_ID = re.compile(r"[A-Za-z0-9\-.]{1,64}")
DCM = "http://dicom.nema.org/resources/ontology/DCM"
DCM_EVENT_IDS = {f"1101{n:02d}" for n in range(15)}  # 110100 … 110114, "Audit Event ID" value set
ACTIONS = {"C", "R", "U", "D", "E"}  # audit-event-action (required binding)
OUTCOMES = {"0", "4", "8", "12"}  # audit-event-outcome (required binding)
NETWORK_TYPES = {"1", "2", "3", "4", "5"}  # network-type (required binding)
ENTITY_TYPES = {"1", "2", "3", "4"}  # audit-entity-type
OBJECT_ROLES = {str(n) for n in range(1, 25)}  # object-role
SOURCE_TYPES = {str(n) for n in range(1, 10)}  # security-source-type


def _check_resource(resource: dict[str, object]) -> None:
    r = json.loads(json.dumps(resource))
    assert r["resourceType"] == "AuditEvent" and FHIR_ID.fullmatch(r["id"])
    assert r["type"]["system"] == DCM and r["type"]["code"] in DCM_EVENT_IDS and r["type"]["display"]
    assert all(s["system"] and s["code"] for s in r["subtype"])
    assert r["action"] in ACTIONS
    assert FHIR_INSTANT.fullmatch(r["recorded"])
    assert r["outcome"] in OUTCOMES
    assert len(r["agent"]) >= 1
    for agent in r["agent"]:
        assert isinstance(agent["requestor"], bool)
        assert agent["who"]["identifier"]["value"]
        assert agent["type"]["coding"][0]["system"] == DCM
        if "network" in agent:
            assert agent["network"]["address"] and agent["network"]["type"] in NETWORK_TYPES
    assert r["source"]["observer"]["display"] or r["source"]["observer"]["identifier"]
    assert all(t["code"] in SOURCE_TYPES for t in r["source"]["type"])
    for entity in r.get("entity", []):
        assert entity["what"]["identifier"]["system"] and entity["what"]["identifier"]["value"]
        assert entity["type"]["code"] in ENTITY_TYPES and entity["role"]["code"] in OBJECT_ROLES


def test_export_is_ndjson_of_valid_r4_audit_events(filled: AuditLog) -> None:
    lines = list(filled.export())
    assert len(lines) == 6 and all(line.endswith("\n") and "\n" not in line[:-1] for line in lines)
    resources = [json.loads(line) for line in lines]
    for resource in resources:
        _check_resource(resource)
    first, _, ask, retention, denied, audit_read = resources
    assert first["type"]["code"] == "110110" and first["subtype"][0]["code"] == "episode.read"
    assert first["recorded"] == "2025-01-05T09:00:00.000000Z"
    assert first["agent"][0]["who"]["identifier"]["value"] == "dr-a"
    assert first["agent"][0]["network"] == {"address": "127.0.0.1", "type": "2"}
    assert [(e["role"]["code"], e["what"]["identifier"]["value"]) for e in first["entity"]][0] == ("1", P1)
    assert {e["what"]["identifier"]["value"] for e in ask["entity"]} == {P1, P2}
    assert (retention["type"]["code"], retention["action"], retention["outcome"]) == ("110100", "E", "8")
    assert retention["agent"][0]["network"] == {"address": "::1", "type": "2"}
    assert (denied["outcome"], denied["outcomeDesc"]) == ("4", "denied")
    assert denied["agent"][0]["network"]["type"] == "1"  # a machine name
    assert audit_read["type"]["code"] == "110101" and "network" not in audit_read["agent"][0]
    window = list(filled.export(since=T0 + timedelta(hours=1), until=T0 + timedelta(hours=3)))
    assert [json.loads(line)["subtype"][0]["code"] for line in window] == ["episode.read", "ask"]


@pytest.mark.parametrize(
    ("subtype", "code"),
    [
        ("ask", "110110"),
        ("patient.erase", "110110"),
        ("audit.verify", "110101"),
        ("apikey.create", "110113"),  # a change of security configuration
        ("auth.whoami", "110114"),  # a sign-in check
        ("retention.run", "110100"),
    ],
)
def test_event_type_by_operation_family(subtype: str, code: str) -> None:
    assert fhir.event_type(subtype) == code and code in fhir.EVENT_TYPES
