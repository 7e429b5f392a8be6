"""The record store: episodes, data keys and patient facts in SQLite or PostgreSQL.

Every read takes the doctor id: a doctor can never read another doctor's rows, whatever the episode
id. It is in the WHERE clause, except where a list of ids is looked up (`_owned`): those rows are
found by primary key and the doctor and state are checked on each row in code. Only `committed`
episodes are visible; `pending` rows are a save in flight (their vector may not exist yet) and are
reconciled at start-up.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import ColumnElement, Engine, delete, func, select, text, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import IntegrityError, SQLAlchemyError
from sqlalchemy.orm import Session, sessionmaker

from jarvis.errors import ConflictError, UnavailableError
from jarvis.memory.records.fulltext import indexed_body, indexed_owner, lexical_search
from jarvis.memory.records.tables import DataKeyRow, EpisodeRow, PatientFactRow, StoreMetaRow, SummaryRow

logger = logging.getLogger(__name__)

PENDING, COMMITTED, DELETING = "pending", "committed", "deleting"
_SEQ_ATTEMPTS = 5
# SQLite's planner statistics are refreshed after this many episodes are inserted by this process.
ANALYZE_EVERY = 5_000


@dataclass(frozen=True, slots=True)
class RankFields:
    created_at: datetime
    summary: str
    outcome: str | None
    patient_ref: str | None


def _by_id(episode_ids: Sequence[str]) -> ColumnElement[bool]:
    """Rows by primary key only. With the doctor in the same WHERE clause, SQLite's planner, without
    statistics, walked the doctor's whole (doctor_id, state) index instead: 3.6 ms rather than 1.9
    for ~70 ids among a doctor's 1,000 episodes. A key look-up needs no statistics to be chosen.
    Callers check each row with `_owned`."""
    return EpisodeRow.id.in_(episode_ids)


def _owned(row: Any, doctor_id: str) -> bool:
    """The row is the doctor's and committed: the check that `_by_id` leaves to the caller."""
    return bool(row.doctor_id == doctor_id and row.state == COMMITTED)


@dataclass(frozen=True, slots=True)
class NewEpisode:
    """A fully prepared row (de-identified, encrypted) and its wrapped data key; seq is assigned here."""

    row: EpisodeRow
    master_version: int
    wrapped_key: bytes
    search_body: str


