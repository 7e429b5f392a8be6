"""Retention purges: time travel, per-doctor policy, legal holds, facts, dry runs, the audit event."""

from __future__ import annotations

from datetime import timedelta

import pytest

from jarvis.audit.query import AuditQuery
from jarvis.errors import UnavailableError
from jarvis.memory.records import retention_store
from jarvis.memory.records.retention_store import Policy
from jarvis.memory.records.store import DELETING
from jarvis.memory.types import EpisodeDraft
from jobs import retention
from tests.jobs.conftest import Env

MRN, HELD_MRN = "00482913", "55510042"


def save(env: Env, doctor: str, query: str, patient: str | None = None, n: int = 1) -> list[str]:
    drafts = [EpisodeDraft(f"{query} {i}", "Noted, continue.", patient_id=patient) for i in range(n)]
    return env.memory.save_batch(doctor, drafts)


def visible(env: Env, doctor: str, ids: list[str]) -> set[str]:
    return set(env.memory.store.by_ids(doctor, ids))


def vector_ids(env: Env, doctor: str) -> set[str]:
    index = env.stores.index
    return set(index.contents(doctor, index.generation(doctor).current, vectors=False))


def test_time_travel_purges_only_what_is_past_its_doctors_policy(env: Env) -> None:
    old_a = save(env, "dr-a", "Potassium 6.1 on spironolactone", n=3)
    old_b = save(env, "dr-b", "DKA insulin infusion timing", n=2)
    env.clock.travel(days=60)
    new_a = save(env, "dr-a", "Cellulitis and cefazolin dosing")
    env.stores.retention.set_policy(Policy(90, {"dr-b": 120}), env.clock())

    assert retention.run(env.stores, env.audit, now=env.clock.travel(days=29)).deleted == 0  # day 89
    report = retention.run(env.stores, env.audit, now=env.clock.travel(days=2))  # day 91
    assert (report.candidates, report.deleted, report.held) == (3, 3, 0)
    assert report.cutoff == env.clock() - timedelta(days=90)
    assert visible(env, "dr-a", old_a + new_a) == set(new_a)
    assert vector_ids(env, "dr-a") == set(new_a) and vector_ids(env, "dr-b") == set(old_b)
    assert visible(env, "dr-b", old_b) == set(old_b)  # dr-b keeps 120 days
    assert retention.run(env.stores, env.audit, now=env.clock.travel(days=30)).deleted == 2
    assert env.memory.store.count() == 1
    assert retention.run(env.stores, env.audit, now=env.clock()).deleted == 0  # idempotent


def test_legal_holds_keep_episodes_and_facts_of_every_key_version(env: Env) -> None:
    held = save(env, "dr-a", "Anticoagulation plan", patient=HELD_MRN, n=2)
    save(env, "dr-b", "Anticoagulation review", patient=MRN)
    env.memory.add_fact("dr-a", HELD_MRN, "allergy", "Allergic to penicillin")
    env.memory.add_fact("dr-b", MRN, "allergy", "Allergic to sulfa")
    refs = [r.ref for r in env.memory.pseudonyms.refs_for(HELD_MRN)]
    assert env.stores.retention.add_hold(refs, env.clock())

    report = retention.run(env.stores, env.audit, now=env.clock.travel(days=91))
    assert (report.deleted, report.held, report.facts_deleted, report.facts_held) == (1, 2, 1, 1)
    assert visible(env, "dr-a", held) == set(held)
    assert [f.text for f in env.memory.facts("dr-a", HELD_MRN)] == ["Allergic to penicillin"]
    assert env.memory.facts("dr-b", MRN) == []  # safety facts expire like everything else

    assert env.stores.retention.remove_hold(refs)
    assert retention.run(env.stores, env.audit, now=env.clock()).deleted == 2
    assert env.memory.facts("dr-a", HELD_MRN) == []


def test_dry_run_changes_nothing_and_is_audited(env: Env) -> None:
    ids = save(env, "dr-a", "Hyponatraemia correction rate", n=4)
    env.memory.add_fact("dr-a", MRN, "medication", "Metformin 500 mg bid")
    report = retention.run(env.stores, env.audit, now=env.clock.travel(days=100), dry_run=True)
    assert (report.candidates, report.deleted, report.facts_deleted, report.dry_run) == (4, 0, 1, True)
    assert visible(env, "dr-a", ids) == set(ids) and vector_ids(env, "dr-a") == set(ids)
    assert env.stores.generations.get("dr-a").current == 0  # no compaction either
    events = env.audit.query(AuditQuery(limit=10)).events
    assert [(e.subtype, e.detail["dry_run"], e.detail["candidates"]) for e in events] == [
        ("retention.run", 1, 4)
    ]


