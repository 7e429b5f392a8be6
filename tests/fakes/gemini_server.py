"""A fake of the Gemini Developer API (generativelanguage.googleapis.com) on 127.0.0.1.

The real google-genai SDK talks to it through `HttpOptions(base_url=server.base_url)`, so tests
exercise the SDK's own request building, JSON parsing and error classes. It speaks the REST shapes
of the v1 / v1beta API (google-genai 3.x calls v1 by default, older releases v1beta):

    POST /{version}/models/{model}:batchEmbedContents   (what `client.models.embed_content` calls)
      {"requests": [{"model": "models/{model}", "content": {"parts": [{"text": ...}], "role": ...},
                     "taskType"?: ..., "title"?: ..., "outputDimensionality"?: N}, ...]}   1..100 items
      -> {"embeddings": [{"values": [...]}, ...]}                                       same order
    POST /{version}/models/{model}:embedContent
      {"content": {...}, "model"?: ..., "taskType"?: ..., "outputDimensionality"?: N}
      -> {"embedding": {"values": [...]}}
    POST /{version}/models/{model}:generateContent     (what `client.models.generate_content` calls)
      {"contents": [{"role": "user"|"model", "parts": [{"text"} | {"functionCall": {name, args, id?}}
                                                       | {"functionResponse": {name, response, id?}}]}],
       "systemInstruction"?: {"parts": [{"text"}]},
       "tools"?: [{"functionDeclarations": [{name, description?, parameters? | parametersJsonSchema?}]}],
           (field names in lowerCamelCase or snake_case, as the real API's proto3 JSON accepts)
       "generationConfig"?: {"maxOutputTokens"?, "temperature"?, ...}}
      -> {"candidates": [{"content": {"role": "model", "parts": [...]}, "finishReason": "STOP", "index": 0}],
          "usageMetadata": {"promptTokenCount", "candidatesTokenCount", "totalTokenCount",
                            "cachedContentTokenCount"?},
          "modelVersion", "responseId"}
      or, for a blocked prompt, {"promptFeedback": {"blockReason": "SAFETY"}, "usageMetadata": ...}

Errors use Google's envelope `{"error": {"code", "message", "status"}}`; the API key travels in the
`x-goog-api-key` header. Vectors are a hashed bag of words (texts sharing words get similar vectors)
and, like gemini-embedding-001 at a reduced dimensionality, they are not unit length.

Generation is scripted: `reply_next(ScriptedReply(text=...), ScriptedReply.call("search_memory",
{"query": "sepsis"}))` queues the next answers; with the queue empty the fake answers with a
deterministic, clearly labelled "[fake-gemini]" text. Tokens are approximated as whitespace-separated
words (system instruction, then tools, then contents). A simulated implicit prefix cache reports
`cachedContentTokenCount` = the length of the longest common token prefix with the previous
generation request for the same model (at least `cache_min_tokens`, else 0; omitted when 0, as the
real API does), so benchmarks can show cache hits. `maxOutputTokens` truncates the reply text, with
finishReason MAX_TOKENS.

Faults are scripted: `fail_next(429, 503, DISCONNECT, Hang(5.0))` answers the next four requests,
whatever their route, with those statuses (DISCONNECT closes the connection without answering;
`Hang(seconds)` holds the request that long - longer than a client timeout, to test it - and then
answers it normally, or drops it if the server is stopped first). Every request is recorded in
`requests` when it arrives, with status PENDING until it is answered.

To fake another endpoint, add a handler to the `routes` table built in `__init__`: it maps
("POST", "<action>") for paths `/{version}/models/{model}:<action>` to a method taking
(model, body) and returning (status, JSON body).
"""

from __future__ import annotations

import hashlib
import json
import re
import threading
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from typing import Any

JSON = dict[str, Any]
Handler = Callable[[str, JSON], tuple[int, JSON]]

DISCONNECT = "disconnect"
"""A scripted fault: read the request, then close the connection without a response."""

