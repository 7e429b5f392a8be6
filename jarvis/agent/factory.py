"""Build the agent from settings: Gemini when a key is configured, the offline responder otherwise."""

from __future__ import annotations

from deid import Deidentifier
from jarvis.agent.context import Budget
from jarvis.agent.loop import Agent, AgentConfig
from jarvis.agent.models.base import ChatModel
from jarvis.agent.models.offline import OfflineResponder
from jarvis.config import Settings
from jarvis.memory.service import MemoryService


def build_model(settings: Settings) -> ChatModel:
    if settings.gemini_api_key is None:
        return OfflineResponder()
    from jarvis.agent.models.gemini import GeminiChatModel

    return GeminiChatModel.from_settings(settings)


def agent_config(settings: Settings) -> AgentConfig:
    return AgentConfig(
        budget=Budget(total=settings.context_budget_tokens),
        max_output_tokens=settings.max_output_tokens,
        checklist_output_tokens=settings.checklist_output_tokens,
        max_tool_rounds=settings.max_tool_rounds,
        temperature=settings.model_temperature,
        k=settings.search_k,
        min_similarity=settings.min_similarity,
        summary_every=settings.summary_every_n_episodes,
    )


def build_agent(
    settings: Settings, *, memory: MemoryService | None, deid: Deidentifier, model: ChatModel | None = None
) -> Agent:
    return Agent(
        memory=memory, deid=deid, model=model or build_model(settings), config=agent_config(settings)
    )
