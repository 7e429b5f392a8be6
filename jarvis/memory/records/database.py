"""Database engines and schema migrations for SQLite (default) and PostgreSQL.

SQLite runs with foreign keys on (deleting an episode cascades to its data key and search row),
WAL for concurrent readers, and secure_delete so that freed pages are overwritten with zeros:
a deleted episode's bytes must not linger in the file.
"""

from __future__ import annotations

import hashlib
import logging
import threading
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Connection, Engine, create_engine, event, text
from sqlalchemy.exc import SQLAlchemyError

from jarvis.errors import ConfigurationError, UnavailableError

logger = logging.getLogger(__name__)
SQLITE_FILE_NAME = "jarvis.sqlite3"


def default_url(data_dir: Path) -> str:
    return f"sqlite:///{data_dir / SQLITE_FILE_NAME}"


# No memory map (mmap_size=0, whatever the build's default): in WAL mode a connection that finds
# the database changed by another drops its map along with its page cache, and in the API every
# request appends an audit event, so each search unmapped and re-faulted the pages it read. Measured
# with `jarvis serve` on 100k episodes, one process, run in turn: a search cost 2.1-2.6 ms of system
# CPU without the map against 5.3-6.1 with a 1 GiB one, and 49-60 searches/s at concurrency 1
# against 39-44. (Read alone, in one process with no writer, the map made the full-text query
# ~1.4 ms faster.)


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    pragmas = ("foreign_keys=ON", "journal_mode=WAL", "secure_delete=ON", "busy_timeout=10000", "mmap_size=0")
    for pragma in pragmas:
        cursor.execute(f"PRAGMA {pragma}")
    cursor.close()


def make_engine(url: str) -> Engine:
    if url.startswith("sqlite"):
        # A pool as large as the API's worker threads can use at once: with the default (5 + 10
        # overflow) a busy server opened and closed a connection (and its pragmas) per request.
        engine = create_engine(url, connect_args={"check_same_thread": False}, pool_size=32, max_overflow=32)
        event.listen(engine, "connect", _sqlite_pragmas)
        return engine
    if url.startswith("postgresql"):
        # psycopg 3 driver unless the URL names another one.
        if url.startswith("postgresql://"):
            url = "postgresql+psycopg://" + url.removeprefix("postgresql://")
        return create_engine(url, pool_pre_ping=True, pool_size=10, max_overflow=10)
    raise ConfigurationError("database URL must be sqlite:// or postgresql://")


@contextmanager
def immediate_transaction(engine: Engine) -> Iterator[Connection]:
    """A SQLite transaction that holds the database's write lock from its first statement.

    pysqlite's own transactions begin deferred, at the first write, so a read made earlier in the
    transaction could be stale by then; this runs the connection in driver autocommit and issues
    BEGIN IMMEDIATE / COMMIT / ROLLBACK itself. Errors propagate (callers translate them)."""
    with engine.connect() as connection:
        connection.execution_options(isolation_level="AUTOCOMMIT")
        connection.exec_driver_sql("BEGIN IMMEDIATE")
        try:
            yield connection
        except BaseException:
            with suppress(SQLAlchemyError):
                connection.exec_driver_sql("ROLLBACK")
            raise
        connection.exec_driver_sql("COMMIT")


class WalCheckpointer:
    """Checkpoints a SQLite database's write-ahead log on a thread of its own.

    SQLite copies WAL frames back into the database file (a checkpoint, with its fsync) from the
    connection whose commit takes the WAL past 1,000 pages, so now and then a request pays for
    everyone's writes. Checkpointing every `every_s` seconds, passively (it never waits on readers
    or writers), keeps the WAL below that mark, so that work moves off the requests. (The slow
    commits that remain in bench/agent_bench.py, 15-35 ms now and then, are fsyncs stalling on
    this machine's disk, which no checkpointing moves.) For a long-running process (`jarvis
    serve`); a no-op for PostgreSQL.
    """

    def __init__(self, engine: Engine, every_s: float = 1.0) -> None:
        self.engine, self.every_s = engine, every_s
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="wal-checkpoint", daemon=True)

    def start(self) -> None:
        if self.engine.dialect.name == "sqlite":
            self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(timeout=10)

    def _run(self) -> None:
        while not self._stop.wait(self.every_s):
            try:
                with self.engine.connect() as connection:
                    connection.exec_driver_sql("PRAGMA wal_checkpoint(PASSIVE)")
            except SQLAlchemyError as exc:  # the next commit checkpoints instead: nothing is lost
                logger.warning("WAL checkpoint failed (%s)", type(exc).__name__)


def _alembic_config() -> Config:
    config = Config()
    config.set_main_option("script_location", "jarvis:migrations")
    return config


def head_revision() -> str | None:
    return ScriptDirectory.from_config(_alembic_config()).get_current_head()


def current_revision(engine: Engine) -> str | None:
    with engine.connect() as connection:
        return MigrationContext.configure(connection).get_current_revision()


# pg_advisory_xact_lock key: "jarvis:migrate" (any fixed 64-bit number that no other lock uses).
_MIGRATION_LOCK = int.from_bytes(hashlib.sha256(b"jarvis:migrate").digest()[:8], "big", signed=True)


def migrate(engine: Engine) -> None:
    """Upgrade the schema to the newest revision; a no-op when it is already there.

    Replicas and the scheduler start together against one PostgreSQL database: without a lock, two
    of them would both create the tables and one would fail on a duplicate. The first takes the
    lock and migrates; the others wait for its commit and then find the schema at head.
    """
    config = _alembic_config()
    try:
        with engine.begin() as connection:
            if connection.dialect.name == "postgresql":
                connection.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": _MIGRATION_LOCK})
            config.attributes["connection"] = connection
            command.upgrade(config, "head")
    except SQLAlchemyError as exc:
        raise UnavailableError(f"database migration failed ({type(exc).__name__})") from exc
