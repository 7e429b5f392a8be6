"""GET /v1/whoami: who the token belongs to (role, subject, key id), for the console and host apps.

Any valid token may ask about itself; the answer holds no PHI. Each call is audited as a sign-in
check, and a refused one (bad, expired or revoked token) is audited as denied by the error handler.
"""

from __future__ import annotations

from fastapi import APIRouter, Request

from jarvis.api import auditing
from jarvis.api.deps import CurrentPrincipal
from jarvis.api.schemas import ERRORS, WhoAmIOut

router = APIRouter(prefix="/v1", tags=["session"], responses=ERRORS)


@router.get("/whoami", name="auth.whoami", response_model=WhoAmIOut, summary="The caller's role and id")
async def whoami(principal: CurrentPrincipal, request: Request) -> dict[str, object]:
    await auditing.record(request, "R", "auth.whoami")
    return {
        "role": principal.role.value,
        "subject": principal.subject,
        "key_id": principal.key_id,
        "method": principal.method,
    }
