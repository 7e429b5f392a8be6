"""The agent loop end to end on real stores with the offline responder (DESIGN §1, §6)."""

from __future__ import annotations

import pytest

from jarvis.agent.loop import AskRequest
from jarvis.agent.models.base import ModelReply, Prompt
from jarvis.agent.models.offline import LABEL
from jarvis.agent.tokens import TokenCounter
from jarvis.errors import DeidentificationFailed, UnavailableError
from jarvis.memory.types import EpisodeDraft
from tests.jarvis.agent.conftest import AgentFactory

PATIENT, NAME = "00482913", "Gita Bhat"


def prompt_text(prompt: Prompt) -> str:
    return prompt.system_instruction + "\n" + "\n".join(c.text for c in prompt.contents)


def test_recall_across_sessions(make_agent: AgentFactory) -> None:
    agent, model = make_agent()
    first = agent.ask(
        AskRequest(
            "dr-a", f"{NAME} has a flare of gout on allopurinol, colchicine dose?", PATIENT, NAME, "s1"
        )
    )
    later = agent.ask(
        AskRequest("dr-a", "What did we discuss about this patient earlier?", PATIENT, session_id="s2")
    )
    assert later.session_id == "s2" and first.episode_id in {m.episode_id for m in later.memories}
    assert "colchicine" in prompt_text(model.prompts[-1]) and "colchicine" in later.answer
    assert (
        NAME not in prompt_text(model.prompts[-1]) and "Bhat" not in later.answer
    )  # the model sees no names


def test_old_allergy_is_in_context_despite_200_newer_episodes_and_a_tight_budget(
    make_agent: AgentFactory,
) -> None:
    agent, model = make_agent(budget=1_600)
    agent.ask(
        AskRequest(
            "dr-a", f"{NAME} is allergic to penicillin - anaphylaxis. Fever, what now?", PATIENT, NAME, "s1"
        )
    )
    assert agent.memory is not None
    topics = [
        "INR target",
        "fluids",
        "troponin timing",
        "seizure",
        "sodium correction",
        "statin dose",
        "DVT ppx",
    ]
    agent.memory.save_batch(
        "dr-a",
        [EpisodeDraft(f"Question {n} about {topics[n % 7]} in another patient", "Answer.", patient_id=f"P{n}")
         for n in range(200)],
    )  # fmt: skip
    result = agent.ask(
        AskRequest("dr-a", "Can I give amoxicillin for her sinusitis?", PATIENT, session_id="s9")
    )
    assert [(f.category.value, f.text) for f in result.safety_facts] == [
        ("allergy", "penicillin: anaphylaxis")
    ]
    assert "penicillin: anaphylaxis" in prompt_text(model.prompts[-1])
    assert "penicillin: anaphylaxis" in result.answer
    assert result.usage["estimated_input_tokens"] <= 1_600  # type: ignore[operator]


def test_a_60_turn_session_never_exceeds_the_budget(make_agent: AgentFactory) -> None:
    agent, model = make_agent(budget=2_000)
    counter = TokenCounter()
    for turn in range(60):
        question = f"Turn {turn}: " + " ".join(
            ["the patient's potassium and creatinine trend"] * (1 + turn % 5)
        )
        result = agent.ask(AskRequest("dr-a", question, PATIENT, session_id="long"))
        sent = counter.count(prompt_text(model.prompts[-1]))
        assert sent <= 2_000, f"turn {turn}: {sent} tokens"
        assert result.usage["estimated_input_tokens"] <= 2_000  # type: ignore[operator]
    assert result.usage["dropped_turns"]  # the window slid
    # The newest turn is always there, even when older ones were dropped.
    assert "Turn 58" in prompt_text(model.prompts[-1])


def test_several_questions_get_a_checklist_and_a_larger_output_budget(make_agent: AgentFactory) -> None:
    agent, model = make_agent(max_output_tokens=500, checklist_output_tokens=1500)
    agent.ask(AskRequest("dr-a", "check vitals, any allergies? current meds? when did it start?"))
    assert model.prompts[-1].max_output_tokens == 1500
    assert "numbered checklist" in model.prompts[-1].contents[-1].text
    agent.ask(AskRequest("dr-a", "what is the vancomycin dose in AKI?"))
    assert model.prompts[-1].max_output_tokens == 500


def test_facts_stated_now_are_used_at_once_and_kept(make_agent: AgentFactory) -> None:
    agent, model = make_agent()
    result = agent.ask(
        AskRequest("dr-a", "NKDA. On warfarin 5 mg daily. INR 3.4, hold?", PATIENT, session_id="s1")
    )
    assert {f.text for f in result.safety_facts} == {"no known drug allergies", "warfarin 5 mg daily"}
    assert agent.memory is not None
    stored = agent.memory.facts("dr-a", PATIENT)
    assert {f.text for f in stored} == {"no known drug allergies", "warfarin 5 mg daily"}
    assert all(f.source_episode_id == result.episode_id for f in stored)


