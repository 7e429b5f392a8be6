"""One runner at a time across processes: a database lock that a second runner fails to take.

- PostgreSQL: a session advisory lock (pg_try_advisory_lock) on a connection held for the whole
  run; the server releases it if the process dies.
- SQLite: a lease row in job_leases, taken under BEGIN IMMEDIATE (SQLite's single writer lock,
  so two processes cannot both see the lease free), renewed while the job runs and released at the
  end; a runner killed without releasing it blocks others only until the lease expires.

A lock that is taken raises ConflictError (HTTP 409), naming the job, never anything else.
"""

from __future__ import annotations

import hashlib
import os
import secrets
import socket
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta

from sqlalchemy import Engine, text
from sqlalchemy.exc import SQLAlchemyError

from jarvis.errors import ConflictError, UnavailableError
from jarvis.memory.records.database import immediate_transaction

DEFAULT_LEASE = timedelta(minutes=15)


def _stamp(delta: timedelta = timedelta(0)) -> str:
    """Wall-clock time as SQLite stores it (leases are about live processes, not the job's clock)."""
    return (datetime.now(UTC) + delta).strftime("%Y-%m-%d %H:%M:%S.%f")


class JobLock:
    """A held lock; `renew()` keeps a SQLite lease alive during long runs (a no-op on PostgreSQL)."""

    def __init__(self, engine: Engine, name: str, holder: str, lease: timedelta) -> None:
        self.engine, self.name, self.holder, self.lease = engine, name, holder, lease

    def renew(self) -> None:
        if self.engine.dialect.name != "sqlite":
            return
        with self.engine.begin() as connection:
            connection.execute(
                text("UPDATE job_leases SET expires_at = :e WHERE name = :n AND holder = :h"),
                {"e": _stamp(self.lease), "n": self.name, "h": self.holder},
            )


def _advisory_key(name: str) -> int:
    return int.from_bytes(hashlib.sha256(f"jarvis:{name}".encode()).digest()[:8], "big", signed=True)


def _take_lease(engine: Engine, name: str, holder: str, lease: timedelta) -> None:
    with immediate_transaction(engine) as connection:
        row = connection.execute(
            text("SELECT holder, expires_at FROM job_leases WHERE name = :n"), {"n": name}
        ).first()
        if row is not None and str(row[1]) > _stamp():
            raise ConflictError(f"another {name} run is in progress; try again when it has finished")
        connection.execute(
            text(
                "INSERT INTO job_leases (name, holder, expires_at) VALUES (:n, :h, :e)"
                " ON CONFLICT (name) DO UPDATE SET holder = :h, expires_at = :e"
            ),
            {"n": name, "h": holder, "e": _stamp(lease)},
        )


@contextmanager
def job_lock(engine: Engine, name: str, lease: timedelta = DEFAULT_LEASE) -> Iterator[JobLock]:
    holder = f"{socket.gethostname()[:32]}-{os.getpid()}-{secrets.token_hex(4)}"
    lock = JobLock(engine, name, holder, lease)
    try:
        if engine.dialect.name == "sqlite":
            _take_lease(engine, name, holder, lease)
            try:
                yield lock
            finally:
                with engine.begin() as connection:
                    connection.execute(
                        text("DELETE FROM job_leases WHERE name = :n AND holder = :h"),
                        {"n": name, "h": holder},
                    )
            return
        # Autocommit: an open transaction here would hold back the VACUUM that the job runs.
        with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as connection:
            key = _advisory_key(name)
            if not connection.execute(text("SELECT pg_try_advisory_lock(:k)"), {"k": key}).scalar():
                raise ConflictError(f"another {name} run is in progress; try again when it has finished")
            try:
                yield lock
            finally:
                connection.execute(text("SELECT pg_advisory_unlock(:k)"), {"k": key})
    except SQLAlchemyError as exc:
        raise UnavailableError(f"job lock unavailable ({type(exc).__name__})") from exc
