"""The loop with the real google-genai SDK against the fake Gemini API: tool rounds and summaries."""

from __future__ import annotations

from typing import Any

from jarvis.agent.loop import AskRequest
from jarvis.agent.models.gemini import GeminiChatModel
from jarvis.agent.models.offline import OfflineResponder
from jarvis.agent.summaries import Summaries
from jarvis.memory.types import EpisodeDraft
from tests.fakes.gemini_server import FakeGeminiServer, ScriptedReply
from tests.jarvis.agent.conftest import AgentFactory


def gemini(server: FakeGeminiServer) -> GeminiChatModel:
    return GeminiChatModel(api_key=server.api_key, base_url=server.base_url, timeout=5.0)


def test_a_tool_round_searches_memory_and_is_recorded_on_the_episode(
    make_agent: AgentFactory, gemini_server: FakeGeminiServer
) -> None:
    model = gemini(gemini_server)
    agent, _ = make_agent(model=model)
    assert agent.memory is not None
    agent.memory.save("dr-a", EpisodeDraft("Colchicine dose for acute gout?", "0.5 mg bd for a flare."))
    gemini_server.reply_next(
        ScriptedReply.call("search_memory", {"query": "colchicine gout"}, id="call-1"),
        ScriptedReply(text="On a previous occasion you used colchicine 0.5 mg bd."),
    )
    result = agent.ask(AskRequest("dr-a", "Gout again, what did I use last time?", "P-1"))
    assert result.answer == "On a previous occasion you used colchicine 0.5 mg bd."
    assert result.tools_used == ["search_memory"] and result.usage["tool_rounds"] == 1
    assert result.tool_reads  # the episodes the tool showed the model are named for the audit event
    generate = [r for r in gemini_server.requests if r.path.endswith(":generateContent")]
    assert len(generate) == 2
    last_turn = generate[1].body["contents"][-1]
    response = last_turn["parts"][0]["functionResponse"]
    assert response["name"] == "search_memory" and response["id"] == "call-1"
    assert "0.5 mg bd" in str(response["response"])
    assert agent.memory.get("dr-a", str(result.episode_id)).tools_used == ["search_memory"]
    declared = {d["name"] for d in generate[0].body["tools"][0]["functionDeclarations"]}
    assert declared == {"search_memory", "patient_history", "record_patient_fact"}
    model.close()


def test_usage_reports_the_models_counts_including_cached_tokens(
    make_agent: AgentFactory, gemini_server: FakeGeminiServer
) -> None:
    model = gemini(gemini_server)
    agent, _ = make_agent(model=model)
    agent.ask(AskRequest("dr-a", "First question about sodium correction?", session_id="s"))
    second = agent.ask(AskRequest("dr-a", "Second question about potassium?", session_id="s"))
    assert second.model.startswith("gemini") and second.usage["input_tokens"]
    assert second.usage["cached_tokens"]  # the fake's prefix cache saw the shared system instruction
    model.close()


def test_summaries_are_regenerated_every_n_episodes_and_reused_in_between(make_agent: AgentFactory) -> None:
    agent, _ = make_agent()
    memory = agent.memory
    assert memory is not None
    summaries = Summaries(memory.store, OfflineResponder(), every=5)

    def save(n: int) -> None:
        memory.save_batch(
            "dr-a", [EpisodeDraft(f"sepsis question {i}", "answer", session_id="s") for i in range(n)]
        )
        summaries.refresh("dr-a", "s")

    save(4)
    assert summaries.current("dr-a", "s") == (None, None)
    save(1)
    first: Any = summaries.current("dr-a", "s")
    assert first[0].startswith("5 interactions") and "sepsis" in first[0] and first[1]
    save(4)
    assert summaries.current("dr-a", "s") == first  # byte-identical in between: the prefix stays cached
    save(1)
    assert summaries.current("dr-a", "s")[0].startswith("10 interactions")


def test_when_one_summary_is_due_the_other_is_brought_up_to_date_with_it(make_agent: AgentFactory) -> None:
    """The doctor summary and the session milestones share part 2 of the prompt: regenerated
    together, the prompt prefix changes once instead of twice a few turns apart."""
    agent, _ = make_agent()
    memory = agent.memory
    assert memory is not None
    summaries = Summaries(memory.store, OfflineResponder(), every=5)
    memory.save_batch("dr-a", [EpisodeDraft(f"earlier sepsis question {i}", "answer") for i in range(3)])

    def turn(i: int) -> tuple[str | None, str | None]:
        memory.save_batch("dr-a", [EpisodeDraft(f"potassium question {i}", "answer", session_id="s")])
        summaries.refresh("dr-a", "s")
        return summaries.current("dr-a", "s")

    assert turn(0) == (None, None)
    doctor, milestones = turn(1)  # the doctor's 5th episode, the session's 2nd
    assert doctor is not None and doctor.startswith("5 interactions") and milestones is None
    assert turn(2) == turn(3) == (doctor, None)
    doctor, milestones = turn(4)  # the session's 5th: its milestones are due, the doctor's comes along
    assert doctor is not None and doctor.startswith("8 interactions") and milestones is not None
    # Next change: 5 episodes after the last regeneration (the doctor's 13th), not at its 10th.
    assert turn(5) == turn(6) == turn(7) == turn(8) == (doctor, milestones)
    assert turn(9)[0] != doctor
