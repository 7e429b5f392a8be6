"""Memory at scale: save throughput, search latency and index recall, embedded and server Chroma.

For each size (10k, 100k episodes over 100 doctors) and each Chroma mode (embedded PersistentClient,
`chroma run` on loopback), in one run:

- save throughput through the whole pipeline (validation, de-identification with known names,
  ONNX embedding, encryption, SQLite + FTS5, Chroma), batches of 500, on a sample of real-shaped
  episodes (the evaluation set's texts with a patient name and MRN put in);
- the rest of the corpus is bulk-loaded below the service (rows and vectors written directly) so
  that 100k fits in minutes: its vectors are real MiniLM embeddings of a pool of texts with
  Gaussian noise added (cosine ~0.85 to their source), so every vector is distinct but clustered
  the way real episodes are;
- search latency p50/p95 for k=5: the vector index query alone, and the service's full search
  (de-identify, embed, index, full-text, re-rank);
- side by side on the same queries: the prototype this replaces (the doctor's 100 most recent
  episodes, cosine in Python) and exact brute-force cosine over all the doctor's vectors; recall@5
  of the index and of the prototype against exact search, and latency ratios.
Then the retrieval-quality evaluation (bench/memory_eval.py) on its own set.

    python bench/memory_bench.py [--sizes 10000,100000] [--modes embedded,server]
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from datetime import UTC, datetime, timedelta
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

import memory_eval  # noqa: E402 - bench/ is not a package

from scripts.topology import free_port  # noqa: E402

RESULTS = HERE / "results" / "memory_bench.json"
DOCTORS = 100
QUERIES = 200
SAVE_SAMPLE = 1000
NOISE = 0.032  # per-dimension sigma: cosine to the source vector ~0.85 for 384 dimensions
PROTOTYPE_WINDOW = 100


def percentile(samples: list[float], p: float) -> float:
    return float(np.percentile(np.array(samples), p))


def ms_stats(samples: list[float]) -> dict[str, float]:
    return {
        "p50_ms": round(percentile(samples, 50) * 1000, 2),
        "p95_ms": round(percentile(samples, 95) * 1000, 2),
    }


def start_chroma_server(path: Path) -> tuple[subprocess.Popen, int]:
    port = free_port()
    chroma = Path(sys.executable).parent / "chroma"
    process = subprocess.Popen(
        [str(chroma), "run", "--path", str(path), "--host", "127.0.0.1", "--port", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    for _ in range(300):
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/api/v2/heartbeat", timeout=1).close()
            return process, port
        except OSError:
            time.sleep(0.1)
    process.kill()
    raise RuntimeError("chroma run did not start")


def pool_texts() -> list[str]:
    """Real-shaped de-identified texts: the evaluation episodes, questions and their recombinations."""
    episodes = memory_eval.load("episodes.jsonl")
    questions = memory_eval.load("questions.jsonl")
    texts = [f"{e['query']}\n{e['response']}" for e in episodes] + [q["query"] for q in questions]
    rng = random.Random(7)
    while len(texts) < 3000:
        a, b = rng.sample(episodes, 2)
        texts.append(f"{a['query']} {b['query']}\n{a['response']}")
    return texts


def sample_drafts(n: int):  # noqa: ANN201
    """Episodes as a host application would send them: raw text with the patient's name and MRN."""
    from jarvis.memory.types import EpisodeDraft

    episodes = memory_eval.load("episodes.jsonl")
    rng = random.Random(11)
    first = ["Gita", "Marcus", "Ana", "Wei", "Fatima", "John", "Priya", "Olga", "Kwame", "Lucia"]
    last = ["Bhat", "Okafor", "Silva", "Chen", "Haddad", "Miller", "Nair", "Petrova", "Mensah", "Rossi"]
    drafts = []
    for i in range(n):
        e = episodes[i % len(episodes)]
        name, mrn = f"{rng.choice(first)} {rng.choice(last)}", f"{rng.randrange(10**7, 10**8)}"
        drafts.append(
            EpisodeDraft(
                query=f"{name} (MRN {mrn}): {e['query']}",
                response=e["response"],
                patient_id=mrn,
                patient_name=name,
                session_id=f"bench-{i // 20}",
            )
        )
    return drafts


