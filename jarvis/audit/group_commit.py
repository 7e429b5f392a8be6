"""Group commit: audit events appended at the same time from many threads share one transaction.

Every append must be durable before the audited request answers (fail closed), and appends are
serialised by the database's writer lock, so one transaction (and one fsync) per event caps a busy
API at what the disk can sync. Here the first caller that finds no transaction in progress becomes
the writer: it takes every event waiting at that moment, appends them in order in one transaction,
and wakes their callers. Callers that arrive meanwhile wait and go in the next transaction. Nothing
is acknowledged before its transaction commits; if the transaction fails, every caller in it gets
the error (the chain is unchanged, so each request fails closed as it would alone).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from jarvis.audit.events import AuditEvent
from jarvis.errors import JarvisError, UnavailableError

# Bounds one transaction; more waiting events go in the next one.
MAX_BATCH = 256


@dataclass(eq=False, slots=True)
class _Slot:
    event: AuditEvent
    stored: AuditEvent | None = None
    error: BaseException | None = None
    done: bool = False


class GroupCommit:
    """Thread-safe; `write` appends a batch in one transaction and returns the stored events."""

    def __init__(self, write: Callable[[Sequence[AuditEvent]], list[AuditEvent]]) -> None:
        self._write = write
        self._waiting: list[_Slot] = []
        self._writing = False
        self._changed = threading.Condition()

    def append(self, event: AuditEvent) -> AuditEvent:
        slot = _Slot(event)
        with self._changed:
            self._waiting.append(slot)
        while True:
            with self._changed:
                while not slot.done and self._writing:
                    self._changed.wait()
                if slot.done:
                    return _result(slot)
                # No transaction in progress and this event still waits: write what is waiting.
                self._writing = True
                batch, self._waiting = self._waiting[:MAX_BATCH], self._waiting[MAX_BATCH:]
            self._commit(batch)

    def _commit(self, batch: list[_Slot]) -> None:
        try:
            stored = self._write([s.event for s in batch])
            for s, event in zip(batch, stored, strict=True):
                s.stored = event
        except Exception as exc:  # noqa: BLE001 - given to every caller in the batch, raised by each
            for s in batch:
                s.error = exc
        finally:
            with self._changed:
                for s in batch:
                    s.done = True
                self._writing = False
                self._changed.notify_all()


def _result(slot: _Slot) -> AuditEvent:
    """The stored event, or the batch's error raised as this caller's own: a JarvisError of the
    same class and message, so each request maps it to the same HTTP answer."""
    if isinstance(slot.error, JarvisError):
        raise type(slot.error)(slot.error.message) from slot.error
    if slot.error is not None:
        raise UnavailableError(
            f"the audit log cannot be written ({type(slot.error).__name__})"
        ) from slot.error
    assert slot.stored is not None
    return slot.stored
