"""`python -m jobs.scheduler`: retention daily at JARVIS_RETENTION_AT (UTC), the audit checkpoint hourly,
and every RECONCILE_EVERY the clean-up of episode writes that a dead process left unfinished.

The retention run compacts the vector index of every doctor it purged from (and resumes any
compaction a crash interrupted), so "compaction after purges" is part of it and logged with it.
Each run is logged with its counts; a failing job is logged (type only) and retried at its next
slot, never taking the scheduler down. SIGTERM/SIGINT stop it after the job in progress (every job
is crash-safe anyway). Jobs take their dependencies as arguments; tests call `tick()` with an
injected clock instead of sleeping.

Run exactly one scheduler per deployment (the retention lock makes a second one harmless).
"""

from __future__ import annotations

import logging
import signal
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from types import FrameType
from typing import TYPE_CHECKING

from jarvis.config import Settings
from jarvis.errors import ConflictError, JarvisError

if TYPE_CHECKING:
    from jarvis.audit.log import AuditLog
    from jarvis.memory.records.store import RecordStore
    from jarvis.memory.vector_index import ChromaIndex

logger = logging.getLogger("jobs.scheduler")
Clock = Callable[[], datetime]
# API replicas clear their own failed saves; a replica that died leaves `pending` rows that nobody
# else would touch until some replica restarts. Cheap when there is nothing to do (one indexed query).
RECONCILE_EVERY = timedelta(minutes=10)


def daily_at(hh_mm: str) -> Callable[[datetime, datetime | None], bool]:
    """Due once a day, at or after hh:mm UTC (a scheduler started later that day runs it at once)."""
    hour, minute = (int(part) for part in hh_mm.split(":"))

    def due(now: datetime, last: datetime | None) -> bool:
        slot = now.astimezone(UTC).replace(hour=hour, minute=minute, second=0, microsecond=0)
        return now >= slot and (last is None or last < slot)

    return due


def every(interval: timedelta) -> Callable[[datetime, datetime | None], bool]:
    def due(now: datetime, last: datetime | None) -> bool:
        return last is None or now - last >= interval

    return due


@dataclass
class Job:
    name: str
    due: Callable[[datetime, datetime | None], bool]
    run: Callable[[datetime], str]  # returns a one-line summary of counts for the log
    last: datetime | None = None


@dataclass
class Scheduler:
    jobs: list[Job]
    clock: Clock = field(default=lambda: datetime.now(UTC))
    stop: threading.Event = field(default_factory=threading.Event)

    def tick(self) -> list[str]:
        """Run every job that is due now; returns their names."""
        ran = []
        for job in self.jobs:
            now = self.clock()
            if self.stop.is_set() or not job.due(now, job.last):
                continue
            job.last = now  # a failed run waits for its next slot instead of retrying in a loop
            started = time.perf_counter()
            try:
                summary = job.run(now)
            except ConflictError:
                logger.warning("job %s skipped: another run holds its lock", job.name)
            except JarvisError as exc:
                logger.error("job %s failed: %s (%s)", job.name, exc.code, type(exc).__name__)
            except Exception as exc:  # noqa: BLE001 - a bug in one job must not stop the others
                logger.error("job %s failed unexpectedly (%s)", job.name, type(exc).__name__)
            else:
                logger.info("job %s done in %.1f s: %s", job.name, time.perf_counter() - started, summary)
            ran.append(job.name)
        return ran

    def run_forever(self, poll_s: float = 30.0) -> None:
        logger.info("scheduler started: %s", ", ".join(job.name for job in self.jobs))
        while not self.stop.is_set():
            self.tick()
            self.stop.wait(poll_s)
        logger.info("scheduler stopped")


