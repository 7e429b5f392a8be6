"""Nothing recoverable: after a purge (or an erasure) a byte scan of the whole data directory finds
neither the canary's raw text, nor its de-identified text, nor the bytes of its vector."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from jarvis.memory.types import EpisodeDraft
from jobs import retention
from jobs.erasure import erase_patient
from tests.jobs.conftest import Env
from tests.jobs.factories import bulk

NAME, MRN = "Zebulon Quillfeather", "77219934"
RAW = f"{NAME} (MRN {MRN}) has quixotic zymurgic erythema after the fenbrook challenge; keep cefazolin?"
RESPONSE = "Continue cefazolin; the zymurgic erythema should settle within the fenbrook window."


def scan(root: Path, needles: list[bytes]) -> list[str]:
    found = []
    for path in (p for p in root.rglob("*") if p.is_file()):
        data = path.read_bytes()
        found += [f"{needle[:12]!r} in {path.relative_to(root)}" for needle in needles if needle in data]
    return found


def hnswlib_normalised(vector: np.ndarray) -> np.ndarray:
    """The vector exactly as hnswlib stores it for cosine space (float32, sequential sum of squares)."""
    total = np.float32(0)
    for x in vector:
        total = np.float32(total + x * x)
    return (vector * np.float32(1.0 / (np.sqrt(total) + np.float32(1e-30)))).astype(np.float32)


def vector_needles(vector: np.ndarray) -> list[bytes]:
    """16-byte slices of the vector as given (Chroma's log) and as its HNSW files hold it."""
    needles = []
    for v in (vector.astype("<f4"), hnswlib_normalised(vector).astype("<f4")):
        raw = v.tobytes()
        needles += [raw[i : i + 16] for i in range(0, len(raw) - 16, 16)]
    return needles


def save_canary(env: Env) -> tuple[list[str], list[bytes]]:
    drafts = [EpisodeDraft(RAW, RESPONSE, patient_id=MRN, patient_name=NAME, session_id="canary")] * 2
    ids = env.memory.save_batch("dr-a", drafts)
    env.memory.add_fact("dr-a", MRN, "allergy", "Allergic to fenbrook zymurgic extract")
    deid = env.memory.get("dr-a", ids[0])
    texts = [RAW, NAME, MRN, RESPONSE, deid.query_deid, deid.summary, "zymurgic"]
    needles = [t.encode() for t in texts]
    vectors = env.stores.index.contents("dr-a", 0, ids)
    for vector in vectors.values():
        needles += vector_needles(np.array(vector, dtype=np.float32))
    return ids, needles


@pytest.mark.parametrize(
    ("how", "fillers"),
    [("retention", 0), ("retention", 1_200), ("erasure", 0), ("erasure", 1_200)],
    ids=["retention-log", "retention-hnsw", "erasure-log", "erasure-hnsw"],
)
def test_no_canary_bytes_remain_after_the_purge(env: Env, how: str, fillers: int) -> None:
    """Below ~1,000 vectors Chroma keeps them in its SQLite log; above, in HNSW files: both are scanned.
    The scan runs with the database connections still open, as in a running service (WAL present)."""
    ids, needles = save_canary(env)
    bulk(env.memory, "dr-a", fillers, env.clock(), seed=1)
    bulk(env.memory, "dr-b", 50, env.clock(), seed=2)
    before = scan(env.data_dir, needles)
    assert any("sqlite3" in f for f in before) and any("zymurgic" in f for f in before)
    assert any("chroma" in f for f in before), "positive control: the vector bytes are found before"

    env.clock.travel(days=91)
    keep = bulk(env.memory, "dr-a", 5, env.clock(), seed=3)
    if how == "retention":
        report = retention.run(env.stores, env.audit, now=env.clock())
        assert report.deleted == 2 + fillers + 50 and report.facts_deleted == 1
    else:
        refs = [r.ref for r in env.memory.pseudonyms.refs_for(MRN)]
        assert erase_patient(env.stores, env.audit, refs, now=env.clock()).episodes == 2
    assert scan(env.data_dir, needles) == []
    assert set(env.memory.store.by_ids("dr-a", keep)) == set(keep)
    assert len(env.memory.index.query(np.ones(384).tolist(), "dr-a", 2_000)) == 5 + (
        fillers if how == "erasure" else 0
    )
