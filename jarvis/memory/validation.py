"""Checks on what callers send, before anything is de-identified or stored.

Every failure is an InputError (422) or InputTooLargeError (413) whose message names the field and
the rule, never the value: values may be clinical text.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from jarvis.errors import InputError, InputTooLargeError
from jarvis.memory.types import EpisodeDraft
from jarvis.security.pseudonyms import normalise_mrn

_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.:@\-]{0,127}")
_SESSION = re.compile(r"[A-Za-z0-9][A-Za-z0-9_\-]{0,63}")
MAX_NAME_CHARS = 200
MAX_NOTE_CHARS = 4_000
MAX_TOOLS = 32
MAX_TOOL_CHARS = 64
MAX_MEMORIES_USED = 100
# Clocks of host applications drift; a created_at this far ahead of ours is still "now".
CLOCK_SKEW = timedelta(minutes=5)


@dataclass(frozen=True, slots=True)
class Limits:
    max_query_chars: int = 8_000
    max_response_chars: int = 32_000
    max_batch: int = 500


def doctor_id(value: str) -> str:
    if not isinstance(value, str) or not _ID.fullmatch(value):
        raise InputError("doctor id must be 1-128 letters, digits or _.:@-")
    return value


def session_id(value: str) -> str:
    if not _SESSION.fullmatch(value):
        raise InputError("session_id must be 1-64 letters, digits, _ or -")
    return value


def text(value: str, field: str, max_chars: int, *, required: bool = True) -> str:
    if not isinstance(value, str):
        raise InputError(f"{field} must be a string")
    if len(value) > max_chars:
        raise InputTooLargeError(f"{field} is longer than {max_chars} characters")
    if required and not value.strip():
        raise InputError(f"{field} is empty")
    return value


def utc(value: datetime | None, now: datetime, field: str = "created_at") -> datetime:
    if value is None:
        return now
    aware = value if value.tzinfo else value.replace(tzinfo=UTC)
    if aware > now + CLOCK_SKEW:
        raise InputError(f"{field} is in the future")
    return aware.astimezone(UTC)


def draft(item: EpisodeDraft, limits: Limits, now: datetime) -> EpisodeDraft:
    """The draft with times normalised to UTC; raises on the first unusable field."""
    text(item.query, "query", limits.max_query_chars)
    text(item.response, "response", limits.max_response_chars)
    if item.summary is not None:
        text(item.summary, "summary", limits.max_response_chars)
    if item.patient_id is not None:
        normalise_mrn(item.patient_id)
    if item.patient_name is not None:
        text(item.patient_name, "patient name", MAX_NAME_CHARS)
        if item.patient_id is None:
            raise InputError("a patient name needs a patient id")
    if item.session_id is not None:
        session_id(item.session_id)
    if len(item.tools_used) > MAX_TOOLS or any(
        not isinstance(t, str) or not 0 < len(t) <= MAX_TOOL_CHARS for t in item.tools_used
    ):
        raise InputError(f"tools_used holds at most {MAX_TOOLS} names of 1-{MAX_TOOL_CHARS} characters")
    if item.confidence is not None and not 0.0 <= item.confidence <= 1.0:
        raise InputError("confidence must be between 0 and 1")
    created_at = utc(item.created_at, now)
    return EpisodeDraft(
        query=item.query,
        response=item.response,
        summary=item.summary,
        patient_id=item.patient_id,
        patient_name=item.patient_name,
        session_id=item.session_id,
        tools_used=tuple(item.tools_used),
        confidence=item.confidence,
        created_at=created_at,
        memories_used=tuple(item.memories_used[:MAX_MEMORIES_USED]),
    )


def batch(items: Sequence[EpisodeDraft], limits: Limits, now: datetime) -> list[EpisodeDraft]:
    if not items:
        raise InputError("a batch holds at least one episode")
    if len(items) > limits.max_batch:
        raise InputTooLargeError(f"a batch holds at most {limits.max_batch} episodes")
    checked = []
    for index, item in enumerate(items):
        try:
            checked.append(draft(item, limits, now))
        except InputError as exc:
            # Keep the subclass (413 vs 422) and say which item; still no values in the message.
            raise type(exc)(f"episode {index}: {exc.message}") from None
    return checked
