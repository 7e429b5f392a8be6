"""Auditor: read, export (FHIR R4 AuditEvent NDJSON) and verify the audit log. Reading it is audited too."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import StreamingResponse
from starlette.concurrency import run_in_threadpool

from jarvis.api import auditing
from jarvis.api.deps import CurrentAuditor, ResourcesDep
from jarvis.api.schemas import ERRORS
from jarvis.audit.query import AuditQuery

router = APIRouter(prefix="/v1/audit", tags=["auditor"], responses=ERRORS)


@router.get("/events", name="audit.read", summary="Audit events, oldest first, filtered, with a cursor")
async def events(
    _auditor: CurrentAuditor,
    resources: ResourcesDep,
    request: Request,
    since: datetime | None = None,
    until: datetime | None = None,
    actor: Annotated[str | None, Query(max_length=128)] = None,
    patient_ref: Annotated[str | None, Query(max_length=64)] = None,
    action: Annotated[str | None, Query(max_length=1)] = None,
    outcome: Annotated[str | None, Query(max_length=16)] = None,
    limit: Annotated[int, Query(ge=1, le=500)] = 100,
    cursor: Annotated[str | None, Query(max_length=64)] = None,
) -> dict[str, Any]:
    query = AuditQuery(since, until, actor, patient_ref, action, outcome, limit, cursor)
    page = await run_in_threadpool(resources.audit.query, query)
    await auditing.record(request, "R", "audit.read", detail={"events": len(page.events)})
    return {"events": [e.to_dict() for e in page.events], "next_cursor": page.next_cursor}


@router.get(
    "/export",
    name="audit.export",
    summary="NDJSON, one FHIR R4 AuditEvent per line",
    response_class=StreamingResponse,
    responses={200: {"content": {"application/x-ndjson": {}}, "description": "FHIR R4 AuditEvent per line"}},
)
async def export(
    _auditor: CurrentAuditor,
    resources: ResourcesDep,
    request: Request,
    since: datetime | None = None,
    until: datetime | None = None,
) -> StreamingResponse:
    await auditing.record(request, "R", "audit.export")
    lines: Iterator[str] = resources.audit.export(since, until)
    return StreamingResponse(lines, media_type="application/x-ndjson")


@router.get("/verify", name="audit.verify", summary="Check the hash chain and checkpoints")
async def verify(_auditor: CurrentAuditor, resources: ResourcesDep, request: Request) -> dict[str, Any]:
    result = await run_in_threadpool(resources.audit.verify)
    await auditing.record(request, "E", "audit.verify", detail={"events_checked": result["events_checked"]})
    return dict(result)
