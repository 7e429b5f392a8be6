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
    assert database.current_revision(engine) == database.head_revision() is not None
    tables = set(inspect(engine).get_table_names())
    assert {"episodes", "data_keys", "patient_facts", "store_meta", "summaries"} <= tables
    config = database._alembic_config()
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.downgrade(config, "base")
    assert "episodes" not in set(inspect(engine).get_table_names())
    database.migrate(engine)
    assert database.current_revision(engine) == database.head_revision()
    engine.dispose()


def test_unsupported_database_urls_are_refused() -> None:
    from jarvis.errors import ConfigurationError

    with pytest.raises(ConfigurationError, match="sqlite:// or postgresql://"):
        database.make_engine("mysql://root@127.0.0.1/test")


def test_a_database_with_episodes_upgrades_and_keeps_them_searchable(tmp_path: Path) -> None:
    """0002 -> head on a database that already holds an episode: the full-text index is rebuilt."""
    from sqlalchemy import text

    from jarvis.memory.records.store import RecordStore

    engine = database.make_engine(f"sqlite:///{tmp_path / 'old.sqlite3'}")
    config = database._alembic_config()
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "0002")
        connection.execute(
            text(
                "INSERT INTO episodes (id, doctor_id, session_id, seq, created_at, query_deid, response_deid, summary,"
                " tags, tools_used, embedding_model, state, state_at, enc_query, enc_response) VALUES ('ep_1',"
                " 'dr-a', 's', 1, '2025-01-01', 'dalbavancin?', 'yes', 'Q: dalbavancin?', '[]', '[]', 'm',"
                " 'committed', '2025-01-01', x'00', x'00')"
            )
        )
        connection.execute(
            text(
                "INSERT INTO episode_search (episode_id, doctor_id, body) VALUES ('ep_1', 'dr-a', 'dalbavancin?')"
            )
        )
        command.upgrade(config, "0009")  # a patient's episode, indexed the 0003 way
        connection.execute(
            text(
                "INSERT INTO episodes (id, doctor_id, patient_ref, session_id, seq, created_at, query_deid,"
                " response_deid, summary, tags, tools_used, embedding_model, state, state_at, enc_query,"
                " enc_response) VALUES ('ep_2', 'dr-a', 'p1_ref', 's', 2, '2025-01-02', 'dalbavancin dose?',"
                " 'weekly', 'Q: dalbavancin dose?', '[]', '[]', 'm', 'committed', '2025-01-02', x'00', x'00')"
            )
        )
        connection.execute(
            text(
                "INSERT INTO episode_search (episode_id, doctor_id, owner, body) VALUES ('ep_2', 'dr-a',"
                " 'd' || lower(hex('dr-a')), 'Q: dalbavancin dose?')"
            )
        )
    database.migrate(engine)
    store = RecordStore(engine)
    assert sorted(e for e, _ in store.lexical("dr-a", ["dalbavancin"], None, 5)) == ["ep_1", "ep_2"]
    assert [e for e, _ in store.lexical("dr-a", ["dalbavancin"], ["p1_ref"], 5)] == ["ep_2"]
    assert store.lexical("dr-b", ["dalbavancin"], None, 5) == []
    with engine.begin() as connection:  # the index matches its rows
        connection.execute(text("INSERT INTO episode_fts(episode_fts, rank) VALUES ('integrity-check', 1)"))
    engine.dispose()