def bulk_load(
    memory, total: int, pool_vectors: np.ndarray, pool: list[str], rng: np.random.Generator
) -> None:  # noqa: ANN001
    """Rows and vectors written below the service (no deid/embedding): fills the corpus fast."""
    from jarvis.memory.records.store import COMMITTED, PENDING, NewEpisode
    from jarvis.memory.records.tables import EpisodeRow
    from jarvis.memory.service import _new_id
    from jarvis.memory.text import clinical_tags
    from jarvis.memory.vector_index import VectorItem

    now = datetime.now(UTC)
    batch = 5000
    for start in range(0, total, batch):
        size = min(batch, total - start)
        sources = rng.integers(0, len(pool), size)
        vectors = pool_vectors[sources] + rng.normal(0, NOISE, (size, pool_vectors.shape[1])).astype(
            np.float32
        )
        vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
        new = []
        for j in range(size):
            episode_id = _new_id("ep")
            text = pool[sources[j]]
            key, wrapped = memory.cipher.new_data_key(episode_id)
            doctor = f"dr-{(start + j) % DOCTORS:03d}"
            created = now - timedelta(minutes=int(rng.integers(0, 60 * 24 * 365)))
            row = EpisodeRow(
                id=episode_id, doctor_id=doctor, patient_ref=None, key_version=None, session_id=f"bulk-{start + j}",
                seq=1, created_at=created, query_deid=text, response_deid="", summary=text[:200],
                tags=clinical_tags(text), tools_used=[], confidence=None,
                embedding_model=memory.embedder.identity.model_id, state=PENDING, state_at=now,
                enc_query=memory.cipher.encrypt(key, episode_id, "query", text),
                enc_response=memory.cipher.encrypt(key, episode_id, "response", ""), enc_patient_name=None,
            )  # fmt: skip
            new.append(NewEpisode(row, wrapped.master_version, wrapped.blob, text))
        memory.store.insert_pending(new)
        memory.index.upsert(
            [
                VectorItem(n.row.id, vectors[j], n.row.doctor_id)  # float32 rows go to Chroma as they are
                for j, n in enumerate(new)
            ]
        )
        memory.store.set_state([n.row.id for n in new], COMMITTED, now)


def measure_searches(memory, queries: list[tuple[str, str, list[float]]]) -> dict:  # noqa: ANN001
    """Index, service, prototype and exact search on the same (doctor, text, vector) queries.

    Each doctor's first query loads that doctor's collection from disk; it is timed separately
    ("cold"), and the steady-state figures are taken after it, as a busy service would see them.
    """
    cold = []
    for doctor in sorted({d for d, _, _ in queries}):
        t = time.perf_counter()
        memory.index.query(queries[0][2], doctor, 5)
        cold.append(time.perf_counter() - t)
    index_t, service_t, proto_t, exact_t, load_t = [], [], [], [], []
    index_recall, proto_recall = [], []
    matrices: dict[str, tuple[list[str], np.ndarray]] = {}
    for doctor, text, vector in queries:
        t = time.perf_counter()
        hits = memory.index.query(vector, doctor, 5)
        index_t.append(time.perf_counter() - t)

        t = time.perf_counter()
        memory.search(doctor, text, k=5, min_similarity=None)
        service_t.append(time.perf_counter() - t)

        # The prototype: load the 100 newest episodes of the doctor, cosine in Python.
        t = time.perf_counter()
        recent = memory.store.recent(doctor, PROTOTYPE_WINDOW)
        vectors = memory.index.vectors(doctor, [r.id for r in recent])
        scored = sorted(
            ((sum(a * b for a, b in zip(vector, v, strict=True)), i) for i, v in vectors.items()),
            reverse=True,
        )
        proto_top = [i for _, i in scored[:5]]
        proto_t.append(time.perf_counter() - t)

        # Exact: every vector of the doctor (loaded once, timed separately), one matrix product.
        if doctor not in matrices:
            t = time.perf_counter()
            ids, embeddings = memory.index.all_for_doctor(doctor)
            matrices[doctor] = (ids, np.asarray(embeddings, dtype=np.float32))
            load_t.append(time.perf_counter() - t)
        ids, matrix = matrices[doctor]
        t = time.perf_counter()
        scores = matrix @ np.asarray(vector, dtype=np.float32)
        exact_top = [ids[i] for i in np.argsort(-scores)[:5]]
        exact_t.append(time.perf_counter() - t)

        truth = set(exact_top)
        index_recall.append(len(truth & {h[0] for h in hits}) / 5)
        proto_recall.append(len(truth & set(proto_top)) / 5)
    index_ms = ms_stats(index_t)
    return {
        "index_query_k5_first_per_doctor_cold": ms_stats(cold),
        "index_query_k5": index_ms,
        "service_search_k5": ms_stats(service_t),
        "prototype_recent100": ms_stats(proto_t),
        "exact_bruteforce": ms_stats(exact_t) | {"load_doctor_vectors": ms_stats(load_t)},
        "index_recall@5_vs_exact": round(statistics.fmean(index_recall), 4),
        "prototype_recall@5_vs_exact": round(statistics.fmean(proto_recall), 4),
        "latency_ratio_prototype_over_index_p50": round(
            ms_stats(proto_t)["p50_ms"] / max(index_ms["p50_ms"], 1e-6), 2
        ),
    }


