"""Gemini embeddings (gemini-embedding-001 by default) through the google-genai SDK.

Texts are sent in batches of at most 100 (the API rejects larger `batchEmbedContents` requests),
documents with task type RETRIEVAL_DOCUMENT and queries with RETRIEVAL_QUERY. Rate limits (429),
server errors (5xx) and connection failures are retried with exponential backoff and jitter, a
bounded number of times; then UnavailableError. Other 4xx are not retried. Error messages and log
lines carry status codes and counts, never the texts.
"""

from __future__ import annotations

import importlib
import logging
import math
import random
import re
import time
from collections.abc import Callable, Sequence

from google import genai
from google.genai import errors as genai_errors
from google.genai import types

from jarvis.config import Settings
from jarvis.errors import ConfigurationError, InputError, InputTooLargeError, UnavailableError
from jarvis.memory.embedders.base import EmbedderIdentity, Vectors

logger = logging.getLogger(__name__)

MAX_BATCH = 100  # "BatchEmbedContentsRequest.requests: at most 100 requests can be in one batch"
NATIVE_DIMENSION = 3072  # gemini-embedding-001; smaller output dimensionalities are truncations
_RETRYABLE_STATUS = frozenset({408, 429})  # plus every 5xx


def _transport_errors() -> tuple[type[Exception], ...]:
    # google-genai 3.x sends through httpx2 (httpx with GOOGLE_GENAI_HTTP_CLIENT=httpx, or before
    # 3.0); their connection errors are not translated into genai errors, so catch both kinds.
    found: list[type[Exception]] = []
    for name in ("httpx2", "httpx"):
        try:
            found.append(importlib.import_module(name).TransportError)
        except ImportError:
            continue
    return tuple(found)


_TRANSPORT_ERRORS = _transport_errors()


