"""MemoryService on real SQLite and embedded Chroma: saving, reading, outcomes, deletion, isolation."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from jarvis.errors import InputError, InputTooLargeError, NotFoundError
from jarvis.memory.service import MemoryService
from jarvis.memory.types import EpisodeDraft, Outcome
from tests.jarvis.memory.factories import DKA, HYPERKALEMIA, SEPSIS, at, draft


def test_saved_episode_reads_back_decrypted_for_its_owner(memory: MemoryService) -> None:
    episode_id = memory.save("dr-a", SEPSIS, doctor_name="Helen Healey")
    episode = memory.get("dr-a", episode_id)
    assert episode.query == SEPSIS.query and episode.response == SEPSIS.response
    assert episode.patient_name == "Gita Bhat"
    assert "Bhat" not in episode.query_deid and "00482913" not in episode.query_deid
    assert "[NAME]" in episode.query_deid and "cefepime" in episode.response_deid
    assert episode.patient_ref is not None and "00482913" not in episode.patient_ref
    assert {"sepsis", "cefepime", "vancomycin", "lactate"} <= set(episode.tags)
    assert episode.summary.startswith("Q: ") and "Bhat" not in episode.summary


def test_given_summary_is_deidentified_too(memory: MemoryService) -> None:
    episode_id = memory.save("dr-a", draft("q about Gita", "a", summary="Gita Bhat improved on cefepime"))
    assert memory.get("dr-a", episode_id).summary == "[NAME] improved on cefepime"


def test_sequence_numbers_count_per_session(memory: MemoryService) -> None:
    first = memory.save_batch("dr-a", [draft("one", session_id="s1"), draft("two", session_id="s1")])
    other = memory.save("dr-a", draft("three", session_id="s2"))
    later = memory.save("dr-a", draft("four", session_id="s1"))
    assert [memory.get("dr-a", e).seq for e in first] == [1, 2]
    assert memory.get("dr-a", other).seq == 1
    assert memory.get("dr-a", later).seq == 3
    # Another doctor's session of the same name is another session.
    assert memory.get("dr-b", memory.save("dr-b", draft("x", session_id="s1"))).seq == 1


def test_history_is_the_patients_episodes_newest_first(memory: MemoryService) -> None:
    old = memory.save(
        "dr-a", draft("old visit", patient_id="P-1", created_at=at("2025-01-05T10:00:00+00:00"))
    )
    new = memory.save("dr-a", draft("new visit", patient_id="p1", created_at=at("2025-03-05T10:00:00+00:00")))
    memory.save("dr-a", draft("other patient", patient_id="P-2"))
    memory.save("dr-b", draft("same patient, other doctor", patient_id="P-1"))
    assert [e.episode_id for e in memory.history("dr-a", "P1")] == [new, old]


def test_outcome_is_recorded_with_a_deidentified_note(memory: MemoryService) -> None:
    episode_id = memory.save("dr-a", HYPERKALEMIA)
    memory.set_outcome("dr-a", episode_id, "modified", note="Gave Lokelma instead, per Dr Chen")
    episode = memory.get("dr-a", episode_id)
    assert episode.outcome is Outcome.MODIFIED and episode.outcome_at is not None
    assert episode.outcome_note is not None and "Chen" not in episode.outcome_note


def test_unknown_outcome_is_refused(memory: MemoryService) -> None:
    episode_id = memory.save("dr-a", HYPERKALEMIA)
    with pytest.raises(InputError, match="outcome must be"):
        memory.set_outcome("dr-a", episode_id, "maybe")
    assert memory.get("dr-a", episode_id).outcome is None


def test_deleted_episode_is_gone_from_records_and_index(memory: MemoryService) -> None:
    episode_id = memory.save("dr-a", DKA)
    memory.delete("dr-a", episode_id)
    with pytest.raises(NotFoundError):
        memory.get("dr-a", episode_id)
    assert memory.index.vectors("dr-a", [episode_id]) == {}
    assert memory.search("dr-a", "insulin drip in DKA", min_similarity=None) == []
    with pytest.raises(NotFoundError):
        memory.delete("dr-a", episode_id)


def test_every_read_path_is_scoped_to_the_doctor(memory: MemoryService) -> None:
    theirs = memory.save("dr-b", SEPSIS)
    memory.add_fact("dr-b", "00482913", "allergy", "penicillin: anaphylaxis")
    for attempt in (
        lambda: memory.get("dr-a", theirs),
        lambda: memory.set_outcome("dr-a", theirs, "accepted"),
        lambda: memory.delete("dr-a", theirs),
    ):
        with pytest.raises(NotFoundError, match="episode not found"):  # same as a missing id: 404, not 403
            attempt()
    assert memory.history("dr-a", "00482913") == []
    assert memory.facts("dr-a", "00482913") == []
    assert memory.search("dr-a", "urosepsis antibiotics", min_similarity=None) == []
    assert memory.search("dr-a", "urosepsis antibiotics", patient_id="00482913", min_similarity=None) == []
    # ... while the owner still sees everything, untouched by the attempts.
    assert memory.get("dr-b", theirs).outcome is None
    assert [h.episode_id for h in memory.search("dr-b", "urosepsis antibiotics")] == [theirs]


def test_search_finds_by_meaning_above_the_threshold(memory: MemoryService) -> None:
    ids = memory.save_batch("dr-a", [SEPSIS, HYPERKALEMIA, DKA])
    hits = memory.search("dr-a", "high potassium on an ACE inhibitor and spironolactone", k=3)
    assert hits[0].episode_id == ids[1]
    assert all(h.score >= 0.25 for h in hits)
    assert memory.search("dr-a", "recipe for sourdough bread", min_similarity=0.5) == []


def test_patient_filter_keeps_only_that_patients_episodes(memory: MemoryService) -> None:
    mine = memory.save("dr-a", draft("sepsis antibiotics choice", patient_id="P-7"))
    memory.save("dr-a", draft("sepsis antibiotics choice again", patient_id="P-8"))
    hits = memory.search("dr-a", "sepsis antibiotics", patient_id="P7", min_similarity=None)
    assert [h.episode_id for h in hits] == [mine]


def test_one_search_gives_the_general_hits_and_the_patients_own_first(memory: MemoryService) -> None:
    """The agent's retrieval: the doctor's best hits for the question, the patient's boosted, and
    the patient's own best even when none of them is near the question (found by their own query)."""
    others = memory.save_batch(
        "dr-a",
        [
            draft(f"Sepsis: which antibiotics after cultures, case {i}?", patient_id=f"P-{i}")
            for i in range(12)
        ],
    )
    theirs = memory.save("dr-a", draft("Knee pain after a fall, x-ray normal.", patient_id="P-77"))
    elsewhere = memory.save("dr-b", draft("Knee pain after a fall, x-ray normal.", patient_id="P-77"))
    refs = [r.ref for r in memory.pseudonyms.refs_for("P-77")]
    vector = memory.embedder.embed_query("sepsis antibiotics after cultures")
    general, patient = memory.retriever.search_with_patient(
        "dr-a",
        "sepsis antibiotics after cultures",
        refs,
        k=5,
        patient_k=3,
        min_similarity=0.25,
        vector=vector,
    )
    assert [h.episode_id for h in patient] == [theirs]  # whatever its similarity
    assert len(general) == 5 and {h.episode_id for h in general} <= set(others)
    assert elsewhere not in {h.episode_id for h in general + patient}
    alone = memory.retriever.search("dr-a", "sepsis antibiotics after cultures", k=5, vector=vector)
    assert [h.episode_id for h in alone] == [h.episode_id for h in general]  # the same ranking


