"""Cross-cutting HTTP concerns: request ids, body-size limit, Prometheus metrics, rate limits.

Metrics are labelled by route template (never the raw path: paths may carry episode ids) and status.
"""

from __future__ import annotations

import contextvars
import json
import re
import secrets
import threading
import time
from collections.abc import Awaitable, Callable

from prometheus_client import CollectorRegistry, Counter, Histogram
from starlette.types import ASGIApp, Message, Receive, Scope, Send

request_id_var: contextvars.ContextVar[str | None] = contextvars.ContextVar("request_id", default=None)
_CLIENT_ID = re.compile(r"[A-Za-z0-9._-]{8,64}")


def _json_error(code: str, message: str, request_id: str | None) -> bytes:
    return json.dumps({"error": {"code": code, "message": message, "request_id": request_id}}).encode()


class RequestContext:
    """Request id (the caller's X-Request-ID if well-formed, else a new one), size limit, metrics."""

    def __init__(self, app: ASGIApp, max_body_bytes: int, metrics: Metrics) -> None:
        self.app, self.max_body, self.metrics = app, max_body_bytes, metrics

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = dict(scope.get("headers") or [])
        given = headers.get(b"x-request-id", b"").decode("latin-1")
        request_id = given if _CLIENT_ID.fullmatch(given) else secrets.token_hex(8)
        scope.setdefault("state", {})["request_id"] = request_id
        token = request_id_var.set(request_id)
        started = time.perf_counter()
        status_holder = {"status": 500}

        async def send_with_id(message: Message) -> None:
            if message["type"] == "http.response.start":
                status_holder["status"] = message["status"]
                message.setdefault("headers", []).append((b"x-request-id", request_id.encode()))
            await send(message)

        try:
            body = await self._read_body(receive)
            if body is None:
                await self._too_large(send_with_id, request_id)
                return
            await self.app(scope, _replay(body, receive), send_with_id)
        finally:
            route = scope.get("route")
            template = getattr(route, "path", "unmatched")
            self.metrics.observe(
                scope["method"], template, status_holder["status"], time.perf_counter() - started
            )
            request_id_var.reset(token)

    async def _read_body(self, receive: Receive) -> bytes | None:
        """The whole body, or None as soon as it passes the limit (whatever Content-Length said)."""
        chunks: list[bytes] = []
        seen = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return b"".join(chunks)
            chunk = message.get("body", b"")
            seen += len(chunk)
            if seen > self.max_body:
                return None
            chunks.append(chunk)
            if not message.get("more_body", False):
                return b"".join(chunks)

    async def _too_large(self, send: Callable[[Message], Awaitable[None]], request_id: str) -> None:
        body = _json_error(
            "input_too_large", f"request body is larger than {self.max_body} bytes", request_id
        )
        await send(
            {
                "type": "http.response.start",
                "status": 413,
                "headers": [(b"content-type", b"application/json")],
            }
        )
        await send({"type": "http.response.body", "body": body})


def _replay(body: bytes, original: Receive) -> Receive:
    """The buffered body once, then the real channel (a streaming response listens for disconnects)."""
    sent = False

    async def receive() -> Message:
        nonlocal sent
        if sent:
            return await original()
        sent = True
        return {"type": "http.request", "body": body, "more_body": False}

    return receive


class Metrics:
    """Request counts and latencies by method, route template and status, in the app's own registry."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        self.requests = Counter(
            "jarvis_http_requests_total",
            "HTTP requests",
            ["method", "route", "status"],
            registry=self.registry,
        )
        self.latency = Histogram(
            "jarvis_http_request_seconds",
            "HTTP request latency",
            ["method", "route"],
            registry=self.registry,
            buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10),
        )

        self.audit_seconds = Histogram(
            "jarvis_audit_append_seconds",
            "Time spent appending audit events",
            registry=self.registry,
            buckets=(0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25),
        )

    def observe(self, method: str, route: str, status: int, seconds: float) -> None:
        self.requests.labels(method, route, str(status)).inc()
        self.latency.labels(method, route).observe(seconds)


class RateLimiter:
    """A token bucket per caller (per process): `per_minute` requests, refilled continuously."""

    def __init__(self, per_minute: int) -> None:
        self.capacity = float(per_minute)
        self.rate = per_minute / 60.0
        self._buckets: dict[str, tuple[float, float]] = {}
        self._lock = threading.Lock()

    def allow(self, caller: str) -> bool:
        now = time.monotonic()
        with self._lock:
            tokens, last = self._buckets.get(caller, (self.capacity, now))
            tokens = min(self.capacity, tokens + (now - last) * self.rate)
            if tokens < 1.0:
                self._buckets[caller] = (tokens, now)
                return False
            self._buckets[caller] = (tokens - 1.0, now)
            return True