PENDING = "pending"
"""The status of a recorded request that has not been answered yet (e.g. one held by `Hang`)."""


@dataclass(frozen=True)
class Hang:
    """A scripted fault: hold the request `seconds` before answering it (dropped if the server stops)."""

    seconds: float


Fault = int | str | Hang

NATIVE_DIMENSION = 3072  # gemini-embedding-001 without outputDimensionality
# The real API answers 400 "BatchEmbedContentsRequest.requests: at most 100 requests can be in one batch".
MAX_BATCH = 100
EMBEDDING_MODELS = frozenset({"gemini-embedding-001", "text-embedding-004"})
GENERATION_MODELS = frozenset(
    {
        "gemini-2.5-flash",
        "gemini-2.5-pro",
        "gemini-2.5-flash-lite",
        "gemini-2.0-flash",
        "gemini-3-flash-preview",
    }
)
_ROLES = frozenset({"user", "model"})
_SCHEMA_KEYS = ("parameters", "parametersJsonSchema", "parameters_json_schema")
_FUNCTION_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_.:-]{0,127}$")

_STATUS_NAMES = {
    400: "INVALID_ARGUMENT",
    401: "UNAUTHENTICATED",
    403: "PERMISSION_DENIED",
    404: "NOT_FOUND",
    429: "RESOURCE_EXHAUSTED",
    500: "INTERNAL",
    502: "UNAVAILABLE",
    503: "UNAVAILABLE",
    504: "DEADLINE_EXCEEDED",
}
_PATH = re.compile(r"^/(?P<version>v1(?:beta|alpha)?)/models/(?P<model>[^/:]+):(?P<action>[A-Za-z]+)$")
_WORD = re.compile(r"\w+")


def embedding_for(text: str, dimension: int = NATIVE_DIMENSION) -> list[float]:
    """The fake's (unnormalised) vector for `text`: each word adds ±weight at 8 hashed positions."""
    vector = [0.0] * dimension
    words = _WORD.findall(text.lower()) or [text]
    for word in words:
        digest = hashlib.blake2b(word.encode(), digest_size=32).digest()
        for i in range(0, 32, 4):
            chunk = int.from_bytes(digest[i : i + 4], "big")
            vector[chunk % dimension] += 1.5 if chunk & 0x8000_0000 else -1.5
    return vector


def error_body(code: int, message: str, reason: str | None = None) -> JSON:
    error: JSON = {"code": code, "message": message, "status": _STATUS_NAMES.get(code, "UNKNOWN")}
    if reason is not None:
        error["details"] = [
            {
                "@type": "type.googleapis.com/google.rpc.ErrorInfo",
                "reason": reason,
                "domain": "googleapis.com",
            }
        ]
    return {"error": error}


class _ApiError(Exception):
    def __init__(self, code: int, message: str, reason: str | None = None) -> None:
        super().__init__(message)
        self.body = error_body(code, message, reason)
        self.code = code


@dataclass(frozen=True)
class RecordedRequest:
    method: str
    path: str
    headers: dict[str, str]  # names lower-cased
    body: Any  # parsed JSON, or None
    status: int | str  # what the fake answered: an HTTP status, DISCONNECT, or PENDING (not yet)

    @property
    def texts(self) -> list[str]:
        """The texts of an embedding request, in order."""
        body = self.body if isinstance(self.body, dict) else {}
        items = body.get("requests", [body])
        return [_text_of(item.get("content")) for item in items]


def _text_of(content: Any) -> str:
    if not isinstance(content, dict) or not isinstance(content.get("parts"), list):
        raise _ApiError(400, "Invalid value at 'content': expected a Content with parts")
    return "".join(str(part.get("text", "")) for part in content["parts"] if isinstance(part, dict))


@dataclass(frozen=True)
class ScriptedCall:
    """A function call the fake model makes; `id` is omitted from the reply when None."""

    name: str
    args: JSON = field(default_factory=dict)
    id: str | None = None


