"""Well-formed audit events and ids for the tests."""

from __future__ import annotations

import secrets
from typing import Any

from jarvis.audit import AuditEvent


def episode_id() -> str:
    return f"ep_{secrets.token_urlsafe(18)}"


def patient_ref() -> str:
    return f"p1_{secrets.token_urlsafe(32)[:43]}"


def event(**overrides: Any) -> AuditEvent:
    fields: dict[str, Any] = {
        "action": "R",
        "subtype": "episode.read",
        "actor": "dr-a",
        "role": "clinician",
        "outcome": "success",
        "source_address": "127.0.0.1",
        "request_id": secrets.token_hex(8),
    }
    fields.update(overrides)
    return AuditEvent(**fields)
