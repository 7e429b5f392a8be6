"""Group commit: concurrent appends share transactions, each caller gets its own stored event back
only after its transaction committed, and a failed transaction fails every caller in it."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import replace

import pytest

from jarvis.audit import AuditEvent, AuditLog
from jarvis.audit.group_commit import MAX_BATCH, GroupCommit
from jarvis.errors import UnavailableError
from tests.jarvis.audit.factories import event

CALLERS = 24


class Recorder:
    """A `write` that holds its first transaction open until every caller has arrived, so the others
    pile up behind it; `fail` makes the next transaction fail."""

    def __init__(self, waiting_for: int) -> None:
        self.batches: list[list[str]] = []
        self.arrived = threading.Semaphore(0)
        self.waiting_for = waiting_for
        self.fail = False
        self._seq = 0

    def write(self, events: Sequence[AuditEvent]) -> list[AuditEvent]:
        if not self.batches:
            for _ in range(self.waiting_for):
                assert self.arrived.acquire(timeout=30)
        self.batches.append([e.event_id for e in events])
        if self.fail:
            raise UnavailableError("the audit log cannot be written (OperationalError)")
        stored = []
        for e in events:
            self._seq += 1
            stored.append(replace(e, seq=self._seq))
        return stored


def run_callers(group: GroupCommit, recorder: Recorder, n: int) -> tuple[dict[str, object], list[str]]:
    results: dict[str, object] = {}
    names = [f"caller-{i:03d}" for i in range(n)]

    def call(name: str) -> None:
        recorder.arrived.release()
        try:
            results[name] = group.append(event(event_id=name))
        except UnavailableError as exc:
            results[name] = exc

    threads = [threading.Thread(target=call, args=(name,)) for name in names]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return results, names


def test_callers_that_arrive_together_share_a_transaction() -> None:
    recorder = Recorder(waiting_for=CALLERS)
    group = GroupCommit(recorder.write)
    results, names = run_callers(group, recorder, CALLERS)

    written = [name for batch in recorder.batches for name in batch]
    assert sorted(written) == names  # every event exactly once
    assert len(recorder.batches) < CALLERS  # fewer transactions than events
    assert max(len(b) for b in recorder.batches) > 1
    for name in names:  # each caller got its own event, stamped
        stored = results[name]
        assert isinstance(stored, AuditEvent) and stored.event_id == name and stored.seq is not None
    assert sorted(r.seq for r in results.values() if isinstance(r, AuditEvent)) == list(range(1, CALLERS + 1))


def test_a_failed_transaction_fails_every_caller_in_it_and_the_next_one_works() -> None:
    recorder = Recorder(waiting_for=CALLERS)
    recorder.fail = True
    group = GroupCommit(recorder.write)
    results, _ = run_callers(group, recorder, CALLERS)
    assert all(isinstance(r, UnavailableError) for r in results.values())
    assert [isinstance(r, UnavailableError) for r in results.values()].count(True) == CALLERS

    recorder.fail = False
    stored = group.append(event(event_id="after-the-failure"))
    assert stored.event_id == "after-the-failure" and stored.seq == 1


def test_a_transaction_holds_at_most_max_batch_events() -> None:
    recorder = Recorder(waiting_for=MAX_BATCH + 10)
    group = GroupCommit(recorder.write)
    results, names = run_callers(group, recorder, MAX_BATCH + 10)
    assert max(len(b) for b in recorder.batches) <= MAX_BATCH
    assert sorted(n for b in recorder.batches for n in b) == names
    assert all(isinstance(r, AuditEvent) for r in results.values())


def test_concurrent_appends_on_the_database_form_one_chain_in_fewer_transactions(
    audit: AuditLog, monkeypatch: pytest.MonkeyPatch
) -> None:
    transactions: list[int] = []
    append_many = audit.append_many

    def counted(events: Sequence[AuditEvent]) -> list[AuditEvent]:
        transactions.append(len(events))
        return append_many(events)

    monkeypatch.setattr(audit, "_group", GroupCommit(counted))
    barrier = threading.Barrier(16)

    def write(worker: int) -> None:
        barrier.wait(timeout=30)
        for i in range(20):
            audit.append(event(event_id=f"writer-{worker:02d}-{i:03d}"))

    threads = [threading.Thread(target=write, args=(w,)) for w in range(16)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    result = audit.verify()
    assert result["ok"] and result["events_checked"] == 16 * 20
    assert sum(transactions) == 16 * 20
    assert len(transactions) < 16 * 20  # callers arriving during a commit went in together
