"""Retrieval quality on bench/data/memory_eval: recall@5 and recall@10, dense-only vs our ranking.

Every episode of the set is saved through the real service (de-identification, ONNX MiniLM,
SQLite FTS5, embedded Chroma) for its doctor, with its created_at and outcome; every question is
searched in its doctor's memory with no threshold and no patient filter, so only ranking is measured.

    recall@k = |relevant ∩ top k| / |relevant|, averaged over questions

Rankings compared: dense (cosine only), dense+lexical, and dense+lexical+outcomes (the default).

    python bench/memory_eval.py            # writes bench/results/memory_eval.json
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from datetime import datetime
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

DATA = HERE / "data" / "memory_eval"
RESULTS = HERE / "results" / "memory_eval.json"
RANKINGS = {
    "dense": {"lexical": False, "outcomes": False},
    "dense+lexical": {"lexical": True, "outcomes": False},
    "dense+lexical+outcomes": {"lexical": True, "outcomes": True},
}


def load(name: str) -> list[dict]:
    return [
        json.loads(line) for line in (DATA / name).read_text(encoding="utf-8").splitlines() if line.strip()
    ]


def build_memory(data_dir: Path):  # noqa: ANN201 - bench script
    from jarvis.config import Settings
    from jarvis.memory.factory import open_memory

    memory = open_memory(Settings(data_dir=data_dir))
    assert memory is not None
    return memory


def save_episodes(memory, episodes: list[dict]) -> dict[str, str]:  # noqa: ANN001
    """Save per doctor in batches; returns eval id -> stored episode id."""
    from jarvis.memory.types import EpisodeDraft

    ids: dict[str, str] = {}
    by_doctor: dict[str, list[dict]] = {}
    for e in episodes:
        by_doctor.setdefault(e["doctor"], []).append(e)
    for doctor, items in by_doctor.items():
        drafts = [
            EpisodeDraft(
                query=e["query"],
                response=e["response"],
                patient_id=e.get("patient_id"),
                created_at=datetime.fromisoformat(e["created_at"].replace("Z", "+00:00")),
            )
            for e in items
        ]
        for e, stored in zip(items, memory.save_batch(doctor, drafts), strict=True):
            ids[e["id"]] = stored
            if e.get("outcome"):
                memory.set_outcome(doctor, stored, e["outcome"])
    return ids


def evaluate(memory, questions: list[dict], ids: dict[str, str]) -> dict:  # noqa: ANN001
    reverse = {v: k for k, v in ids.items()}
    per_ranking: dict[str, dict] = {}
    for name, switches in RANKINGS.items():
        rows = []
        for q in questions:
            hits = memory.search(q["doctor"], q["query"], k=10, min_similarity=None, **switches)
            ranked = [reverse[h.episode_id] for h in hits]
            relevant = set(q["relevant"])
            rows.append(
                {
                    "kind": q["kind"],
                    "r5": len(relevant & set(ranked[:5])) / len(relevant),
                    "r10": len(relevant & set(ranked[:10])) / len(relevant),
                    "mrr": next((1 / (i + 1) for i, e in enumerate(ranked) if e in relevant), 0.0),
                }
            )
        summary = {
            "recall@5": round(statistics.fmean(r["r5"] for r in rows), 4),
            "recall@10": round(statistics.fmean(r["r10"] for r in rows), 4),
            "mrr@10": round(statistics.fmean(r["mrr"] for r in rows), 4),
            "by_kind": {},
        }
        for kind in sorted({r["kind"] for r in rows}):
            subset = [r for r in rows if r["kind"] == kind]
            summary["by_kind"][kind] = {
                "questions": len(subset),
                "recall@5": round(statistics.fmean(r["r5"] for r in subset), 4),
                "recall@10": round(statistics.fmean(r["r10"] for r in subset), 4),
            }
        per_ranking[name] = summary
    dense, ours = per_ranking["dense"]["recall@10"], per_ranking["dense+lexical+outcomes"]["recall@10"]
    return {
        "rankings": per_ranking,
        "gain_recall@10_vs_dense": round(ours / dense - 1, 4) if dense else None,
        "target_gain": 0.15,
    }


def run() -> dict:
    episodes, questions = load("episodes.jsonl"), load("questions.jsonl")
    with tempfile.TemporaryDirectory() as tmp:
        memory = build_memory(Path(tmp) / "data")
        started = time.perf_counter()
        ids = save_episodes(memory, episodes)
        seconds = time.perf_counter() - started
        result = evaluate(memory, questions, ids)
        memory.store.engine.dispose()
    result.update(
        {
            "episodes": len(episodes),
            "questions": len(questions),
            "doctors": len({e["doctor"] for e in episodes}),
            "save_seconds": round(seconds, 2),
        }
    )
    return result


def report(result: dict, path: Path, write: bool) -> None:
    """Print the result; write it to bench/results unless told not to."""
    print(json.dumps(result, indent=2))
    if write:
        path.parent.mkdir(exist_ok=True)
        path.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--no-write", action="store_true", help="print only")
    report(run(), RESULTS, write=not parser.parse_args().no_write)


if __name__ == "__main__":
    main()
