"""Admin: retention runs and policy, legal holds, patient erasure (DESIGN §5). No clinical content
goes in or out: patient ids are turned into pseudonyms at once and only counts come back."""

from __future__ import annotations

from datetime import UTC, datetime

from fastapi import APIRouter, Request, Response
from pydantic import BaseModel, ConfigDict, Field
from starlette.concurrency import run_in_threadpool

from jarvis.api import auditing
from jarvis.api.deps import CurrentAdmin, MemoryDep, ResourcesDep
from jarvis.api.resources import Resources
from jarvis.api.schemas import ERRORS, PatientIdIn
from jarvis.errors import InputError, NotFoundError
from jarvis.memory import validation
from jarvis.memory.records.retention_store import Policy
from jarvis.memory.service import MemoryService
from jobs import retention
from jobs.erasure import erase_patient

router = APIRouter(prefix="/v1/admin", tags=["admin"], responses=ERRORS)
MAX_DAYS = 36_500


class RunIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    dry_run: bool = False


class ReportOut(BaseModel):
    cutoff: datetime
    candidates: int
    deleted: int
    held: int
    seconds: float
    facts_deleted: int
    facts_held: int
    doctors_compacted: int
    dry_run: bool


class PolicyBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    default_days: int = Field(ge=1, le=MAX_DAYS)
    per_doctor: dict[str, int] = Field(default_factory=dict, max_length=10_000)


class HoldOut(BaseModel):
    held: bool
    created: bool


class ErasureOut(BaseModel):
    episodes: int
    facts: int
    doctors: int
    seconds: float


def stores(resources: Resources, memory: MemoryService) -> retention.Stores:
    return retention.Stores.for_deployment(memory, resources.settings)


@router.post("/retention/run", name="retention.run", response_model=ReportOut, summary="Run retention now")
async def run_retention(
    body: RunIn, _admin: CurrentAdmin, resources: ResourcesDep, memory: MemoryDep, request: Request
) -> dict[str, object]:
    now = datetime.now(UTC)
    report = await run_in_threadpool(
        retention.run, stores(resources, memory), None, now=now, dry_run=body.dry_run
    )
    counts = {k: v for k, v in report.to_dict().items() if isinstance(v, int) and not isinstance(v, bool)}
    await auditing.record(request, "D", "retention.run", detail={**counts, "cutoff_epoch": int(report.cutoff.timestamp()), "dry_run": int(report.dry_run)})  # fmt: skip
    return report.to_dict()


@router.get("/retention/policy", name="retention.policy.read", response_model=PolicyBody)
async def read_policy(
    _admin: CurrentAdmin, resources: ResourcesDep, memory: MemoryDep, request: Request
) -> dict[str, object]:
    policy = await run_in_threadpool(stores(resources, memory).retention.policy, resources.settings.retention_default_days)  # fmt: skip
    await auditing.record(request, "R", "retention.policy.read")
    return {"default_days": policy.default_days, "per_doctor": dict(policy.per_doctor)}


@router.put("/retention/policy", name="retention.policy.update", response_model=PolicyBody)
async def update_policy(
    body: PolicyBody, _admin: CurrentAdmin, resources: ResourcesDep, memory: MemoryDep, request: Request
) -> dict[str, object]:
    for doctor, days in body.per_doctor.items():
        validation.doctor_id(doctor)
        if not 1 <= days <= MAX_DAYS:
            raise InputError(f"per_doctor days must be between 1 and {MAX_DAYS}")
    policy = Policy(body.default_days, dict(body.per_doctor))
    await run_in_threadpool(stores(resources, memory).retention.set_policy, policy, datetime.now(UTC))
    await auditing.record(request, "U", "retention.policy.update", detail={"default_days": body.default_days, "overrides": len(body.per_doctor)})  # fmt: skip
    return {"default_days": policy.default_days, "per_doctor": dict(policy.per_doctor)}


@router.post("/legal-holds", name="legalhold.create", status_code=201, response_model=HoldOut)
async def add_hold(
    body: PatientIdIn, _admin: CurrentAdmin, resources: ResourcesDep, memory: MemoryDep, request: Request
) -> dict[str, object]:
    refs = [r.ref for r in memory.pseudonyms.refs_for(body.patient_id)]
    created = await run_in_threadpool(stores(resources, memory).retention.add_hold, refs, datetime.now(UTC))
    await auditing.record(request, "C", "legalhold.create", patient_refs=refs)
    return {"held": True, "created": created}


@router.delete("/legal-holds", name="legalhold.delete", status_code=204)
async def remove_hold(
    body: PatientIdIn, _admin: CurrentAdmin, resources: ResourcesDep, memory: MemoryDep, request: Request
) -> Response:
    refs = [r.ref for r in memory.pseudonyms.refs_for(body.patient_id)]
    if not await run_in_threadpool(stores(resources, memory).retention.remove_hold, refs):
        raise NotFoundError("no legal hold for this patient")
    await auditing.record(request, "D", "legalhold.delete", patient_refs=refs)
    return Response(status_code=204)


@router.post("/patients/erase", name="patient.erase", response_model=ErasureOut)
async def erase(
    body: PatientIdIn, _admin: CurrentAdmin, resources: ResourcesDep, memory: MemoryDep, request: Request
) -> dict[str, object]:
    refs = [r.ref for r in memory.pseudonyms.refs_for(body.patient_id)]
    report = await run_in_threadpool(
        erase_patient, stores(resources, memory), None, refs, now=datetime.now(UTC)
    )
    await auditing.record(request, "D", "patient.erase", patient_refs=refs, detail={"episodes": report.episodes, "facts": report.facts, "doctors": report.doctors})  # fmt: skip
    return report.to_dict()
