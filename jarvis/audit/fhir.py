"""Audit events as FHIR R4 AuditEvent resources (http://hl7.org/fhir/R4/auditevent.html).

Mapping:
- type: DICOM (DCM) audit event ids by the operation's family — 110110 Patient Record for any
  access to clinical memory (ask, memory.*, episode.*, patient.*, fact.*), 110101 Audit Log Used
  (audit.*), 110113 Security Alert (apikey.*: security configuration changes), 110114 User
  Authentication (auth.*: sign-in checks), 110100 Application Activity otherwise
  (retention.*, jobs).
- subtype: our operation name (e.g. "episode.read") in the code system urn:jarvis:audit-subtype.
- action: C/R/U/D/E as recorded.
- outcome: success → 0; denied, not_found, invalid → 4 (minor failure: the request was refused,
  as an HTTP 4xx); error → 8 (serious failure, as an HTTP 5xx). 12 (major failure: the system
  became unavailable) is not produced by the service. outcomeDesc carries our own code.
- agent: the requestor (requestor = true), who = identifier of the actor (urn:jarvis:actor),
  type = DCM 110153 Source Role ID, role = our role (urn:jarvis:audit-role), network = the source
  address, type 2 (IP address) or 1 (machine name).
- source: observer = this service; type = security-source-type 4 (Application Server).
- entity: each patient_ref (entity type 1 Person, role 1 Patient, identifier system
  urn:jarvis:patient-ref) and each episode id (type 2 System Object, role 4 Domain Resource).
Counts in `detail` are not exported: R4 has no neutral place for them on the event itself.
"""

from __future__ import annotations

import ipaddress
import json
from collections.abc import Iterator
from datetime import datetime
from typing import Any

from sqlalchemy import Engine

from jarvis.audit.events import AuditEvent
from jarvis.audit.query import AuditQuery, scan_events

DEFAULT_OBSERVER = "jarvis-memory"
DCM = "http://dicom.nema.org/resources/ontology/DCM"
SUBTYPE_SYSTEM = "urn:jarvis:audit-subtype"
ROLE_SYSTEM = "urn:jarvis:audit-role"
ACTOR_SYSTEM = "urn:jarvis:actor"
PATIENT_REF_SYSTEM = "urn:jarvis:patient-ref"
EPISODE_SYSTEM = "urn:jarvis:episode"
SOURCE_TYPE_SYSTEM = "http://terminology.hl7.org/CodeSystem/security-source-type"
ENTITY_TYPE_SYSTEM = "http://terminology.hl7.org/CodeSystem/audit-entity-type"
OBJECT_ROLE_SYSTEM = "http://terminology.hl7.org/CodeSystem/object-role"

OUTCOME_CODES = {"success": "0", "denied": "4", "not_found": "4", "invalid": "4", "error": "8"}
EVENT_TYPES = {
    "110110": "Patient Record",
    "110101": "Audit Log Used",
    "110113": "Security Alert",
    "110114": "User Authentication",
    "110100": "Application Activity",
}
_FAMILIES = {
    "ask": "110110",
    "memory": "110110",
    "episode": "110110",
    "patient": "110110",
    "fact": "110110",
    "audit": "110101",
    "apikey": "110113",
    "auth": "110114",
}


def event_type(subtype: str) -> str:
    return _FAMILIES.get(subtype.split(".", 1)[0], "110100")


def _coding(system: str, code: str, display: str | None = None) -> dict[str, str]:
    coding = {"system": system, "code": code}
    if display:
        coding["display"] = display
    return coding


def _network(address: str) -> dict[str, str]:
    try:
        ipaddress.ip_address(address)
    except ValueError:
        return {"address": address, "type": "1"}  # machine name
    return {"address": address, "type": "2"}  # IP address


def to_fhir(event: AuditEvent, observer: str = DEFAULT_OBSERVER) -> dict[str, Any]:
    code = event_type(event.subtype)
    agent: dict[str, Any] = {
        "type": {"coding": [_coding(DCM, "110153", "Source Role ID")]},
        "role": [{"coding": [_coding(ROLE_SYSTEM, event.role)]}],
        "who": {"identifier": {"system": ACTOR_SYSTEM, "value": event.actor}},
        "requestor": True,
    }
    if event.source_address:
        agent["network"] = _network(event.source_address)
    entities = [
        {
            "what": {"identifier": {"system": PATIENT_REF_SYSTEM, "value": ref}},
            "type": _coding(ENTITY_TYPE_SYSTEM, "1", "Person"),
            "role": _coding(OBJECT_ROLE_SYSTEM, "1", "Patient"),
        }
        for ref in event.patient_refs
    ] + [
        {
            "what": {"identifier": {"system": EPISODE_SYSTEM, "value": episode_id}},
            "type": _coding(ENTITY_TYPE_SYSTEM, "2", "System Object"),
            "role": _coding(OBJECT_ROLE_SYSTEM, "4", "Domain Resource"),
        }
        for episode_id in event.episode_ids
    ]
    resource: dict[str, Any] = {
        "resourceType": "AuditEvent",
        "id": event.event_id,
        "type": _coding(DCM, code, EVENT_TYPES[code]),
        "subtype": [_coding(SUBTYPE_SYSTEM, event.subtype)],
        "action": event.action,
        "recorded": event.recorded_at.isoformat(timespec="microseconds").replace("+00:00", "Z"),
        "outcome": OUTCOME_CODES[event.outcome],
        "outcomeDesc": event.outcome,
        "agent": [agent],
        "source": {
            "observer": {"identifier": {"system": ACTOR_SYSTEM, "value": observer}, "display": observer},
            "type": [_coding(SOURCE_TYPE_SYSTEM, "4", "Application Server")],
        },
    }
    if event.seq is not None:
        resource["meta"] = {"tag": [_coding("urn:jarvis:audit-seq", str(event.seq))]}
    if entities:
        resource["entity"] = entities
    return resource


def export_lines(
    engine: Engine, since: datetime | None, until: datetime | None, *, observer: str = DEFAULT_OBSERVER
) -> Iterator[str]:
    """NDJSON of the events recorded in [since, until), oldest first, streamed in chunks."""
    query = AuditQuery(since=since, until=until)
    for event in scan_events(engine, query):
        yield json.dumps(to_fhir(event, observer), separators=(",", ":"), sort_keys=True) + "\n"