def test_index_down_answers_without_memory_and_says_so(make_agent: AgentFactory) -> None:
    agent, _ = make_agent()
    agent.ask(AskRequest("dr-a", f"{NAME} is allergic to sulfa (rash). UTI?", PATIENT, NAME))
    assert agent.memory is not None

    def down(*_args: object, **_kwargs: object) -> None:
        raise UnavailableError("vector index unavailable (ConnectionError)")

    agent.memory.index.query = down  # type: ignore[method-assign]
    agent.memory.index.upsert = down  # type: ignore[method-assign]
    result = agent.ask(AskRequest("dr-a", "Trimethoprim-sulfamethoxazole for her UTI?", PATIENT))
    assert result.degraded and result.memories == [] and result.episode_id is None
    assert [f.text for f in result.safety_facts] == ["sulfa: rash"]  # the record store still answers
    assert agent.memory.store.count("dr-a") == 1


def test_model_down_is_an_error_and_nothing_is_saved(make_agent: AgentFactory) -> None:
    class DownModel:
        model_id = "gemini-2.5-flash"

        def generate(self, _prompt: Prompt) -> ModelReply:
            raise UnavailableError("model unavailable (HTTP 503)")

    agent, _ = make_agent(model=DownModel())
    with pytest.raises(UnavailableError, match="model unavailable"):
        agent.ask(AskRequest("dr-a", "Dose of cefepime in AKI?", PATIENT))
    assert agent.memory is not None and agent.memory.store.count() == 0


def test_a_failure_after_the_save_takes_the_episode_back(make_agent: AgentFactory) -> None:
    """The record store failing between the save and the end of the ask (here, the summaries): the
    ask is an error, so its episode must not stay behind (it would be saved but never audited)."""
    agent, _ = make_agent()
    assert agent.memory is not None and agent.summaries is not None

    def down(*_args: object, **_kwargs: object) -> None:
        raise UnavailableError("record store unavailable (OperationalError)")

    agent.summaries.refresh = down  # type: ignore[method-assign]
    with pytest.raises(UnavailableError):
        agent.ask(AskRequest("dr-a", "Dose of cefepime in AKI?", PATIENT))
    assert agent.memory.store.count() == 0 and agent.memory.index.count() == 0


def test_memory_disabled_runs_the_loop_without_retrieval_or_saving(deid: object) -> None:
    from jarvis.agent.context import Budget
    from jarvis.agent.loop import Agent, AgentConfig
    from jarvis.agent.models.offline import OfflineResponder

    agent = Agent(memory=None, deid=deid, model=OfflineResponder(), config=AgentConfig(budget=Budget(6000)))  # type: ignore[arg-type]
    result = agent.ask(AskRequest("dr-a", f"{NAME}: dose of cefepime?", PATIENT, NAME))
    assert result.episode_id is None and result.memories == [] and not result.degraded
    assert result.answer.startswith(LABEL) and "Bhat" not in result.answer


def test_deid_failure_sends_nothing_to_the_model(
    make_agent: AgentFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    from deid import DeidError

    agent, model = make_agent()

    def broken(*_a: object, **_k: object) -> None:
        raise DeidError("failed")

    monkeypatch.setattr(agent.deid, "deidentify", broken)
    with pytest.raises(DeidentificationFailed):
        agent.ask(AskRequest("dr-a", f"{NAME}: dose?", PATIENT, NAME))
    assert model.prompts == []


def test_saved_episode_records_the_exchange(make_agent: AgentFactory) -> None:
    agent, _ = make_agent()
    result = agent.ask(AskRequest("dr-a", f"{NAME}: cefepime dose in AKI?", PATIENT, NAME, "s1"))
    assert agent.memory is not None and result.episode_id is not None
    episode = agent.memory.get("dr-a", result.episode_id)
    assert episode.query.startswith(NAME) and episode.patient_name == NAME and episode.seq == 1
    assert episode.summary == "Q: [NAME]: cefepime dose in AKI?"
    assert result.model == "offline" and result.usage["input_tokens"]


def test_the_patients_own_episodes_come_first_whatever_their_similarity(make_agent: AgentFactory) -> None:
    agent, _ = make_agent()
    assert agent.memory is not None
    own = agent.memory.save(
        "dr-a", EpisodeDraft("Colchicine dose for acute gout?", "0.5 mg bd.", patient_id=PATIENT)
    )
    agent.memory.save_batch(
        "dr-a",
        [
            EpisodeDraft(f"Amoxicillin for sinusitis, case {n}?", "Yes.", patient_id=f"P{n}")
            for n in range(12)
        ],
    )
    result = agent.ask(AskRequest("dr-a", "Amoxicillin for her sinusitis?", PATIENT))
    assert result.memories[0].episode_id == own
    assert len(result.memories) == 5  # the rest are the most similar of everyone's
