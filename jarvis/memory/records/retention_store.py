"""Retention's view of the record store: policy, legal holds, expired rows, erasure and clean-up.

Candidates are only `committed` episodes; they are marked `deleting` (invisible to every read)
before their vectors and rows go, so a crash in between leaves rows that the next run finishes.
Held patients are matched by patient_ref, which holds one row per pseudonym key version.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import (
    ColumnElement,
    Connection,
    Engine,
    and_,
    bindparam,
    delete,
    false,
    func,
    or_,
    select,
    text,
    update,
)
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import Session

from jarvis.errors import UnavailableError
from jarvis.memory.records.database import immediate_transaction
from jarvis.memory.records.retention_tables import DEFAULT_POLICY, LegalHoldRow, RetentionPolicyRow
from jarvis.memory.records.store import COMMITTED, DELETING, RecordStore
from jarvis.memory.records.tables import EpisodeRow, PatientFactRow, SummaryRow

# Deletes go in batches of this many episodes.
BATCH = 2_000
# A purge of at least this share of the full-text index rebuilds it instead (delete_episodes).
REBUILD_SHARE = 0.2


@dataclass(frozen=True, slots=True)
class Policy:
    default_days: int
    per_doctor: Mapping[str, int] = field(default_factory=dict)

    def cutoffs(self, now: datetime) -> tuple[datetime, dict[str, datetime]]:
        return now - timedelta(days=self.default_days), {
            d: now - timedelta(days=days) for d, days in self.per_doctor.items()
        }


def _expired(column: Any, doctor: Any, policy: Policy, now: datetime) -> ColumnElement[bool]:
    """Older than the doctor's cutoff: the default for everyone without an override."""
    default, overrides = policy.cutoffs(now)
    clauses = [and_(doctor.not_in(list(overrides)), column < default)] if overrides else [column < default]
    clauses += [and_(doctor == d, column < cutoff) for d, cutoff in overrides.items()]
    return or_(*clauses)


