"""SQLite full-text index scoped by doctor inside the MATCH itself.

The first index matched terms across every doctor and filtered by doctor afterwards, so its cost
grew with the whole hospital's memory. An `owner` column (one token per doctor: "d" + hex of the
doctor id) lets FTS5 intersect the doctor's posting list with the terms instead.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None

_FTS = """CREATE VIRTUAL TABLE episode_fts USING fts5(
    body, owner, content='episode_search', content_rowid='id', tokenize='porter unicode61 remove_diacritics 2')"""
_INSERT_TRIGGER = """CREATE TRIGGER episode_search_ai AFTER INSERT ON episode_search BEGIN
    INSERT INTO episode_fts(rowid, body, owner) VALUES (new.id, new.body, new.owner); END"""
_DELETE_TRIGGER = """CREATE TRIGGER episode_search_ad AFTER DELETE ON episode_search BEGIN
    INSERT INTO episode_fts(episode_fts, rowid, body, owner) VALUES ('delete', old.id, old.body, old.owner); END"""


def upgrade() -> None:
    if op.get_bind().dialect.name != "sqlite":
        return  # PostgreSQL filters by doctor_id with its own index before ranking
    for statement in (
        "DROP TRIGGER episode_search_ai",
        "DROP TRIGGER episode_search_ad",
        "DROP TABLE episode_fts",
        "ALTER TABLE episode_search ADD COLUMN owner TEXT NOT NULL DEFAULT ''",
        "UPDATE episode_search SET owner = 'd' || lower(hex(doctor_id))",
        _FTS,
        _INSERT_TRIGGER,
        _DELETE_TRIGGER,
        "INSERT INTO episode_fts(episode_fts) VALUES ('rebuild')",
    ):
        op.execute(statement)


def downgrade() -> None:
    if op.get_bind().dialect.name != "sqlite":
        return
    for statement in (
        "DROP TRIGGER episode_search_ai",
        "DROP TRIGGER episode_search_ad",
        "DROP TABLE episode_fts",
        "ALTER TABLE episode_search DROP COLUMN owner",
        """CREATE VIRTUAL TABLE episode_fts USING fts5(
            body, content='episode_search', content_rowid='id', tokenize='porter unicode61 remove_diacritics 2')""",
        """CREATE TRIGGER episode_search_ai AFTER INSERT ON episode_search BEGIN
            INSERT INTO episode_fts(rowid, body) VALUES (new.id, new.body); END""",
        """CREATE TRIGGER episode_search_ad AFTER DELETE ON episode_search BEGIN
            INSERT INTO episode_fts(episode_fts, rowid, body) VALUES ('delete', old.id, old.body); END""",
        "INSERT INTO episode_fts(episode_fts) VALUES ('rebuild')",
    ):
        op.execute(statement)
