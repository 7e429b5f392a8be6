"""The `ChatModel` for Gemini (gemini-2.5-flash by default) through the google-genai SDK.

One `generate` is one `generateContent` call, with the SDK's automatic function calling off: the
agent loop runs the tools itself. The mapping to the REST shapes:

    Prompt.system_instruction   -> systemInstruction {parts: [{text}]}
    Content(role, text, ...)    -> contents[] {role, parts: [{text}, {functionCall: {name, args, id?}},
                                                            {functionResponse: {name, response, id?}}]}
                                   (function calls only in model turns, responses only in user turns)
    Prompt.tools                -> tools [{functionDeclarations: [{name, description,
                                       parametersJsonSchema}]}]  (the SDK writes this one snake_case)
    max_output_tokens, temperature -> generationConfig {maxOutputTokens, temperature}

The reply is the first candidate: its text parts joined (thought summaries left out), its
function calls (name, args, id), its finish reason, and usageMetadata (promptTokenCount ->
input, candidatesTokenCount + thoughtsTokenCount -> output, as both are billed as output,
cachedContentTokenCount -> cached).

Failures: 408, 429, 5xx and transport errors (including timeouts) are retried with backoff, then
UnavailableError; other 4xx are not retried (400 -> InputError). A call that yields no answer -
the prompt blocked (no candidates, promptFeedback.blockReason), the answer withheld (finish reason
SAFETY, RECITATION, PROHIBITED_CONTENT, ...), or an empty candidate - raises UnavailableError at
once, without retrying: the loop then saves no episode and the clinician sees a clear error naming
the reason code, rather than a canned "answer" that would be stored and recalled later as advice.
No message or log line carries prompt or reply text.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

from google.genai import errors as genai_errors
from google.genai import types

from jarvis.agent.models.base import Content, FunctionCall, ModelReply, Prompt, ToolSpec, Usage
from jarvis.config import Settings
from jarvis.errors import ConfigurationError, InputError, JarvisError, UnavailableError
from jarvis.gemini_common import RetryPolicy, make_client, refusal

# Finish reasons that mean the answer was withheld, whatever parts came with it: a clinical answer
# cut off by a filter is not one to show, or to store as an episode.
WITHHELD_FINISH_REASONS = frozenset(
    {
        "SAFETY",
        "RECITATION",
        "LANGUAGE",
        "BLOCKLIST",
        "PROHIBITED_CONTENT",
        "SPII",
        "IMAGE_SAFETY",
        "IMAGE_PROHIBITED_CONTENT",
        "MODEL_ARMOR",
    }
)


class GeminiChatModel:
    """A `ChatModel` backed by the Gemini Developer API. Thread-safe; call `close()` when done."""

    def __init__(
        self,
        *,
        api_key: str,
        model: str = "gemini-2.5-flash",
        base_url: str | None = None,
        timeout: float = 30.0,
        max_attempts: int = 4,
        initial_backoff: float = 0.5,
        max_backoff: float = 8.0,
        sleep: Callable[[float], None] = time.sleep,
        random_fraction: Callable[[], float] = random.random,
    ) -> None:
        """`timeout` (seconds) bounds connecting and each wait for data, per attempt; with
        retries a call can take up to about max_attempts * timeout plus the backoff delays."""
        self._model = model.removeprefix("models/")
        if not self._model:
            raise ConfigurationError("the Gemini model name is empty")
        self._retry = RetryPolicy(
            max_attempts=max_attempts,
            initial_backoff=initial_backoff,
            max_backoff=max_backoff,
            sleep=sleep,
            random_fraction=random_fraction,
        )
        self._client = make_client(api_key=api_key, base_url=base_url, timeout=timeout)

    @classmethod
    def from_settings(cls, settings: Settings) -> GeminiChatModel:
        if settings.gemini_api_key is None:
            raise ConfigurationError("JARVIS_GEMINI_API_KEY is required for the Gemini model")
        return cls(
            api_key=settings.gemini_api_key.get_secret_value(),
            model=settings.gemini_model,
            base_url=settings.gemini_base_url,
            timeout=settings.model_timeout_s,
            max_attempts=settings.model_max_attempts,
        )

    @property
    def model_id(self) -> str:
        return self._model

    def generate(self, prompt: Prompt) -> ModelReply:
        contents, config = _request(prompt)
        response = self._retry.call(
            lambda: self._client.models.generate_content(model=self._model, contents=contents, config=config),
            what="Gemini generation",
            refused=_refused,
        )
        return _reply(response, default_model=self._model)

    def close(self) -> None:
        self._client.close()


def _refused(error: genai_errors.APIError) -> JarvisError:
    return refusal(error, subject="the prompt", request="generation")


# -- Prompt -> SDK types -------------------------------------------------------------------------
def _request(prompt: Prompt) -> tuple[list[types.Content], types.GenerateContentConfig]:
    if not prompt.contents:
        raise InputError("the prompt has no contents")
    if prompt.max_output_tokens < 1:
        raise InputError("max_output_tokens must be at least 1")
    try:
        contents = [_content(turn, index) for index, turn in enumerate(prompt.contents)]
        config = types.GenerateContentConfig(
            system_instruction=(
                types.Content(parts=[types.Part(text=prompt.system_instruction)])
                if prompt.system_instruction
                else None
            ),
            tools=[types.Tool(function_declarations=[_declaration(t) for t in prompt.tools])]
            if prompt.tools
            else None,
            max_output_tokens=prompt.max_output_tokens,
            temperature=prompt.temperature,
            automatic_function_calling=types.AutomaticFunctionCallingConfig(disable=True),
        )
    except ValueError as exc:  # pydantic's ValidationError; its text would echo the values
        raise InputError(
            f"the prompt cannot be expressed as a Gemini request ({type(exc).__name__})"
        ) from exc
    return contents, config


def _content(turn: Content, index: int) -> types.Content:
    if turn.role == "user" and turn.function_calls:
        raise InputError(f"turn {index}: function calls belong in model turns")
    if turn.role == "model" and turn.function_responses:
        raise InputError(f"turn {index}: function responses belong in user turns")
    parts: list[types.Part] = []
    if turn.text:
        parts.append(types.Part(text=turn.text))
    parts.extend(
        types.Part(function_call=types.FunctionCall(name=call.name, args=dict(call.args), id=call.call_id))
        for call in turn.function_calls
    )
    parts.extend(
        types.Part(
            function_response=types.FunctionResponse(
                name=response.name, response=dict(response.response), id=response.call_id
            )
        )
        for response in turn.function_responses
    )
    if not parts:
        raise InputError(f"turn {index} is empty")
    return types.Content(role=turn.role, parts=parts)


def _declaration(tool: ToolSpec) -> types.FunctionDeclaration:
    # parametersJsonSchema takes the JSON Schema as written; `parameters` would need the
    # OpenAPI-subset Schema type with upper-case type names.
    return types.FunctionDeclaration(
        name=tool.name, description=tool.description, parameters_json_schema=dict(tool.parameters)
    )


# -- SDK response -> ModelReply -------------------------------------------------------------------
def _reply(response: types.GenerateContentResponse, *, default_model: str) -> ModelReply:
    if not response.candidates:
        feedback = response.prompt_feedback
        if feedback is not None and feedback.block_reason is not None:
            raise UnavailableError(f"Gemini blocked the prompt ({_name(feedback.block_reason)}); no answer")
        raise UnavailableError("Gemini returned no answer (no candidates)")
    candidate = response.candidates[0]
    finish = _name(candidate.finish_reason) if candidate.finish_reason is not None else None
    if finish in WITHHELD_FINISH_REASONS:
        raise UnavailableError(f"Gemini withheld the answer (finish reason {finish})")
    parts = (candidate.content.parts if candidate.content else None) or []
    text = "".join(part.text for part in parts if part.text and not part.thought)
    calls = tuple(_function_call(part.function_call) for part in parts if part.function_call is not None)
    if not text and not calls:
        raise UnavailableError(f"Gemini returned an empty answer (finish reason {finish or 'none'})")
    return ModelReply(
        text=text,
        function_calls=calls,
        usage=_usage(response.usage_metadata),
        model=response.model_version or default_model,
        finish_reason=finish,
    )


def _function_call(call: types.FunctionCall) -> FunctionCall:
    if not call.name:
        raise UnavailableError("Gemini returned a function call without a name")
    return FunctionCall(name=call.name, args=dict(call.args or {}), call_id=call.id)


def _usage(metadata: types.GenerateContentResponseUsageMetadata | None) -> Usage:
    if metadata is None:
        return Usage()
    return Usage(
        input_tokens=metadata.prompt_token_count or 0,
        output_tokens=(metadata.candidates_token_count or 0) + (metadata.thoughts_token_count or 0),
        cached_tokens=metadata.cached_content_token_count or 0,
    )


def _name(value: Any) -> str:
    """An enum member's value ("SAFETY"), or the raw string the SDK kept for an unknown one."""
    return str(getattr(value, "value", value))


__all__ = ["WITHHELD_FINISH_REASONS", "GeminiChatModel"]