@dataclass(frozen=True)
class ScriptedReply:
    """One scripted answer of `:generateContent`.

    `text` and `calls` become the candidate's parts (text first). A `finish_reason` other than
    STOP with no text and no calls yields a candidate without content, as the API does for an answer
    withheld for SAFETY. `block_reason` yields no candidate at all: the prompt itself was blocked.
    """

    text: str = ""
    calls: tuple[ScriptedCall, ...] = ()
    finish_reason: str = "STOP"
    block_reason: str | None = None

    @classmethod
    def call(cls, name: str, args: JSON | None = None, id: str | None = None) -> ScriptedReply:  # noqa: A002
        return cls(calls=(ScriptedCall(name, dict(args or {}), id),))


def prompt_tokens(body: JSON) -> list[str]:
    """The fake's tokens of a generateContent request: words of the system instruction, the tools
    and the contents in order (function calls and responses as their JSON), with role markers."""
    tokens = _text_of(body["systemInstruction"]).split() if "systemInstruction" in body else []
    if body.get("tools"):
        tokens += json.dumps(body["tools"], sort_keys=True).split()
    for content in body.get("contents", []):
        tokens.append(f"<{content.get('role', 'user')}>")
        for part in content["parts"]:
            if "text" in part:
                tokens += str(part["text"]).split()
            else:
                tokens += json.dumps(part, sort_keys=True).split()
    return tokens


def _common_prefix(a: list[str], b: list[str]) -> int:
    n = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        n += 1
    return n


@dataclass
class _State:
    faults: deque[Fault] = field(default_factory=deque)
    replies: deque[ScriptedReply] = field(default_factory=deque)
    requests: list[RecordedRequest] = field(default_factory=list)
    last_prompt: dict[str, list[str]] = field(default_factory=dict)  # per model, for the prefix cache
    responses: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)


