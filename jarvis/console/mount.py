"""Serving the console: the static files under strict security headers, no build step."""

from __future__ import annotations

from pathlib import Path

from starlette.exceptions import HTTPException
from starlette.responses import PlainTextResponse
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

STATIC_DIR = Path(__file__).resolve().parent / "static"

# Only our own files: no inline script or style, no third-party origin, never framed, no referrer
# (an episode id in the address bar of a console page must not leak to anyone).
CONTENT_SECURITY_POLICY = "; ".join(
    (
        "default-src 'none'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self'",
        "connect-src 'self'",
        "form-action 'none'",  # the script sends every request; a form never navigates
        "base-uri 'none'",
        "frame-ancestors 'none'",
    )
)
SECURITY_HEADERS: tuple[tuple[bytes, bytes], ...] = (
    (b"content-security-policy", CONTENT_SECURITY_POLICY.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
    (b"cross-origin-opener-policy", b"same-origin"),
    (b"permissions-policy", b"camera=(), microphone=(), geolocation=()"),
    # Revalidate every time, so a deployment never mixes an old page with a new script.
    (b"cache-control", b"no-cache"),
)


class SecurityHeaders:
    """Adds SECURITY_HEADERS to every response of the wrapped app, its 404s included."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                names = {name for name, _ in SECURITY_HEADERS}
                kept = [(k, v) for k, v in message.get("headers", []) if k.lower() not in names]
                message["headers"] = kept + list(SECURITY_HEADERS)
            await send(message)

        try:
            await self.app(scope, receive, send_with_headers)
        except HTTPException as exc:
            # StaticFiles raises for a missing file; answer here so the 404 carries the headers too.
            response = PlainTextResponse(str(exc.detail), status_code=exc.status_code)
            await response(scope, receive, send_with_headers)


def console_app() -> ASGIApp:
    """The ASGI app to mount at /console: index.html for the directory, 404 for anything unknown."""
    return SecurityHeaders(StaticFiles(directory=STATIC_DIR, html=True))