class RecordStore:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._sessions = sessionmaker(engine, expire_on_commit=False)
        self._inserted_since_analyze = 0
        self._analyze_lock = threading.Lock()

    def _session(self) -> Session:
        return self._sessions()

    # -- writes -----------------------------------------------------------------------------
    def insert_pending(self, episodes: Sequence[NewEpisode]) -> None:
        """Insert all episodes as pending in one transaction, with per-session sequence numbers."""
        for attempt in range(_SEQ_ATTEMPTS):
            try:
                with self._session() as session, session.begin():
                    self._assign_seqs(session, episodes)
                    for new in episodes:
                        session.add(new.row)
                    session.flush()
                    for new in episodes:
                        session.add(
                            DataKeyRow(
                                episode_id=new.row.id,
                                master_version=new.master_version,
                                wrapped=new.wrapped_key,
                            )
                        )
                    if self.engine.dialect.name == "sqlite":
                        session.execute(
                            text(
                                "INSERT INTO episode_search (episode_id, doctor_id, owner, body)"
                                " VALUES (:e, :d, :o, :b)"
                            ),
                            [
                                {
                                    "e": n.row.id,
                                    "d": n.row.doctor_id,
                                    "o": indexed_owner(n.row.patient_ref),
                                    "b": indexed_body(n.row.doctor_id, n.search_body),
                                }
                                for n in episodes
                            ],
                        )
                self._count_inserts(len(episodes))
                return
            except IntegrityError as exc:
                # Two saves raced for the same session's next seq number: recompute and retry.
                if attempt == _SEQ_ATTEMPTS - 1:
                    raise ConflictError("could not assign a session sequence number") from exc
            except SQLAlchemyError as exc:
                raise UnavailableError(f"record store write failed ({type(exc).__name__})") from exc

    def _count_inserts(self, n: int) -> None:
        with self._analyze_lock:
            self._inserted_since_analyze += n
            due = self._inserted_since_analyze >= ANALYZE_EVERY
            if due:
                self._inserted_since_analyze = 0
        if due:
            try:
                self.refresh_statistics()
            except UnavailableError:  # an optimisation: the insert it follows has succeeded
                logger.warning("could not refresh the planner statistics; retried later")

    def refresh_statistics(self) -> None:
        """Let SQLite's planner see the data. Without statistics it guesses, and at 100k episodes it
        guessed wrong: it counted a session's episodes by walking the doctor's whole (doctor_id,
        state) index (3 ms) instead of the session's unique index. ANALYZE, bounded by
        analysis_limit, takes ~0.1 s at 100k episodes; it runs at start-up and every ANALYZE_EVERY
        inserts. PostgreSQL's autovacuum keeps its own statistics."""
        if self.engine.dialect.name != "sqlite":
            return
        with self._guard(), self.engine.connect() as connection:
            connection.exec_driver_sql("PRAGMA analysis_limit=2000")
            connection.exec_driver_sql("ANALYZE")
            connection.commit()

    @staticmethod
    def _assign_seqs(session: Session, episodes: Sequence[NewEpisode]) -> None:
        next_seq: dict[tuple[str, str], int] = {}
        for new in episodes:
            key = (new.row.doctor_id, new.row.session_id)
            if key not in next_seq:
                current = session.scalar(
                    select(func.max(EpisodeRow.seq)).where(
                        EpisodeRow.doctor_id == key[0], EpisodeRow.session_id == key[1]
                    )
                )
                next_seq[key] = (current or 0) + 1
            new.row.seq = next_seq[key]
            next_seq[key] += 1

    def set_state(self, episode_ids: Sequence[str], state: str, at: datetime) -> None:
        with self._guard(), self._session() as session, session.begin():
            session.execute(
                update(EpisodeRow).where(EpisodeRow.id.in_(episode_ids)).values(state=state, state_at=at)
            )

    def delete_rows(self, episode_ids: Sequence[str]) -> None:
        """Delete episodes with their data keys and search rows (crypto-shredding the ciphertexts)."""
        if not episode_ids:
            return
        with self._guard(), self._session() as session, session.begin():
            if self.engine.dialect.name == "sqlite":
                session.execute(
                    text("DELETE FROM episode_search WHERE episode_id = :e"), [{"e": e} for e in episode_ids]
                )
            session.execute(delete(DataKeyRow).where(DataKeyRow.episode_id.in_(episode_ids)))
            session.execute(delete(EpisodeRow).where(EpisodeRow.id.in_(episode_ids)))

    def mark_deleting(self, doctor_id: str, episode_id: str, at: datetime) -> bool:
        """Hide the doctor's episode before its vector and rows are removed; False if not theirs."""
        # A retried delete (state already `deleting`) finishes the job.
        return self._update_owned(doctor_id, episode_id, (COMMITTED, DELETING), state=DELETING, state_at=at)

    def set_outcome(
        self, doctor_id: str, episode_id: str, outcome: str, note: str | None, at: datetime
    ) -> bool:
        return self._update_owned(
            doctor_id, episode_id, (COMMITTED,), outcome=outcome, outcome_note=note, outcome_at=at
        )

    def _update_owned(
        self, doctor_id: str, episode_id: str, states: tuple[str, ...], **values: object
    ) -> bool:
        """Update one episode only if it is the doctor's and in one of the states; False otherwise."""
        with self._guard(), self._session() as session, session.begin():
            result = session.execute(
                update(EpisodeRow)
                .where(
                    EpisodeRow.id == episode_id,
                    EpisodeRow.doctor_id == doctor_id,
                    EpisodeRow.state.in_(states),
                )
                .values(**values)
            )
            return bool(result.rowcount)  # type: ignore[attr-defined]

    # -- reads ------------------------------------------------------------------------------
    def get(self, doctor_id: str, episode_id: str) -> tuple[EpisodeRow, DataKeyRow] | None:
        with self._guard(), self._session() as session:
            found = session.execute(
                select(EpisodeRow, DataKeyRow)
                .join(DataKeyRow, DataKeyRow.episode_id == EpisodeRow.id)
                .where(
                    EpisodeRow.id == episode_id,
                    EpisodeRow.doctor_id == doctor_id,
                    EpisodeRow.state == COMMITTED,
                )
            ).first()
            return (found[0], found[1]) if found else None

    def rank_fields(self, doctor_id: str, episode_ids: Sequence[str]) -> dict[str, RankFields]:
        """What ranking and a search hit need of the doctor's committed candidates: a narrow select,
        without the encrypted and JSON columns that whole rows would decode for every candidate."""
        if not episode_ids:
            return {}
        columns = (
            EpisodeRow.id,
            EpisodeRow.created_at,
            EpisodeRow.summary,
            EpisodeRow.outcome,
            EpisodeRow.patient_ref,
        )
        with self._guard(), self._session() as session:
            rows = session.execute(
                select(*columns, EpisodeRow.doctor_id, EpisodeRow.state).where(_by_id(episode_ids))
            )
            return {
                r.id: RankFields(r.created_at, r.summary, r.outcome, r.patient_ref)
                for r in rows
                if _owned(r, doctor_id)
            }

    def by_ids(self, doctor_id: str, episode_ids: Sequence[str]) -> dict[str, EpisodeRow]:
        if not episode_ids:
            return {}
        with self._guard(), self._session() as session:
            rows = session.scalars(select(EpisodeRow).where(_by_id(episode_ids)))
            return {row.id: row for row in rows if _owned(row, doctor_id)}

    def history(
        self, doctor_id: str, patient_refs: Sequence[str], limit: int
    ) -> list[tuple[EpisodeRow, DataKeyRow]]:
        with self._guard(), self._session() as session:
            rows = session.execute(
                select(EpisodeRow, DataKeyRow)
                .join(DataKeyRow, DataKeyRow.episode_id == EpisodeRow.id)
                .where(
                    EpisodeRow.doctor_id == doctor_id,
                    EpisodeRow.patient_ref.in_(patient_refs),
                    EpisodeRow.state == COMMITTED,
                )
                .order_by(EpisodeRow.created_at.desc(), EpisodeRow.seq.desc())
                .limit(limit)
            )
            return [(r[0], r[1]) for r in rows]

    def patient_episode_ids(self, doctor_id: str, patient_refs: Sequence[str]) -> list[str]:
        """Ids of the doctor's committed episodes of these patients (a patient-scoped search's
        candidates: the vector index ranks among them)."""
        if not patient_refs:
            return []
        with self._guard(), self._session() as session:
            return list(
                session.scalars(
                    select(EpisodeRow.id).where(
                        EpisodeRow.doctor_id == doctor_id,
                        EpisodeRow.patient_ref.in_(patient_refs),
                        EpisodeRow.state == COMMITTED,
                    )
                )
            )

    def recent(self, doctor_id: str, limit: int) -> list[EpisodeRow]:
        """The doctor's newest episodes (the prototype's retrieval window; kept for comparison)."""
        with self._guard(), self._session() as session:
            return list(
                session.scalars(
                    select(EpisodeRow)
                    .where(EpisodeRow.doctor_id == doctor_id, EpisodeRow.state == COMMITTED)
                    .order_by(EpisodeRow.created_at.desc())
                    .limit(limit)
                )
            )

    def session_turns(self, doctor_id: str, session_id: str, limit: int) -> list[EpisodeRow]:
        """The session's last `limit` episodes, oldest first (the recent turns of the context)."""
        with self._guard(), self._session() as session:
            rows = session.scalars(
                select(EpisodeRow)
                .where(
                    EpisodeRow.doctor_id == doctor_id,
                    EpisodeRow.session_id == session_id,
                    EpisodeRow.state == COMMITTED,
                )
                .order_by(EpisodeRow.seq.desc())
                .limit(limit)
            )
            return list(reversed(list(rows)))

    def summary_counts(self, doctor_id: str, session_id: str) -> tuple[int, int, int | None, int | None]:
        """(the doctor's committed episodes, the session's, the episode counts the doctor summary
        and the session milestones were made at or None): what deciding on a regeneration needs,
        in one round trip."""

        def made_at(session_id_: str) -> Any:
            return (
                select(SummaryRow.episode_count)
                .where(SummaryRow.doctor_id == doctor_id, SummaryRow.session_id == session_id_)
                .scalar_subquery()
            )

        committed = (
            select(func.count())
            .select_from(EpisodeRow)
            .where(EpisodeRow.doctor_id == doctor_id, EpisodeRow.state == COMMITTED)
        )
        in_session = committed.where(EpisodeRow.session_id == session_id)
        query = select(
            committed.scalar_subquery(), in_session.scalar_subquery(), made_at(""), made_at(session_id)
        )
        with self._guard(), self._session() as session:
            total, count, doctor_at, session_at = session.execute(query).one()
            return int(total or 0), int(count or 0), doctor_at, session_at

    def summary(self, doctor_id: str, session_id: str = "") -> SummaryRow | None:
        with self._guard(), self._session() as session:
            return session.get(SummaryRow, (doctor_id, session_id))

    def put_summary(self, row: SummaryRow) -> None:
        """Insert or replace in one statement. A merge (read, then insert) let two asks of the same
        doctor on two replicas or threads both insert the first summary: one failed on the key."""
        statement = self._insert(SummaryRow).values(
            doctor_id=row.doctor_id,
            session_id=row.session_id,
            text=row.text,
            episode_count=row.episode_count,
            created_at=row.created_at,
        )
        statement = statement.on_conflict_do_update(
            index_elements=[SummaryRow.doctor_id, SummaryRow.session_id],
            set_={name: statement.excluded[name] for name in ("text", "episode_count", "created_at")},
        )
        with self._guard(), self._session() as session, session.begin():
            session.execute(statement)

    def lexical(
        self, doctor_id: str, terms: Sequence[str], patient_refs: Sequence[str] | None, limit: int
    ) -> list[tuple[str, float]]:
        with self._guard(), self._session() as session:
            return lexical_search(session, doctor_id, terms, patient_refs, limit)

    def stale_ids(self, state: str, before: datetime) -> list[tuple[str, str]]:
        """(episode id, doctor id) of episodes left in `state` since before the given time."""
        with self._guard(), self._session() as session:
            rows = session.execute(
                select(EpisodeRow.id, EpisodeRow.doctor_id).where(
                    EpisodeRow.state != COMMITTED,  # lets the partial index of unfinished rows serve this
                    EpisodeRow.state == state,
                    EpisodeRow.state_at < before,
                )
            )
            return [(r[0], r[1]) for r in rows]

    def count(self, doctor_id: str | None = None) -> int:
        with self._guard(), self._session() as session:
            query = select(func.count()).select_from(EpisodeRow).where(EpisodeRow.state == COMMITTED)
            if doctor_id is not None:
                query = query.where(EpisodeRow.doctor_id == doctor_id)
            return int(session.scalar(query) or 0)

    # -- data keys (master-key rotation) -------------------------------------------------------
    def data_keys_below(self, master_version: int, limit: int) -> list[DataKeyRow]:
        with self._guard(), self._session() as session:
            return list(
                session.scalars(
                    select(DataKeyRow).where(DataKeyRow.master_version < master_version).limit(limit)
                )
            )

    def replace_data_keys(self, rows: Sequence[DataKeyRow]) -> None:
        with self._guard(), self._session() as session, session.begin():
            for row in rows:
                session.execute(
                    update(DataKeyRow)
                    .where(DataKeyRow.episode_id == row.episode_id)
                    .values(master_version=row.master_version, wrapped=row.wrapped)
                )

    # -- patient facts --------------------------------------------------------------------------
    def add_fact(self, row: PatientFactRow) -> None:
        with self._guard(), self._session() as session, session.begin():
            session.add(row)

    def facts(self, doctor_id: str, patient_refs: Sequence[str]) -> list[PatientFactRow]:
        with self._guard(), self._session() as session:
            return list(
                session.scalars(
                    select(PatientFactRow)
                    .where(
                        PatientFactRow.doctor_id == doctor_id, PatientFactRow.patient_ref.in_(patient_refs)
                    )
                    .order_by(PatientFactRow.recorded_at.desc())
                )
            )

    # -- store metadata ---------------------------------------------------------------------
    def meta(self, key: str) -> str | None:
        with self._guard(), self._session() as session:
            row = session.get(StoreMetaRow, key)
            return row.value if row else None

    def set_meta(self, key: str, value: str) -> None:
        with self._guard(), self._session() as session, session.begin():
            session.merge(StoreMetaRow(key=key, value=value))

    def meta_setdefault(self, key: str, value: str) -> str:
        """The stored value, storing `value` first if there is none. Atomic: of replicas starting
        together on an empty database, one stores its value and the others read it back."""
        statement = self._insert(StoreMetaRow).values(key=key, value=value).on_conflict_do_nothing()
        with self._guard(), self._session() as session, session.begin():
            session.execute(statement)
            return str(session.scalar(select(StoreMetaRow.value).where(StoreMetaRow.key == key)))

    def _insert(self, table: type[SummaryRow] | type[StoreMetaRow]) -> Any:
        """INSERT with ON CONFLICT clauses (both dialects have them; SQLAlchemy's core insert has not)."""
        return (postgresql.insert if self.engine.dialect.name == "postgresql" else sqlite.insert)(table)

    def ping(self) -> None:
        with self._guard(), self.engine.connect() as connection:
            connection.execute(text("SELECT 1"))

    @staticmethod
    def _guard() -> _StoreErrors:
        return _StoreErrors()


class _StoreErrors:
    """Translate driver errors into UnavailableError at the boundary (type name only: no data)."""

    def __enter__(self) -> None:
        return None

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: object) -> None:
        if exc is not None and isinstance(exc, SQLAlchemyError):
            raise UnavailableError(f"record store unavailable ({type(exc).__name__})") from exc
