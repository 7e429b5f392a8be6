"""POST /v1/ask: one question through the agent loop (DESIGN §1)."""

from __future__ import annotations

from fastapi import APIRouter, Request
from starlette.concurrency import run_in_threadpool

from jarvis.agent.loop import AskRequest
from jarvis.api import auditing
from jarvis.api.deps import AgentDep, CurrentDoctor
from jarvis.api.schemas import ERRORS, AskIn, AskOut
from jarvis.cli.agent_commands import ask_payload

router = APIRouter(prefix="/v1", tags=["clinician"], responses=ERRORS)


@router.post(
    "/ask", name="ask", response_model=AskOut, summary="Ask the assistant, with this doctor's memory"
)
async def ask(body: AskIn, doctor: CurrentDoctor, agent: AgentDep, request: Request) -> dict[str, object]:
    result = await run_in_threadpool(
        agent.ask,
        AskRequest(
            doctor_id=doctor,
            query=body.query,
            patient_id=body.patient.id if body.patient else None,
            patient_name=body.patient.name if body.patient else None,
            session_id=body.session_id,
        ),
    )
    refs = [agent.memory.pseudonyms.ref(body.patient.id).ref] if body.patient and agent.memory else []
    written = [result.episode_id] if result.episode_id else []

    def undo() -> None:
        if written and agent.memory is not None:
            agent.memory.undo_save(doctor, written)  # also when the database is what failed: retried

    with auditing.undo_on_failure(undo):
        await auditing.record(
            request, "E", "ask", episode_ids=[m.episode_id for m in result.memories] + result.tool_reads + written, patient_refs=refs,
            detail={"degraded": int(result.degraded)},
        )  # fmt: skip
    return ask_payload(result)
