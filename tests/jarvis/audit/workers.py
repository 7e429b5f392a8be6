"""Audit writers run in separate processes (multiprocessing, spawn) by test_concurrency."""

from __future__ import annotations

from typing import Any

from jarvis.audit import AuditLog
from jarvis.memory.records.database import make_engine
from tests.jarvis.audit.factories import event


def append_events(url: str, key: bytes, worker: int, count: int, barrier: Any) -> None:
    engine = make_engine(url)
    audit = AuditLog(engine, key)
    barrier.wait(timeout=60)
    for i in range(count):
        audit.append(event(actor=f"proc-{worker}", event_id=f"proc-{worker}-{i:04d}"))
    engine.dispose()
