"""Store plumbing: the background WAL checkpointer, and how a broken connection to Chroma is retried."""

from __future__ import annotations

import time
from collections.abc import Callable
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


def test_a_request_on_a_broken_or_refused_connection_is_sent_once_more() -> None:
    """After a Chroma server restart, the first request on a pooled connection fails although the
    server is up, and a new connection may be refused for a moment: the request is sent once more;
    a second failure is an error."""
    import httpx
    import pytest

    from jarvis.errors import UnavailableError, UnreachableError
    from jarvis.memory.vector_index import _call

    calls: list[int] = []

    def flaky(failures: int, error: type[Exception] = httpx.ReadError) -> Callable[[], str]:
        def request() -> str:
            calls.append(1)
            if len(calls) <= failures:
                raise error("connection reset")
            return "answer"

        return request

    assert _call(flaky(1)) == "answer" and len(calls) == 2
    calls.clear()
    with pytest.raises(UnavailableError):
        _call(flaky(2))
    assert len(calls) == 2
    calls.clear()
    assert _call(flaky(1, httpx.ConnectError)) == "answer" and len(calls) == 2  # refused for a moment
    calls.clear()
    with pytest.raises(UnreachableError):  # refused twice: the server never saw it, and it is down
        _call(flaky(2, httpx.ConnectError))
    assert len(calls) == 2
    calls.clear()

    def broken_then_refused() -> str:
        calls.append(1)
        raise (httpx.ReadError if len(calls) == 1 else httpx.ConnectError)("gone")

    # The server died after the first request reached it: a write may have landed, so the caller
    # must undo it (UnavailableError), not take the refusal of the second as "never sent".
    with pytest.raises(UnavailableError) as raised:
        _call(broken_then_refused)
    assert not isinstance(raised.value, UnreachableError) and len(calls) == 2
