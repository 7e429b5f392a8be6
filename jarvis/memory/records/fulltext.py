"""Lexical search over de-identified episode text: SQLite FTS5 (bm25) or PostgreSQL full-text.

The caller passes plain terms; they are reduced to letters and digits here and OR-ed, so no
user text ever reaches the query syntax of either engine. Scores are "higher is better" within
one result list; ranking normalises them, so the two engines' scales never need to agree.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from sqlalchemy import bindparam, text
from sqlalchemy.orm import Session

_TERM = re.compile(r"[^\w]+", re.UNICODE)
MAX_TERMS = 32


def owner_token(doctor_id: str) -> str:
    """The doctor as one FTS5 token (letters and digits only, whatever the id's characters)."""
    return "d" + doctor_id.encode().hex()


def clean_terms(terms: Sequence[str]) -> list[str]:
    cleaned: list[str] = []
    for term in terms:
        for part in _TERM.split(term.lower()):
            if part and part not in cleaned:
                cleaned.append(part)
    return cleaned[:MAX_TERMS]


def lexical_search(
    session: Session, doctor_id: str, terms: Sequence[str], patient_refs: Sequence[str] | None, limit: int
) -> list[tuple[str, float]]:
    cleaned = clean_terms(terms)
    if not cleaned:
        return []
    dialect = session.get_bind().dialect.name
    patient_clause = " AND e.patient_ref IN :refs" if patient_refs is not None else ""
    if dialect == "sqlite":
        # The doctor is part of the MATCH (owner column, weight 0 in bm25), so FTS5 intersects the
        # doctor's postings with the terms; the doctor_id comparison after it is defence in depth.
        # Without a patient filter the best matches are taken first and only they are joined (with
        # room for the few rows that are not committed): joining every match before the sort cost
        # 30% more. A patient filter keeps few of the doctor's matches, so it must see them all.
        matches = (
            "(SELECT rowid AS id, -bm25(episode_fts, 1.0, 0.0) AS score FROM episode_fts"
            " WHERE episode_fts MATCH :q"
            f"{' ORDER BY score DESC LIMIT :inner' if patient_refs is None else ''}) f"
        )
        sql = (
            f"SELECT s.episode_id, f.score FROM {matches}"
            " JOIN episode_search s ON s.id = f.id JOIN episodes e ON e.id = s.episode_id"
            " WHERE s.doctor_id = :doctor AND e.state = 'committed'"
            f"{patient_clause} ORDER BY f.score DESC LIMIT :limit"
        )
        terms = " OR ".join(f'"{term}"' for term in cleaned)
        query = f"owner : {owner_token(doctor_id)} AND body : ({terms})"
    elif dialect == "postgresql":
        sql = (
            "SELECT e.id, ts_rank_cd(e.search_vector, q) AS score"
            " FROM episodes e, to_tsquery('english', :q) q"
            " WHERE e.doctor_id = :doctor AND e.state = 'committed' AND e.search_vector @@ q"
            f"{patient_clause} ORDER BY score DESC LIMIT :limit"
        )
        query = " | ".join(cleaned)
    else:  # pragma: no cover - make_engine only builds the two
        return []
    statement = text(sql)
    params: dict[str, object] = {"q": query, "doctor": doctor_id, "limit": limit}
    if ":inner" in sql:
        params["inner"] = limit * 2
    if patient_refs is not None:
        if not patient_refs:
            return []
        statement = statement.bindparams(bindparam("refs", expanding=True))
        params["refs"] = list(patient_refs)
    return [(str(row[0]), float(row[1])) for row in session.execute(statement, params)]
