"""Verification of the audit chain, streamed in keyset chunks (a million events never sit in memory).

Walking seq 1, 2, 3, … each stored event must:
- have the next sequence number (a gap names the missing seq: a deleted event),
- link to the previous hash (prev_hash), and hash to its stored hash under the audit key
  (an edited, inserted or reordered event breaks one of these),
- carry its own seq inside the hashed JSON (a row moved to another position),
- agree with its index columns and patient-index rows (filters cannot be made to hide it),
- match every signed checkpoint at its seq.
After the last event, a correctly signed checkpoint beyond it means the tail was cut off.

The result: ok, events_checked (events verified before the first problem), first_bad_seq, head
(the hash of the last verified event; 64 zeros for an empty log) and a short reason code.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any, TypedDict

from sqlalchemy import Engine, select
from sqlalchemy.engine import Row
from sqlalchemy.exc import SQLAlchemyError

from jarvis.audit import chain
from jarvis.audit.chain import Checkpoint
from jarvis.audit.query import parse_stored
from jarvis.audit.tables import AuditCheckpointRow, AuditEventPatientRow, AuditEventRow, as_utc
from jarvis.errors import DataIntegrityError, UnavailableError


class VerifyResult(TypedDict):
    ok: bool
    events_checked: int
    first_bad_seq: int | None
    head: str
    reason: str | None


class _Failure(Exception):
    def __init__(self, seq: int, reason: str) -> None:
        super().__init__(reason)
        self.seq, self.reason = seq, reason


class _Walk:
    def __init__(self, key: bytes, checkpoints: list[Checkpoint]) -> None:
        self.key = key
        self.checkpoints = checkpoints
        self.next_checkpoint = 0
        self.seq = 0
        self.head = chain.GENESIS_HEX

    def event(self, row: Row[Any], refs: set[str]) -> None:
        expected = self.seq + 1
        if row.seq != expected:
            raise _Failure(expected, "missing_event") if row.seq > expected else _Failure(row.seq, "bad_seq")
        if not chain.same_hash(row.prev_hash, self.head):
            raise _Failure(row.seq, "broken_link")
        if not chain.same_hash(chain.link(self.key, self.head, row.event.encode()), row.hash):
            raise _Failure(row.seq, "hash_mismatch")
        try:
            event = parse_stored(row.seq, row.event)
        except DataIntegrityError:
            raise _Failure(row.seq, "malformed_event") from None
        if event.seq != row.seq:
            raise _Failure(row.seq, "wrong_position")
        columns = (as_utc(row.recorded_at), row.actor, row.action, row.outcome)
        if columns != (event.recorded_at, event.actor, event.action, event.outcome) or refs != set(
            event.patient_refs
        ):
            raise _Failure(row.seq, "index_mismatch")
        self.seq, self.head = row.seq, row.hash
        self._checkpoints_up_to(row.seq)

    def _checkpoints_up_to(self, seq: int) -> None:
        while self.next_checkpoint < len(self.checkpoints):
            checkpoint = self.checkpoints[self.next_checkpoint]
            if checkpoint.seq > seq:
                return
            if not chain.checkpoint_is_authentic(self.key, checkpoint):
                raise _Failure(checkpoint.seq, "checkpoint_forged")
            if checkpoint.seq != seq or not chain.same_hash(checkpoint.head, self.head):
                raise _Failure(checkpoint.seq, "checkpoint_mismatch")
            self.next_checkpoint += 1

    def end(self) -> None:
        if self.next_checkpoint < len(self.checkpoints):
            checkpoint = self.checkpoints[self.next_checkpoint]
            if not chain.checkpoint_is_authentic(self.key, checkpoint):
                raise _Failure(checkpoint.seq, "checkpoint_forged")
            raise _Failure(self.seq + 1, "truncated")


def _checkpoints(engine: Engine) -> list[Checkpoint]:
    t = AuditCheckpointRow
    with engine.connect() as connection:
        rows = connection.execute(select(t.seq, t.head, t.signed_at, t.signature).order_by(t.seq)).all()
    return [Checkpoint(r.seq, r.head, as_utc(r.signed_at), r.signature) for r in rows]


def _patient_refs(engine: Engine, low: int | None, high: int | None) -> dict[int, set[str]]:
    """Patient-index rows with low < seq <= high (open ends when None)."""
    statement = select(AuditEventPatientRow.seq, AuditEventPatientRow.patient_ref)
    if low is not None:
        statement = statement.where(AuditEventPatientRow.seq > low)
    if high is not None:
        statement = statement.where(AuditEventPatientRow.seq <= high)
    refs: dict[int, set[str]] = defaultdict(set)
    with engine.connect() as connection:
        for seq, ref in connection.execute(statement):
            refs[seq].add(ref)
    return refs


def _walk(engine: Engine, walk: _Walk, chunk_size: int) -> None:
    t = AuditEventRow
    columns = (t.seq, t.recorded_at, t.actor, t.action, t.outcome, t.event, t.prev_hash, t.hash)
    after: int | None = None
    while True:
        statement = select(*columns).order_by(t.seq).limit(chunk_size)
        if after is not None:
            statement = statement.where(t.seq > after)
        with engine.connect() as connection:
            rows = connection.execute(statement).all()
        if not rows:
            break
        refs = _patient_refs(engine, after, rows[-1].seq)
        for row in rows:
            walk.event(row, refs.pop(row.seq, set()))
        if refs:  # index rows pointing at no event
            raise _Failure(min(refs), "index_mismatch")
        after = rows[-1].seq
        if len(rows) < chunk_size:
            break
    stray = _patient_refs(engine, after, None)
    if stray:
        raise _Failure(min(stray), "index_mismatch")
    walk.end()


def verify_chain(engine: Engine, key: bytes, *, chunk_size: int = 2_000) -> VerifyResult:
    """Check the whole chain and its checkpoints; the first problem found is reported."""
    try:
        walk = _Walk(chain.check_key(key), _checkpoints(engine))
        try:
            _walk(engine, walk, chunk_size)
        except _Failure as failure:
            return VerifyResult(
                ok=False,
                events_checked=walk.seq,
                first_bad_seq=failure.seq,
                head=walk.head,
                reason=failure.reason,
            )
    except SQLAlchemyError as exc:
        raise UnavailableError(f"the audit log cannot be read ({type(exc).__name__})") from exc
    return VerifyResult(ok=True, events_checked=walk.seq, first_bad_seq=None, head=walk.head, reason=None)
