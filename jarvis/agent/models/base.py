"""What the agent loop needs of a model, independent of any SDK.

A `Prompt` is the static system instruction plus a list of `Content` turns (the assembled context
of DESIGN §6 and the current question, then any tool-call rounds), the tools the model may call and
the output budget. Adapters translate it to their API and translate failures into
`jarvis.errors.UnavailableError` (model down, after retries) or `InputError` (request refused).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

Role = Literal["user", "model"]


@dataclass(frozen=True, slots=True)
class FunctionCall:
    """The model asks for a tool: `name(**args)`. `call_id` echoes the API's id when it has one."""

    name: str
    args: Mapping[str, Any]
    call_id: str | None = None


@dataclass(frozen=True, slots=True)
class FunctionResponse:
    """A tool's result, sent back to the model in a user turn."""

    name: str
    response: Mapping[str, Any]
    call_id: str | None = None


@dataclass(frozen=True, slots=True)
class Content:
    """One turn. A model turn may carry function calls; a user turn may carry function responses."""

    role: Role
    text: str = ""
    function_calls: tuple[FunctionCall, ...] = ()
    function_responses: tuple[FunctionResponse, ...] = ()


@dataclass(frozen=True, slots=True)
class ToolSpec:
    """A tool the model may call; `parameters` is a JSON Schema object (OpenAPI subset)."""

    name: str
    description: str
    parameters: Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class Prompt:
    system_instruction: str
    contents: Sequence[Content]
    tools: Sequence[ToolSpec] = ()
    max_output_tokens: int = 1024
    temperature: float = 0.2


@dataclass(frozen=True, slots=True)
class Usage:
    input_tokens: int = 0
    output_tokens: int = 0
    cached_tokens: int = 0  # input tokens served from the model's prefix cache

    def __add__(self, other: Usage) -> Usage:
        return Usage(
            self.input_tokens + other.input_tokens,
            self.output_tokens + other.output_tokens,
            self.cached_tokens + other.cached_tokens,
        )


@dataclass(frozen=True, slots=True)
class ModelReply:
    """Text, or function calls to run before asking again (or both)."""

    text: str
    function_calls: tuple[FunctionCall, ...] = ()
    usage: Usage = field(default_factory=Usage)
    model: str = ""
    finish_reason: str | None = None


class ChatModel(Protocol):
    """A model the loop can call. Implementations are built once and are thread-safe."""

    @property
    def model_id(self) -> str:
        """Reported as `model` in the ask response ("offline" for the offline responder)."""
        ...

    def generate(self, prompt: Prompt) -> ModelReply:
        """One model call. Raises UnavailableError when the model cannot answer (after retries)."""
        ...
