"""What every Gemini adapter shares: the SDK client, the retry policy and the error mapping.

One call through the google-genai SDK either succeeds, fails transiently (HTTP 408, 429, any 5xx,
or a transport error such as a refused connection or a timeout: retried with exponential backoff
and jitter, a bounded number of times, then `UnavailableError`), or is refused (any other 4xx:
mapped at once to `InputError`, `InputTooLargeError` or `UnavailableError`, never retried).
Messages and log lines carry HTTP statuses and exception class names, never request text.
"""

from __future__ import annotations

import importlib
import logging
import random
import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from google import genai
from google.genai import errors as genai_errors
from google.genai import types

from jarvis.errors import ConfigurationError, InputError, InputTooLargeError, JarvisError, UnavailableError

logger = logging.getLogger(__name__)

T = TypeVar("T")

RETRYABLE_STATUS = frozenset({408, 429})  # plus every 5xx


def _transport_errors() -> tuple[type[Exception], ...]:
    # google-genai 3.x sends through httpx2 (httpx with GOOGLE_GENAI_HTTP_CLIENT=httpx, or before
    # 3.0); their connection errors and timeouts are not translated into genai errors, so catch both.
    found: list[type[Exception]] = []
    for name in ("httpx2", "httpx"):
        try:
            found.append(importlib.import_module(name).TransportError)
        except ImportError:
            continue
    return tuple(found)


TRANSPORT_ERRORS = _transport_errors()


def make_client(*, api_key: str, base_url: str | None, timeout: float) -> genai.Client:
    """A Gemini Developer API client. `timeout` is in seconds; `HttpOptions.timeout` is in
    milliseconds (the SDK divides by 1000 before handing it to httpx, where it bounds each of
    connect, write and every read, not the call as a whole)."""
    if not api_key.strip():
        raise ConfigurationError("the Gemini API key is empty")
    if timeout <= 0:
        raise ConfigurationError("the Gemini timeout must be positive")
    # The SDK's own retries stay off (no retry_options): RetryPolicy owns the retry policy.
    http_options = types.HttpOptions(base_url=base_url, timeout=max(1, round(timeout * 1000)))
    return genai.Client(api_key=api_key, vertexai=False, http_options=http_options)


def describe(error: Exception) -> str:
    """A PHI-free description: the HTTP status (and its symbolic name) or the exception class."""
    if isinstance(error, genai_errors.APIError):
        # The status name ("RESOURCE_EXHAUSTED") is safe to show; the server's message may not be.
        name = error.status if isinstance(error.status, str) else ""
        return (
            f"HTTP {error.code} {name}".rstrip() if re.fullmatch(r"[A-Z_]*", name) else f"HTTP {error.code}"
        )
    return type(error).__name__


def is_retryable(error: genai_errors.APIError) -> bool:
    code = error.code or 0
    return code in RETRYABLE_STATUS or code >= 500


def refusal(error: genai_errors.APIError, *, subject: str, request: str) -> JarvisError:
    """A 4xx other than 408/429: the request itself is wrong, or the credentials or model are.

    `subject` names what was sent ("the texts to embed"), `request` the kind of call ("embedding").
    """
    if error.code == 413:
        return InputTooLargeError(f"Gemini rejected {subject} as too large ({describe(error)})")
    bad_key = "API_KEY_INVALID" in str(error.details)  # the API answers a wrong key with a 400 too
    if error.code == 400 and error.status == "INVALID_ARGUMENT" and not bad_key:
        return InputError(f"Gemini rejected {subject} ({describe(error)})")
    return UnavailableError(f"Gemini refused the {request} request ({describe(error)}); check key and model")


@dataclass(frozen=True)
class RetryPolicy:
    """Bounded retries with exponential backoff and "equal jitter"; `sleep` is injectable."""

    max_attempts: int = 5
    initial_backoff: float = 0.5
    max_backoff: float = 20.0
    sleep: Callable[[float], None] = time.sleep
    random_fraction: Callable[[], float] = random.random

    def __post_init__(self) -> None:
        if self.max_attempts < 1:
            raise ConfigurationError("need max_attempts >= 1")

    def backoff(self, retry: int) -> float:
        """Delay before retry number `retry` (1-based): exponential, half of it random, so that
        clients throttled together spread out but never retry at once."""
        ceiling = min(self.max_backoff, self.initial_backoff * 2.0 ** (retry - 1))
        return ceiling / 2 + self.random_fraction() * ceiling / 2

    def call(
        self,
        operation: Callable[[], T],
        *,
        what: str,
        refused: Callable[[genai_errors.APIError], JarvisError],
    ) -> T:
        """Run `operation` (one SDK call) under this policy. `what` names it in logs and errors
        ("Gemini embeddings"); `refused` maps a non-retryable API error to the domain error."""
        last_error: Exception | None = None
        for attempt in range(1, self.max_attempts + 1):
            if last_error is not None:
                delay = self.backoff(attempt - 1)
                logger.warning(
                    "%s attempt %d/%d failed (%s); retrying in %.2fs",
                    what,
                    attempt - 1,
                    self.max_attempts,
                    describe(last_error),
                    delay,
                )
                self.sleep(delay)
            try:
                return operation()
            except genai_errors.APIError as exc:
                if not is_retryable(exc):
                    raise refused(exc) from exc
                last_error = exc
            except TRANSPORT_ERRORS as exc:
                last_error = exc
        assert last_error is not None
        raise UnavailableError(
            f"{what} unavailable after {self.max_attempts} attempts ({describe(last_error)})"
        ) from last_error
