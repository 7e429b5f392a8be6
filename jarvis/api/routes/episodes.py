"""Episodes of the calling doctor: save (batch), read, outcome, delete. Another doctor's is a 404."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request, Response
from starlette.concurrency import run_in_threadpool

from jarvis.api import auditing
from jarvis.api.deps import CurrentDoctor, MemoryDep
from jarvis.api.schemas import ERRORS, EpisodeIdsOut, EpisodeOut, EpisodesIn, OutcomeIn
from jarvis.errors import NotFoundError
from jarvis.memory.service import MemoryService
from jarvis.memory.types import Episode

router = APIRouter(
    prefix="/v1/episodes",
    tags=["clinician"],
    responses=ERRORS,
)


def episode_out(e: Episode) -> dict[str, Any]:
    return {
        "episode_id": e.episode_id,
        "patient_ref": e.patient_ref,
        "patient_name": e.patient_name,
        "session_id": e.session_id,
        "seq": e.seq,
        "created_at": e.created_at,
        "query": e.query,
        "response": e.response,
        "summary": e.summary,
        "tags": e.tags,
        "tools_used": e.tools_used,
        "confidence": e.confidence,
        "outcome": e.outcome.value if e.outcome else None,
        "outcome_note": e.outcome_note,
        "outcome_at": e.outcome_at,
    }


@router.post(
    "",
    name="episode.create",
    status_code=201,
    response_model=EpisodeIdsOut,
    summary="Save 1-500 episodes, all or none",
)
async def save(
    body: EpisodesIn, doctor: CurrentDoctor, memory: MemoryDep, request: Request
) -> dict[str, object]:
    drafts = [e.to_draft() for e in body.episodes]
    ids = await run_in_threadpool(memory.save_batch, doctor, drafts)
    refs = sorted({memory.pseudonyms.ref(d.patient_id).ref for d in drafts if d.patient_id})

    def undo() -> None:
        memory.undo_save(doctor, ids)  # also when the database is what failed: retried, not dropped

    with auditing.undo_on_failure(undo):
        await auditing.record(request, "C", "episode.create", episode_ids=ids, patient_refs=refs)
    return {"episode_ids": ids}


@router.get(
    "/{episode_id}",
    name="episode.read",
    response_model=EpisodeOut,
    summary="One episode, raw text decrypted for its owner",
)
async def read(episode_id: str, doctor: CurrentDoctor, memory: MemoryDep, request: Request) -> dict[str, Any]:
    episode = await run_in_threadpool(memory.get, doctor, episode_id)
    await auditing.record(
        request, "R", "episode.read", episode_ids=[episode_id], patient_refs=[episode.patient_ref] if episode.patient_ref else []
    )  # fmt: skip
    return episode_out(episode)


@router.post(
    "/{episode_id}/outcome",
    name="episode.outcome",
    status_code=204,
    summary="Record accepted / rejected / modified",
)
async def outcome(
    episode_id: str, body: OutcomeIn, doctor: CurrentDoctor, memory: MemoryDep, request: Request
) -> Response:
    await run_in_threadpool(_owned, memory, doctor, episode_id)
    # Audited before it is done: an update the log cannot record is not made.
    await auditing.record(request, "U", "episode.outcome", episode_ids=[episode_id])
    await run_in_threadpool(memory.set_outcome, doctor, episode_id, body.outcome, body.note)
    return Response(status_code=204)


@router.delete(
    "/{episode_id}",
    name="episode.delete",
    status_code=204,
    summary="Delete an episode (its data key with it)",
)
async def delete(episode_id: str, doctor: CurrentDoctor, memory: MemoryDep, request: Request) -> Response:
    await run_in_threadpool(_owned, memory, doctor, episode_id)
    # Audited before it is done: a deletion cannot be undone, so one the log cannot record is not made.
    await auditing.record(request, "D", "episode.delete", episode_ids=[episode_id])
    await run_in_threadpool(memory.delete, doctor, episode_id)
    return Response(status_code=204)


def _owned(memory: MemoryService, doctor: str, episode_id: str) -> None:
    """404 unless the episode exists and is the doctor's (checked without decrypting anything)."""
    if not memory.store.by_ids(doctor, [episode_id]):
        raise NotFoundError("episode not found")
