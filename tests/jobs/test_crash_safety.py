"""Crash injection: a run killed between any two steps is finished by the next one, and search
never misses a retained episode meanwhile (compaction switches generations, never empties one)."""

from __future__ import annotations

import pytest

from jarvis.memory.types import EpisodeDraft
from jobs import retention
from jobs.erasure import erase_patient
from tests.jobs.conftest import Env, invariants

STEPS = [
    "marked",
    "building",
    "copied",
    "switched",
    "dropped",
    "vectors_deleted",
    "rows_deleted",
    "facts_deleted",
]
MRN = "00482913"


class Crash(BaseException):
    """Stands for a kill: not an Exception, so nothing on the way may swallow it."""


def crash_at(step: str) -> retention.Step:
    def hook(name: str) -> None:
        if name == step:
            raise Crash(step)

    return hook


def populate(env: Env) -> tuple[list[str], list[str]]:
    drafts = [
        EpisodeDraft(f"Urosepsis plan {i}", "Cefepime after cultures.", patient_id=MRN) for i in range(3)
    ]
    old = env.memory.save_batch("dr-a", drafts)
    old += env.memory.save_batch("dr-b", [EpisodeDraft("Hyperkalaemia on spironolactone", "Stop it.")])
    env.memory.add_fact("dr-a", MRN, "allergy", "Allergic to penicillin")
    env.clock.travel(days=60)
    new = env.memory.save_batch("dr-a", [EpisodeDraft("Cellulitis and cefazolin", "Continue cefazolin.")])
    env.clock.travel(days=31)
    return old, new


def findable(env: Env, doctor: str, episode_id: str) -> bool:
    hits = env.memory.search(doctor, "cellulitis cefazolin", k=5, min_similarity=None)
    return episode_id in {h.episode_id for h in hits}


@pytest.mark.parametrize("step", STEPS)
def test_a_run_killed_at_any_step_is_finished_by_the_next(env: Env, step: str) -> None:
    old, new = populate(env)
    with pytest.raises(Crash):
        retention.run(env.stores, env.audit, now=env.clock(), step=crash_at(step))
    assert findable(env, "dr-a", new[0])
    assert env.memory.store.by_ids("dr-a", old) == {}  # marked rows are hidden at once
    report = retention.run(env.stores, env.audit, now=env.clock())  # the lock was released
    rows_gone = STEPS.index(step) >= STEPS.index("copied")  # deleted alongside the copy
    assert report.deleted == (0 if rows_gone else len(old))
    invariants(env)
    assert env.memory.facts("dr-a", MRN) == []
    assert findable(env, "dr-a", new[0])


@pytest.mark.parametrize("step", ["marked", "copied", "switched"])
def test_an_erasure_killed_half_way_is_finished_by_the_next_run(env: Env, step: str) -> None:
    old, new = populate(env)
    refs = [r.ref for r in env.memory.pseudonyms.refs_for(MRN)]
    with pytest.raises(Crash):
        erase_patient(env.stores, env.audit, refs, now=env.clock(), step=crash_at(step))
    erase_patient(env.stores, env.audit, refs, now=env.clock())
    invariants(env)
    assert env.memory.history("dr-a", MRN) == [] and env.memory.facts("dr-a", MRN) == []
    assert set(env.memory.store.by_ids("dr-b", old)) == {old[-1]}


def test_search_finds_retained_episodes_at_every_step_of_a_run(env: Env) -> None:
    _, new = populate(env)
    seen: list[str] = []

    def check(name: str) -> None:
        env.stores.index.forget_generation("dr-a")  # as another process would, once its cache expires
        assert findable(env, "dr-a", new[0]), name
        seen.append(name)

    retention.run(env.stores, env.audit, now=env.clock(), step=check)
    assert seen == STEPS


def test_a_save_during_compaction_reaches_both_generations(env: Env) -> None:
    populate(env)
    saved: list[str] = []

    def save_midway(name: str) -> None:
        if name == "building":
            saved.extend(
                env.memory.save_batch("dr-a", [EpisodeDraft("Cellulitis follow-up", "Switch to oral.")])
            )

    retention.run(env.stores, env.audit, now=env.clock(), step=save_midway)
    invariants(env)
    assert findable(env, "dr-a", saved[0])
