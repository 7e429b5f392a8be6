"""One retention run at a time, across threads and processes, on SQLite and PostgreSQL."""

from __future__ import annotations

import subprocess
import sys
import threading

import pytest

from jarvis.errors import ConflictError
from jarvis.memory.types import EpisodeDraft
from jobs import retention
from jobs.locks import job_lock
from tests.jobs.conftest import Env, EnvFactory, invariants

HOLD_LOCK = """
import sys
from jarvis.memory.records.database import make_engine
from jobs.locks import job_lock
with job_lock(make_engine(sys.argv[1]), "retention"):
    print("locked", flush=True)
    sys.stdin.readline()
"""


@pytest.fixture(params=["sqlite", "postgres"])
def any_env(request: pytest.FixtureRequest, make_env: EnvFactory) -> Env:
    url = request.getfixturevalue("fresh_postgres") if request.param == "postgres" else None
    return make_env(url)


def test_a_second_runner_in_another_thread_is_refused_while_the_first_runs(any_env: Env) -> None:
    env = any_env
    env.memory.save_batch("dr-a", [EpisodeDraft("Sepsis bundle", "Fluids and cultures.")] * 2)
    env.clock.travel(days=91)
    inside, release = threading.Event(), threading.Event()
    errors: list[BaseException] = []

    def slow(name: str) -> None:
        if name == "marked":
            inside.set()
            release.wait(10)

    def first() -> None:
        try:
            retention.run(env.stores, env.audit, now=env.clock(), step=slow)
        except BaseException as exc:  # noqa: BLE001 - reported to the main thread
            errors.append(exc)

    thread = threading.Thread(target=first)
    thread.start()
    assert inside.wait(10)
    with pytest.raises(ConflictError, match="in progress"):
        retention.run(env.stores, env.audit, now=env.clock())
    release.set()
    thread.join(10)
    assert errors == []
    assert retention.run(env.stores, env.audit, now=env.clock()).deleted == 0  # free again
    invariants(env)


def test_a_runner_in_another_process_holds_the_lock_until_it_exits(any_env: Env) -> None:
    engine = any_env.memory.store.engine
    url = engine.url.render_as_string(hide_password=False)
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLD_LOCK, url], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "locked"
        with pytest.raises(ConflictError):
            retention.run(any_env.stores, any_env.audit, now=any_env.clock())
        with pytest.raises(ConflictError):
            with job_lock(engine, "retention"):
                pass
    finally:
        holder.communicate("\n", timeout=20)
    assert holder.returncode == 0
    assert retention.run(any_env.stores, any_env.audit, now=any_env.clock()).deleted == 0