class RetentionStore:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    # -- policy ---------------------------------------------------------------------------------
    def policy(self, default_days: int) -> Policy:
        """The stored policy; `default_days` (settings) until an admin has set one."""
        with Session(self.engine) as session:
            rows = {r.doctor_id: r.days for r in session.scalars(select(RetentionPolicyRow))}
        default = rows.pop(DEFAULT_POLICY, default_days)
        return Policy(default, rows)

    def set_policy(self, policy: Policy, at: datetime) -> None:
        with Session(self.engine) as session, session.begin():
            session.execute(delete(RetentionPolicyRow))
            rows = {DEFAULT_POLICY: policy.default_days, **policy.per_doctor}
            session.add_all(RetentionPolicyRow(doctor_id=d, days=n, updated_at=at) for d, n in rows.items())

    # -- legal holds ----------------------------------------------------------------------------
    def add_hold(self, refs: Sequence[str], at: datetime) -> bool:
        """Hold every ref of the patient; False when they were all held already."""
        with Session(self.engine) as session, session.begin():
            existing = set(
                session.scalars(select(LegalHoldRow.patient_ref).where(LegalHoldRow.patient_ref.in_(refs)))
            )
            hold_id = f"hold_{secrets.token_urlsafe(18)}"
            session.add_all(
                LegalHoldRow(patient_ref=r, hold_id=hold_id, created_at=at) for r in refs if r not in existing
            )
            return len(existing) < len(set(refs))

    def remove_hold(self, refs: Sequence[str]) -> bool:
        with Session(self.engine) as session, session.begin():
            result = session.execute(delete(LegalHoldRow).where(LegalHoldRow.patient_ref.in_(refs)))
            return bool(result.rowcount)  # type: ignore[attr-defined]

    def is_held(self, refs: Sequence[str]) -> bool:
        with Session(self.engine) as session:
            return session.scalar(select(func.count()).where(LegalHoldRow.patient_ref.in_(refs))) != 0

    @staticmethod
    def _held(column: Any) -> ColumnElement[bool]:
        held: ColumnElement[bool] = column.in_(select(LegalHoldRow.patient_ref))
        return held

    # -- episodes ---------------------------------------------------------------------------------
    def count_expired(self, policy: Policy, now: datetime) -> tuple[int, int]:
        """(expired and purgeable, expired but held) committed episodes."""
        expired = _expired(EpisodeRow.created_at, EpisodeRow.doctor_id, policy, now)
        held = self._held(EpisodeRow.patient_ref)
        with Session(self.engine) as session:
            base = select(func.count()).select_from(EpisodeRow).where(EpisodeRow.state == COMMITTED, expired)
            held_n = int(session.scalar(base.where(held)) or 0)
            return int(session.scalar(base) or 0) - held_n, held_n

    def expired_batch(self, policy: Policy, now: datetime, limit: int | None) -> list[tuple[str, str]]:
        """(episode id, doctor id) of up to `limit` expired, committed, unheld episodes."""
        return self._ids(
            and_(
                EpisodeRow.state == COMMITTED,
                _expired(EpisodeRow.created_at, EpisodeRow.doctor_id, policy, now),
                or_(EpisodeRow.patient_ref.is_(None), ~self._held(EpisodeRow.patient_ref)),
            ),
            limit,
        )

    def patient_batch(self, refs: Sequence[str], limit: int | None) -> list[tuple[str, str]]:
        """Episodes of the patient (any key version), any doctor, including those an interrupted
        erasure left marked (so that the run finishing it counts them)."""
        states = EpisodeRow.state.in_((COMMITTED, DELETING))
        return self._ids(and_(EpisodeRow.patient_ref.in_(refs), states), limit)

    def deleting(self, limit: int | None = None) -> list[tuple[str, str]]:
        """Episodes a previous run (or an interrupted delete) marked and did not finish."""
        return self._ids(and_(EpisodeRow.state != COMMITTED, EpisodeRow.state == DELETING), limit)

    def _ids(self, where: ColumnElement[bool], limit: int | None) -> list[tuple[str, str]]:
        with Session(self.engine) as session:
            rows = session.execute(select(EpisodeRow.id, EpisodeRow.doctor_id).where(where).limit(limit))
            return [(r[0], r[1]) for r in rows]

    def mark_deleting(self, episode_ids: Sequence[str], at: datetime) -> None:
        with Session(self.engine) as session, session.begin():
            session.execute(
                update(EpisodeRow)
                .where(EpisodeRow.id.in_(episode_ids), EpisodeRow.state == COMMITTED)
                .values(state=DELETING, state_at=at)
            )

    def kept(self, doctor_id: str) -> set[str]:
        """Ids of the doctor's episodes not being deleted."""
        with Session(self.engine) as session:
            return set(
                session.scalars(
                    select(EpisodeRow.id).where(
                        EpisodeRow.doctor_id == doctor_id, EpisodeRow.state != DELETING
                    )
                )
            )

    def delete_episodes(self, episode_ids: Sequence[str], progress: Callable[[int], None]) -> None:
        """Delete marked episodes with their data keys and search rows, in batches.

        SQLite un-indexes each deleted row from the full-text index (its delete trigger re-reads and
        re-tokenises the text): 10.5 s for 50k of 100k episodes. When a purge takes a large share
        of the index, it is faster to delete without the trigger and rebuild the index from the rows
        that are left, which also leaves no old index segment behind: 3 s. That path runs in one
        transaction (API writes wait for it), so it is kept for large purges; small daily ones go
        row by row. `progress(n)` is told how many were deleted so far, after each committed batch.
        """
        store = RecordStore(self.engine)
        if self.engine.dialect.name != "sqlite" or len(episode_ids) < REBUILD_SHARE * self._indexed():
            for start in range(0, len(episode_ids), BATCH):
                store.delete_rows(episode_ids[start : start + BATCH])
                progress(min(start + BATCH, len(episode_ids)))
            return
        with self._immediate() as connection:
            trigger = connection.exec_driver_sql(
                "SELECT sql FROM sqlite_master WHERE type = 'trigger' AND name = 'episode_search_ad'"
            ).scalar_one()
            connection.exec_driver_sql("DROP TRIGGER episode_search_ad")
            for start in range(0, len(episode_ids), BATCH):
                batch = list(episode_ids[start : start + BATCH])
                for table, column in (
                    ("episode_search", "episode_id"),
                    ("data_keys", "episode_id"),
                    ("episodes", "id"),
                ):
                    connection.execute(
                        text(f"DELETE FROM {table} WHERE {column} IN :ids").bindparams(
                            bindparam("ids", expanding=True)
                        ),
                        {"ids": batch},
                    )
            connection.exec_driver_sql("INSERT INTO episode_fts(episode_fts) VALUES ('rebuild')")
            connection.exec_driver_sql(trigger)
        progress(len(episode_ids))  # not before the commit: it may write (a lease) and would wait on us

    def _indexed(self) -> int:
        with self.engine.connect() as connection:
            return int(connection.exec_driver_sql("SELECT count(*) FROM episode_search").scalar_one())

    @contextmanager
    def _immediate(self) -> Iterator[Connection]:
        """One SQLite transaction holding the write lock from its first statement; database
        errors become UnavailableError (the next run redoes the work: the rows stay marked)."""
        try:
            with immediate_transaction(self.engine) as connection:
                yield connection
        except SQLAlchemyError as exc:
            raise UnavailableError(f"record store unavailable ({type(exc).__name__})") from exc

    # -- facts and summaries ------------------------------------------------------------------------
    def delete_facts(
        self, policy: Policy | None, now: datetime, refs: Sequence[str] = (), *, dry_run: bool = False
    ) -> tuple[int, int]:
        """Delete expired unheld facts (policy) or the patient's facts (refs); (deleted, held)."""
        if policy is not None:
            where = _expired(PatientFactRow.recorded_at, PatientFactRow.doctor_id, policy, now)
        else:
            where = PatientFactRow.patient_ref.in_(refs) if refs else false()
        held = self._held(PatientFactRow.patient_ref) if policy is not None else false()
        with Session(self.engine) as session, session.begin():
            held_n = int(session.scalar(select(func.count()).where(where, held)) or 0)
            if dry_run:
                return int(session.scalar(select(func.count()).where(where, ~held)) or 0), held_n
            result = session.execute(delete(PatientFactRow).where(where, ~held))
            return int(result.rowcount), held_n  # type: ignore[attr-defined]

    def drop_summaries(self, doctor_ids: Sequence[str]) -> None:
        """Summaries may quote purged episodes: drop them; the agent regenerates them from what is left."""
        with Session(self.engine) as session, session.begin():
            session.execute(delete(SummaryRow).where(SummaryRow.doctor_id.in_(doctor_ids)))

    # -- nothing recoverable ------------------------------------------------------------------------
    def scrub(self) -> None:
        """Make deleted rows unrecoverable from the database files (see README, Retention).

        SQLite: secure_delete zeroes freed cells and pages; FTS5 keeps deleted terms in old index
        segments until they are merged, hence 'optimize'; the WAL still holds page images of the
        deleted rows, hence a TRUNCATE checkpoint. PostgreSQL: VACUUM removes the dead tuples (it
        cannot run inside a transaction, hence autocommit).
        """
        with self.engine.connect().execution_options(isolation_level="AUTOCOMMIT") as connection:
            if self.engine.dialect.name == "sqlite":
                connection.execute(text("INSERT INTO episode_fts(episode_fts) VALUES ('optimize')"))
                connection.execute(text("PRAGMA wal_checkpoint(TRUNCATE)"))
            else:
                connection.execute(text("VACUUM (ANALYZE) episodes, data_keys, patient_facts, summaries"))