def test_accepted_advice_ranks_above_rejected_advice(memory: MemoryService) -> None:
    question = "Anticoagulation for new atrial fibrillation with CHA2DS2-VASc 3?"
    rejected, accepted = memory.save_batch(
        "dr-a",
        [
            draft(question, "Start warfarin with INR goal 2-3."),
            draft(question, "Start apixaban 5 mg twice daily."),
        ],
    )
    before = memory.search("dr-a", "blood thinner for afib", k=2, min_similarity=None)
    assert {h.episode_id for h in before} == {rejected, accepted}
    memory.set_outcome("dr-a", rejected, "rejected")
    memory.set_outcome("dr-a", accepted, "accepted")
    after = memory.search("dr-a", "blood thinner for afib", k=2, min_similarity=None)
    assert [h.episode_id for h in after] == [accepted, rejected]
    # No query term occurs in either episode, so the scores are the cosine plus the outcome weights.
    assert after[0].score == pytest.approx(after[0].similarity + 0.05, abs=1e-3)
    assert after[1].score == pytest.approx(after[1].similarity - 0.10, abs=1e-3)
    assert after[1].outcome is Outcome.REJECTED


def test_rare_exact_term_is_found_through_the_lexical_index(memory: MemoryService) -> None:
    target = memory.save(
        "dr-a", draft("Is dalbavancin reasonable for outpatient osteomyelitis?", "Yes, 1500 mg twice.")
    )
    memory.save_batch(
        "dr-a",
        [
            draft(f"Outpatient antibiotics for bone infection, option {n}?", "Use oral agents.")
            for n in range(8)
        ],
    )
    hybrid = memory.search("dr-a", "dalbavancin", k=3, min_similarity=None)
    assert hybrid[0].episode_id == target
    assert hybrid[0].score == pytest.approx(hybrid[0].similarity + 0.25, abs=1e-3)  # the full lexical weight


