"""Recall and precision of deid per entity, on the clinical fixture set and on presidio-synth.

    python bench/deid_eval.py [--split dev|test|all] [--show-misses N] [--no-synth]

Recall: a gold span counts as caught only when every non-space character of it is redacted.
Precision: the share of predicted spans that overlap some gold span (over-redaction lowers it).
Writes bench/results/deid_eval.json (the numbers of the run, with the machine and the date).
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time
from collections import defaultdict
from pathlib import Path

from deid import Deidentifier, PhiSpan

HERE = Path(__file__).resolve().parent
CLINICAL = HERE / "data" / "clinical_deid" / "notes.jsonl"
SYNTH = HERE.parent.parent / "shared" / "data" / "presidio-synth" / "synth_dataset_v2.json"
RESULTS = HERE / "results" / "deid_eval.json"

# presidio-synth labels -> deid entities; None: not PHI under Safe Harbor (not required, but a
# prediction overlapping it is not counted as over-redaction either).
SYNTH_MAP: dict[str, str | None] = {
    "PERSON": "NAME",
    "STREET_ADDRESS": "LOCATION",
    "GPE": "LOCATION",
    "ZIP_CODE": "LOCATION",
    "PHONE_NUMBER": "PHONE",
    "EMAIL_ADDRESS": "EMAIL",
    "US_SSN": "ID",
    "CREDIT_CARD": "ID",
    "IBAN_CODE": "ID",
    "US_DRIVER_LICENSE": "ID",
    "IP_ADDRESS": "IP",
    "DOMAIN_NAME": "URL",
    "DATE_TIME": "DATE",
    "AGE": None,  # only ages over 89 are PHI; synth ages are mostly younger
    "ORGANIZATION": None,  # employers are not a Safe Harbor category by themselves
    "TITLE": None,
    "NRP": None,
}


def load_clinical(split: str) -> list[dict]:
    notes = [json.loads(line) for line in CLINICAL.read_text(encoding="utf-8").splitlines()]
    return [n for n in notes if split == "all" or n["split"] == split]


def load_synth() -> list[dict]:
    items = json.loads(SYNTH.read_text(encoding="utf-8"))
    out = []
    for i, item in enumerate(items):
        phi = []
        for s in item["spans"]:
            phi.append(
                {
                    "start": s["start_position"],
                    "end": s["end_position"],
                    "entity": SYNTH_MAP.get(s["entity_type"]),
                }
            )
        out.append({"id": f"synth-{i}", "style": "synth", "text": item["full_text"], "phi": phi})
    return out


def covered(text: str, gold: dict, spans: list[PhiSpan]) -> bool:
    redacted = [False] * (gold["end"] - gold["start"])
    for s in spans:
        for i in range(max(s.start, gold["start"]), min(s.end, gold["end"])):
            redacted[i - gold["start"]] = True
    return all(r or text[gold["start"] + i].isspace() for i, r in enumerate(redacted))


def evaluate(
    deid: Deidentifier, notes: list[dict]
) -> tuple[dict, list[tuple[dict, dict]], list[tuple[dict, PhiSpan]], float]:
    found: dict[str, list[int]] = defaultdict(lambda: [0, 0])  # entity -> [caught, total]
    by_style: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    pred_ok: dict[str, list[int]] = defaultdict(lambda: [0, 0])  # predicted entity -> [overlapping, total]
    misses: list[tuple[dict, dict]] = []
    false_pos: list[tuple[dict, PhiSpan]] = []
    started = time.perf_counter()
    results = deid.deidentify_batch([n["text"] for n in notes])
    seconds = time.perf_counter() - started
    for note, result in zip(notes, results, strict=True):
        spans = list(result.spans)
        for gold in note["phi"]:
            if gold["entity"] is None:
                continue
            ok = covered(note["text"], gold, spans)
            found[gold["entity"]][0] += ok
            found[gold["entity"]][1] += 1
            by_style[note["style"]][0] += ok
            by_style[note["style"]][1] += 1
            if not ok:
                misses.append((note, gold))
        for s in spans:
            hit = any(s.start < g["end"] and g["start"] < s.end for g in note["phi"])
            pred_ok[s.entity][0] += hit
            pred_ok[s.entity][1] += 1
            if not hit:
                false_pos.append((note, s))
    caught = sum(v[0] for v in found.values())
    total = sum(v[1] for v in found.values())
    good = sum(v[0] for v in pred_ok.values())
    predicted = sum(v[1] for v in pred_ok.values())
    words = sum(len(n["text"].split()) for n in notes)
    report = {
        "notes": len(notes),
        "gold_spans": total,
        "recall": round(caught / total, 4) if total else None,
        "precision": round(good / predicted, 4) if predicted else None,
        "recall_by_entity": {
            e: {"recall": round(c / t, 4), "spans": t} for e, (c, t) in sorted(found.items())
        },
        "precision_by_entity": {
            e: {"precision": round(c / t, 4), "predicted": t} for e, (c, t) in sorted(pred_ok.items())
        },
        "recall_by_style": {s: round(c / t, 4) for s, (c, t) in sorted(by_style.items())},
        "words_per_second": round(words / seconds),
    }
    return report, misses, false_pos, seconds


def show(misses: list[tuple[dict, dict]], false_pos: list[tuple[dict, PhiSpan]], limit: int) -> None:
    for note, gold in misses[:limit]:
        t = note["text"]
        ctx = t[max(0, gold["start"] - 40) : gold["end"] + 30].replace("\n", " ")
        print(f"MISS {gold['entity']:8} {note['id']:10} {t[gold['start'] : gold['end']]!r:30} | {ctx}")
    for note, s in false_pos[:limit]:
        t = note["text"]
        ctx = t[max(0, s.start - 40) : s.end + 30].replace("\n", " ")
        print(f"FP   {s.entity:8} {note['id']:10} {t[s.start : s.end]!r:30} | {ctx}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--split", default="all", choices=["dev", "test", "all"])
    parser.add_argument("--show-misses", type=int, default=0, metavar="N")
    parser.add_argument("--no-synth", action="store_true")
    parser.add_argument("--no-write", action="store_true")
    args = parser.parse_args()

    deid = Deidentifier()
    out: dict[str, object] = {
        "date": time.strftime("%Y-%m-%d"),
        "machine": f"{platform.machine()} {platform.processor() or ''} cores={len(__import__('os').sched_getaffinity(0))}".strip(),
        "python": platform.python_version(),
    }
    for split in ["dev", "test", "all"] if args.split == "all" else [args.split]:
        report, misses, fps, _ = evaluate(deid, load_clinical(split))
        out[f"clinical_{split}"] = report
        print(f"clinical/{split}: {json.dumps(report, indent=1)}")
        if args.show_misses and split == args.split:
            show(misses, fps, args.show_misses)
    if not args.no_synth:
        report, misses, fps, _ = evaluate(deid, load_synth())
        out["presidio_synth"] = report
        print(f"presidio-synth: {json.dumps(report, indent=1)}")
        if args.show_misses and args.split == "all":
            show(misses, fps, args.show_misses)
    if not args.no_write:
        RESULTS.parent.mkdir(parents=True, exist_ok=True)
        RESULTS.write_text(json.dumps(out, indent=2) + "\n", encoding="utf-8")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
