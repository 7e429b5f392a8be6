"""The one mapping from errors to HTTP: {"error": {"code", "message", "request_id"}}, no PHI.

JarvisError subclasses map by class (Starlette walks the class hierarchy, so the base handler
covers them all); validation errors name the field and the rule, never the value sent.
"""

from __future__ import annotations

import logging

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from jarvis import errors as e
from jarvis.api import auditing

logger = logging.getLogger(__name__)

STATUS: dict[type[e.JarvisError], int] = {
    e.InputTooLargeError: 413,
    e.InputError: 422,
    e.NotFoundError: 404,
    e.PermissionDeniedError: 403,
    e.AuthenticationError: 401,
    e.ConflictError: 409,
    e.RateLimitedError: 429,
    e.UnavailableError: 503,
    e.ConfigurationError: 500,
    e.DataIntegrityError: 500,
}
_HTTP_CODES = {400: "bad_request", 401: "unauthenticated", 403: "forbidden", 404: "not_found", 405: "method_not_allowed",
               413: "input_too_large", 415: "unsupported_media_type", 429: "rate_limited"}  # fmt: skip


_OUTCOMES = {401: "denied", 403: "denied", 429: "denied", 404: "not_found", 413: "invalid", 422: "invalid"}
_ACTIONS = {"GET": "R", "DELETE": "D"}


async def _audit_refusal(request: Request, status: int) -> None:
    """Every access to memory is audited, refused ones too (the route's name says which)."""
    route = request.scope.get("route")
    name = getattr(route, "name", "")
    if not request.url.path.startswith("/v1/") or "." not in name and name != "ask":
        return
    await auditing.record(
        request,
        _ACTIONS.get(request.method, "E"),
        name,
        _OUTCOMES.get(status, "error"),
        detail={"status": status},
    )


async def error_response(request: Request, status: int, code: str, message: str) -> JSONResponse:
    request_id = getattr(request.state, "request_id", None)
    try:
        await _audit_refusal(request, status)
    except e.JarvisError:
        # The refusal could not be audited: say the service is unavailable rather than pretend.
        logger.error("audit write failed while refusing a request")
        status, code, message = 503, "unavailable", "audit log unavailable"
    headers = {"WWW-Authenticate": "Bearer"} if status == 401 else None
    return JSONResponse(
        {"error": {"code": code, "message": message, "request_id": request_id}},
        status_code=status,
        headers=headers,
    )


def status_of(exc: e.JarvisError) -> int:
    for cls in type(exc).__mro__:
        if cls in STATUS:
            return STATUS[cls]
    return 500


async def jarvis_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, e.JarvisError)
    status = status_of(exc)
    if status >= 500:
        logger.error("request failed: %s (%s)", exc.code, type(exc).__name__)
    return await error_response(request, status, exc.code, exc.message)


async def validation_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestValidationError)
    problems = []
    for error in exc.errors()[:5]:
        where = ".".join(str(p) for p in error.get("loc", ()) if p != "body") or "body"
        problems.append(f"{where}: {error.get('msg', 'invalid')}")
    return await error_response(request, 422, "invalid_input", "; ".join(problems) or "invalid request")


async def http_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, StarletteHTTPException)
    return await error_response(
        request, exc.status_code, _HTTP_CODES.get(exc.status_code, "error"), str(exc.detail)
    )


async def unexpected_error(request: Request, exc: Exception) -> JSONResponse:
    # The type only: a third-party message may quote clinical input.
    logger.error("unexpected %s", type(exc).__name__)
    return await error_response(request, 500, "internal_error", "internal error")


def install(app: FastAPI) -> None:
    app.add_exception_handler(e.JarvisError, jarvis_error)
    app.add_exception_handler(RequestValidationError, validation_error)
    app.add_exception_handler(StarletteHTTPException, http_error)
    app.add_exception_handler(Exception, unexpected_error)
