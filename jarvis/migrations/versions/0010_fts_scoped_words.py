"""SQLite full-text index: every word in its doctor's scope, the patient's scope in `owner`.

0003 matched the terms in everyone's posting lists and intersected them with the doctor's owner
token, so a search read the whole hospital's postings of each term; its bm25 statistics were the
hospital's too. The index is now given each word with the doctor's scope token in front of it
(jarvis/memory/records/fulltext.py), so a term's postings are one doctor's, and `owner` holds the
patient's scope token, so a patient filter is part of the match. The stored rows are rewritten and
the index is rebuilt from them.

The rewrite uses the functions the application indexes with (indexed_body, indexed_owner): a later
change of those needs a migration of its own, as this one is. The downgrade rebuilds 0003's rows
from the episodes' de-identified text.

Revision ID: 0010
Revises: 0009
"""

from __future__ import annotations

from alembic import op
from sqlalchemy import text

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None

_BATCH = 5_000


def upgrade() -> None:
    bind = op.get_bind()
    if bind.dialect.name != "sqlite":
        return  # PostgreSQL filters by doctor_id with its own index before ranking
    from jarvis.memory.records.fulltext import indexed_body, indexed_owner

    # The index follows episode_search through its triggers, which a rewrite in place would
    # confuse: empty the index first, rewrite the rows, then rebuild it from them.
    op.execute("INSERT INTO episode_fts(episode_fts) VALUES ('delete-all')")
    last = 0
    while True:
        rows = bind.execute(
            text(
                "SELECT s.id, s.doctor_id, s.body, e.patient_ref FROM episode_search s"
                " JOIN episodes e ON e.id = s.episode_id WHERE s.id > :last ORDER BY s.id LIMIT :n"
            ),
            {"last": last, "n": _BATCH},
        ).all()
        if not rows:
            break
        bind.execute(
            text("UPDATE episode_search SET body = :b, owner = :o WHERE id = :i"),
            [
                {"i": r.id, "b": indexed_body(r.doctor_id, r.body), "o": indexed_owner(r.patient_ref)}
                for r in rows
            ],
        )
        last = rows[-1].id
    op.execute("INSERT INTO episode_fts(episode_fts) VALUES ('rebuild')")


def downgrade() -> None:
    if op.get_bind().dialect.name != "sqlite":
        return
    # Back to 0003's rows: the text as the store writes it (summary, question, answer) and the
    # doctor's owner token.
    for statement in (
        "INSERT INTO episode_fts(episode_fts) VALUES ('delete-all')",
        "UPDATE episode_search SET owner = 'd' || lower(hex(doctor_id)), body = (SELECT e.summary"
        " || char(10) || e.query_deid || char(10) || e.response_deid FROM episodes e"
        " WHERE e.id = episode_search.episode_id)",
        "INSERT INTO episode_fts(episode_fts) VALUES ('rebuild')",
    ):
        op.execute(statement)
