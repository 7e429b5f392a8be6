"""The FastAPI application: `create_app(settings)`; resources are built in the lifespan."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI
from starlette.concurrency import run_in_threadpool

from jarvis.api import errors
from jarvis.api.middleware import Metrics, RateLimiter, RequestContext
from jarvis.api.resources import Resources, build_resources
from jarvis.api.routes import admin, ask, audit, episodes, health, memory, patients, retention, session
from jarvis.config import Settings, get_settings
from jarvis.console.mount import console_app
from jarvis.memory.records.database import WalCheckpointer
from jarvis.memory.vector_index import ChromaIndex
from jobs.scheduler import InServer, in_server

# How long shutdown waits for a scheduled job in progress (a purge) before leaving it to the next run.
SCHEDULER_STOP_TIMEOUT_S = 30.0

DESCRIPTION = """Episodic memory of the Jarvis clinical assistant.

Authenticate with `Authorization: Bearer <token>` (an API key `jvk_...` or an OIDC JWT). Clinicians
read and write only their own memory; admins manage keys, retention and erasure; auditors read the
audit log. Errors are `{"error": {"code", "message", "request_id"}}`. Patient ids travel in request
bodies, never in URLs.
"""


def create_app(settings: Settings | None = None, resources: Resources | None = None) -> FastAPI:
    settings = settings or get_settings()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        if resources is not None:  # the caller's (tests, tools): they run no jobs of their own
            yield
            return
        built = await run_in_threadpool(build_resources, settings)
        _attach(app, built)
        checkpointer = WalCheckpointer(built.engine)
        checkpointer.start()
        jobs = _scheduler(built)
        if jobs is not None:
            jobs.start()
        yield
        if jobs is not None:
            await run_in_threadpool(jobs.stop, SCHEDULER_STOP_TIMEOUT_S)
        await run_in_threadpool(checkpointer.stop)
        built.engine.dispose()

    app = FastAPI(title="Jarvis memory", version="1.0.0", description=DESCRIPTION, lifespan=lifespan)
    app.state.metrics = Metrics()
    app.state.rate_limiter = RateLimiter(settings.rate_limit_per_minute)
    app.add_middleware(RequestContext, max_body_bytes=settings.max_body_bytes, metrics=app.state.metrics)
    if resources is not None:
        _attach(app, resources)  # given by the caller (tests, tools): usable without the lifespan
    errors.install(app)
    for module in (session, ask, episodes, memory, patients, admin, retention, audit, health):
        app.include_router(module.router)
    # The web console (static files; it calls the API above with the user's own token).
    app.mount("/console", console_app(), name="console")
    return app


def _scheduler(resources: Resources) -> InServer | None:
    memory = resources.memory
    if memory is None or not isinstance(memory.index, ChromaIndex):
        return None  # memory off: nothing to retain
    return in_server(memory.store, memory.index, resources.audit, resources.settings)


def _attach(app: FastAPI, resources: Resources) -> None:
    app.state.resources = resources
    app.state.audit = resources.audit