class FakeGeminiServer:
    """The fake API in a background thread; use as a context manager (or the `gemini_server` fixture)."""

    def __init__(self, api_key: str | None = "test-api-key") -> None:
        self.api_key = api_key
        self.cache_min_tokens = 0  # implicit caching on gemini-2.5-flash starts at 1024 tokens
        self._state = _State()
        self._stopping = threading.Event()
        self.routes: dict[tuple[str, str], Handler] = {
            ("POST", "batchEmbedContents"): self._batch_embed_contents,
            ("POST", "embedContent"): self._embed_content,
            ("POST", "generateContent"): self._generate_content,
        }
        self._httpd: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # -- lifecycle ---------------------------------------------------------------------------
    def start(self) -> FakeGeminiServer:
        self._stopping.clear()
        handler = type("_BoundHandler", (_RequestHandler,), {"fake": self})
        self._httpd = httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        # A short poll interval: shutdown() waits up to one interval for the serving loop to notice.
        self._thread = threading.Thread(
            target=httpd.serve_forever, kwargs={"poll_interval": 0.01}, name="fake-gemini", daemon=True
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stopping.set()  # releases requests held by Hang
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)
        self._httpd = self._thread = None

    def __enter__(self) -> FakeGeminiServer:
        return self.start()

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()

    @property
    def base_url(self) -> str:
        assert self._httpd is not None, "server not started"
        host, port = self._httpd.server_address[:2]
        return f"http://{host!s}:{port}"

    # -- scripting and inspection ------------------------------------------------------------
    def fail_next(self, *faults: Fault) -> None:
        """Answer the next len(faults) requests with these HTTP statuses (or DISCONNECT, or Hang)."""
        with self._state.lock:
            self._state.faults.extend(faults)

    def reply_next(self, *replies: ScriptedReply) -> None:
        """Answer the next len(replies) generateContent requests that get through with these."""
        with self._state.lock:
            self._state.replies.extend(replies)

    @property
    def requests(self) -> list[RecordedRequest]:
        with self._state.lock:
            return list(self._state.requests)

    def clear(self) -> None:
        with self._state.lock:
            self._state.requests.clear()
            self._state.faults.clear()
            self._state.replies.clear()
            self._state.last_prompt.clear()

    # -- dispatch (called from handler threads) ----------------------------------------------
    def _dispatch(
        self, method: str, path: str, headers: dict[str, str], raw: bytes
    ) -> tuple[int | str, JSON]:
        try:
            body = json.loads(raw) if raw else None
        except ValueError:
            body = None
        arrived = RecordedRequest(method, path, headers, body, PENDING)
        with self._state.lock:
            fault = self._state.faults.popleft() if self._state.faults else None
            self._state.requests.append(arrived)
        if isinstance(fault, Hang):
            fault = DISCONNECT if self._stopping.wait(fault.seconds) else None
        try:
            if fault == DISCONNECT:
                status: int | str = DISCONNECT
                answer: JSON = {}
            elif isinstance(fault, int):
                raise _ApiError(fault, f"Scripted fault {fault}.")
            else:
                status, answer = self._route(method, path, headers, body)
        except _ApiError as exc:
            status, answer = exc.code, exc.body
        with self._state.lock:
            for index, recorded in enumerate(self._state.requests):  # gone if clear() ran meanwhile
                if recorded is arrived:
                    self._state.requests[index] = RecordedRequest(method, path, headers, body, status)
        return status, answer

    def _route(self, method: str, path: str, headers: dict[str, str], body: Any) -> tuple[int, JSON]:
        match = _PATH.match(path.split("?", 1)[0])
        handler = self.routes.get((method, match["action"])) if match else None
        if match is None or handler is None:
            raise _ApiError(404, f"Method not found: {method} {path}")
        if self.api_key is not None and headers.get("x-goog-api-key") != self.api_key:
            raise _ApiError(400, "API key not valid. Please pass a valid API key.", reason="API_KEY_INVALID")
        if not isinstance(body, dict):
            raise _ApiError(400, "Invalid JSON payload received.")
        return handler(match["model"], body)

    # -- handlers ----------------------------------------------------------------------------
    def _embed_one(self, model: str, request: JSON, where: str) -> JSON:
        if model not in EMBEDDING_MODELS:
            raise _ApiError(404, f"models/{model} is not found for this API version, or is not supported.")
        if request.get("model", f"models/{model}") != f"models/{model}":
            raise _ApiError(400, f"{where}.model: the model of every request must match the batch model")
        text = _text_of(request.get("content"))
        if not text:
            raise _ApiError(400, f"{where}.content: the text content is empty.")
        dimension = request.get("outputDimensionality", NATIVE_DIMENSION)
        if not isinstance(dimension, int) or not 1 <= dimension <= NATIVE_DIMENSION:
            raise _ApiError(400, f"{where}.outputDimensionality: must be in [1, {NATIVE_DIMENSION}]")
        return {"values": embedding_for(text, dimension)}

    def _batch_embed_contents(self, model: str, body: JSON) -> tuple[int, JSON]:
        items = body.get("requests")
        if not isinstance(items, list) or not items:
            raise _ApiError(400, "BatchEmbedContentsRequest.requests: must not be empty")
        if len(items) > MAX_BATCH:
            raise _ApiError(
                400, f"* BatchEmbedContentsRequest.requests: at most {MAX_BATCH} requests can be in one batch"
            )
        where = "BatchEmbedContentsRequest.requests[{}]"
        return 200, {
            "embeddings": [self._embed_one(model, item, where.format(i)) for i, item in enumerate(items)]
        }

    def _embed_content(self, model: str, body: JSON) -> tuple[int, JSON]:
        return 200, {"embedding": self._embed_one(model, body, "EmbedContentRequest")}

    def _generate_content(self, model: str, body: JSON) -> tuple[int, JSON]:
        if model not in GENERATION_MODELS:
            raise _ApiError(404, f"models/{model} is not found for this API version, or is not supported.")
        _check_generate_request(body)
        max_tokens = body.get("generationConfig", {}).get("maxOutputTokens")
        tokens = prompt_tokens(body)
        with self._state.lock:
            reply = self._state.replies.popleft() if self._state.replies else None
            previous = self._state.last_prompt.get(model, [])
            self._state.last_prompt[model] = tokens
            self._state.responses += 1
            response_id = f"fake-{self._state.responses}"
        cached = _common_prefix(previous, tokens)
        usage: JSON = {"promptTokenCount": len(tokens), "totalTokenCount": len(tokens)}
        if cached >= max(self.cache_min_tokens, 1):
            usage["cachedContentTokenCount"] = cached
        answer: JSON = {"usageMetadata": usage, "modelVersion": model, "responseId": response_id}
        reply = reply or ScriptedReply(text=_default_text(body["contents"]))
        if reply.block_reason is not None:
            answer["promptFeedback"] = {"blockReason": reply.block_reason}
            return 200, answer
        text, finish = reply.text, reply.finish_reason
        if isinstance(max_tokens, int) and len(text.split()) > max_tokens:
            text, finish = " ".join(text.split()[:max_tokens]), "MAX_TOKENS"
        parts: list[JSON] = [{"text": text}] if text else []
        for call in reply.calls:
            function_call: JSON = {"name": call.name, "args": call.args}
            if call.id is not None:
                function_call["id"] = call.id
            parts.append({"functionCall": function_call})
        candidate: JSON = {"finishReason": finish, "index": 0}
        if parts:
            candidate["content"] = {"role": "model", "parts": parts}
        answer["candidates"] = [candidate]
        output = sum(
            len(json.dumps(part).split()) if "functionCall" in part else len(text.split()) for part in parts
        )
        usage["candidatesTokenCount"] = output
        usage["totalTokenCount"] = len(tokens) + output
        return 200, answer


