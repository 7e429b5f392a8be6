"""Schema migrations: a fresh database reaches head, re-running is a no-op, and downgrade/upgrade round-trip."""

from __future__ import annotations

from pathlib import Path

import pytest
from alembic import command
from sqlalchemy import inspect

from jarvis.memory.records import database


@pytest.fixture(params=["sqlite", "postgres"])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "postgres":
        return str(request.getfixturevalue("postgres_url"))
    return f"sqlite:///{tmp_path / 'm.sqlite3'}"


def test_upgrade_downgrade_round_trip(url: str) -> None:
    engine = database.make_engine(url)
    database.migrate(engine)
    database.migrate(engine)
    assert database.current_revision(engine) == database.head_revision() == "0001"
    tables = set(inspect(engine).get_table_names())
    assert {"episodes", "data_keys", "patient_facts", "store_meta"} <= tables
    config = database._alembic_config()
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.downgrade(config, "base")
    assert "episodes" not in set(inspect(engine).get_table_names())
    database.migrate(engine)
    assert database.current_revision(engine) == "0001"
    engine.dispose()


def test_unsupported_database_urls_are_refused() -> None:
    from jarvis.errors import ConfigurationError

    with pytest.raises(ConfigurationError, match="sqlite:// or postgresql://"):
        database.make_engine("mysql://root@127.0.0.1/test")
