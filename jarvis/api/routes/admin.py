"""Admin: API keys. Admins manage keys, retention and erasure, and read no clinical content."""

from __future__ import annotations

from dataclasses import asdict
from typing import Annotated

from fastapi import APIRouter, Query, Request, Response
from starlette.concurrency import run_in_threadpool

from jarvis.api import auditing
from jarvis.api.deps import CurrentAdmin, ResourcesDep
from jarvis.api.schemas import ERRORS, ApiKeyIn, ApiKeyOut, ApiKeysOut
from jarvis.errors import NotFoundError

router = APIRouter(prefix="/v1/admin", tags=["admin"], responses=ERRORS)


@router.post(
    "/api-keys",
    name="apikey.create",
    status_code=201,
    response_model=ApiKeyOut,
    summary="Create a key (shown once)",
)
async def create_key(
    body: ApiKeyIn, _admin: CurrentAdmin, resources: ResourcesDep, request: Request
) -> dict[str, object]:
    key = await run_in_threadpool(resources.api_keys.create, body.role, body.subject)
    await auditing.record(request, "C", "apikey.create")
    return {"key_id": key.key_id, "token": key.token, "role": key.role.value, "subject": key.subject}


@router.get(
    "/api-keys",
    name="apikey.list",
    response_model=ApiKeysOut,
    summary="Keys, newest first: id, role, subject, created, revoked (never the secret)",
)
async def list_keys(
    _admin: CurrentAdmin,
    resources: ResourcesDep,
    request: Request,
    limit: Annotated[int, Query(ge=1, le=1_000)] = 200,
) -> dict[str, object]:
    keys = await run_in_threadpool(resources.api_keys.list_keys, limit)
    await auditing.record(request, "R", "apikey.list", detail={"keys": len(keys)})
    return {"keys": [{**asdict(k), "role": k.role.value} for k in keys]}


@router.delete("/api-keys/{key_id}", name="apikey.revoke", status_code=204, summary="Revoke a key")
async def revoke_key(
    key_id: str, _admin: CurrentAdmin, resources: ResourcesDep, request: Request
) -> Response:
    if not await run_in_threadpool(resources.api_keys.revoke, key_id):
        raise NotFoundError("no such active key")
    await auditing.record(request, "D", "apikey.revoke")
    return Response(status_code=204)
