"""The agent over a real memory (SQLite, embedded Chroma, deid, ONNX) and the offline responder."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from jarvis.agent.context import Budget
from jarvis.agent.loop import Agent, AgentConfig
from jarvis.agent.models.base import ChatModel, ModelReply, Prompt
from jarvis.agent.models.offline import OfflineResponder
from jarvis.memory.service import MemoryService
from tests.jarvis.memory.conftest import make_memory, postgres_url  # noqa: F401 - fixtures reused here


class RecordingModel:
    """Any ChatModel, with every prompt it was given kept for the test to read."""

    def __init__(self, inner: ChatModel | None = None) -> None:
        self.inner = inner or OfflineResponder()
        self.prompts: list[Prompt] = []

    @property
    def model_id(self) -> str:
        return self.inner.model_id

    def generate(self, prompt: Prompt) -> ModelReply:
        self.prompts.append(prompt)
        return self.inner.generate(prompt)


AgentFactory = Callable[..., tuple[Agent, RecordingModel]]


@pytest.fixture
def make_agent(make_memory: Callable[..., MemoryService], deid: Any) -> AgentFactory:  # noqa: F811
    def build(
        *,
        memory: MemoryService | None = None,
        model: ChatModel | None = None,
        budget: int = 6000,
        **config: Any,
    ) -> tuple[Agent, RecordingModel]:
        recording = RecordingModel(model)
        agent = Agent(
            memory=memory if memory is not None else make_memory(),
            deid=deid,
            model=recording,
            config=AgentConfig(budget=Budget(total=budget), **config),
        )
        return agent, recording

    return build
