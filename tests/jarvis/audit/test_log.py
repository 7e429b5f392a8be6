"""Appending and verifying; the database refuses to rewrite history; writes fail closed."""

from __future__ import annotations

import hashlib
import hmac
from pathlib import Path

import pytest
from sqlalchemy import Engine, create_engine, text
from sqlalchemy.exc import DBAPIError

from jarvis.audit import AuditLog, canonical
from jarvis.audit.chain import GENESIS_HEX
from jarvis.audit.commands import verify_command
from jarvis.config import Settings
from jarvis.errors import UnavailableError
from tests.jarvis.audit.factories import episode_id, event, patient_ref


def test_appended_events_form_a_valid_chain(audit: AuditLog, key: bytes) -> None:
    assert audit.verify() == {
        "ok": True,
        "events_checked": 0,
        "first_bad_seq": None,
        "head": GENESIS_HEX,
        "reason": None,
    }
    first = audit.append(event(episode_ids=(episode_id(),), patient_refs=(patient_ref(),)))
    batch = audit.append_many([event(action="C", subtype="ask"), event(outcome="denied")])
    assert [first.seq] + [e.seq for e in batch] == [1, 2, 3]

    # h_1 = HMAC(key, h_0 || canonical(event_1)), h_0 = 32 zero bytes
    with audit.engine.connect() as connection:
        stored = connection.execute(
            text("SELECT event, prev_hash, hash FROM audit_events WHERE seq = 1")
        ).one()
    assert stored.event.encode() == canonical(first)
    assert stored.prev_hash == GENESIS_HEX
    assert stored.hash == hmac.new(key, bytes(32) + canonical(first), hashlib.sha256).hexdigest()

    result = audit.verify(chunk_size=2)  # several chunks
    assert result["ok"] and result["events_checked"] == 3 and result["first_bad_seq"] is None
    assert audit.checkpoint() is not None
    assert audit.verify()["ok"]


def test_a_different_key_fails_verification(audit: AuditLog, engine: Engine) -> None:
    audit.append(event())
    result = AuditLog(engine, b"k" * 32).verify()
    assert (result["ok"], result["first_bad_seq"], result["reason"]) == (False, 1, "hash_mismatch")


REFUSED = [
    "UPDATE audit_events SET actor = 'someone-else' WHERE seq = 1",
    "DELETE FROM audit_events WHERE seq = 2",
    "DELETE FROM audit_events",
    "UPDATE audit_event_patients SET patient_ref = 'x'",
    "DELETE FROM audit_event_patients",
    "UPDATE audit_checkpoints SET head = 'x'",
    "DELETE FROM audit_checkpoints",
]


def test_the_database_refuses_updates_and_deletes(audit: AuditLog, engine: Engine) -> None:
    audit.append_many([event(patient_refs=(patient_ref(),)), event()])
    audit.checkpoint()
    for statement in REFUSED:
        with pytest.raises(DBAPIError, match="append-only"), engine.begin() as connection:
            connection.execute(text(statement))
    assert audit.verify()["ok"]
    with engine.connect() as connection:
        counts = [connection.execute(text(f"SELECT count(*) FROM {t}")).scalar_one() for t in _AUDIT_TABLES]
    assert counts == [2, 1, 1]


_AUDIT_TABLES = ("audit_events", "audit_event_patients", "audit_checkpoints")


def test_postgres_refuses_truncate(postgres_url: str, key: bytes) -> None:
    from tests.jarvis.audit.conftest import migrated

    engine = migrated(postgres_url)
    AuditLog(engine, key).append(event())
    with pytest.raises(DBAPIError, match="append-only"), engine.begin() as connection:
        connection.execute(text("TRUNCATE audit_checkpoints, audit_event_patients, audit_events"))
    engine.dispose()


def test_a_failed_audit_write_raises_unavailable(tmp_path: Path, key: bytes) -> None:
    unmigrated = create_engine(f"sqlite:///{tmp_path / 'empty.sqlite3'}")
    with pytest.raises(UnavailableError, match="audit log cannot be written"):
        AuditLog(unmigrated, key).append(event())
    unmigrated.dispose()


def test_a_lock_held_elsewhere_fails_closed_after_the_busy_timeout(sqlite_audit: AuditLog) -> None:
    from sqlalchemy import event as sa_event

    engine = sqlite_audit.engine
    sa_event.listen(engine, "connect", lambda c, _r: c.execute("PRAGMA busy_timeout=50"))
    engine.dispose()  # new connections get the short timeout
    holder = engine.raw_connection()
    holder.execute("BEGIN IMMEDIATE")
    try:
        with pytest.raises(UnavailableError):
            sqlite_audit.append(event())
    finally:
        holder.rollback()
        holder.close()
    assert sqlite_audit.append(event()).seq == 1


def test_verify_command_reads_the_configured_database_and_audits_itself(tmp_path: Path) -> None:
    settings = Settings(_env_file=None, data_dir=tmp_path)  # type: ignore[call-arg]
    first = verify_command(settings)
    assert first["ok"] and first["events_checked"] == 0
    second = verify_command(settings)
    assert second["ok"] and second["events_checked"] == 1  # the first verification's own event
