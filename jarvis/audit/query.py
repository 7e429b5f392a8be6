"""Reading the audit log: filters, keyset pagination on seq (oldest first), and chunked scans.

A cursor is base64url("a1:<last seq returned>"): opaque to clients, validated on the way back in
(a malformed cursor is a 422, never a database error). It is a position, not a secret — the
auditor may read every event anyway.
"""

from __future__ import annotations

import base64
import binascii
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Engine, Select, select
from sqlalchemy.exc import SQLAlchemyError

from jarvis.audit.events import ACTIONS, ACTOR_ID, OUTCOMES, PATIENT_REF, AuditEvent
from jarvis.audit.tables import AuditEventPatientRow, AuditEventRow
from jarvis.errors import DataIntegrityError, InputError, UnavailableError

MAX_LIMIT = 500
DEFAULT_LIMIT = 100
_CURSOR = re.compile(r"a1:([0-9]{1,18})")


def encode_cursor(seq: int) -> str:
    return base64.urlsafe_b64encode(f"a1:{seq}".encode()).decode().rstrip("=")


def decode_cursor(cursor: str) -> int:
    try:
        text = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)).decode("ascii")
    except (binascii.Error, UnicodeDecodeError, ValueError):
        raise InputError("cursor is not valid") from None
    match = _CURSOR.fullmatch(text)
    if match is None:
        raise InputError("cursor is not valid")
    return int(match.group(1))


def _utc(value: datetime | None, what: str) -> datetime | None:
    if value is None:
        return None
    if not isinstance(value, datetime):
        raise InputError(f"{what} must be a date-time")
    return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


@dataclass(frozen=True, slots=True)
class AuditQuery:
    """Filters of GET /v1/audit/events; naive times are taken as UTC."""

    since: datetime | None = None
    until: datetime | None = None
    actor: str | None = None
    patient_ref: str | None = None
    action: str | None = None
    outcome: str | None = None
    limit: int = DEFAULT_LIMIT
    cursor: str | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "since", _utc(self.since, "since"))
        object.__setattr__(self, "until", _utc(self.until, "until"))
        if self.actor is not None and not ACTOR_ID.fullmatch(self.actor):
            raise InputError("actor must be 1-128 letters, digits or _.:@-")
        if self.patient_ref is not None and not PATIENT_REF.fullmatch(self.patient_ref):
            raise InputError("patient_ref is not a patient pseudonym")
        if self.action is not None and self.action not in ACTIONS:
            raise InputError("action must be one of C, R, U, D, E")
        if self.outcome is not None and self.outcome not in OUTCOMES:
            raise InputError(f"outcome must be one of {', '.join(sorted(OUTCOMES))}")
        if (
            isinstance(self.limit, bool)
            or not isinstance(self.limit, int)
            or not 1 <= self.limit <= MAX_LIMIT
        ):
            raise InputError(f"limit must be 1-{MAX_LIMIT}")
        if self.cursor is not None:
            decode_cursor(self.cursor)


@dataclass(frozen=True, slots=True)
class AuditPage:
    events: list[AuditEvent]
    next_cursor: str | None


def _filtered(query: AuditQuery) -> Select[Any]:
    statement = select(AuditEventRow.seq, AuditEventRow.event)
    if query.patient_ref is not None:
        statement = statement.join(AuditEventPatientRow, AuditEventPatientRow.seq == AuditEventRow.seq).where(
            AuditEventPatientRow.patient_ref == query.patient_ref
        )
    if query.since is not None:
        statement = statement.where(AuditEventRow.recorded_at >= query.since)
    if query.until is not None:
        statement = statement.where(AuditEventRow.recorded_at < query.until)
    if query.actor is not None:
        statement = statement.where(AuditEventRow.actor == query.actor)
    if query.action is not None:
        statement = statement.where(AuditEventRow.action == query.action)
    if query.outcome is not None:
        statement = statement.where(AuditEventRow.outcome == query.outcome)
    return statement


def parse_stored(seq: int, body: str) -> AuditEvent:
    try:
        return AuditEvent.from_dict(json.loads(body))
    except (InputError, ValueError):
        raise DataIntegrityError(f"audit event {seq} is malformed; run audit verification") from None


def query_events(engine: Engine, query: AuditQuery) -> AuditPage:
    """One page of events matching the filters, oldest first; next_cursor is None on the last page."""
    statement = _filtered(query)
    if query.cursor is not None:
        statement = statement.where(AuditEventRow.seq > decode_cursor(query.cursor))
    statement = statement.order_by(AuditEventRow.seq).limit(query.limit + 1)
    try:
        with engine.connect() as connection:
            rows = connection.execute(statement).all()
    except SQLAlchemyError as exc:
        raise UnavailableError(f"the audit log cannot be read ({type(exc).__name__})") from exc
    page = rows[: query.limit]
    events = [parse_stored(row.seq, row.event) for row in page]
    more = len(rows) > query.limit
    return AuditPage(events, encode_cursor(page[-1].seq) if more else None)


def scan_events(engine: Engine, query: AuditQuery, chunk_size: int = 1_000) -> Iterator[AuditEvent]:
    """Every matching event, oldest first, read in keyset chunks (one short read each)."""
    after: int | None = None
    while True:
        statement = _filtered(query)
        if after is not None:
            statement = statement.where(AuditEventRow.seq > after)
        try:
            with engine.connect() as connection:
                rows = connection.execute(statement.order_by(AuditEventRow.seq).limit(chunk_size)).all()
        except SQLAlchemyError as exc:
            raise UnavailableError(f"the audit log cannot be read ({type(exc).__name__})") from exc
        for row in rows:
            yield parse_stored(row.seq, row.event)
        if len(rows) < chunk_size:
            return
        after = rows[-1].seq
