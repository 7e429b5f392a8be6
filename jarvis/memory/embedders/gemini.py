"""Gemini embeddings (gemini-embedding-001 by default) through the google-genai SDK.

Texts are sent in batches of at most 100 (the API rejects larger `batchEmbedContents` requests),
documents with task type RETRIEVAL_DOCUMENT and queries with RETRIEVAL_QUERY. Rate limits (429),
server errors (5xx) and connection failures are retried with exponential backoff and jitter, a
bounded number of times; then UnavailableError. Other 4xx are not retried. Error messages and log
lines carry status codes and counts, never the texts.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence

from google.genai import errors as genai_errors
from google.genai import types

from jarvis.config import Settings
from jarvis.errors import ConfigurationError, InputError, JarvisError, UnavailableError
from jarvis.gemini_common import RetryPolicy, make_client, refusal
from jarvis.memory.embedders.base import EmbedderIdentity, Vectors

MAX_BATCH = 100  # "BatchEmbedContentsRequest.requests: at most 100 requests can be in one batch"
NATIVE_DIMENSION = 3072  # gemini-embedding-001; smaller output dimensionalities are truncations


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
        self._batch_size = batch_size
        self._retry = RetryPolicy(
            max_attempts=max_attempts,
            initial_backoff=initial_backoff,
            max_backoff=max_backoff,
            sleep=sleep,
            random_fraction=random_fraction,
        )
        self._client = make_client(api_key=api_key, base_url=base_url, timeout=timeout)

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
        contents: list[types.PartUnion] = list(texts)  # the SDK's list type is invariant
        response = self._retry.call(
            lambda: self._client.models.embed_content(model=self._model, contents=contents, config=config),
            what="Gemini embeddings",
            refused=_refused,
        )
        return self._vectors(response, len(texts))

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


def _refused(error: genai_errors.APIError) -> JarvisError:
    return refusal(error, subject="the texts to embed", request="embedding")
