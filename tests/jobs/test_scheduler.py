"""The scheduler, driven by an injected clock: daily retention, hourly checkpoints, failures, SIGTERM."""

from __future__ import annotations

import json
import logging
import os
import signal
import subprocess
import sys
import time
from contextlib import closing
from datetime import UTC, datetime, timedelta
from pathlib import Path

import httpx
import pytest

from jarvis.config import Settings
from jarvis.errors import ConflictError, UnavailableError
from jarvis.memory.types import EpisodeDraft
from jobs import scheduler
from jobs.scheduler import Job, Scheduler, daily_at, every
from scripts.topology import free_port
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


def _stop_after(process: subprocess.Popen[str], wanted: str) -> str:
    """Read the process's log until a line holds `wanted`, then SIGTERM it; the whole log."""
    assert process.stderr is not None
    lines = []
    for line in process.stderr:
        lines.append(line)
        if wanted in line:
            break
    process.send_signal(signal.SIGTERM)
    _, rest = process.communicate(timeout=60)
    return "".join(lines) + rest


def test_sigterm_stops_the_scheduler_gracefully(tmp_path: Path) -> None:
    # Retention due at its start whatever the time of day (at the default 03:00 UTC, a run between
    # midnight and three would find it not yet due, and this test failed then).
    environment = {
        **os.environ,
        "JARVIS_DATA_DIR": str(tmp_path / "data"),
        "JARVIS_SCHEDULER_POLL_S": "600",
        "JARVIS_RETENTION_AT": "00:00",
    }
    process = subprocess.Popen(
        [sys.executable, "-m", "jobs.scheduler"], stderr=subprocess.PIPE, text=True, env=environment,
        cwd=Path(__file__).resolve().parents[2],
    )  # fmt: skip
    output = _stop_after(process, "job audit-checkpoint done")
    assert process.returncode == 0
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


@pytest.mark.parametrize(
    ("mode", "override", "runs"),
    [("embedded", None, True), ("http", None, False), ("embedded", False, False), ("http", True, True)],
)
def test_the_server_runs_the_jobs_itself_only_where_no_other_process_can(
    env: Env, mode: str, override: bool | None, runs: bool
) -> None:
    settings = Settings(data_dir=env.data_dir, chroma_mode=mode, serve_scheduler=override)
    jobs = scheduler.in_server(env.stores.records, env.stores.index, env.audit, settings)
    assert (jobs is not None) == runs
    if jobs is not None:
        assert [job.name for job in jobs.scheduler.jobs] == ["retention", "audit-checkpoint", "reconcile"]


def _serve(data_dir: Path, port: int, **extra: str) -> subprocess.Popen[str]:
    environment = {k: v for k, v in os.environ.items() if not k.startswith("JARVIS_")}
    environment.update(JARVIS_DATA_DIR=str(data_dir), JARVIS_LOG_LEVEL="INFO", **extra)
    jarvis = Path(sys.executable).parent / "jarvis"
    return subprocess.Popen(
        [str(jarvis), "serve", "--port", str(port)], stderr=subprocess.PIPE, text=True, env=environment,
        cwd=Path(__file__).resolve().parents[2],
    )  # fmt: skip


def _import_expired(data_dir: Path, tmp_path: Path) -> str:
    """One episode of 200 days ago, imported with the CLI before the server starts."""
    record = {"query": "Urosepsis, which antibiotic?", "response": "Cefepime.", "created_at": (datetime.now(UTC) - timedelta(days=200)).isoformat()}  # fmt: skip
    source = tmp_path / "old.jsonl"
    source.write_text(json.dumps(record) + "\n")
    jarvis = Path(sys.executable).parent / "jarvis"
    environment = {k: v for k, v in os.environ.items() if not k.startswith("JARVIS_")}
    done = subprocess.run(
        [str(jarvis), "--data-dir", str(data_dir), "import", str(source), "--doctor", "dr-a"],
        capture_output=True, text=True, env=environment, check=True,
    )  # fmt: skip
    return done.stdout.strip()


def _episode_ids(data_dir: Path) -> list[str]:
    import sqlite3

    with closing(sqlite3.connect(data_dir / "jarvis.sqlite3")) as connection:
        return [row[0] for row in connection.execute("SELECT id FROM episodes")]


def test_an_embedded_server_purges_on_schedule_and_stops_its_scheduler_on_sigterm(tmp_path: Path) -> None:
    data_dir = tmp_path / "data"
    episode_id = _import_expired(data_dir, tmp_path)
    assert _episode_ids(data_dir) == [episode_id]
    # 00:00 UTC: whenever the test runs, today's slot has passed, so the server runs retention at once.
    process = _serve(data_dir, free_port(), JARVIS_RETENTION_AT="00:00", JARVIS_SCHEDULER_POLL_S="600")
    output = _stop_after(process, "job retention")
    assert "job retention done" in output and "1 episodes" in output, output[-2000:]
    assert "scheduler stopped" in output
    assert _episode_ids(data_dir) == []
    assert episode_id not in output  # the log names counts, never episodes


def test_a_server_told_not_to_runs_no_jobs(tmp_path: Path) -> None:
    data_dir = tmp_path / "data"
    episode_id = _import_expired(data_dir, tmp_path)
    port = free_port()
    process = _serve(data_dir, port, JARVIS_RETENTION_AT="00:00", JARVIS_SERVE_SCHEDULER="false")
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                if httpx.get(f"http://127.0.0.1:{port}/readyz", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.2)
        time.sleep(1.0)  # time enough for a scheduler, had one started, to begin its first run
    finally:
        process.send_signal(signal.SIGTERM)
        _, output = process.communicate(timeout=60)
    assert "scheduler started" not in output
    assert _episode_ids(data_dir) == [episode_id]
