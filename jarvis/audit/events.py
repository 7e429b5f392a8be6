"""The audit event: who did what to which episodes and patients, when, with what outcome.

An event holds opaque ids, pseudonyms, short codes and counts — never text or names. Every field
is checked against a narrow pattern when the event is built, so free text (it has spaces, it is
long, it is not shaped like our ids) is refused with an InputError before it can reach the log.
Error messages name the field, never the value.

The canonical form is what the hash chain covers: JSON with sorted keys, no whitespace, UTF-8,
including the sequence number the store assigned, so that an event cannot be moved in the chain.
"""

from __future__ import annotations

import ipaddress
import json
import math
import re
import secrets
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from types import MappingProxyType
from typing import Any

from jarvis.errors import InputError

FORMAT_VERSION = 1
ACTIONS = frozenset({"C", "R", "U", "D", "E"})  # FHIR AuditEvent.action: create/read/update/delete/execute
ROLES = frozenset({"clinician", "admin", "auditor", "cli", "system", "none"})  # none: unauthenticated
OUTCOMES = frozenset({"success", "denied", "not_found", "invalid", "error"})
MAX_IDS = 1_000
MAX_DETAIL = 16

# Same alphabet as doctor ids (jarvis.memory.validation): no spaces, so no sentences.
ACTOR_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.:@\-]{0,127}")
# Generated ids: a short lower-case prefix and a random URL-safe token ("ep_…", "fact_…").
EPISODE_ID = re.compile(r"[a-z]{1,8}_[A-Za-z0-9_\-]{16,64}")
# Pseudonyms from jarvis.security.pseudonyms: "p<key version>_" + base64url(HMAC-SHA256).
PATIENT_REF = re.compile(r"p[0-9]{1,4}_[A-Za-z0-9_\-]{43}")
EVENT_ID = re.compile(r"[A-Za-z0-9\-.]{8,64}")  # also a valid FHIR resource id
REQUEST_ID = re.compile(r"[A-Za-z0-9_\-.:]{1,64}")
SUBTYPE = re.compile(r"[a-z][a-z0-9_]{0,31}(\.[a-z][a-z0-9_]{0,31}){0,3}")
HOST_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9.\-]{0,62}")
DETAIL_KEY = re.compile(r"[a-z][a-z0-9_]{0,31}")
DETAIL_CODE = re.compile(r"[a-z0-9_.\-]{1,32}")
_TIME_FORMAT = "%Y-%m-%dT%H:%M:%S.%fZ"


def new_event_id() -> str:
    return secrets.token_hex(16)


def utcnow() -> datetime:
    return datetime.now(UTC)


def format_time(value: datetime) -> str:
    return value.astimezone(UTC).strftime(_TIME_FORMAT)


def parse_time(value: str) -> datetime:
    return datetime.strptime(value, _TIME_FORMAT).replace(tzinfo=UTC)


def _check(pattern: re.Pattern[str], value: object, what: str) -> str:
    if not isinstance(value, str) or not pattern.fullmatch(value):
        raise InputError(f"audit event: {what} is not a well-formed id or code")
    return value


def _ids(values: Iterable[str], pattern: re.Pattern[str], what: str) -> tuple[str, ...]:
    if isinstance(values, str):
        raise InputError(f"audit event: {what} must be a list")
    unique = tuple(dict.fromkeys(_check(pattern, v, what) for v in values))
    if len(unique) > MAX_IDS:
        raise InputError(f"audit event: more than {MAX_IDS} {what}; record counts in detail instead")
    return unique


def _address(value: str | None) -> str | None:
    if value is None:
        return None
    try:
        return str(ipaddress.ip_address(value))
    except ValueError:
        return _check(HOST_NAME, value, "source address")


