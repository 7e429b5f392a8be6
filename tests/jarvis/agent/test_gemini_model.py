"""GeminiChatModel with the real google-genai SDK against the local fake of the Gemini API."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from jarvis.agent.models.base import ChatModel, Content, FunctionCall, FunctionResponse, Prompt, ToolSpec
from jarvis.agent.models.gemini import GeminiChatModel
from jarvis.config import Settings
from jarvis.errors import ConfigurationError, InputError, UnavailableError
from tests.fakes.fixtures import Sleeps
from tests.fakes.gemini_server import DISCONNECT, FakeGeminiServer, Hang, ScriptedReply, prompt_tokens

SYSTEM = "You are Jarvis, a clinical assistant. Answer from the memories given; say when unsure."
QUESTION = "Any contraindication to piperacillin for this patient with suspected sepsis?"  # de-identified
SEARCH = ToolSpec(
    name="search_memory",
    description="Search the doctor's past interactions by meaning.",
    parameters={
        "type": "object",
        "properties": {"query": {"type": "string"}, "k": {"type": "integer", "minimum": 1}},
        "required": ["query"],
    },
)


@pytest.fixture
def make_model(gemini_server: FakeGeminiServer, sleeps: Sleeps) -> Iterator[Callable[..., GeminiChatModel]]:
    """Builds models pointed at the fake, with no real sleeping; closes them afterwards."""
    made: list[GeminiChatModel] = []

    def make(**overrides: Any) -> GeminiChatModel:
        options: dict[str, Any] = {
            "api_key": gemini_server.api_key,
            "base_url": gemini_server.base_url,
            "sleep": sleeps,
            "timeout": 5.0,
        }
        model = GeminiChatModel(**{**options, **overrides})
        made.append(model)
        return model

    yield make
    for model in made:
        model.close()


def _prompt(*contents: Content, tools: tuple[ToolSpec, ...] = (), **options: Any) -> Prompt:
    return Prompt(
        system_instruction=SYSTEM, contents=contents or (Content("user", QUESTION),), tools=tools, **options
    )


def test_plain_generation_sends_system_turns_and_config_and_parses_text_and_usage(make_model, gemini_server):
    model: ChatModel = make_model()
    history = (
        Content("user", "Patient febrile, lactate 4.1."),
        Content("model", "Consistent with sepsis; start cultures and antibiotics."),
        Content("user", QUESTION),
    )
    gemini_server.reply_next(ScriptedReply(text="Penicillin allergy on record: avoid piperacillin."))

    reply = model.generate(_prompt(*history, max_output_tokens=300, temperature=0.4))

    (request,) = gemini_server.requests
    assert request.path == "/v1/models/gemini-2.5-flash:generateContent"
    assert request.body["systemInstruction"] == {"parts": [{"text": SYSTEM}]}
    assert request.body["contents"] == [{"role": c.role, "parts": [{"text": c.text}]} for c in history]
    assert request.body["generationConfig"] == {"maxOutputTokens": 300, "temperature": 0.4}
    assert "tools" not in request.body
    assert reply.text == "Penicillin allergy on record: avoid piperacillin."
    assert reply.function_calls == ()
    assert reply.finish_reason == "STOP"
    assert reply.model == model.model_id == "gemini-2.5-flash"
    assert reply.usage.input_tokens == len(prompt_tokens(request.body))
    assert reply.usage.output_tokens == 6
    assert reply.usage.cached_tokens == 0  # nothing before it to share a prefix with


def test_cached_tokens_are_reported_for_a_shared_prefix(make_model, gemini_server):
    model = make_model()
    first = (Content("user", "Patient febrile, lactate 4.1."), Content("model", "Consistent with sepsis."))

    model.generate(_prompt(*first, Content("user", QUESTION)))
    reply = model.generate(_prompt(*first, Content("user", "And the dose adjusted for renal function?")))

    earlier, later = (prompt_tokens(r.body) for r in gemini_server.requests)
    shared = next(i for i, (a, b) in enumerate(zip(earlier, later, strict=False)) if a != b)
    assert shared > len(SYSTEM.split())  # system instruction and the first two turns
    assert reply.usage.cached_tokens == shared
    assert reply.usage.input_tokens == len(later)


def test_function_call_round(make_model, gemini_server):
    model = make_model()
    gemini_server.reply_next(
        ScriptedReply.call("search_memory", {"query": "piperacillin allergy", "k": 3}, id="call-7"),
        ScriptedReply(text="No prior reaction recorded."),
    )
    question = Content("user", QUESTION)

    first = model.generate(_prompt(question, tools=(SEARCH,)))

    assert first.text == ""
    assert first.function_calls == (
        FunctionCall(name="search_memory", args={"query": "piperacillin allergy", "k": 3}, call_id="call-7"),
    )
    result = FunctionResponse("search_memory", {"hits": [{"summary": "sepsis, responded"}]}, call_id="call-7")
    second = model.generate(
        _prompt(
            question,
            Content("model", function_calls=first.function_calls),
            Content("user", function_responses=(result,)),
            tools=(SEARCH,),
        )
    )

    assert second.text == "No prior reaction recorded."
    (declaration,) = gemini_server.requests[0].body["tools"][0]["functionDeclarations"]
    assert declaration["name"] == "search_memory"
    assert declaration["parameters_json_schema"] == SEARCH.parameters
    call_turn, response_turn = gemini_server.requests[1].body["contents"][1:]
    assert call_turn == {
        "role": "model",
        "parts": [
            {
                "functionCall": {
                    "name": "search_memory",
                    "args": {"query": "piperacillin allergy", "k": 3},
                    "id": "call-7",
                }
            }
        ],
    }
    assert response_turn == {
        "role": "user",
        "parts": [
            {
                "functionResponse": {
                    "name": "search_memory",
                    "response": {"hits": [{"summary": "sepsis, responded"}]},
                    "id": "call-7",
                }
            }
        ],
    }


@pytest.mark.parametrize("faults", [[429], [503, DISCONNECT]])
def test_transient_failures_are_retried_then_succeed(make_model, gemini_server, sleeps, faults):
    gemini_server.fail_next(*faults)

    reply = make_model(initial_backoff=1.0).generate(_prompt())

    assert reply.text.startswith("[fake-gemini]")
    assert [r.status for r in gemini_server.requests] == [*faults, 200]
    assert len(sleeps) == len(faults) and 0.5 <= sleeps[0] <= 1.0  # slept via the injected sleep


def test_503_exhausted_is_unavailable_without_prompt_text(make_model, gemini_server, sleeps):
    gemini_server.fail_next(*[503] * 10)

    with pytest.raises(UnavailableError) as raised:
        make_model(max_attempts=3).generate(_prompt())

    assert "503" in raised.value.message
    assert "piperacillin" not in str(raised.value).lower() and "jarvis" not in str(raised.value).lower()
    assert len(gemini_server.requests) == 3 and len(sleeps) == 2


def test_a_hanging_request_times_out_as_unavailable(make_model, gemini_server, sleeps):
    gemini_server.fail_next(Hang(10.0), Hang(10.0))

    started = time.monotonic()
    with pytest.raises(UnavailableError, match="Timeout"):
        make_model(timeout=0.2, max_attempts=2).generate(_prompt())

    assert time.monotonic() - started < 3.0
    assert [r.status for r in gemini_server.requests] == ["pending", "pending"]  # still held when given up
    assert len(sleeps) == 1


def test_a_slow_answer_within_the_timeout_is_accepted(make_model, gemini_server, sleeps):
    gemini_server.fail_next(Hang(0.05))

    assert make_model(timeout=2.0).generate(_prompt()).text
    assert sleeps == []


@pytest.mark.parametrize("status", [400, 404])
def test_client_errors_are_not_retried(make_model, gemini_server, sleeps, status):
    gemini_server.fail_next(status)

    with pytest.raises(InputError if status == 400 else UnavailableError) as raised:
        make_model().generate(_prompt())

    assert str(status) in raised.value.message and "piperacillin" not in raised.value.message.lower()
    assert len(gemini_server.requests) == 1 and sleeps == []


def test_a_request_the_api_refuses_is_input_error(make_model, gemini_server):
    calls = (FunctionCall("search_memory", {"query": "a"}), FunctionCall("search_memory", {"query": "b"}))
    unanswered = _prompt(
        Content("user", QUESTION),
        Content("model", function_calls=calls),
        Content("user", function_responses=(FunctionResponse("search_memory", {"hits": []}),)),
        tools=(SEARCH,),
    )

    with pytest.raises(InputError, match="400"):
        make_model().generate(unanswered)  # two calls, one response: the API's 400
    assert [r.status for r in gemini_server.requests] == [400]


def test_invalid_api_key_is_unavailable(make_model, gemini_server):
    with pytest.raises(UnavailableError):
        make_model(api_key="not-the-key").generate(_prompt())
    assert len(gemini_server.requests) == 1


@pytest.mark.parametrize(
    ("scripted", "reason"),
    [
        (ScriptedReply(block_reason="SAFETY"), "blocked the prompt (SAFETY)"),
        (ScriptedReply(finish_reason="SAFETY"), "withheld the answer (finish reason SAFETY)"),
        (ScriptedReply(text="Partial advice", finish_reason="RECITATION"), "finish reason RECITATION"),
        (ScriptedReply(finish_reason="MALFORMED_FUNCTION_CALL"), "empty answer"),
    ],
)
def test_no_usable_answer_is_unavailable_and_not_retried(make_model, gemini_server, sleeps, scripted, reason):
    gemini_server.reply_next(scripted)

    with pytest.raises(UnavailableError, match=reason.replace("(", r"\(").replace(")", r"\)")):
        make_model().generate(_prompt())

    assert len(gemini_server.requests) == 1 and sleeps == []


def test_output_cut_at_max_tokens_is_returned_with_its_finish_reason(make_model, gemini_server):
    gemini_server.reply_next(ScriptedReply(text="one two three four five six"))

    reply = make_model().generate(_prompt(max_output_tokens=4))

    assert (reply.text, reply.finish_reason, reply.usage.output_tokens) == (
        "one two three four",
        "MAX_TOKENS",
        4,
    )


@pytest.mark.parametrize(
    "contents",
    [
        (),
        (Content("user", function_calls=(FunctionCall("search_memory", {}),)),),
        (Content("model", function_responses=(FunctionResponse("search_memory", {}),)),),
        (Content("user", ""),),
    ],
)
def test_malformed_prompts_are_refused_locally(make_model, gemini_server, contents):
    with pytest.raises(InputError):
        make_model().generate(Prompt(system_instruction=SYSTEM, contents=contents))
    assert gemini_server.requests == []


def test_from_settings(gemini_server, monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)  # no stray .env file
    settings = Settings(
        gemini_api_key=gemini_server.api_key,
        gemini_base_url=gemini_server.base_url,
        gemini_model="gemini-2.5-pro",
        model_timeout_s=2.0,
    )
    model = GeminiChatModel.from_settings(settings)
    try:
        assert model.model_id == "gemini-2.5-pro"
        assert model.generate(_prompt()).model == "gemini-2.5-pro"
    finally:
        model.close()
    assert gemini_server.requests[0].path.endswith("/models/gemini-2.5-pro:generateContent")


def test_from_settings_needs_a_key(monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ConfigurationError):
        GeminiChatModel.from_settings(Settings(gemini_api_key=None))
