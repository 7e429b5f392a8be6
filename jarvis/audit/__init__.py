"""Append-only, hash-chained audit log (DESIGN §4): events, storage, verification, FHIR export.

log = AuditLog(engine, load_secrets(settings).audit)
log.record(action="R", name="episode.read", actor=..., role="clinician", episode_ids=[...])
log.checkpoint()                    # periodically (jobs/)
log.verify()                        # {"ok", "events_checked", "first_bad_seq", "head", "reason"}
log.query(AuditQuery(actor=..., limit=100))  # AuditPage(events, next_cursor)
log.export(since, until)            # NDJSON lines of FHIR R4 AuditEvent
"""

from __future__ import annotations

from jarvis.audit.chain import Checkpoint
from jarvis.audit.events import AuditEvent, canonical
from jarvis.audit.fhir import to_fhir
from jarvis.audit.log import AuditLog
from jarvis.audit.query import MAX_LIMIT, AuditPage, AuditQuery
from jarvis.audit.verify import VerifyResult

__all__ = [
    "MAX_LIMIT",
    "AuditEvent",
    "AuditLog",
    "AuditPage",
    "AuditQuery",
    "Checkpoint",
    "VerifyResult",
    "canonical",
    "to_fhir",
]
