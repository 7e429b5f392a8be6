"""Concurrent writers — threads sharing an engine, and processes with their own — produce one valid
chain holding exactly every event: the database serialises appends."""

from __future__ import annotations

import multiprocessing
import threading

from sqlalchemy import Engine

from jarvis.audit import AuditLog, AuditQuery
from jarvis.audit.query import scan_events
from tests.jarvis.audit.factories import event
from tests.jarvis.audit.workers import append_events

THREADS, PROCESSES, PER_WRITER = 8, 3, 50


def _event_ids(engine: Engine) -> list[str]:
    return [e.event_id for e in scan_events(engine, AuditQuery(), chunk_size=100)]


def test_threads_append_one_valid_chain(audit: AuditLog) -> None:
    barrier = threading.Barrier(THREADS)
    errors: list[BaseException] = []

    def write(worker: int) -> None:
        try:
            barrier.wait(timeout=30)
            for i in range(0, PER_WRITER, 5):
                if i % 10:
                    audit.append_many([event(event_id=f"thread-{worker}-{i + j:04d}") for j in range(5)])
                else:
                    for j in range(5):
                        audit.append(event(event_id=f"thread-{worker}-{i + j:04d}"))
        except BaseException as exc:  # noqa: BLE001 - reported by the assertion below
            errors.append(exc)

    threads = [threading.Thread(target=write, args=(w,)) for w in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert errors == []
    result = audit.verify(chunk_size=128)
    assert result["ok"] and result["events_checked"] == THREADS * PER_WRITER
    expected = {f"thread-{w}-{i:04d}" for w in range(THREADS) for i in range(PER_WRITER)}
    ids = _event_ids(audit.engine)
    assert len(ids) == len(expected) and set(ids) == expected


def test_processes_append_one_valid_chain(audit: AuditLog, url: str, key: bytes) -> None:
    context = multiprocessing.get_context("spawn")
    barrier = context.Barrier(PROCESSES)
    processes = [
        context.Process(target=append_events, args=(url, key, w, PER_WRITER, barrier))
        for w in range(PROCESSES)
    ]
    for process in processes:
        process.start()
    for process in processes:
        process.join(timeout=120)
    assert [p.exitcode for p in processes] == [0] * PROCESSES
    result = audit.verify()
    assert result["ok"] and result["events_checked"] == PROCESSES * PER_WRITER
    expected = {f"proc-{w}-{i:04d}" for w in range(PROCESSES) for i in range(PER_WRITER)}
    ids = _event_ids(audit.engine)
    assert len(ids) == len(expected) and set(ids) == expected
