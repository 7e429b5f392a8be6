"""Retention and patient erasure: forget on schedule, or on request, and leave nothing recoverable.

    report = run(stores, audit, now=datetime.now(UTC), dry_run=False)

A run, under the job lock (jobs/locks.py; a second runner gets ConflictError):
  1. marks expired, committed, unheld episodes `deleting` (hidden from every read), in batches,
     together with any a previous run left marked;
  2. rebuilds the affected doctors' vector collections without them (jobs/compaction.py) and,
     meanwhile, deletes their rows and data keys (crypto-shredding the ciphertexts) in batches —
     or, with compact=False, deletes their vectors one by one, then the rows;
  3. deletes expired facts and the affected doctors' summaries;
  4. scrubs the database files (RetentionStore.scrub) and writes one audit event with the counts.
Killed anywhere, the next run finishes the work: marked rows are picked up again in step 1 and a
half-done compaction resumes, so no record outlives its vector, no vector its record, no data key
its episode. `step(name)` is called between steps (tests inject crashes there).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from datetime import datetime
from pathlib import Path

from jarvis.audit.log import AuditLog
from jarvis.config import Settings
from jarvis.errors import JarvisError
from jarvis.memory.records.generations import GenerationStore
from jarvis.memory.records.retention_store import Policy, RetentionStore
from jarvis.memory.records.store import RecordStore
from jarvis.memory.service import MemoryService
from jarvis.memory.vector_index import GENERATION_TTL_S, ChromaIndex, wipe_reused_memory
from jobs import compaction
from jobs.locks import JobLock, job_lock

logger = logging.getLogger(__name__)
LOCK_NAME = "retention"
# Episodes marked `deleting` per statement: 50k of 100k took 2.5 s in batches of 2,000 (a commit
# each), 1.4 s in batches of 20,000; SQLite accepts up to 32,766 bound values per statement.
MARK_BATCH = 20_000
Step = Callable[[str], None]
Progress = Callable[[int, int], None]  # (done, total)


def _no_step(_name: str) -> None:
    return None


def _no_progress(_done: int, _total: int) -> None:
    return None


@dataclass
class Stores:
    """What the jobs touch: the record store, the vector index and where embedded Chroma lives."""

    records: RecordStore
    index: ChromaIndex
    chroma_path: Path | None = None
    default_days: int = 90
    grace_s: float = 0.0  # > the index's generation cache when other processes share the index
    sleep: Callable[[float], None] = time.sleep
    retention: RetentionStore = field(init=False)
    generations: GenerationStore = field(init=False)

    def __post_init__(self) -> None:
        self.retention = RetentionStore(self.records.engine)
        self.generations = GenerationStore(self.records.engine)
        self.index.attach_generations(self.generations)
        if self.chroma_path is not None:
            wipe_reused_memory()  # before compaction allocates new indexes in this process

    @classmethod
    def of(cls, memory: MemoryService, **kwargs: object) -> Stores:
        if not isinstance(memory.index, ChromaIndex):
            raise TypeError("retention needs the Chroma vector index")
        return cls(memory.store, memory.index, **kwargs)  # type: ignore[arg-type]

    @classmethod
    def for_deployment(
        cls, memory: MemoryService | tuple[RecordStore, ChromaIndex], settings: Settings
    ) -> Stores:
        """As the API, the CLI and the scheduler use them: embedded Chroma's files are scrubbed
        after a purge; with a Chroma server, compaction waits out the other replicas' caches."""
        embedded = settings.chroma_mode == "embedded"
        records, index = memory if isinstance(memory, tuple) else (memory.store, memory.index)
        if not isinstance(index, ChromaIndex):
            raise TypeError("retention needs the Chroma vector index")
        return cls(
            records,
            index,
            chroma_path=settings.data_dir / "chroma" if embedded else None,
            default_days=settings.retention_default_days,
            grace_s=0.0 if embedded else GENERATION_TTL_S + 1.0,
        )


@dataclass(frozen=True, slots=True)
class RetentionReport:
    cutoff: datetime
    candidates: int
    deleted: int
    held: int
    seconds: float
    facts_deleted: int = 0
    facts_held: int = 0
    doctors_compacted: int = 0
    dry_run: bool = False

    def to_dict(self) -> dict[str, object]:
        return {**asdict(self), "cutoff": self.cutoff.isoformat()}


