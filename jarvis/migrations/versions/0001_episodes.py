"""Episodes, their data keys, patient facts, store metadata and the full-text index.

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None

_SQLITE_FTS = [
    # External-content FTS5: episode_search holds the searchable (de-identified) text with a stable
    # integer key; triggers keep the index in step. Deleting an episode cascades here.
    """CREATE TABLE episode_search (
        id INTEGER PRIMARY KEY,
        episode_id VARCHAR(40) NOT NULL UNIQUE REFERENCES episodes(id) ON DELETE CASCADE,
        doctor_id VARCHAR(128) NOT NULL,
        body TEXT NOT NULL)""",
    "CREATE INDEX ix_episode_search_doctor ON episode_search (doctor_id)",
    """CREATE VIRTUAL TABLE episode_fts USING fts5(
        body, content='episode_search', content_rowid='id', tokenize='porter unicode61 remove_diacritics 2')""",
    """CREATE TRIGGER episode_search_ai AFTER INSERT ON episode_search BEGIN
        INSERT INTO episode_fts(rowid, body) VALUES (new.id, new.body); END""",
    """CREATE TRIGGER episode_search_ad AFTER DELETE ON episode_search BEGIN
        INSERT INTO episode_fts(episode_fts, rowid, body) VALUES ('delete', old.id, old.body); END""",
]

_POSTGRES_FTS = [
    """ALTER TABLE episodes ADD COLUMN search_vector tsvector GENERATED ALWAYS AS (
        to_tsvector('english', summary || ' ' || query_deid || ' ' || response_deid)) STORED""",
    "CREATE INDEX ix_episodes_search_vector ON episodes USING gin (search_vector)",
]


def upgrade() -> None:
    op.create_table(
        "episodes",
        sa.Column("id", sa.String(40), primary_key=True),
        sa.Column("doctor_id", sa.String(128), nullable=False),
        sa.Column("patient_ref", sa.String(64)),
        sa.Column("key_version", sa.Integer),
        sa.Column("session_id", sa.String(64), nullable=False),
        sa.Column("seq", sa.Integer, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("query_deid", sa.Text, nullable=False),
        sa.Column("response_deid", sa.Text, nullable=False),
        sa.Column("summary", sa.Text, nullable=False),
        sa.Column("tags", sa.JSON, nullable=False),
        sa.Column("tools_used", sa.JSON, nullable=False),
        sa.Column("confidence", sa.Float),
        sa.Column("outcome", sa.String(16)),
        sa.Column("outcome_note", sa.Text),
        sa.Column("outcome_at", sa.DateTime(timezone=True)),
        sa.Column("embedding_model", sa.String(128), nullable=False),
        sa.Column("state", sa.String(16), nullable=False),
        sa.Column("state_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("enc_query", sa.LargeBinary, nullable=False),
        sa.Column("enc_response", sa.LargeBinary, nullable=False),
        sa.Column("enc_patient_name", sa.LargeBinary),
        sa.UniqueConstraint("doctor_id", "session_id", "seq", name="uq_episodes_session_seq"),
    )
    op.create_index(
        "ix_episodes_doctor_patient_created", "episodes", ["doctor_id", "patient_ref", "created_at"]
    )
    op.create_index("ix_episodes_created", "episodes", ["created_at"])
    op.create_index("ix_episodes_state", "episodes", ["state"])
    op.create_table(
        "data_keys",
        sa.Column(
            "episode_id", sa.String(40), sa.ForeignKey("episodes.id", ondelete="CASCADE"), primary_key=True
        ),
        sa.Column("master_version", sa.Integer, nullable=False),
        sa.Column("wrapped", sa.LargeBinary, nullable=False),
    )
    op.create_table(
        "patient_facts",
        sa.Column("id", sa.String(40), primary_key=True),
        sa.Column("doctor_id", sa.String(128), nullable=False),
        sa.Column("patient_ref", sa.String(64), nullable=False),
        sa.Column("key_version", sa.Integer, nullable=False),
        sa.Column("category", sa.String(32), nullable=False),
        sa.Column("text_deid", sa.Text, nullable=False),
        sa.Column("source_episode_id", sa.String(40), sa.ForeignKey("episodes.id", ondelete="SET NULL")),
        sa.Column("recorded_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_patient_facts_doctor_patient", "patient_facts", ["doctor_id", "patient_ref"])
    op.create_table(
        "store_meta",
        sa.Column("key", sa.String(64), primary_key=True),
        sa.Column("value", sa.Text, nullable=False),
    )
    dialect = op.get_bind().dialect.name
    for statement in _SQLITE_FTS if dialect == "sqlite" else _POSTGRES_FTS if dialect == "postgresql" else []:
        op.execute(statement)


def downgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":
        op.execute("DROP TABLE episode_fts")
        op.execute("DROP TABLE episode_search")
    op.drop_table("store_meta")
    op.drop_table("patient_facts")
    op.drop_table("data_keys")
    op.drop_table("episodes")
