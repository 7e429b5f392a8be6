#!/usr/bin/env python3
"""Build episodes.jsonl and questions.jsonl from the hand-written sources in src/.

The clinical text lives in src/dr0N.py (one module per doctor, written by hand).
This script only assigns ids and timestamps deterministically and writes JSONL:

    python3 bench/data/memory_eval/build.py

Episodes in each source module are listed in chronological order; timestamps are
spread over 2025-01-06 .. 2026-05-29 (UTC) with a fixed seed (a follow-up episode on a
patient already discussed is placed 2-72 hours after that patient's previous episode),
then all episodes are
sorted by time and numbered e001, e002, ... Questions are numbered q001, ... in
source order (grouped by doctor).
"""
from __future__ import annotations

import importlib.util
import sys
import json
import random
from datetime import datetime, timedelta, timezone
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.dont_write_bytecode = True  # keep src/ free of __pycache__
SOURCES = [("dr-01", "dr01.py"), ("dr-02", "dr02.py"), ("dr-03", "dr03.py"), ("dr-04", "dr04.py")]
OUTCOME = {"A": "accepted", "R": "rejected", "M": "modified", None: None}
START = datetime(2025, 1, 6, tzinfo=timezone.utc)
END = datetime(2026, 5, 29, tzinfo=timezone.utc)
SEED = 20250106


def _load(path: Path):
    spec = importlib.util.spec_from_file_location(path.stem, path)
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _timestamps(rng: random.Random, n: int) -> list[datetime]:
    """n increasing timestamps in [START, END], on clinical-ish hours."""
    span = (END - START).days
    days = sorted(rng.sample(range(span), n)) if n <= span else sorted(rng.randrange(span) for _ in range(n))
    out = []
    for d in days:
        t = START + timedelta(days=d, hours=rng.choice([1, 3, 7, 8, 9, 10, 11, 13, 14, 15, 16, 17, 19, 21, 23]),
                              minutes=rng.randrange(60), seconds=rng.randrange(60))
        out.append(t)
    return out


def build() -> tuple[list[dict], list[dict]]:
    rng = random.Random(SEED)
    staged = []  # (created_at, doctor, key, record)
    questions_src = []
    for doctor, fname in SOURCES:
        mod = _load(HERE / "src" / fname)
        keys = [e[0] for e in mod.EPISODES]
        if len(keys) != len(set(keys)):
            raise SystemExit(f"duplicate episode key in {fname}")
        last_seen: dict[str, datetime] = {}
        for (key, pid, query, response, outcome), ts in zip(mod.EPISODES, _timestamps(rng, len(mod.EPISODES))):
            if pid in last_seen:
                # follow-up on a patient already discussed: a few hours to a few days later
                ts = last_seen[pid] + timedelta(hours=rng.randint(2, 72), minutes=rng.randrange(60))
            if pid:
                last_seen[pid] = ts
            staged.append((ts, doctor, key, {
                "doctor": doctor,
                "patient_id": pid,
                "query": query,
                "response": response,
                "created_at": ts.strftime("%Y-%m-%dT%H:%M:%SZ"),
                "outcome": OUTCOME[outcome],
            }))
        for q in mod.QUESTIONS:
            questions_src.append((doctor, q))

    staged.sort(key=lambda t: (t[0], t[1]))
    key_to_id: dict[tuple[str, str], str] = {}
    episodes = []
    for i, (_, doctor, key, rec) in enumerate(staged, start=1):
        eid = f"e{i:03d}"
        key_to_id[(doctor, key)] = eid
        episodes.append({"id": eid, **rec})

    questions = []
    for i, (doctor, (kind, pid, query, rel_keys)) in enumerate(questions_src, start=1):
        rel = [key_to_id[(doctor, k)] for k in rel_keys]  # KeyError = typo in source
        q = {"id": f"q{i:03d}", "doctor": doctor, "query": query}
        if pid:
            q["patient_id"] = pid
        q["relevant"] = rel
        q["kind"] = kind
        questions.append(q)
    return episodes, questions


def main() -> None:
    episodes, questions = build()
    for name, rows in (("episodes.jsonl", episodes), ("questions.jsonl", questions)):
        with open(HERE / name, "w", encoding="utf-8") as fh:
            for row in rows:
                fh.write(json.dumps(row, ensure_ascii=False) + "\n")
    print(f"wrote {len(episodes)} episodes, {len(questions)} questions")


if __name__ == "__main__":
    main()