class GeminiEmbedder:
    """The `Embedder` for Gemini embedding models. Thread-safe; call `close()` when done."""

    def __init__(
        self,
        *,
        api_key: str,
        model: str = "gemini-embedding-001",
        dimension: int = 768,
        base_url: str | None = None,
        max_attempts: int = 5,
        initial_backoff: float = 0.5,
        max_backoff: float = 20.0,
        timeout: float = 30.0,
        batch_size: int = MAX_BATCH,
        sleep: Callable[[float], None] = time.sleep,
        random_fraction: Callable[[], float] = random.random,
    ) -> None:
        if not api_key.strip():
            raise ConfigurationError("the Gemini API key is empty")
        if not 1 <= dimension <= NATIVE_DIMENSION:
            raise ConfigurationError(f"Gemini embedding dimension must be in 1..{NATIVE_DIMENSION}")
        if max_attempts < 1 or not 1 <= batch_size <= MAX_BATCH:
            raise ConfigurationError(f"need max_attempts >= 1 and batch_size in 1..{MAX_BATCH}")
        self._model = model.removeprefix("models/")
        self._identity = EmbedderIdentity(model_id=f"gemini:{self._model}", dimension=dimension)
        self._max_attempts = max_attempts
        self._initial_backoff = initial_backoff
        self._max_backoff = max_backoff
        self._batch_size = batch_size
        self._sleep = sleep
        self._random_fraction = random_fraction
        # The SDK's own retries stay off (no retry_options): this class owns the retry policy.
        http_options = types.HttpOptions(base_url=base_url, timeout=round(timeout * 1000))
        self._client = genai.Client(api_key=api_key, vertexai=False, http_options=http_options)

    @classmethod
    def from_settings(cls, settings: Settings) -> GeminiEmbedder:
        if settings.gemini_api_key is None:
            raise ConfigurationError("JARVIS_GEMINI_API_KEY is required for the Gemini embedder")
        return cls(
            api_key=settings.gemini_api_key.get_secret_value(),
            model=settings.gemini_embedding_model,
            dimension=settings.gemini_embedding_dim,
            base_url=settings.gemini_base_url,
        )

    @property
    def identity(self) -> EmbedderIdentity:
        return self._identity

    def embed_documents(self, texts: Sequence[str]) -> Vectors:
        _check_texts(texts)
        vectors: Vectors = []
        for start in range(0, len(texts), self._batch_size):
            batch = list(texts[start : start + self._batch_size])
            vectors.extend(self._embed_batch(batch, "RETRIEVAL_DOCUMENT"))
        return vectors

    def embed_query(self, text: str) -> list[float]:
        _check_texts([text])
        return self._embed_batch([text], "RETRIEVAL_QUERY")[0]

    def close(self) -> None:
        self._client.close()

    def _embed_batch(self, texts: list[str], task_type: str) -> Vectors:
        config = types.EmbedContentConfig(task_type=task_type, output_dimensionality=self._identity.dimension)
        last_error: Exception | None = None
        for attempt in range(1, self._max_attempts + 1):
            if last_error is not None:
                delay = self._backoff(attempt - 1)
                logger.warning(
                    "Gemini embedding attempt %d/%d failed (%s); retrying in %.2fs",
                    attempt - 1,
                    self._max_attempts,
                    _describe(last_error),
                    delay,
                )
                self._sleep(delay)
            try:
                response = self._client.models.embed_content(model=self._model, contents=texts, config=config)
            except genai_errors.APIError as exc:
                code = exc.code or 0
                if not (code in _RETRYABLE_STATUS or code >= 500):
                    raise _non_retryable(exc) from exc
                last_error = exc
            except _TRANSPORT_ERRORS as exc:
                last_error = exc
            else:
                return self._vectors(response, len(texts))
        assert last_error is not None
        raise UnavailableError(
            f"Gemini embeddings unavailable after {self._max_attempts} attempts ({_describe(last_error)})"
        ) from last_error

    def _backoff(self, retry: int) -> float:
        """Delay before retry number `retry` (1-based): exponential, half of it random ("equal
        jitter"), so that clients throttled together spread out but never retry at once."""
        ceiling = min(self._max_backoff, self._initial_backoff * 2.0 ** (retry - 1))
        return ceiling / 2 + self._random_fraction() * ceiling / 2

    def _vectors(self, response: types.EmbedContentResponse, expected: int) -> Vectors:
        embeddings = response.embeddings or []
        if len(embeddings) != expected:
            raise UnavailableError(f"Gemini returned {len(embeddings)} embeddings for {expected} texts")
        vectors: Vectors = []
        for embedding in embeddings:
            values = embedding.values or []
            if len(values) != self._identity.dimension:
                raise UnavailableError(
                    f"Gemini returned a vector of dimension {len(values)}, not {self._identity.dimension}"
                )
            # Truncated (reduced-dimensionality) Gemini vectors are not unit length; cosine
            # similarity in the index assumes they are.
            norm = math.sqrt(math.fsum(v * v for v in values))
            if norm == 0.0 or not math.isfinite(norm):
                raise UnavailableError("Gemini returned a vector that cannot be normalised")
            vectors.append([v / norm for v in values])
        return vectors


def _check_texts(texts: Sequence[str]) -> None:
    if isinstance(texts, str):  # a str is a Sequence[str] too: one vector per character
        raise InputError("expected a list of texts, got a single string")
    for index, text in enumerate(texts):
        if not isinstance(text, str) or not text.strip():
            raise InputError(f"text {index} is empty or not a string; nothing to embed")


def _describe(error: Exception) -> str:
    """A PHI-free description: the HTTP status (and its symbolic name) or the exception class."""
    if isinstance(error, genai_errors.APIError):
        # The status name ("RESOURCE_EXHAUSTED") is safe to show; the server's message may not be.
        name = error.status if isinstance(error.status, str) else ""
        return (
            f"HTTP {error.code} {name}".rstrip() if re.fullmatch(r"[A-Z_]*", name) else f"HTTP {error.code}"
        )
    return type(error).__name__


def _non_retryable(error: genai_errors.APIError) -> Exception:
    """4xx other than 408/429: the request itself is wrong, or the credentials or model are."""
    if error.code == 413:
        return InputTooLargeError(f"Gemini rejected the texts as too large ({_describe(error)})")
    bad_key = "API_KEY_INVALID" in str(error.details)  # the API answers a wrong key with a 400 too
    if error.code == 400 and error.status == "INVALID_ARGUMENT" and not bad_key:
        return InputError(f"Gemini rejected the texts to embed ({_describe(error)})")
    return UnavailableError(f"Gemini refused the embedding request ({_describe(error)}); check key and model")
