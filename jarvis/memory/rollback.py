"""Undo what a failed save wrote: at once, or — when a store is down — as soon as one save succeeds.

A save writes its rows `pending`, then the vectors, then marks the rows `committed` (service.py).
When a step fails, the save is undone: vectors first, rows last (a pending row is what lets a later
clean-up find a stray vector, so it must outlive the vector). When the vector index could not be
reached at all, nothing was written there and only the rows go.

When the undo itself fails (the index or the database is still down), the episodes stay `pending`,
invisible to every read, and are remembered here; the next save that succeeds retries them, so a
replica that lives through an outage cleans up after itself without a restart. Rows left by a
process that died are found by `reconcile_unfinished` once they are older than the grace period
(at start-up, and periodically by the scheduler).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Sequence
from datetime import datetime

from jarvis.errors import JarvisError
from jarvis.memory.records.store import DELETING, PENDING, RecordStore
from jarvis.memory.vector_index import VectorIndex

logger = logging.getLogger(__name__)


class Rollback:
    """Thread-safe: saves run concurrently in the API's worker threads."""

    def __init__(self, store: RecordStore, index: VectorIndex) -> None:
        self._store, self._index = store, index
        self._owed: dict[str, set[str]] = {}  # doctor id -> episode ids whose undo has not succeeded yet
        self._lock = threading.Lock()

    def undo(self, doctor_id: str, episode_ids: Sequence[str], *, vectors_written: bool = True) -> bool:
        """Remove a failed save's vectors and rows; False (and retried later) when a store is down."""
        try:
            if vectors_written:
                self._index.delete(doctor_id, episode_ids)
            self._store.delete_rows(episode_ids)
        except JarvisError as exc:
            with self._lock:
                self._owed.setdefault(doctor_id, set()).update(episode_ids)
            logger.warning(
                "could not undo a failed save of %d episodes yet (%s); retried after the next save",
                len(episode_ids),
                exc.code,
            )
            return False
        return True

    def retry(self) -> int:
        """Undo what earlier undos could not (call when the stores have just answered); returns how
        many episodes were removed. Their vectors may exist, so they are always deleted too."""
        with self._lock:
            if not self._owed:
                return 0
            owed, self._owed = self._owed, {}
        done = sum(len(ids) for doctor, ids in owed.items() if self.undo(doctor, sorted(ids)))
        if done:
            logger.info("undid %d episodes of earlier failed saves", done)
        return done

    @property
    def owed(self) -> int:
        with self._lock:
            return sum(len(ids) for ids in self._owed.values())


def reconcile_unfinished(store: RecordStore, index: VectorIndex, before: datetime) -> int:
    """Remove saves that never committed and finish deletes that never completed, if they were left
    before `before` (younger ones may be in flight in another process). Returns how many."""
    stale = store.stale_ids(PENDING, before) + store.stale_ids(DELETING, before)
    by_doctor: dict[str, list[str]] = {}
    for episode_id, doctor_id in stale:
        by_doctor.setdefault(doctor_id, []).append(episode_id)
    for doctor_id, ids in by_doctor.items():
        index.delete(doctor_id, ids)
        store.delete_rows(ids)
    if stale:
        logger.info("reconciled %d unfinished episode writes", len(stale))
    return len(stale)
