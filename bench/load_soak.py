"""Load and soak on loopback against the scale-out topology: `chroma run`, PostgreSQL, two `jarvis
serve` replicas (one uvicorn worker each) and the scheduler, started by scripts/topology.py.

After seeding (20 episodes per doctor) and a warm-up (1,000 requests, not measured), N mixed requests
(default 20,000) at concurrency 32 from 16 clinicians, alternating between the replicas: ask
(offline model) 25%, search 35%, save 25%, outcome 15%. Reported: unexpected errors (any status but
the documented success of each kind, or a transport error), p50/p95/p99 per kind, throughput, the
resident memory (RSS) of each replica sampled every second, with the growth of its mean from the
first quarter of the requests to the last (target < 10%: no leak), and the machine's load average.
Bounded by count and by time (--max-seconds); it stops by itself and stops every process it started.

    python bench/load_soak.py [--requests 20000] [--concurrency 32]   # writes bench/results/load_soak.json
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import os
import random
import secrets
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

import memory_eval  # noqa: E402 - bench/ is not a package

from scripts.topology import Topology, new_secrets  # noqa: E402

RESULTS = HERE / "results" / "load_soak.json"
MIX = {"ask": 0.25, "search": 0.35, "save": 0.25, "outcome": 0.15}
EXPECTED = {"ask": 200, "search": 200, "save": 201, "outcome": 204}
DOCTORS, SEED_PER_DOCTOR, WARM_UP = 16, 20, 1_000
ADMIN_URL = "postgresql+psycopg://postgres@127.0.0.1:5432/postgres"


@contextmanager
def own_database() -> Iterator[str]:
    """A database of the run's own on the PostgreSQL server at 127.0.0.1:5432, dropped afterwards."""
    from sqlalchemy import create_engine, text

    admin = create_engine(ADMIN_URL, isolation_level="AUTOCOMMIT")
    name = f"jarvis_soak_{secrets.token_hex(4)}"
    with admin.connect() as connection:
        connection.execute(text(f"CREATE DATABASE {name}"))
    try:
        yield f"postgresql://postgres@127.0.0.1:5432/{name}"
    finally:
        with admin.connect() as connection:
            connection.execute(text(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
        admin.dispose()


def rss_mib(pid: int) -> float | None:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        return None
    return None


class Sampler(threading.Thread):
    """Every second: requests done so far, each process's RSS and the 1-minute load average."""

    def __init__(self, pids: dict[str, int], done: list[int]) -> None:
        super().__init__(daemon=True)
        self.pids, self.done, self.samples = pids, done, []
        self.stopped = threading.Event()

    def run(self) -> None:
        while not self.stopped.wait(1.0):
            rss = {name: rss_mib(pid) for name, pid in self.pids.items()}
            self.samples.append({"done": self.done[0], "rss_mib": rss, "load_1m": os.getloadavg()[0]})


class Load:
    """The request mix. Outcomes go to episodes the same doctor saved earlier (seeded or acknowledged)."""

    def __init__(
        self, replicas: list[str], tokens: dict[str, str], episodes: list[dict], questions: list[str]
    ) -> None:
        self.replicas, self.tokens = replicas, tokens
        self.episodes, self.questions = episodes, questions
        self.owned: dict[str, list[str]] = {doctor: [] for doctor in tokens}
        self.rng = random.Random(7)
        self.kinds = list(MIX)
        self.weights = list(MIX.values())

    def request(self, n: int) -> tuple[str, str, str, dict | None, str]:
        """(kind, method, path, body, doctor) of request number n."""
        kind = self.rng.choices(self.kinds, self.weights)[0]
        doctor = self.rng.choice(list(self.tokens))
        if kind == "outcome" and not self.owned[doctor]:
            kind = "search"
        if kind == "ask":
            return (
                kind,
                "POST",
                "/v1/ask",
                {"query": self.rng.choice(self.questions), "session_id": f"soak-{doctor}"},
                doctor,
            )
        if kind == "search":
            return (
                kind,
                "POST",
                "/v1/memory/search",
                {"query": self.rng.choice(self.questions), "k": 5},
                doctor,
            )
        if kind == "save":
            return (
                kind,
                "POST",
                "/v1/episodes",
                {"episodes": [episode_item(self.episodes[n % len(self.episodes)])]},
                doctor,
            )
        episode_id = self.rng.choice(self.owned[doctor])
        outcome = self.rng.choice(["accepted", "rejected", "modified"])
        return kind, "POST", f"/v1/episodes/{episode_id}/outcome", {"outcome": outcome}, doctor

    def remember(self, kind: str, doctor: str, response: httpx.Response) -> None:
        if kind == "save" and response.status_code == 201:
            self.owned[doctor].extend(response.json()["episode_ids"])
        elif kind == "ask" and response.status_code == 200 and response.json().get("episode_id"):
            self.owned[doctor].append(response.json()["episode_id"])


async def drive(load: Load, total: int, concurrency: int, deadline: float, done: list[int]) -> list[tuple]:
    """`total` requests from `concurrency` workers; returns (kind, status, seconds, replica) each."""
    counter = itertools.count()
    records: list[tuple] = []
    # Idle connections are dropped by the client before uvicorn closes them (after 5 s): otherwise a
    # request can be sent on a connection the server is closing at that moment (a ReadError).
    limits = httpx.Limits(
        max_connections=concurrency, max_keepalive_connections=concurrency, keepalive_expiry=2.0
    )
    clients = [httpx.AsyncClient(base_url=base, timeout=120, limits=limits) for base in load.replicas]

    async def worker() -> None:
        for n in counter:
            if n >= total or time.monotonic() > deadline:
                return
            kind, method, path, body, doctor = load.request(n)
            replica = n % len(clients)
            headers = {"Authorization": f"Bearer {load.tokens[doctor]}"}
            started = time.perf_counter()
            why = None
            try:
                response = await clients[replica].request(method, path, json=body, headers=headers)
                status = response.status_code
                load.remember(kind, doctor, response)
                if status != EXPECTED[kind]:  # the error envelope's code and message (never PHI)
                    error = response.json().get("error", {})
                    why = f"{error.get('code')}: {error.get('message')}"
            except httpx.HTTPError as exc:
                status = type(exc).__name__
            records.append((kind, status, time.perf_counter() - started, replica, why))
            done[0] += 1

    try:
        await asyncio.gather(*(worker() for _ in range(concurrency)))
    finally:
        for client in clients:
            await client.aclose()
    return records


def percentiles(seconds: list[float]) -> dict[str, float]:
    ms = sorted(s * 1000 for s in seconds)
    pick = lambda p: ms[min(len(ms) - 1, round(p / 100 * (len(ms) - 1)))]  # noqa: E731
    return {"p50_ms": round(pick(50), 1), "p95_ms": round(pick(95), 1), "p99_ms": round(pick(99), 1)}


def memory_report(samples: list[dict], total: int, names: list[str]) -> dict:
    """Per process: mean RSS while the first quarter of the requests ran, and while the last did."""
    first = [s for s in samples if s["done"] <= total // 4]
    last = [s for s in samples if s["done"] >= total - total // 4]
    report = {}
    for name in names:
        a = [s["rss_mib"][name] for s in first if s["rss_mib"].get(name)]
        b = [s["rss_mib"][name] for s in last if s["rss_mib"].get(name)]
        every = [s["rss_mib"][name] for s in samples if s["rss_mib"].get(name)]
        if not a or not b:
            report[name] = {"error": "no samples"}
            continue
        report[name] = {
            "first_quarter_mean_mib": round(statistics.fmean(a), 1),
            "last_quarter_mean_mib": round(statistics.fmean(b), 1),
            "growth_percent": round((statistics.fmean(b) / statistics.fmean(a) - 1) * 100, 2),
            "min_mib": round(min(every), 1),
            "max_mib": round(max(every), 1),
        }
    return report


def episode_item(e: dict) -> dict:
    """A POST /v1/episodes item from a bench/data/memory_eval episode (some have no patient)."""
    item = {"query": e["query"], "response": e["response"]}
    if e.get("patient_id"):
        item["patient"] = {"id": e["patient_id"]}
    return item


def error_lines(root: Path) -> dict[str, dict[str, int]]:
    """ERROR and WARNING lines of each process's log, counted by message (log lines carry no PHI)."""
    found: dict[str, dict[str, int]] = {}
    for log in sorted((root / "logs").glob("*.log")):
        counts: dict[str, int] = {}
        for line in log.read_text(encoding="utf-8", errors="replace").splitlines():
            if " ERROR " in line or " WARNING " in line:
                message = line.split(" ", 2)[-1]  # without the timestamp
                counts[message] = counts.get(message, 0) + 1
        if counts:
            found[log.stem] = counts
    return found


def seed(load: Load, replicas: list[str]) -> None:
    """SEED_PER_DOCTOR episodes for each doctor, so that searches and asks find memories from the start."""
    for i, (doctor, token) in enumerate(load.tokens.items()):
        chosen = (
            load.episodes[i * SEED_PER_DOCTOR : (i + 1) * SEED_PER_DOCTOR] or load.episodes[:SEED_PER_DOCTOR]
        )
        body = {"episodes": [episode_item(e) for e in chosen]}
        response = httpx.post(f"{replicas[i % 2]}/v1/episodes", json=body, timeout=300,
                              headers={"Authorization": f"Bearer {token}"})  # fmt: skip
        response.raise_for_status()
        load.owned[doctor].extend(response.json()["episode_ids"])


def run(args: argparse.Namespace, database_url: str, root: Path) -> dict:
    from jarvis.memory.records.database import make_engine
    from jarvis.security.api_keys import ApiKeys

    settings = {"JARVIS_RATE_LIMIT_PER_MINUTE": "1000000"}
    with Topology(database_url, root, new_secrets(), settings=settings) as topology:
        replicas = topology.start(replicas=2, scheduler=True)
        engine = make_engine(database_url)
        keys = ApiKeys(engine)
        tokens = {
            f"dr-soak-{d:02d}": keys.create("clinician", f"dr-soak-{d:02d}").token for d in range(DOCTORS)
        }
        engine.dispose()
        questions = [q["query"] for q in memory_eval.load("questions.jsonl")]
        load = Load(replicas, tokens, memory_eval.load("episodes.jsonl"), questions)
        started = time.monotonic()
        seed(load, replicas)
        warm = asyncio.run(drive(load, args.warm_up, args.concurrency, started + args.max_seconds, [0]))
        print(f"seeded and warmed up in {time.monotonic() - started:.0f} s", file=sys.stderr)

        names = ["replica-1", "replica-2", "chroma", "scheduler"]
        done = [0]
        sampler = Sampler({name: topology.services[name].pid for name in names}, done)
        load_before = os.getloadavg()
        sampler.start()
        began = time.monotonic()
        records = asyncio.run(drive(load, args.requests, args.concurrency, began + args.max_seconds, done))
        seconds = time.monotonic() - began
        sampler.stopped.set()
        sampler.join()
        load_after = os.getloadavg()
        exit_codes = topology.stop()

    unexpected = [r for r in records if r[1] != EXPECTED[r[0]]]
    by_kind = {
        kind: {"requests": sum(r[0] == kind for r in records),
               **percentiles([r[2] for r in records if r[0] == kind])}
        for kind in MIX
    }  # fmt: skip
    statuses: dict[str, int] = {}
    for r in unexpected:
        key = f"{r[0]} {r[1]} {r[4] or ''}".strip()
        statuses[key] = statuses.get(key, 0) + 1
    memory = memory_report(sampler.samples, len(records), names)
    return {
        "topology": "chroma run + PostgreSQL 15 (127.0.0.1:5432) + 2 x `jarvis serve` (1 uvicorn worker each) "
        "+ scheduler, loopback, offline model, client-side round robin over the replicas",
        "requests": len(records),
        "requested": args.requests,
        "stopped_by_time_bound": len(records) < args.requests,
        "concurrency": args.concurrency,
        "doctors": DOCTORS,
        "mix": MIX,
        "seeded_episodes": DOCTORS * SEED_PER_DOCTOR,
        "warm_up_requests": len(warm),
        "warm_up_unexpected_errors": sum(r[1] != EXPECTED[r[0]] for r in warm),
        "seconds": round(seconds, 1),
        "throughput_per_s": round(len(records) / seconds, 1),
        "unexpected_errors": len(unexpected),
        "unexpected_by_kind_and_status": statuses,
        "latency": by_kind,
        "all": percentiles([r[2] for r in records]),
        "per_replica_requests": {f"replica-{i + 1}": sum(r[3] == i for r in records) for i in range(2)},
        "rss": memory,
        "rss_growth_target_percent": "< 10 (first quarter of the requests to the last, mean of 1 s samples)",
        "rss_samples": len(sampler.samples),
        # Every 20th sample: requests done and each process's RSS (MiB), to see the curve, not just its ends.
        "rss_series": [[s["done"], *(round(s["rss_mib"][n] or 0) for n in names)] for s in sampler.samples[::20]],
        "rss_series_columns": ["requests_done", *names],
        "server_log_errors": error_lines(root),
        "exit_codes": exit_codes,
        "machine": {"cpus": os.cpu_count(), "load_average_before": [round(x, 2) for x in load_before],
                    "load_average_after": [round(x, 2) for x in load_after],
                    "load_1m_mean_during": round(statistics.fmean(s["load_1m"] for s in sampler.samples), 2)},
    }  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=20_000)
    parser.add_argument("--concurrency", type=int, default=32)
    parser.add_argument(
        "--warm-up", type=int, default=WARM_UP, help="requests before measuring (not counted)"
    )
    parser.add_argument(
        "--max-seconds", type=float, default=3_600.0, help="stop after this long, whatever the count"
    )
    parser.add_argument(
        "--database-url", help="an empty PostgreSQL database (default: a new one on 127.0.0.1:5432)"
    )
    parser.add_argument("--no-write", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="jarvis-soak-") as tmp:
        if args.database_url:
            result = run(args, args.database_url, Path(tmp))
        else:
            with own_database() as url:
                result = run(args, url, Path(tmp))
    memory_eval.report(result, RESULTS, write=not args.no_write)


if __name__ == "__main__":
    main()
