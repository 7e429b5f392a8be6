"""The SQLite engine's helpers: the background WAL checkpointer."""

from __future__ import annotations

import time
from pathlib import Path

from sqlalchemy import text

from jarvis.memory.records import database


def test_the_checkpointer_moves_committed_frames_into_the_database_file(tmp_path: Path) -> None:
    path = tmp_path / "db.sqlite3"
    engine = database.make_engine(f"sqlite:///{path}")
    with engine.begin() as connection:
        connection.execute(text("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)"))
    with engine.connect() as connection:
        connection.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)")
    size = path.stat().st_size
    with engine.connect() as connection:
        connection.exec_driver_sql("PRAGMA wal_autocheckpoint=0")  # only the checkpointer may move them
        connection.execute(text("INSERT INTO notes (body) VALUES (:b)"), [{"b": "x" * 500}] * 200)
        connection.commit()
    assert path.stat().st_size == size  # committed to the WAL only

    checkpointer = database.WalCheckpointer(engine, every_s=0.05)
    checkpointer.start()
    try:
        deadline = time.monotonic() + 10
        while path.stat().st_size == size and time.monotonic() < deadline:
            time.sleep(0.05)
    finally:
        checkpointer.stop()
    assert path.stat().st_size > size
    engine.dispose()


def test_the_checkpointer_does_nothing_on_postgresql(postgres_url: str) -> None:
    engine = database.make_engine(postgres_url)
    checkpointer = database.WalCheckpointer(engine, every_s=0.01)
    checkpointer.start()
    checkpointer.stop()
    assert not checkpointer._thread.is_alive() and checkpointer._thread.ident is None
    engine.dispose()
