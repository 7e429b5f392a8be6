"""A patient's history and facts for the calling doctor. Patient ids travel in bodies, never URLs."""

from __future__ import annotations

from fastapi import APIRouter, Request
from starlette.concurrency import run_in_threadpool

from jarvis.api import auditing
from jarvis.api.deps import CurrentDoctor, MemoryDep
from jarvis.api.routes.episodes import episode_out
from jarvis.api.schemas import ERRORS, FactIn, FactOut, FactsOut, HistoryIn, HistoryOut, PatientIdIn
from jarvis.memory.types import PatientFact

router = APIRouter(prefix="/v1/patients", tags=["clinician"], responses=ERRORS)


def fact_out(f: PatientFact) -> dict[str, object]:
    return {
        "fact_id": f.fact_id,
        "category": f.category.value,
        "text": f.text,
        "recorded_at": f.recorded_at,
        "source_episode_id": f.source_episode_id,
    }


@router.post(
    "/history",
    name="patient.history",
    response_model=HistoryOut,
    summary="This doctor's episodes for a patient, newest first",
)
async def history(
    body: HistoryIn, doctor: CurrentDoctor, memory: MemoryDep, request: Request
) -> dict[str, object]:
    episodes = await run_in_threadpool(memory.history, doctor, body.patient_id, body.limit)
    ref = memory.pseudonyms.ref(body.patient_id).ref
    await auditing.record(
        request, "R", "patient.history", episode_ids=[e.episode_id for e in episodes], patient_refs=[ref]
    )
    return {"episodes": [episode_out(e) for e in episodes]}


@router.post("/facts", name="patient.facts", response_model=FactsOut, summary="The patient's recorded facts")
async def facts(
    body: PatientIdIn, doctor: CurrentDoctor, memory: MemoryDep, request: Request
) -> dict[str, object]:
    found = await run_in_threadpool(memory.facts, doctor, body.patient_id)
    await auditing.record(
        request, "R", "patient.facts", patient_refs=[memory.pseudonyms.ref(body.patient_id).ref]
    )
    return {"facts": [fact_out(f) for f in found]}


@router.post(
    "/facts/add",
    name="patient.fact.add",
    status_code=201,
    response_model=FactOut,
    summary="Record a fact (e.g. an allergy)",
)
async def add_fact(
    body: FactIn, doctor: CurrentDoctor, memory: MemoryDep, request: Request
) -> dict[str, object]:
    fact = await run_in_threadpool(memory.add_fact, doctor, body.patient_id, body.category, body.text)
    await auditing.record(
        request, "C", "patient.fact.add", patient_refs=[memory.pseudonyms.ref(body.patient_id).ref]
    )
    return fact_out(fact)
