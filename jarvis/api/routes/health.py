"""Operations: liveness, readiness (the stores answer), Prometheus metrics (no PHI: route templates)."""

from __future__ import annotations

from fastapi import APIRouter, Request, Response
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest
from sqlalchemy import text
from starlette.concurrency import run_in_threadpool

from jarvis.api.deps import ResourcesDep
from jarvis.api.schemas import ERRORS
from jarvis.errors import JarvisError, UnavailableError

router = APIRouter(tags=["operations"])


@router.get("/healthz", summary="The process is up")
async def healthz() -> dict[str, str]:
    return {"status": "ok"}


@router.get("/readyz", summary="The stores answer", responses={503: ERRORS[503]})
async def readyz(resources: ResourcesDep) -> dict[str, object]:
    def check() -> dict[str, str]:
        checks = {}
        try:
            with resources.engine.connect() as connection:
                connection.execute(text("SELECT 1"))
            checks["database"] = "ok"
        except Exception as exc:  # noqa: BLE001 - any failure means "not ready"
            raise UnavailableError(f"database not ready ({type(exc).__name__})") from exc
        if resources.memory is not None:
            try:
                resources.memory.index.ping()
                checks["vector_index"] = "ok"
            except JarvisError as exc:
                raise UnavailableError(f"vector index not ready ({exc.code})") from exc
        else:
            checks["vector_index"] = "disabled"
        return checks

    return {"status": "ready", "checks": await run_in_threadpool(check)}


@router.get(
    "/metrics",
    summary="Prometheus metrics",
    response_class=Response,
    responses={200: {"content": {"text/plain": {}}, "description": "Prometheus text format"}},
)
async def metrics(request: Request) -> Response:
    return Response(generate_latest(request.app.state.metrics.registry), media_type=CONTENT_TYPE_LATEST)