def test_every_run_writes_one_audit_event_with_counts_and_no_content(env: Env) -> None:
    save(env, "dr-a", "Sepsis bundle timing", patient=MRN, n=2)
    report = retention.run(env.stores, env.audit, now=env.clock.travel(days=95), actor="ops-1", role="admin")
    [event] = env.audit.query(AuditQuery(limit=10)).events
    assert (event.action, event.subtype, event.actor, event.outcome) == (
        "D",
        "retention.run",
        "ops-1",
        "success",
    )
    assert event.detail["deleted"] == 2 and event.detail["cutoff_epoch"] == int(report.cutoff.timestamp())
    assert event.episode_ids == () and event.patient_refs == ()
    assert env.audit.verify()["ok"]


def test_marked_rows_left_by_an_interrupted_delete_are_finished(env: Env) -> None:
    ids = save(env, "dr-a", "Troponin repeat interval", n=2)
    env.memory.store.set_state(ids[:1], DELETING, env.clock())
    report = retention.run(env.stores, env.audit, now=env.clock())
    assert report.deleted == 1 and visible(env, "dr-a", ids) == {ids[1]}
    assert vector_ids(env, "dr-a") == {ids[1]}


@pytest.mark.parametrize("share", [0.0, 1.01], ids=["rebuilds-the-index", "row-by-row"])
def test_both_delete_paths_leave_the_full_text_index_exact(
    env: Env, share: float, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(retention_store, "REBUILD_SHARE", share)
    old = save(env, "dr-a", "Dalbavancin for osteomyelitis", n=3)
    env.clock.travel(days=60)
    kept = save(env, "dr-a", "Dalbavancin weekly dosing", n=2)
    report = retention.run(env.stores, env.audit, now=env.clock.travel(days=31))
    assert report.deleted == 3
    found = [e for e, _ in env.memory.store.lexical("dr-a", ["dalbavancin"], None, 10)]
    assert sorted(found) == sorted(kept)
    # The index keeps following the rows afterwards: the delete trigger is back in place.
    later = save(env, "dr-a", "Dalbavancin and vancomycin", n=1)
    env.memory.delete("dr-a", kept[0])
    found = [e for e, _ in env.memory.store.lexical("dr-a", ["dalbavancin"], None, 10)]
    assert sorted(found) == sorted([kept[1], *later])
    assert not set(old) & set(found)
    check_index(env)


def check_index(env: Env) -> None:
    """FTS5's own check that the index matches the rows of its content table (it raises when not)."""
    from sqlalchemy import text

    with env.memory.store.engine.begin() as connection:
        connection.execute(text("INSERT INTO episode_fts(episode_fts, rank) VALUES ('integrity-check', 1)"))


def test_a_failure_while_rebuilding_leaves_every_row_and_the_index_as_they_were(
    env: Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    from sqlalchemy import text

    monkeypatch.setattr(retention_store, "REBUILD_SHARE", 0.0)
    old = save(env, "dr-a", "Dalbavancin for osteomyelitis", n=3)
    with env.memory.store.engine.begin() as connection:  # the database refuses one of the deletes
        connection.execute(
            text(
                "CREATE TRIGGER refuse BEFORE DELETE ON data_keys WHEN old.episode_id = :e"
                " BEGIN SELECT RAISE(ABORT, 'refused'); END".replace(":e", f"'{old[1]}'")
            )
        )
    with pytest.raises(UnavailableError):
        retention.run(env.stores, env.audit, now=env.clock.travel(days=91))
    assert len(env.stores.retention.deleting()) == 3  # still marked: the next run finishes them
    with env.memory.store.engine.begin() as connection:
        connection.execute(text("DROP TRIGGER refuse"))
        triggers = {
            r[0] for r in connection.execute(text("SELECT name FROM sqlite_master WHERE type = 'trigger'"))
        }
        assert connection.execute(text("SELECT count(*) FROM episode_search")).scalar_one() == 3
    assert {"episode_search_ad", "episode_search_ai"} <= triggers
    check_index(env)
    assert retention.run(env.stores, env.audit, now=env.clock()).deleted == 3
    assert env.memory.store.count() == 0
