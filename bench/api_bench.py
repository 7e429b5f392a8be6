"""Load on loopback against `jarvis serve` (one uvicorn process) with 100k episodes in the store.

`POST /v1/memory/search` and `POST /v1/ask` (offline model) at rising concurrency; each level is
bounded in requests and seconds and stops by itself. Reports throughput and p50/p95/p99 latency,
the CPU time the server and the load generator spent per request,
and the share of server time spent appending audit events (from the server's own Prometheus
histograms: jarvis_audit_append_seconds against jarvis_http_request_seconds).

    python bench/api_bench.py [--episodes 100000]   # writes bench/results/api_bench.json
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import re
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import aiohttp
import httpx
import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

import memory_bench  # noqa: E402 - bench/ is not a package
import memory_eval  # noqa: E402

RESULTS = HERE / "results" / "api_bench.json"
LEVELS = (1, 4, 8, 16, 32)
MAX_REQUESTS = 400
MAX_SECONDS = 20.0


def prepare(data_dir: Path, episodes: int) -> list[str]:
    """Fill the store (bulk, as memory_bench does) and make one clinician key per doctor."""
    from jarvis.config import Settings
    from jarvis.memory.factory import build_deidentifier, build_embedder, open_memory
    from jarvis.security.api_keys import ApiKeys

    settings = Settings(data_dir=data_dir)
    embedder = build_embedder(settings)
    memory = open_memory(settings, deid=build_deidentifier(settings), embedder=embedder)
    pool = memory_bench.pool_texts()[:1500]
    vectors = np.asarray(embedder.embed_documents(pool), dtype=np.float32)
    memory_bench.bulk_load(memory, episodes, vectors, pool, np.random.default_rng(2))
    keys = ApiKeys(memory.store.engine)
    tokens = [keys.create("clinician", f"dr-{d:03d}").token for d in range(memory_bench.DOCTORS)]
    memory.store.engine.dispose()
    return tokens


def start_server(data_dir: Path) -> tuple[subprocess.Popen, str]:
    port = memory_bench.free_port()
    # No scheduled jobs: the bulk-loaded episodes span a year, and the server's start-up retention
    # run would purge most of them; this measures serving, bench/retention_bench.py purges.
    env = {
        **os.environ,
        "JARVIS_DATA_DIR": str(data_dir),
        "JARVIS_RATE_LIMIT_PER_MINUTE": "1000000",
        "JARVIS_SERVE_SCHEDULER": "false",
    }
    jarvis = Path(sys.executable).parent / "jarvis"
    process = subprocess.Popen(
        [str(jarvis), "serve", "--port", str(port)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    for _ in range(600):
        try:
            if httpx.get(f"{base}/readyz", timeout=1).status_code == 200:
                return process, base
        except httpx.HTTPError:
            pass
        time.sleep(0.1)
    process.kill()
    raise RuntimeError("jarvis serve did not become ready")


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def measured(server: subprocess.Popen, run: Callable[[], dict]) -> dict:
    """One level's result with the CPU time the server and this load generator spent per request:
    on a 2-core machine, throughput is bounded by 2 s of CPU a second shared between them."""
    server_before, client_before = cpu_seconds(server.pid), time.process_time()
    result = run()
    server_cpu, client_cpu = cpu_seconds(server.pid) - server_before, time.process_time() - client_before
    requests = max(result["requests"], 1)
    result["server_cpu_ms_per_request"] = round(server_cpu / requests * 1000, 1)
    result["client_cpu_ms_per_request"] = round(client_cpu / requests * 1000, 1)
    return result


async def level(base: str, path: str, bodies: list[dict], tokens: list[str], concurrency: int) -> dict:
    latencies: list[float] = []
    errors = 0
    deadline = time.perf_counter() + MAX_SECONDS
    counter = iter(range(MAX_REQUESTS))
    rng = random.Random(concurrency)

    async def worker(client: aiohttp.ClientSession) -> None:
        nonlocal errors
        for n in counter:
            if time.perf_counter() > deadline:
                return
            body, token = bodies[n % len(bodies)], rng.choice(tokens)
            started = time.perf_counter()
            headers = {"Authorization": f"Bearer {token}"}
            async with client.post(base + path, json=body, headers=headers) as response:
                await response.read()
            latencies.append(time.perf_counter() - started)
            errors += response.status >= 400

    # aiohttp, not httpx: the load generator shares the 2 cores with the server, and aiohttp's C
    # HTTP parser spends a fraction of httpx's CPU per request (measured: client_cpu_ms_per_request).
    started = time.perf_counter()
    timeout = aiohttp.ClientTimeout(total=60)
    connector = aiohttp.TCPConnector(limit=concurrency)
    async with aiohttp.ClientSession(timeout=timeout, connector=connector) as client:
        await asyncio.gather(*(worker(client) for _ in range(concurrency)))
    seconds = time.perf_counter() - started
    ms = np.array(latencies) * 1000
    return {
        "concurrency": concurrency,
        "requests": len(latencies),
        "errors": errors,
        "throughput_per_s": round(len(latencies) / seconds, 1),
        "p50_ms": round(float(np.percentile(ms, 50)), 1),
        "p95_ms": round(float(np.percentile(ms, 95)), 1),
        "p99_ms": round(float(np.percentile(ms, 99)), 1),
    }


def audit_share(base: str) -> dict:
    text = httpx.get(f"{base}/metrics").text

    def total(name: str) -> float:
        return sum(
            float(v) for v in re.findall(rf"^{name}_sum(?:{{[^}}]*}})? ([0-9.e+-]+)$", text, re.MULTILINE)
        )

    audit, requests = total("jarvis_audit_append_seconds"), total("jarvis_http_request_seconds")
    return {"audit_seconds": round(audit, 2), "request_seconds": round(requests, 2),
            "audit_share": round(audit / requests, 4) if requests else None}  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--episodes", type=int, default=100_000)
    parser.add_argument("--no-write", action="store_true")
    args = parser.parse_args()
    questions = [q["query"] for q in memory_eval.load("questions.jsonl")]
    with tempfile.TemporaryDirectory() as tmp:
        data_dir = Path(tmp) / "data"
        tokens = prepare(data_dir, args.episodes)
        server, base = start_server(data_dir)
        try:
            search = [{"query": q, "k": 5} for q in questions]
            ask = [{"query": q} for q in questions]
            result = {
                "episodes": args.episodes,
                "server": "jarvis serve, one uvicorn process, embedded Chroma + SQLite, offline model",
                "search": [
                    measured(
                        server, lambda c=c: asyncio.run(level(base, "/v1/memory/search", search, tokens, c))
                    )
                    for c in LEVELS
                ],
                "ask": [
                    measured(server, lambda c=c: asyncio.run(level(base, "/v1/ask", ask, tokens, c)))
                    for c in LEVELS[:3]
                ],
                "audit": audit_share(base),
                "targets": {"searches_per_s": ">= 150", "search_p99_ms": "<= 100"},
                "load_average_1m": round(os.getloadavg()[0], 2),
            }
        finally:
            server.terminate()
            server.wait(timeout=30)
    memory_eval.report(result, RESULTS, write=not args.no_write)


if __name__ == "__main__":
    main()
