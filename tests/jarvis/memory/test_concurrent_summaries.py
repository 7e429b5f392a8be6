"""Summaries written at once by several threads (or replicas) for the same doctor and session."""

from __future__ import annotations

import threading
from datetime import UTC, datetime

import pytest

from jarvis.memory.records.tables import SummaryRow
from tests.jarvis.memory.conftest import MemoryFactory


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_concurrent_first_summaries_all_succeed(
    make_memory: MemoryFactory, request: pytest.FixtureRequest, backend: str
) -> None:
    url = request.getfixturevalue("postgres_url") if backend == "postgresql" else None
    store = make_memory(url=url).store
    writers, errors = 8, []
    barrier = threading.Barrier(writers)

    def write(n: int) -> None:
        barrier.wait()
        try:
            store.put_summary(SummaryRow(doctor_id=f"dr-sum-{backend}", session_id="s1", text=f"summary {n}",
                                         episode_count=25 + n, created_at=datetime.now(UTC)))  # fmt: skip
        except Exception as exc:  # noqa: BLE001 - any failure is what this test is about
            errors.append(type(exc).__name__)

    threads = [threading.Thread(target=write, args=(n,)) for n in range(writers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    found = store.summary(f"dr-sum-{backend}", "s1")
    assert found is not None and found.text.startswith("summary ")
    assert found.episode_count == 25 + int(found.text.split()[1])  # one writer's row, whole