def _check_generate_request(body: JSON) -> None:
    """The 400s of the real API for the mistakes an adapter can make."""
    contents = body.get("contents")
    if not isinstance(contents, list) or not contents:
        raise _ApiError(400, "* GenerateContentRequest.contents: contents is not specified")
    expected_responses = 0  # function calls of the previous model turn
    for i, content in enumerate(contents):
        where = f"GenerateContentRequest.contents[{i}]"
        if (
            not isinstance(content, dict)
            or not isinstance(content.get("parts"), list)
            or not content["parts"]
        ):
            raise _ApiError(400, f"* {where}.parts: contents.parts must not be empty.")
        role = content.get("role", "user")
        if role not in _ROLES:
            raise _ApiError(400, f"* {where}.role: Please use a valid role: user, model.")
        kinds = [_part_kind(part, f"{where}.parts[{j}]") for j, part in enumerate(content["parts"])]
        if "functionCall" in kinds and role != "model":
            raise _ApiError(400, f"* {where}: function calls must be in a model turn.")
        if "functionResponse" in kinds and role != "user":
            raise _ApiError(400, f"* {where}: function responses must be in a user turn.")
        responses = kinds.count("functionResponse")
        if expected_responses and responses != expected_responses:
            raise _ApiError(
                400,
                "Please ensure that the number of function response parts is equal to the number of "
                "function call parts of the function call turn.",
            )
        expected_responses = kinds.count("functionCall")
    if "systemInstruction" in body:
        system = body["systemInstruction"]
        parts = system.get("parts") if isinstance(system, dict) else None
        if not isinstance(parts, list) or not all(isinstance(p, dict) and set(p) == {"text"} for p in parts):
            raise _ApiError(
                400, "* GenerateContentRequest.system_instruction: only text parts are supported."
            )
    for i, tool in enumerate(body.get("tools", [])):
        for j, declaration in enumerate(_declarations(tool)):
            _check_declaration(declaration, f"GenerateContentRequest.tools[{i}].function_declarations[{j}]")
    config = body.get("generationConfig", {})
    max_tokens = config.get("maxOutputTokens", 1)
    if not isinstance(max_tokens, int) or max_tokens < 1:
        raise _ApiError(400, "* GenerateContentRequest.generation_config.max_output_tokens: must be positive")
    temperature = config.get("temperature", 1.0)
    if not isinstance(temperature, int | float) or not 0.0 <= temperature <= 2.0:
        raise _ApiError(400, "* GenerateContentRequest.generation_config.temperature: must be in [0.0, 2.0]")


