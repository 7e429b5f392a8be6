"""The scheduler, driven by an injected clock: daily retention, hourly checkpoints, failures, SIGTERM."""

from __future__ import annotations

import logging
import os
import signal
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from jarvis.config import Settings
from jarvis.errors import ConflictError, UnavailableError
from jarvis.memory.types import EpisodeDraft
from jobs import scheduler
from jobs.scheduler import Job, Scheduler, daily_at, every
from tests.jobs.conftest import Clock, Env


def test_daily_and_hourly_slots() -> None:
    clock = Clock(datetime(2026, 3, 1, 2, 59, tzinfo=UTC))
    calls: list[tuple[str, datetime]] = []
    jobs = [
        Job("retention", daily_at("03:00"), lambda now: calls.append(("retention", now)) or "ok"),
        Job("checkpoint", every(timedelta(hours=1)), lambda now: calls.append(("checkpoint", now)) or "ok"),
    ]
    s = Scheduler(jobs, clock=clock)
    assert s.tick() == ["checkpoint"]  # first tick: checkpoint now, retention not before 03:00
    assert s.tick() == []
    clock.travel(minutes=1)
    assert s.tick() == ["retention"]
    clock.travel(minutes=59)
    assert s.tick() == ["checkpoint"]
    clock.travel(hours=23)  # 02:59 the next day
    assert s.tick() == ["checkpoint"]
    clock.travel(minutes=1)
    assert s.tick() == ["retention"]
    assert [name for name, _ in calls].count("retention") == 2


def test_a_failing_job_is_logged_and_the_scheduler_goes_on(caplog: pytest.LogCaptureFixture) -> None:
    clock = Clock()

    def down(_now: datetime) -> str:
        raise UnavailableError("record store unavailable (OperationalError)")

    def busy(_now: datetime) -> str:
        raise ConflictError("another retention run is in progress")

    s = Scheduler(
        [Job("a", every(timedelta(hours=1)), down), Job("b", every(timedelta(hours=1)), busy)], clock=clock
    )
    with caplog.at_level(logging.INFO, logger="jobs.scheduler"):
        assert s.tick() == ["a", "b"]
    assert "job a failed: unavailable" in caplog.text and "job b skipped" in caplog.text
    assert s.tick() == []  # no retry loop: the next slot
    clock.travel(hours=1)
    assert s.tick() == ["a", "b"]


def test_the_production_jobs_run_retention_checkpoint_and_reconcile(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path / "sched", retention_at="03:00")
    jobs = scheduler.build_jobs(settings)
    clock = Clock(datetime.now(UTC).replace(hour=3, minute=5))
    s = Scheduler(jobs, clock=clock)
    assert s.tick() == ["retention", "audit-checkpoint", "reconcile"]


def test_the_reconcile_job_clears_a_save_that_a_dead_process_left_pending(tmp_path: Path) -> None:
    from jarvis.memory.factory import open_memory
    from jarvis.memory.records.store import PENDING

    settings = Settings(data_dir=tmp_path / "sched")
    memory = open_memory(settings)
    assert memory is not None
    left, kept = memory.save_batch(
        "dr-a", [EpisodeDraft("Sepsis bundle", "Fluids."), EpisodeDraft("DKA", "Insulin.")]
    )
    now = datetime.now(UTC)
    memory.store.set_state([left], PENDING, now - timedelta(minutes=11))  # as a save killed mid-way leaves it
    reconcile = next(job for job in scheduler.build_jobs(settings) if job.name == "reconcile")
    s = Scheduler([reconcile], clock=Clock(now))
    assert s.tick() == ["reconcile"]
    assert memory.store.stale_ids(PENDING, now) == []
    assert memory.index.vectors("dr-a", [left, kept]).keys() == {kept}
    memory.store.engine.dispose()


def test_sigterm_stops_the_scheduler_gracefully(tmp_path: Path) -> None:
    environment = {**os.environ, "JARVIS_DATA_DIR": str(tmp_path / "data"), "JARVIS_SCHEDULER_POLL_S": "600"}
    process = subprocess.Popen(
        [sys.executable, "-m", "jobs.scheduler"], stderr=subprocess.PIPE, text=True, env=environment,
        cwd=Path(__file__).resolve().parents[2],
    )  # fmt: skip
    assert process.stderr is not None
    lines = []
    for line in process.stderr:
        lines.append(line)
        if "job audit-checkpoint done" in line:
            break
    process.send_signal(signal.SIGTERM)
    _, rest = process.communicate(timeout=30)
    assert process.returncode == 0
    output = "".join(lines) + rest
    assert "scheduler started" in output and "job retention done" in output and "scheduler stopped" in output


def test_saves_made_before_the_run_are_purged_by_the_scheduled_job(env: Env) -> None:
    env.memory.save_batch("dr-a", [EpisodeDraft("Sepsis bundle", "Fluids.")])
    from jobs import retention

    job = Job(
        "retention", daily_at("03:00"), lambda now: str(retention.run(env.stores, env.audit, now=now).deleted)
    )
    clock = Clock(env.clock.now.replace(hour=2) + timedelta(days=91))
    s = Scheduler([job], clock=clock)
    assert s.tick() == []
    clock.travel(hours=1)
    assert s.tick() == ["retention"] and env.memory.store.count() == 0