def run_size_mode(size: int, mode: str, pool: list[str], pool_vectors: np.ndarray, embedder, deid) -> dict:  # noqa: ANN001
    from jarvis.config import Settings
    from jarvis.memory.factory import open_memory

    with tempfile.TemporaryDirectory() as tmp:
        server = None
        settings = Settings(data_dir=Path(tmp) / "data")
        if mode == "server":
            server, port = start_chroma_server(Path(tmp) / "chroma-server")
            settings = settings.model_copy(update={"chroma_mode": "http", "chroma_port": port})
        try:
            memory = open_memory(settings, deid=deid, embedder=embedder)
            drafts = sample_drafts(SAVE_SAMPLE)
            t = time.perf_counter()
            for start in range(0, len(drafts), 500):
                memory.save_batch(f"dr-{start // 500:03d}", drafts[start : start + 500])
            save_seconds = time.perf_counter() - t

            rng = np.random.default_rng(3)
            t = time.perf_counter()
            bulk_load(memory, size - SAVE_SAMPLE, pool_vectors, pool, rng)
            bulk_seconds = time.perf_counter() - t

            qrng = random.Random(5)
            questions = memory_eval.load("questions.jsonl")
            qvectors = embedder.embed_documents([q["query"] for q in questions])
            queries = []
            for n in range(QUERIES):
                i = n % len(questions)
                queries.append((f"dr-{qrng.randrange(DOCTORS):03d}", questions[i]["query"], qvectors[i]))
            searches = measure_searches(memory, queries)
            count = memory.index.count()
            memory.store.engine.dispose()
        finally:
            if server is not None:
                server.terminate()
                server.wait(timeout=30)
    return {
        "episodes": count,
        "save_sample": SAVE_SAMPLE,
        "save_episodes_per_s": round(SAVE_SAMPLE / save_seconds, 1),
        "bulk_load_seconds": round(bulk_seconds, 1),
        **searches,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="10000,100000")
    parser.add_argument("--modes", default="embedded,server")
    parser.add_argument("--no-write", action="store_true")
    args = parser.parse_args()

    from jarvis.config import Settings
    from jarvis.memory.factory import build_deidentifier, build_embedder

    settings = Settings()
    embedder, deid = build_embedder(settings), build_deidentifier(settings)
    pool = pool_texts()
    t = time.perf_counter()
    pool_vectors = np.asarray(embedder.embed_documents(pool), dtype=np.float32)
    embed_rate = len(pool) / (time.perf_counter() - t)

    results: dict = {
        "machine": {"cpu_count": __import__("os").cpu_count(), "platform": platform.platform()},
        "embedder": embedder.identity.model_id,
        "embed_texts_per_s": round(embed_rate, 1),
        "doctors": DOCTORS,
        "queries": QUERIES,
        "runs": {},
    }
    for size in (int(s) for s in args.sizes.split(",")):
        for mode in args.modes.split(","):
            print(f"size {size}, chroma {mode} ...", file=sys.stderr)
            results["runs"][f"{size}-{mode}"] = run = run_size_mode(
                size, mode, pool, pool_vectors, embedder, deid
            )
            print(json.dumps(run, indent=2), file=sys.stderr)
    results["quality"] = memory_eval.run()
    results["targets"] = {
        "save_episodes_per_s": ">= 300",
        "index_query_p95_ms_at_100k_embedded": "<= 20",
        "index_recall@5_vs_exact": ">= 0.99",
        "ranking_gain_recall@10_vs_dense": ">= 0.15",
    }
    memory_eval.report(results, RESULTS, write=not args.no_write)


if __name__ == "__main__":
    main()
