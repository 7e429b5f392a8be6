"""POST /v1/memory/search: the calling doctor's memory by meaning."""

from __future__ import annotations

from fastapi import APIRouter, Request
from starlette.concurrency import run_in_threadpool

from jarvis.api import auditing
from jarvis.api.deps import CurrentDoctor, MemoryDep, ResourcesDep
from jarvis.api.schemas import ERRORS, SearchIn, SearchOut

router = APIRouter(prefix="/v1/memory", tags=["clinician"], responses=ERRORS)


@router.post(
    "/search",
    name="memory.search",
    response_model=SearchOut,
    summary="Search this doctor's episodes by meaning",
)
async def search(
    body: SearchIn, doctor: CurrentDoctor, memory: MemoryDep, resources: ResourcesDep, request: Request
) -> dict[str, object]:
    threshold = resources.settings.min_similarity if body.min_similarity is None else body.min_similarity
    hits = await run_in_threadpool(
        lambda: memory.search(
            doctor, body.query, k=body.k, patient_id=body.patient_id, min_similarity=threshold
        )
    )
    refs = [memory.pseudonyms.ref(body.patient_id).ref] if body.patient_id else []
    await auditing.record(
        request, "R", "memory.search", episode_ids=[h.episode_id for h in hits], patient_refs=refs
    )
    return {
        "hits": [
            {
                "episode_id": h.episode_id,
                "similarity": h.similarity,
                "score": h.score,
                "created_at": h.created_at,
                "summary": h.summary,
                "outcome": h.outcome.value if h.outcome else None,
            }
            for h in hits
        ]
    }
