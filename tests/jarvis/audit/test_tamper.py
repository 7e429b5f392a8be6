"""Tampering straight in the database — after dropping the append-only triggers, as an attacker
with database access would — is detected by verification, which names the first bad seq."""

from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import Callable
from datetime import UTC, datetime

import pytest
from sqlalchemy import Connection, Engine, text

from jarvis.audit import AuditLog
from tests.jarvis.audit.factories import event, patient_ref

_TABLES = ("audit_events", "audit_event_patients", "audit_checkpoints")
# Events 2 and 7 touch a patient; the others do not, so rows can be moved without the patient index.
_WITH_PATIENT = {2, 7}


def drop_guards(engine: Engine) -> None:
    with engine.begin() as connection:
        for table in _TABLES:
            if engine.dialect.name == "sqlite":
                connection.execute(text(f"DROP TRIGGER {table}_no_update"))
                connection.execute(text(f"DROP TRIGGER {table}_no_delete"))
            else:
                connection.execute(text(f"DROP TRIGGER {table}_append_only ON {table}"))


@pytest.fixture
def chain(audit: AuditLog) -> AuditLog:
    audit.append_many(
        [event(patient_refs=(patient_ref(),) if i in _WITH_PATIENT else ()) for i in range(1, 11)]
    )
    assert audit.verify()["ok"]
    drop_guards(audit.engine)
    return audit


def _row(c: Connection, seq: int) -> dict[str, object]:
    return dict(c.execute(text("SELECT * FROM audit_events WHERE seq = :s"), {"s": seq}).one()._mapping)


def edit_json(c: Connection) -> None:
    body = json.loads(str(_row(c, 4)["event"]))
    body["outcome"] = "denied"
    c.execute(text("UPDATE audit_events SET event = :e WHERE seq = 4"), {"e": json.dumps(body)})


def edit_hash(c: Connection) -> None:
    c.execute(text("UPDATE audit_events SET hash = :h WHERE seq = 6"), {"h": "ab" * 32})


def delete_row(c: Connection) -> None:
    c.execute(text("DELETE FROM audit_events WHERE seq = 5"))


def delete_row_with_patient(c: Connection) -> None:
    c.execute(text("DELETE FROM audit_event_patients WHERE seq = 7"))
    c.execute(text("DELETE FROM audit_events WHERE seq = 7"))


def swap_contents(c: Connection) -> None:
    a, b = _row(c, 3), _row(c, 4)
    for target, source in ((3, b), (4, a)):
        c.execute(
            text(
                "UPDATE audit_events SET event = :event, prev_hash = :prev_hash, hash = :hash WHERE seq = :t"
            ),
            {**source, "t": target},
        )


def renumber(c: Connection) -> None:
    """Reorder by moving seq numbers: event 9 becomes 8 and 8 becomes 9."""
    c.execute(text("UPDATE audit_events SET seq = -1 WHERE seq = 8"))
    c.execute(text("UPDATE audit_events SET seq = 8 WHERE seq = 9"))
    c.execute(text("UPDATE audit_events SET seq = 9 WHERE seq = -1"))


def forge_row(c: Connection) -> None:
    """Append seq 11 chained to the real head, but signed with a key the attacker made up."""
    head = str(_row(c, 10)["hash"])
    forged = event(actor="intruder").to_dict() | {"seq": 11}
    body = json.dumps(forged, sort_keys=True, separators=(",", ":"))
    digest = hmac.new(b"guess" * 8, bytes.fromhex(head) + body.encode(), hashlib.sha256).hexdigest()
    c.execute(
        text(
            "INSERT INTO audit_events (seq, recorded_at, actor, action, outcome, event, prev_hash, hash)"
            " VALUES (11, :t, 'intruder', 'R', 'success', :e, :p, :h)"
        ),
        {"t": datetime.now(UTC), "e": body, "p": head, "h": digest},
    )


def hide_from_actor_filter(c: Connection) -> None:
    c.execute(text("UPDATE audit_events SET actor = 'someone-else' WHERE seq = 3"))


def hide_from_patient_filter(c: Connection) -> None:
    c.execute(text("DELETE FROM audit_event_patients WHERE seq = 2"))


@pytest.mark.parametrize(
    ("tamper", "first_bad_seq", "reason"),
    [
        (edit_json, 4, "hash_mismatch"),
        (edit_hash, 6, "hash_mismatch"),
        (delete_row, 5, "missing_event"),
        (delete_row_with_patient, 7, "missing_event"),
        (swap_contents, 3, "broken_link"),
        (renumber, 8, "broken_link"),
        (forge_row, 11, "hash_mismatch"),
        (hide_from_actor_filter, 3, "index_mismatch"),
        (hide_from_patient_filter, 2, "index_mismatch"),
    ],
)
def test_tampering_is_detected_at_the_first_bad_seq(
    chain: AuditLog, tamper: Callable[[Connection], None], first_bad_seq: int, reason: str
) -> None:
    with chain.engine.begin() as connection:
        tamper(connection)
    result = chain.verify(chunk_size=3)
    assert (result["ok"], result["first_bad_seq"], result["reason"]) == (False, first_bad_seq, reason)
    assert result["events_checked"] == first_bad_seq - 1
    assert result["head"] == _head_hash(chain.engine, first_bad_seq - 1)


def _head_hash(engine: Engine, seq: int) -> str:
    with engine.connect() as c:
        return str(c.execute(text("SELECT hash FROM audit_events WHERE seq = :s"), {"s": seq}).scalar_one())


def test_a_truncated_tail_is_detected_through_the_last_checkpoint(chain: AuditLog) -> None:
    assert chain.checkpoint() is not None  # signs seq 10
    chain.append_many([event(), event()])  # 11, 12
    with chain.engine.begin() as connection:
        connection.execute(text("DELETE FROM audit_event_patients WHERE seq >= 7"))
        connection.execute(text("DELETE FROM audit_events WHERE seq >= 7"))
    result = chain.verify()
    assert (result["ok"], result["first_bad_seq"], result["reason"]) == (False, 7, "truncated")
    assert result["events_checked"] == 6


def test_a_forged_or_altered_checkpoint_is_detected(chain: AuditLog) -> None:
    checkpoint = chain.checkpoint()
    assert checkpoint is not None and chain.verify()["ok"]
    with chain.engine.begin() as connection:
        connection.execute(text("UPDATE audit_checkpoints SET head = :h"), {"h": "00" * 32})
    result = chain.verify()
    assert (result["ok"], result["first_bad_seq"], result["reason"]) == (False, 10, "checkpoint_forged")


def test_a_checkpoint_beyond_the_head_without_the_key_is_a_forgery(chain: AuditLog) -> None:
    with chain.engine.begin() as connection:
        connection.execute(
            text("INSERT INTO audit_checkpoints (seq, head, signed_at, signature) VALUES (50, :h, :t, :s)"),
            {"h": "11" * 32, "t": datetime.now(UTC), "s": "22" * 32},
        )
    result = chain.verify()
    assert (result["ok"], result["first_bad_seq"], result["reason"]) == (False, 50, "checkpoint_forged")


def test_appending_after_a_malformed_head_fails_closed(chain: AuditLog) -> None:
    from jarvis.errors import DataIntegrityError

    with chain.engine.begin() as connection:
        connection.execute(text("UPDATE audit_events SET hash = 'not hex' WHERE seq = 10"))
    with pytest.raises(DataIntegrityError, match="run audit verification"):
        chain.append(event())
    assert chain.verify()["first_bad_seq"] == 10
