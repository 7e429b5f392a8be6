"""Vector-index compaction: rebuild each affected doctor's collection from the retained vectors.

Chroma keeps deleted vectors in its files (issues #3793, #7659, #7662), so a purge is only final
once the collection that held them is gone. For each doctor, without a moment where search misses
a retained episode:

  A. `building` = g+1 is recorded; from then on every writer writes to g and g+1 (after `grace_s`,
     longer than ChromaIndex's generation cache, every process has seen it);
  B. g+1 is made to hold exactly the doctor's episodes that are not being deleted: missing ones are
     copied from g, extra ones removed; this
     converges whatever was copied before a crash or written concurrently. `alongside` (the
     retention job's row deletion) runs meanwhile: it only touches the record store, and from A on
     a crash resumes the compaction, which removes the vectors whatever became of their rows;
  C. switch: current = g+1, retired = g (readers move over within `grace_s`);
  D. g is dropped, strays of the doctor (recreated by a late writer) too; then, embedded only,
     segment directories Chroma left behind are removed and its SQLite file vacuumed.

Every step is recorded before it is acted on, so a crash anywhere resumes at the next run
(GenerationStore.unfinished()). Only one compaction runs at a time (the retention job lock).
"""

from __future__ import annotations

import logging
import re
import shutil
import sqlite3
import time
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from jarvis.errors import UnavailableError
from jarvis.memory.records.generations import Generation, GenerationStore
from jarvis.memory.records.retention_store import RetentionStore
from jarvis.memory.vector_index import ChromaIndex, VectorItem

logger = logging.getLogger(__name__)
COPY_BATCH = 2_000
COPY_THREADS = 2
_UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
Step = Callable[[str], None]


def _no_step(_name: str) -> None:
    return None


def compact(
    index: ChromaIndex,
    generations: GenerationStore,
    records: RetentionStore,
    doctors: Iterable[str],
    *,
    grace_s: float = 0.0,
    sleep: Callable[[float], None] = time.sleep,
    chroma_path: Path | None = None,
    step: Step = _no_step,
    alongside: Callable[[], None] | None = None,
) -> int:
    """Rebuild the doctors' collections (and finish any compaction a crash interrupted); returns how many."""
    todo = sorted(set(doctors) | set(generations.unfinished()))
    if not todo:
        if alongside is not None:
            alongside()
        return 0
    for doctor in todo:  # A
        g = generations.get(doctor)
        if g.retired is not None:
            index.drop(doctor, g.retired)
        building = g.building if g.building is not None else max(g.current, g.retired or 0) + 1
        generations.put(doctor, Generation(g.current, building))
        index.forget_generation(doctor)
    sleep(grace_s)
    step("building")
    # B. Chroma serialises its calls (two copy threads are no faster than one) but releases the
    # GIL, as SQLite does: the row deletion runs on the other core meanwhile.
    with ThreadPoolExecutor(max_workers=1) as side, ThreadPoolExecutor(max_workers=COPY_THREADS) as pool:
        deleting = side.submit(alongside) if alongside is not None else None
        list(pool.map(lambda d: _converge(index, records, d, generations.get(d)), todo))
        if deleting is not None:
            deleting.result()
    step("copied")
    for doctor in todo:  # C
        g = generations.get(doctor)
        assert g.building is not None
        generations.put(doctor, Generation(g.building, None, g.current))
        index.forget_generation(doctor)
    sleep(grace_s)
    step("switched")
    names = index.collection_names()
    for doctor in todo:  # D
        g = generations.get(doctor)
        for stray in index.stray_generations(doctor, keep=[g.current], names=names):
            index.drop(doctor, stray)
        generations.put(doctor, Generation(g.current))
    step("dropped")
    if chroma_path is not None:
        scrub_embedded_chroma(chroma_path)
    logger.info("compacted the vector collections of %d doctors", len(todo))
    return len(todo)


def _converge(index: ChromaIndex, records: RetentionStore, doctor: str, g: Generation) -> None:
    source, target = g.current, g.building
    assert target is not None
    kept = records.kept(doctor)
    present = set(index.contents(doctor, target, vectors=False))
    extra = sorted(present - kept)
    if extra:
        index.delete_from(doctor, target, extra)
    missing = sorted(kept - present)
    for start in range(0, len(missing), COPY_BATCH):
        vectors = index.contents(doctor, source, missing[start : start + COPY_BATCH])
        items = [VectorItem(episode_id, vector, doctor) for episode_id, vector in vectors.items()]
        if items:
            try:
                index.upsert_into(doctor, target, items, new=True)
            except UnavailableError:  # a concurrent dual write got there first: upsert is idempotent
                index.upsert_into(doctor, target, items)


def scrub_embedded_chroma(path: Path) -> int:
    """Remove segment directories of dropped collections and vacuum Chroma's SQLite file.

    Chroma (1.x, embedded) leaves a dropped collection's HNSW files on disk and its SQLite file keeps
    freed pages (it does not run with secure_delete). The directories are listed *before* the live
    segments are read, so a collection created meanwhile is never mistaken for a dropped one.
    """
    database = path / "chroma.sqlite3"
    if not database.exists():
        return 0
    candidates = [p for p in path.iterdir() if p.is_dir() and _UUID.fullmatch(p.name)]
    connection = sqlite3.connect(database, timeout=30, isolation_level=None)
    try:
        live = {str(row[0]) for row in connection.execute("SELECT id FROM segments")}
        removed = 0
        for directory in candidates:
            if directory.name not in live:
                shutil.rmtree(directory, ignore_errors=True)
                removed += 1
        connection.execute("VACUUM")
    finally:
        connection.close()
    return removed