def _detail(values: Mapping[str, object]) -> Mapping[str, int | float | str]:
    if not isinstance(values, Mapping) or len(values) > MAX_DETAIL:
        raise InputError(f"audit event: detail must be a mapping of at most {MAX_DETAIL} counts")
    checked: dict[str, int | float | str] = {}
    for key in sorted(values):
        value = values[key]
        _check(DETAIL_KEY, key, "detail key")
        if isinstance(value, bool) or not isinstance(value, int | float | str):
            raise InputError("audit event: detail values are numbers or short codes")
        if isinstance(value, float) and not math.isfinite(value):
            raise InputError("audit event: detail numbers must be finite")
        checked[key] = _check(DETAIL_CODE, value, "detail value") if isinstance(value, str) else value
    return MappingProxyType(checked)


@dataclass(frozen=True, slots=True)
class AuditEvent:
    """One audited access. `seq` is None until the log has appended the event."""

    action: str
    subtype: str
    actor: str
    role: str
    outcome: str = "success"
    episode_ids: tuple[str, ...] = ()
    patient_refs: tuple[str, ...] = ()
    source_address: str | None = None
    request_id: str | None = None
    detail: Mapping[str, int | float | str] = field(default_factory=dict)
    event_id: str = field(default_factory=new_event_id)
    recorded_at: datetime = field(default_factory=utcnow)
    seq: int | None = None

    def __post_init__(self) -> None:
        if self.action not in ACTIONS:
            raise InputError("audit event: action must be one of C, R, U, D, E")
        if self.role not in ROLES:
            raise InputError(f"audit event: role must be one of {', '.join(sorted(ROLES))}")
        if self.outcome not in OUTCOMES:
            raise InputError(f"audit event: outcome must be one of {', '.join(sorted(OUTCOMES))}")
        _check(SUBTYPE, self.subtype, "subtype")
        _check(ACTOR_ID, self.actor, "actor")
        _check(EVENT_ID, self.event_id, "event id")
        if self.request_id is not None:
            _check(REQUEST_ID, self.request_id, "request id")
        if not isinstance(self.recorded_at, datetime) or self.recorded_at.tzinfo is None:
            raise InputError("audit event: recorded_at must be a timezone-aware datetime")
        if self.seq is not None and (not isinstance(self.seq, int) or self.seq < 1):
            raise InputError("audit event: seq is a positive integer")
        setattr_ = object.__setattr__  # frozen: normalise once, here
        setattr_(self, "episode_ids", _ids(self.episode_ids, EPISODE_ID, "episode ids"))
        setattr_(self, "patient_refs", _ids(self.patient_refs, PATIENT_REF, "patient refs"))
        setattr_(self, "source_address", _address(self.source_address))
        setattr_(self, "detail", _detail(self.detail))
        # The canonical form keeps microseconds in UTC; drop anything finer so a round trip is exact.
        setattr_(self, "recorded_at", parse_time(format_time(self.recorded_at)))

    def to_dict(self) -> dict[str, Any]:
        return {
            "v": FORMAT_VERSION,
            "seq": self.seq,
            "event_id": self.event_id,
            "recorded_at": format_time(self.recorded_at),
            "action": self.action,
            "subtype": self.subtype,
            "actor": self.actor,
            "role": self.role,
            "outcome": self.outcome,
            "source_address": self.source_address,
            "request_id": self.request_id,
            "episode_ids": list(self.episode_ids),
            "patient_refs": list(self.patient_refs),
            "detail": dict(self.detail),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> AuditEvent:
        """The event back from its stored form; anything malformed is an InputError."""
        if not isinstance(data, Mapping) or data.get("v") != FORMAT_VERSION:
            raise InputError("audit event: unknown format")
        fields = dict(data)
        fields.pop("v")
        try:
            fields["recorded_at"] = parse_time(fields["recorded_at"])
            return cls(**fields)
        except (TypeError, ValueError, KeyError):
            raise InputError("audit event: malformed stored event") from None


def canonical(event: AuditEvent) -> bytes:
    """The bytes the hash chain covers: sorted keys, no whitespace, UTF-8; seq must be assigned."""
    if event.seq is None:
        raise InputError("audit event: canonical form needs the sequence number")
    return json.dumps(event.to_dict(), sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()
