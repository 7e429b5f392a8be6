"""Retention at scale: purge ~100k expired episodes out of 200k (100 doctors), embedded mode,
including the rebuild of every affected doctor's collection and the scrub of the files.

The corpus is bulk-loaded below the service exactly as bench/memory_bench.py does it (real MiniLM
vectors of a pool of texts plus noise, created_at spread uniformly over the past year); the policy
is set to 182 days so that about half of it has expired. Timings per step come from the job's
step hook; the result goes to bench/results/retention_bench.json.

    python bench/retention_bench.py [--total 200000]
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

import memory_bench  # noqa: E402 - bench/ is not a package

RESULTS = HERE / "results" / "retention_bench.json"
POOL = 600
DAYS = 182


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--total", type=int, default=200_000)
    args = parser.parse_args()

    from jarvis.audit.log import AuditLog
    from jarvis.config import Settings
    from jarvis.memory.factory import open_memory
    from jarvis.memory.records.retention_store import Policy
    from jarvis.security.keys import load_secrets
    from jobs import retention

    with tempfile.TemporaryDirectory(prefix="jarvis-retention-bench-") as tmp:
        settings = Settings(data_dir=Path(tmp) / "data")
        memory = open_memory(settings)
        assert memory is not None
        pool = memory_bench.pool_texts()[:POOL]
        pool_vectors = np.array(memory.embedder.embed_documents(pool), dtype=np.float32)
        t = time.perf_counter()
        memory_bench.bulk_load(memory, args.total, pool_vectors, pool, np.random.default_rng(3))
        load_s = time.perf_counter() - t
        print(f"bulk-loaded {args.total} episodes in {load_s:.1f} s", flush=True)

        stores = retention.Stores.of(memory, chroma_path=settings.data_dir / "chroma")
        audit = AuditLog(memory.store.engine, load_secrets(settings).audit)
        now = datetime.now(UTC)
        stores.retention.set_policy(Policy(DAYS), now)
        marks: list[tuple[str, float]] = []
        started = time.perf_counter()
        report = retention.run(
            stores, audit, now=now, step=lambda name: marks.append((name, time.perf_counter() - started))
        )
        total_s = time.perf_counter() - started
        steps, previous = {}, 0.0
        for name, at in marks:
            steps[name] = round(at - previous, 2)
            previous = at
        steps["scrub_and_audit"] = round(total_s - previous, 2)
        remaining = memory.store.count()
        vectors = memory.index.count()
        result = {
            "generated_at": datetime.now(UTC).isoformat(timespec="seconds"),
            "machine": {"python": platform.python_version(), "platform": platform.platform()},
            "episodes": args.total,
            "doctors": memory_bench.DOCTORS,
            "policy_days": DAYS,
            "bulk_load_s": round(load_s, 1),
            "deleted": report.deleted,
            "remaining_records": remaining,
            "remaining_vectors": vectors,
            "doctors_compacted": report.doctors_compacted,
            "purge_s": round(total_s, 2),
            "steps_s": steps,
            "deleted_per_s": round(report.deleted / total_s),
            "target_s": 60,
            "within_target": total_s <= 60,
        }
        assert remaining == vectors == args.total - report.deleted
        memory.store.engine.dispose()
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(result, indent=2) + "\n")
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