@pytest.mark.parametrize(
    ("bad", "error", "message"),
    [
        (draft(""), InputError, "episode 1: query is empty"),
        (draft("   \n"), InputError, "query is empty"),
        (draft("x" * 8_001), InputTooLargeError, "query is longer than 8000"),
        (draft("q", "r" * 32_001), InputTooLargeError, "response is longer"),
        (
            draft("q", created_at=datetime.now(UTC) + timedelta(days=1)),
            InputError,
            "created_at is in the future",
        ),
        (draft("q", confidence=1.5), InputError, "confidence"),
        (draft("q", session_id="no spaces allowed"), InputError, "session_id"),
        (draft("q", patient_id=""), InputError, "patient id is empty"),
        (draft("q", patient_id="12;DROP"), InputError, "patient id must be"),
        (draft("q", patient_name="Gita"), InputError, "needs a patient id"),
    ],
)
def test_bad_input_is_refused_and_nothing_is_stored(
    memory: MemoryService, bad: EpisodeDraft, error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=message) as raised:
        memory.save_batch("dr-a", [draft("a fine episode"), bad])
    assert "Gita" not in str(raised.value)
    assert memory.store.count() == 0 and memory.index.count() == 0


def test_batches_hold_1_to_500_episodes(memory: MemoryService) -> None:
    with pytest.raises(InputTooLargeError, match="at most 500"):
        memory.save_batch("dr-a", [draft(f"q{n}") for n in range(501)])
    with pytest.raises(InputError, match="at least one"):
        memory.save_batch("dr-a", [])
    assert memory.store.count() == 0


def test_bad_search_input_is_refused(memory: MemoryService) -> None:
    for query, k in (("", 5), ("x" * 8_001, 5), ("ok", 0), ("ok", 51)):
        with pytest.raises(InputError):
            memory.search("dr-a", query, k=k)
    with pytest.raises(InputError, match="doctor id"):
        memory.search("", "ok")


def test_each_doctor_has_a_collection_and_queries_stay_inside_it(memory: MemoryService) -> None:
    memory.save("dr-a", HYPERKALEMIA)
    memory.save("dr-b", HYPERKALEMIA)
    index = memory.index
    assert index.collection_name("dr-a") != index.collection_name("dr-b")  # type: ignore[attr-defined]
    assert "dr-a" not in index.collection_name("dr-a")  # type: ignore[attr-defined]
    assert index.query(memory.embedder.embed_query("potassium"), "dr-c", 5) == []  # no collection: no hits
    assert index.count() == 2
