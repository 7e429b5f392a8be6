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

Errors use Google's envelope `{"error": {"code", "message", "status"}}`; the API key travels in the
`x-goog-api-key` header. Vectors are a hashed bag of words (texts sharing words get similar vectors)
and, like gemini-embedding-001 at a reduced dimensionality, they are not unit length.

Faults are scripted: `fail_next(429, 503, DISCONNECT)` answers the next three requests, whatever
their route, with those statuses (DISCONNECT closes the connection without answering). Every
request is recorded in `requests`.

To fake another endpoint (e.g. `:generateContent`), add a handler to the `routes` table built in
`__init__`: it maps ("POST", "<action>") for paths `/{version}/models/{model}:<action>` to a method taking
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

NATIVE_DIMENSION = 3072  # gemini-embedding-001 without outputDimensionality
# The real API answers 400 "BatchEmbedContentsRequest.requests: at most 100 requests can be in one batch".
MAX_BATCH = 100
EMBEDDING_MODELS = frozenset({"gemini-embedding-001", "text-embedding-004"})

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
    status: int | str  # what the fake answered: an HTTP status or DISCONNECT

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


@dataclass
class _State:
    faults: deque[int | str] = field(default_factory=deque)
    requests: list[RecordedRequest] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)


class FakeGeminiServer:
    """The fake API in a background thread; use as a context manager (or the `gemini_server` fixture)."""

    def __init__(self, api_key: str | None = "test-api-key") -> None:
        self.api_key = api_key
        self._state = _State()
        self.routes: dict[tuple[str, str], Handler] = {
            ("POST", "batchEmbedContents"): self._batch_embed_contents,
            ("POST", "embedContent"): self._embed_content,
        }
        self._httpd: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # -- lifecycle ---------------------------------------------------------------------------
    def start(self) -> FakeGeminiServer:
        handler = type("_BoundHandler", (_RequestHandler,), {"fake": self})
        self._httpd = httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        # A short poll interval: shutdown() waits up to one interval for the serving loop to notice.
        self._thread = threading.Thread(
            target=httpd.serve_forever, kwargs={"poll_interval": 0.01}, name="fake-gemini", daemon=True
        )
        self._thread.start()
        return self

    def stop(self) -> None:
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
    def fail_next(self, *faults: int | str) -> None:
        """Answer the next len(faults) requests with these HTTP statuses (or DISCONNECT)."""
        with self._state.lock:
            self._state.faults.extend(faults)

    @property
    def requests(self) -> list[RecordedRequest]:
        with self._state.lock:
            return list(self._state.requests)

    def clear(self) -> None:
        with self._state.lock:
            self._state.requests.clear()
            self._state.faults.clear()

    # -- dispatch (called from handler threads) ----------------------------------------------
    def _dispatch(
        self, method: str, path: str, headers: dict[str, str], raw: bytes
    ) -> tuple[int | str, JSON]:
        try:
            body = json.loads(raw) if raw else None
        except ValueError:
            body = None
        with self._state.lock:
            fault = self._state.faults.popleft() if self._state.faults else None
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
            self._state.requests.append(RecordedRequest(method, path, headers, body, status))
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
        self.send_response(status)
        self.send_header("Content-Type", "application/json; charset=UTF-8")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - signature of the base class
        """Silent: the test output should not fill with access lines."""
