"""Patient erasure on request: every episode and fact of the patient, across all doctors.

Same path and guarantees as a retention purge (jobs/retention.py): episodes marked `deleting`,
collections rebuilt without them, rows and data keys deleted, files scrubbed, one audit event with
the counts. A patient under legal hold is not erased (ConflictError): the hold must be lifted first.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from datetime import datetime

from jarvis.audit.log import AuditLog
from jarvis.errors import ConflictError
from jobs.locks import job_lock
from jobs.retention import LOCK_NAME, Step, Stores, _forget, _mark, _no_step

logger = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class ErasureReport:
    episodes: int
    facts: int
    doctors: int
    seconds: float

    def to_dict(self) -> dict[str, object]:
        return asdict(self)


def erase_patient(
    stores: Stores,
    audit: AuditLog | None,
    refs: Sequence[str],
    *,
    now: datetime,
    actor: str = "system",
    role: str = "system",
    step: Step = _no_step,
) -> ErasureReport:
    """Erase the patient known by `refs` (their patient_ref under every pseudonym key version)."""
    started = time.perf_counter()
    if stores.retention.is_held(refs):
        raise ConflictError("the patient is under legal hold; lift the hold before erasing")
    with job_lock(stores.records.engine, LOCK_NAME) as lock:
        marked, selected = _mark(stores, lambda limit: stores.retention.patient_batch(refs, limit), now, lock)
        step("marked")
        _forget(stores, marked, True, lock, step, lambda _d, _t: None)
        facts, _ = stores.retention.delete_facts(None, now, refs)
        stores.retention.drop_summaries(sorted(marked))
        step("facts_deleted")
        stores.retention.scrub()
    doctors = {doctor for _, doctor in selected}  # `marked` may also hold rows a crashed run left
    report = ErasureReport(len(selected), facts, len(doctors), round(time.perf_counter() - started, 3))
    if audit is not None:  # None: the caller audits (the API, with its request's context)
        audit.record(
            action="D",
            name="patient.erase",
            actor=actor,
            role=role,
            patient_refs=list(refs),
            detail={"episodes": report.episodes, "facts": report.facts, "doctors": report.doctors},
        )
    logger.info(
        "erased a patient: %d episodes, %d facts, %d doctors", report.episodes, report.facts, report.doctors
    )
    return report
