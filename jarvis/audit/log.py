"""The audit log: append (serialised by the database), checkpoint, query, export and verify.

Appends from many threads and processes must form one chain, so each append takes the database's
writer lock before it reads the head and releases it at commit:

- SQLite: `BEGIN IMMEDIATE` takes the single write lock up front (waiting up to busy_timeout),
  so the head read inside the transaction is the latest one. pysqlite's own transaction handling
  would start with a deferred BEGIN only at the INSERT, after the head read, so the connection
  runs in driver autocommit and issues BEGIN IMMEDIATE itself (records.database.immediate_transaction).
- PostgreSQL: `LOCK TABLE audit_events IN EXCLUSIVE MODE` inside the transaction: writers queue,
  readers (ACCESS SHARE) are not blocked.

Writes are fail-closed: any database error becomes UnavailableError, and the caller fails the
operation it was auditing. Concurrent appends of one process share a transaction (group_commit.py). There is deliberately no update or delete method.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import replace
from datetime import datetime

from sqlalchemy import Connection, Engine, insert, select
from sqlalchemy.exc import SQLAlchemyError

from jarvis.audit import chain
from jarvis.audit.chain import Checkpoint
from jarvis.audit.events import (
    EPISODE_ID,
    PATIENT_REF,
    AuditEvent,
    canonical,
    format_time,
    parse_time,
    utcnow,
)
from jarvis.audit.fhir import DEFAULT_OBSERVER, export_lines
from jarvis.audit.group_commit import GroupCommit
from jarvis.audit.query import AuditPage, AuditQuery, query_events
from jarvis.audit.tables import AuditCheckpointRow, AuditEventPatientRow, AuditEventRow, as_utc
from jarvis.audit.verify import VerifyResult, verify_chain
from jarvis.errors import DataIntegrityError, UnavailableError
from jarvis.memory.records.database import immediate_transaction

logger = logging.getLogger(__name__)
_CHECKPOINT = (
    AuditCheckpointRow.seq,
    AuditCheckpointRow.head,
    AuditCheckpointRow.signed_at,
    AuditCheckpointRow.signature,
)


class AuditLog:
    """Append-only, hash-chained audit log in the record store's database."""

    def __init__(self, engine: Engine, key: bytes, *, observer: str = DEFAULT_OBSERVER) -> None:
        self.engine = engine
        self._key = chain.check_key(key)
        self.observer = observer
        self._group = GroupCommit(self.append_many)

    # -- writes ---------------------------------------------------------------------------------
    @contextmanager
    def _writer(self) -> Iterator[Connection]:
        """A transaction holding the database's audit writer lock (see the module docstring)."""
        if self.engine.dialect.name != "sqlite":
            with self.engine.begin() as connection:
                connection.exec_driver_sql("LOCK TABLE audit_events IN EXCLUSIVE MODE")
                yield connection
            return
        with immediate_transaction(self.engine) as connection:
            yield connection

    @staticmethod
    def _head(connection: Connection) -> tuple[int, str]:
        row = connection.execute(
            select(AuditEventRow.seq, AuditEventRow.hash).order_by(AuditEventRow.seq.desc()).limit(1)
        ).first()
        return (0, chain.GENESIS_HEX) if row is None else (int(row.seq), str(row.hash))

    def append_many(self, events: Sequence[AuditEvent]) -> list[AuditEvent]:
        """Append events in one transaction, in order; returns them with their sequence numbers."""
        if not events:
            return []
        try:
            with self._writer() as connection:
                seq, head = self._head(connection)
                appended: list[AuditEvent] = []
                rows: list[dict[str, object]] = []
                patients: list[dict[str, object]] = []
                for event in events:
                    seq += 1
                    stamped = replace(event, seq=seq)
                    body = canonical(stamped)
                    prev, head = head, chain.link(self._key, head, body)
                    rows.append(
                        {
                            "seq": seq,
                            "recorded_at": stamped.recorded_at,
                            "actor": stamped.actor,
                            "action": stamped.action,
                            "outcome": stamped.outcome,
                            "event": body.decode(),
                            "prev_hash": prev,
                            "hash": head,
                        }
                    )
                    patients.extend({"patient_ref": ref, "seq": seq} for ref in stamped.patient_refs)
                    appended.append(stamped)
                connection.execute(insert(AuditEventRow), rows)
                if patients:
                    connection.execute(insert(AuditEventPatientRow), patients)
        except SQLAlchemyError as exc:
            logger.error("audit append failed (%s); the audited operation fails", type(exc).__name__)
            raise UnavailableError(f"the audit log cannot be written ({type(exc).__name__})") from exc
        except ValueError as exc:  # the stored head is not a hash: someone wrote to the table
            logger.error("audit append refused: the stored chain head is malformed")
            raise DataIntegrityError("the audit chain head is malformed; run audit verification") from exc
        return appended

    def append(self, event: AuditEvent) -> AuditEvent:
        """Append one event; events appended at the same moment by other threads share its
        transaction (group_commit.py). Returns once it is committed."""
        return self._group.append(event)

    def record(
        self,
        *,
        action: str,
        name: str,
        actor: str,
        role: str,
        outcome: str = "success",
        source: str | None = None,
        request_id: str | None = None,
        episode_ids: Sequence[str] = (),
        patient_refs: Sequence[str] = (),
        detail: Mapping[str, int | float | str] | None = None,
    ) -> AuditEvent:
        """Append one event from a request's parts (the API's call).

        Episode ids and patient refs that are not well-formed are left out rather than refusing the
        whole event: they come from URLs and bodies and may be text. Their number is recorded in
        detail["rejected_ids"], so the access itself is never lost.
        """
        episodes = [e for e in episode_ids if isinstance(e, str) and EPISODE_ID.fullmatch(e)]
        refs = [r for r in patient_refs if isinstance(r, str) and PATIENT_REF.fullmatch(r)]
        rejected = len(episode_ids) + len(patient_refs) - len(episodes) - len(refs)
        details = dict(detail or {})
        if rejected:
            details["rejected_ids"] = rejected
        event = AuditEvent(
            action=action,
            subtype=name,
            actor=actor,
            role=role,
            outcome=outcome,
            episode_ids=tuple(episodes),
            patient_refs=tuple(refs),
            source_address=source,
            request_id=request_id,
            detail=details,
        )
        return self.append(event)

    def checkpoint(self, now: datetime | None = None) -> Checkpoint | None:
        """Sign the current head (sequence number and hash); None while the log is empty.

        Run periodically (jobs/): a tail cut off after a checkpoint is then detected by verify().
        """
        try:
            with self._writer() as connection:
                seq, head = self._head(connection)
                if seq == 0:
                    return None
                row = connection.execute(select(*_CHECKPOINT).where(AuditCheckpointRow.seq == seq)).first()
                if row is not None:
                    return Checkpoint(row.seq, row.head, as_utc(row.signed_at), row.signature)
                signed_at = parse_time(format_time(now or utcnow()))  # what the signature covers
                signed = chain.sign_checkpoint(self._key, seq, head, signed_at)
                connection.execute(
                    insert(AuditCheckpointRow),
                    {"seq": seq, "head": head, "signed_at": signed.signed_at, "signature": signed.signature},
                )
                return signed
        except SQLAlchemyError as exc:
            raise UnavailableError(f"the audit checkpoint cannot be written ({type(exc).__name__})") from exc

    # -- reads ----------------------------------------------------------------------------------
    def verify(self, chunk_size: int = 2_000) -> VerifyResult:
        return verify_chain(self.engine, self._key, chunk_size=chunk_size)

    def query(self, query: AuditQuery) -> AuditPage:
        return query_events(self.engine, query)

    def export(self, since: datetime | None = None, until: datetime | None = None) -> Iterator[str]:
        """NDJSON lines (with their newline), one FHIR R4 AuditEvent each, oldest first."""
        return export_lines(self.engine, since, until, observer=self.observer)
