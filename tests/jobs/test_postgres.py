"""The retention path on PostgreSQL: policy, holds, purge, VACUUM outside a transaction, erasure."""

from __future__ import annotations

import time

from sqlalchemy import Engine, text

from jarvis.memory.records.retention_store import Policy
from jarvis.memory.types import EpisodeDraft
from jobs import retention
from jobs.erasure import erase_patient
from tests.jobs.conftest import EnvFactory, invariants

MRN, HELD = "00482913", "55510042"


def vacuumed(engine: Engine, table: str) -> bool:
    """The statistics collector reports a manual VACUUM of the table (its reports lag a little)."""
    for _ in range(50):
        with engine.connect() as connection:
            found = connection.execute(
                text("SELECT vacuum_count FROM pg_stat_user_tables WHERE relname = :t"), {"t": table}
            )
            if found.scalar():
                return True
        time.sleep(0.1)
    return False


def test_retention_and_erasure_on_postgres(make_env: EnvFactory, fresh_postgres: str) -> None:
    env = make_env(fresh_postgres)
    save = env.memory.save_batch
    save("dr-a", [EpisodeDraft(f"Urosepsis plan {i}", "Cefepime.", patient_id=MRN) for i in range(2)])
    held = save("dr-b", [EpisodeDraft("Anticoagulation", "Apixaban.", patient_id=HELD)])
    env.memory.add_fact("dr-b", HELD, "allergy", "Allergic to penicillin")
    env.stores.retention.add_hold([r.ref for r in env.memory.pseudonyms.refs_for(HELD)], env.clock())
    env.stores.retention.set_policy(Policy(90, {"dr-c": 10}), env.clock())
    assert env.stores.retention.policy(30) == Policy(90, {"dr-c": 10})
    env.clock.travel(days=60)
    new = save("dr-a", [EpisodeDraft("Cellulitis", "Cefazolin.", patient_id=MRN)])

    report = retention.run(env.stores, env.audit, now=env.clock.travel(days=31))
    assert (report.deleted, report.held, report.facts_held) == (2, 1, 1)
    invariants(env)
    assert vacuumed(env.memory.store.engine, "episodes")
    assert set(env.memory.store.by_ids("dr-b", held)) == set(held)

    erased = erase_patient(
        env.stores, env.audit, [r.ref for r in env.memory.pseudonyms.refs_for(MRN)], now=env.clock()
    )
    assert (erased.episodes, erased.doctors) == (1, 1)
    assert env.memory.store.by_ids("dr-a", new) == {}
    invariants(env)
    assert env.audit.verify()["ok"]