def build_jobs(settings: Settings) -> list[Job]:
    """The production jobs of a standalone scheduler, wired from settings (stores opened once, here)."""
    from jarvis.audit.log import AuditLog
    from jarvis.memory.factory import build_embedder, prepare_data_dir
    from jarvis.memory.records.database import default_url, make_engine, migrate
    from jarvis.memory.records.store import RecordStore
    from jarvis.memory.vector_index import ChromaIndex, chroma_client
    from jarvis.security.keys import load_secrets

    prepare_data_dir(settings)
    secrets = load_secrets(settings)
    engine = make_engine(settings.database_url or default_url(settings.data_dir))
    migrate(engine)
    index = ChromaIndex(chroma_client(settings), build_embedder(settings).identity)
    return jobs_for(RecordStore(engine), index, AuditLog(engine, secrets.audit), settings)


def jobs_for(records: RecordStore, index: ChromaIndex, audit: AuditLog, settings: Settings) -> list[Job]:
    """Retention, audit checkpoints and reconciliation over the given stores (a standalone
    scheduler's own, or those of `jarvis serve` when it hosts embedded Chroma)."""
    from jarvis.memory.rollback import reconcile_unfinished
    from jarvis.memory.service import RECONCILE_GRACE
    from jobs import retention
    from jobs.locks import job_lock

    stores = retention.Stores.for_deployment((records, index), settings)

    def run_retention(now: datetime) -> str:
        report = retention.run(stores, audit, now=now)
        return (
            f"cutoff {report.cutoff:%Y-%m-%dT%H:%MZ}, {report.deleted} episodes and {report.facts_deleted} facts"
            f" deleted, {report.held} held; compaction: {report.doctors_compacted} doctors"
        )

    def run_checkpoint(now: datetime) -> str:
        signed = audit.checkpoint(now)
        return "log empty" if signed is None else f"checkpoint at seq {signed.seq}"

    def run_reconcile(now: datetime) -> str:
        # Under the retention lock: rows a purge in progress has marked `deleting` are its own.
        with job_lock(records.engine, retention.LOCK_NAME):
            count = reconcile_unfinished(stores.records, stores.index, now - RECONCILE_GRACE)
        return f"{count} unfinished episode writes cleared"

    return [
        Job("retention", daily_at(settings.retention_at), run_retention),
        Job("audit-checkpoint", every(timedelta(seconds=settings.audit_checkpoint_every_s)), run_checkpoint),
        Job("reconcile", every(RECONCILE_EVERY), run_reconcile),
    ]


def in_server(
    records: RecordStore, index: ChromaIndex, audit: AuditLog, settings: Settings
) -> InServer | None:
    """The scheduler `jarvis serve` runs in a thread of its own, or None. Embedded Chroma lives in
    the server process and no other process may open it, so there the server must run the jobs
    itself, or retention would never happen on a default install; with a Chroma server, run
    `python -m jobs.scheduler` instead (JARVIS_SERVE_SCHEDULER overrides either way)."""
    wanted = settings.serve_scheduler
    if wanted is None:
        wanted = settings.chroma_mode == "embedded"
    if not wanted:
        return None
    return InServer(Scheduler(jobs_for(records, index, audit, settings)), settings.scheduler_poll_s)


class InServer:
    """A scheduler on a daemon thread: started with the server, stopped (after the job in
    progress, or at the timeout: every job is crash-safe) when it shuts down."""

    def __init__(self, scheduler: Scheduler, poll_s: float) -> None:
        self.scheduler = scheduler
        self._thread = threading.Thread(
            target=scheduler.run_forever, args=(poll_s,), name="scheduler", daemon=True
        )

    def start(self) -> None:
        self._thread.start()

    def stop(self, timeout_s: float) -> None:
        self.scheduler.stop.set()
        self._thread.join(timeout_s)
        if self._thread.is_alive():
            logger.warning("scheduler job still running at shutdown; the next run finishes it")


def main() -> int:
    from jarvis.config import get_settings
    from jarvis.logging_setup import configure_logging

    settings = get_settings()
    configure_logging(settings.log_level, settings.log_json)
    scheduler = Scheduler(build_jobs(settings))

    def on_signal(signum: int, _frame: FrameType | None) -> None:
        logger.info("signal %d: stopping after the job in progress", signum)
        scheduler.stop.set()

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    scheduler.run_forever(settings.scheduler_poll_s)
    return 0


if __name__ == "__main__":
    sys.exit(main())
