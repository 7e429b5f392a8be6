"""Typed dependencies (STYLE §2): resources from the lifespan, the caller, role checks, rate limits.

Dependencies that do no I/O are `async def`: FastAPI runs a plain `def` dependency in its thread
pool, a hand-off that cost every request four thread switches for attribute reads. get_principal
stays a plain `def`: an API key is looked up in the database.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request

from jarvis.agent.loop import Agent
from jarvis.api.middleware import RateLimiter
from jarvis.api.resources import Resources
from jarvis.errors import AuthenticationError, PermissionDeniedError, RateLimitedError, UnavailableError
from jarvis.memory.service import MemoryService
from jarvis.security.api_keys import PREFIX
from jarvis.security.principal import Principal, Role


async def get_resources(request: Request) -> Resources:
    resources: Resources = request.app.state.resources
    return resources


ResourcesDep = Annotated[Resources, Depends(get_resources)]


def get_principal(request: Request, resources: ResourcesDep) -> Principal:
    header = request.headers.get("authorization", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise AuthenticationError("a bearer token is required")
    token = token.strip()
    if token.startswith(PREFIX):
        principal = resources.api_keys.authenticate(token)
    elif resources.jwt is not None:
        principal = resources.jwt.authenticate(token)
    else:
        principal = None
    if principal is None:
        raise AuthenticationError("the token is invalid, expired or revoked")
    limiter: RateLimiter = request.app.state.rate_limiter
    if not limiter.allow(principal.key_id or f"jwt:{principal.role}:{principal.subject}"):
        raise RateLimitedError("rate limit exceeded; retry later")
    request.state.principal = principal
    return principal


CurrentPrincipal = Annotated[Principal, Depends(get_principal)]


def _role(*allowed: Role) -> object:
    async def check(principal: CurrentPrincipal) -> Principal:
        if principal.role not in allowed:
            raise PermissionDeniedError(f"this needs the {' or '.join(r.value for r in allowed)} role")
        return principal

    return check


async def current_doctor(principal: Annotated[Principal, Depends(_role(Role.CLINICIAN))]) -> str:
    """The doctor id: from the token only, never from the request body."""
    assert principal.subject is not None  # clinician tokens always carry one
    return principal.subject


CurrentDoctor = Annotated[str, Depends(current_doctor)]
CurrentAdmin = Annotated[Principal, Depends(_role(Role.ADMIN))]
CurrentAuditor = Annotated[Principal, Depends(_role(Role.AUDITOR))]


async def get_memory(resources: ResourcesDep) -> MemoryService:
    if resources.memory is None:
        raise UnavailableError("memory is disabled")
    return resources.memory


async def get_agent(resources: ResourcesDep) -> Agent:
    return resources.agent


MemoryDep = Annotated[MemoryService, Depends(get_memory)]
AgentDep = Annotated[Agent, Depends(get_agent)]