def run(
    stores: Stores,
    audit: AuditLog | None,
    *,
    now: datetime,
    dry_run: bool = False,
    compact: bool = True,
    actor: str = "system",
    role: str = "system",
    step: Step = _no_step,
    progress: Progress = _no_progress,
) -> RetentionReport:
    started = time.perf_counter()
    policy = stores.retention.policy(stores.default_days)
    cutoff = policy.cutoffs(now)[0]
    if dry_run:
        candidates, held = stores.retention.count_expired(policy, now)
        facts, facts_held = stores.retention.delete_facts(policy, now, dry_run=True)
        report = RetentionReport(cutoff, candidates, 0, held, _since(started), facts, facts_held, 0, True)
        _audit(audit, report, actor, role, policy)
        return report
    with job_lock(stores.records.engine, LOCK_NAME) as lock:
        candidates, held = stores.retention.count_expired(policy, now)
        try:
            report = _purge(stores, policy, now, lock, compact, step, progress, candidates, held, started)
        except JarvisError:
            _audit(audit, RetentionReport(cutoff, candidates, 0, held, _since(started)), actor, role, policy, "error")  # fmt: skip
            raise
    _audit(audit, report, actor, role, policy)
    logger.info(
        "retention: %d episodes and %d facts deleted, %d held, %d doctors compacted in %.1f s",
        report.deleted, report.facts_deleted, report.held, report.doctors_compacted, report.seconds,
    )  # fmt: skip
    return report


def _purge(
    stores: Stores, policy: Policy, now: datetime, lock: JobLock, compact: bool, step: Step,
    progress: Progress, candidates: int, held: int, started: float,
) -> RetentionReport:  # fmt: skip
    marked, _ = _mark(stores, lambda limit: stores.retention.expired_batch(policy, now, limit), now, lock)
    step("marked")
    compacted = _forget(stores, marked, compact, lock, step, progress)
    facts, facts_held = stores.retention.delete_facts(policy, now)
    stores.retention.drop_summaries(sorted(marked))
    step("facts_deleted")
    if marked or facts:
        stores.retention.scrub()
    deleted = sum(len(ids) for ids in marked.values())
    cutoff = policy.cutoffs(now)[0]
    return RetentionReport(cutoff, candidates, deleted, held, _since(started), facts, facts_held, compacted)


def _mark(
    stores: Stores, batch: Callable[[int | None], list[tuple[str, str]]], now: datetime, lock: JobLock
) -> tuple[dict[str, list[str]], list[tuple[str, str]]]:
    """Mark what `batch` selects `deleting`; returns it with what an earlier run left marked, by
    doctor, and the selected (episode id, doctor) pairs alone."""
    marked: dict[str, list[str]] = {}
    for episode_id, doctor in stores.retention.deleting():
        marked.setdefault(doctor, []).append(episode_id)
    rows = batch(None)  # ids only, read once: batching the reads would rescan marked rows each time
    for start in range(0, len(rows), MARK_BATCH):
        stores.retention.mark_deleting([r[0] for r in rows[start : start + MARK_BATCH]], now)
        lock.renew()
    leftover = {episode_id for ids in marked.values() for episode_id in ids}
    for episode_id, doctor in rows:
        if episode_id not in leftover:
            marked.setdefault(doctor, []).append(episode_id)
    return marked, rows


def _forget(
    stores: Stores, marked: dict[str, list[str]], compact: bool, lock: JobLock, step: Step, progress: Progress
) -> int:
    """Vectors and rows: with compaction, the rows are deleted while the collections are rebuilt
    without them (a crash from then on resumes the rebuild); without, vectors one by one first."""
    every = [episode_id for ids in marked.values() for episode_id in ids]

    def deleted(done: int) -> None:
        progress(done, len(every))
        lock.renew()

    def delete_rows() -> None:
        lock.renew()
        stores.retention.delete_episodes(every, deleted)

    compacted = 0
    if compact:
        compacted = compaction.compact(
            stores.index, stores.generations, stores.retention, marked, grace_s=stores.grace_s,
            sleep=stores.sleep, chroma_path=stores.chroma_path, step=step, alongside=delete_rows,
        )  # fmt: skip
        step("vectors_deleted")
    else:
        for doctor, ids in marked.items():
            stores.index.delete(doctor, ids)
        step("vectors_deleted")
        delete_rows()
    step("rows_deleted")
    return compacted


def _since(started: float) -> float:
    return round(time.perf_counter() - started, 3)


def _audit(
    audit: AuditLog | None,
    report: RetentionReport,
    actor: str,
    role: str,
    policy: Policy,
    outcome: str = "success",
) -> None:
    if audit is None:  # the caller audits (the API, with its request's context)
        return
    audit.record(
        action="D",
        name="retention.run",
        actor=actor,
        role=role,
        outcome=outcome,
        detail={
            "cutoff_epoch": int(report.cutoff.timestamp()),
            "default_days": policy.default_days,
            "overrides": len(policy.per_doctor),
            "candidates": report.candidates,
            "deleted": report.deleted,
            "held": report.held,
            "facts_deleted": report.facts_deleted,
            "facts_held": report.facts_held,
            "doctors_compacted": report.doctors_compacted,
            "dry_run": int(report.dry_run),
            "seconds": report.seconds,
        },
    )
