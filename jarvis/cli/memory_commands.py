"""`jarvis import` and `jarvis search`: the memory from the command line (DESIGN §5, CLI).

Their output shapes are stable: they are also how the memory is evaluated from outside.
    import  -> one {"episode_id": ...} line per record, in input order
    search  -> one {"hits": [...]} line per query, in input order
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from jarvis.cli.audit_commands import record_cli
from jarvis.cli.io import Progress, jsonl_records, read_input, write_json
from jarvis.config import Settings
from jarvis.errors import InputError, UnavailableError
from jarvis.memory.factory import open_memory
from jarvis.memory.schemas import parse_episode
from jarvis.memory.service import MemoryService
from jarvis.memory.types import EpisodeDraft, SearchHit


def _memory(settings: Settings) -> MemoryService:
    memory = open_memory(settings)
    if memory is None:
        raise UnavailableError("memory is disabled (JARVIS_MEMORY_ENABLED=false)")
    return memory


def cmd_import(args: argparse.Namespace, settings: Settings) -> int:
    # Validate the whole file before the first write, so a bad line imports nothing.
    drafts: list[EpisodeDraft] = []
    with read_input(args.file) as stream:
        for number, record in jsonl_records(stream):
            try:
                drafts.append(parse_episode(record))
            except InputError as exc:
                raise InputError(f"line {number}: {exc.message}") from None
    memory = _memory(settings)
    progress = Progress(len(drafts), "importing")
    started = time.perf_counter()
    for start in range(0, len(drafts), settings.max_batch):
        ids = memory.save_batch(args.doctor, drafts[start : start + settings.max_batch])
        for episode_id in ids:
            if args.json:
                write_json({"episode_id": episode_id})
            else:
                sys.stdout.write(episode_id + "\n")
        record_cli(settings, memory.store.engine, "C", "episode.create", episode_ids=ids)
        progress.advance(len(ids))
    progress.close()
    sys.stderr.write(f"imported {len(drafts)} episodes in {time.perf_counter() - started:.1f} s\n")
    return 0


def _hit(hit: SearchHit) -> dict[str, object]:
    return {
        "episode_id": hit.episode_id,
        "similarity": hit.similarity,
        "score": hit.score,
        "created_at": hit.created_at.isoformat(),
        "summary": hit.summary,
        "outcome": hit.outcome.value if hit.outcome else None,
    }


def cmd_search(args: argparse.Namespace, settings: Settings) -> int:
    queries: list[str]
    if args.queries is not None:
        with read_input(str(args.queries)) as stream:
            queries = []
            for number, record in jsonl_records(stream):
                if not isinstance(record.get("query"), str):
                    raise InputError(f"line {number}: no string field 'query'")
                queries.append(record["query"])
    else:
        queries = [args.query]
    memory = _memory(settings)
    progress = Progress(len(queries), "searching")
    for query in queries:
        hits = memory.search(
            args.doctor,
            query,
            k=settings.search_k if args.k is None else args.k,
            patient_id=args.patient_id,
            min_similarity=settings.min_similarity if args.min_similarity is None else args.min_similarity,
        )
        if args.json:
            write_json({"hits": [_hit(h) for h in hits]})
        else:
            for rank, hit in enumerate(hits, start=1):
                sys.stdout.write(
                    f"{rank:>2}. {hit.score:.3f} {hit.created_at:%Y-%m-%d} {hit.episode_id}  {hit.summary}\n"
                )
            sys.stdout.write("\n" if hits else "(no hits)\n")
        record_cli(
            settings, memory.store.engine, "R", "memory.search", episode_ids=[h.episode_id for h in hits]
        )
        progress.advance(1)
    progress.close()
    return 0


def add_parsers(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    imp = sub.add_parser("import", help="save episodes from a JSON-lines file for one doctor")
    imp.add_argument("file", help="JSON lines shaped like POST /v1/episodes items, or - for stdin")
    imp.add_argument("--doctor", required=True, help="the doctor id the episodes belong to")
    imp.add_argument("--json", action="store_true", help='print {"episode_id": ...} lines')
    imp.set_defaults(handler=cmd_import)

    search = sub.add_parser("search", help="search one doctor's memory by meaning")
    search.add_argument("--doctor", required=True, help="whose memory to search")
    what = search.add_mutually_exclusive_group(required=True)
    what.add_argument("--query", help="one question")
    what.add_argument("--queries", type=Path, help='JSON lines of {"query": ...}')
    search.add_argument("--k", type=int, help="hits per query (1-50, default: JARVIS_SEARCH_K)")
    search.add_argument("--patient-id", help="only this patient's episodes")
    search.add_argument(
        "--min-similarity", type=float, help="score threshold (default: JARVIS_MIN_SIMILARITY)"
    )
    search.add_argument("--json", action="store_true", help='print one {"hits": [...]} line per query')
    search.set_defaults(handler=cmd_search)