def _part_kind(part: Any, where: str) -> str:
    kinds = [k for k in ("text", "functionCall", "functionResponse") if isinstance(part, dict) and k in part]
    if len(kinds) != 1 or len(part) != 1 + ("thoughtSignature" in part):
        raise _ApiError(
            400, f"* {where}: the fake supports exactly one of text, functionCall, functionResponse"
        )
    kind, value = kinds[0], part[kinds[0]]
    if kind == "text" and not isinstance(value, str):
        raise _ApiError(400, f"* {where}.text: must be a string")
    if kind != "text":
        payload = "args" if kind == "functionCall" else "response"
        if not isinstance(value, dict) or not isinstance(value.get("name"), str) or not value["name"]:
            raise _ApiError(400, f"* {where}.{kind}.name: Name cannot be empty.")
        if not isinstance(value.get(payload, {}), dict):
            raise _ApiError(400, f"* {where}.{kind}.{payload}: must be an object")
    return kind


def _declarations(tool: Any) -> list[Any]:
    if not isinstance(tool, dict):
        raise _ApiError(400, "* GenerateContentRequest.tools: each tool must be an object")
    declarations = tool.get("functionDeclarations", tool.get("function_declarations", []))
    return declarations if isinstance(declarations, list) else [None]


def _check_declaration(declaration: Any, where: str) -> None:
    # Like the real API (proto3 JSON), field names are accepted in lowerCamelCase or snake_case:
    # google-genai 3.x sends declarations with snake_case keys ("parameters_json_schema").
    if not isinstance(declaration, dict) or not _FUNCTION_NAME.match(str(declaration.get("name", ""))):
        raise _ApiError(400, f"* {where}.name: Invalid function name.")
    schemas = [declaration[k] for k in _SCHEMA_KEYS if k in declaration]
    if len(schemas) > 1:
        raise _ApiError(400, f"* {where}: parameters and parameters_json_schema are mutually exclusive")
    if schemas and not isinstance(schemas[0], dict):
        raise _ApiError(400, f"* {where}.parameters: must be a schema object")


def _default_text(contents: list[JSON]) -> str:
    """The fake's answer when nothing is scripted: deterministic and obviously not a model's."""
    last = contents[-1]
    responses = [p["functionResponse"]["name"] for p in last["parts"] if "functionResponse" in p]
    if responses:
        return f"[fake-gemini] Received the results of {', '.join(responses)}."
    words = " ".join(str(p.get("text", "")) for p in last["parts"]).split()
    quoted = " ".join(words[:12]) + (" ..." if len(words) > 12 else "")
    return f'[fake-gemini] {len(contents)} turn(s) received; the last one says: "{quoted}"'


class _RequestHandler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive, as the SDK's httpx client expects
    disable_nagle_algorithm = True  # headers and body go out in two writes: no 40 ms delayed-ACK stall
    fake: FakeGeminiServer

    def do_POST(self) -> None:  # noqa: N802 - the name http.server dispatches to
        self._handle()

    def do_GET(self) -> None:  # noqa: N802
        self._handle()

    def _handle(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        headers = {name.lower(): value for name, value in self.headers.items()}
        status, answer = self.fake._dispatch(self.command, self.path, headers, raw)
        if isinstance(status, str):  # DISCONNECT
            self.close_connection = True
            return
        payload = json.dumps(answer).encode()
        try:
            self.send_response(status)
            self.send_header("Content-Type", "application/json; charset=UTF-8")
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)
        except (BrokenPipeError, ConnectionResetError):  # the client gave up (e.g. timed out on a Hang)
            self.close_connection = True

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - signature of the base class
        """Silent: the test output should not fill with access lines."""
