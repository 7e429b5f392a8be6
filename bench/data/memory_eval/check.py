#!/usr/bin/env python3
"""Validate the Jarvis memory retrieval evaluation set (stdlib only).

    python3 bench/data/memory_eval/check.py

Exits non-zero if any check fails; prints warnings (not failures) and counts.
"""
from __future__ import annotations

import json
import re
import sys
from collections import Counter
from datetime import datetime
from pathlib import Path

HERE = Path(__file__).resolve().parent
DOCTORS = {"dr-01", "dr-02", "dr-03", "dr-04"}
KINDS = {"paraphrase", "abbreviation", "specific-term", "terse"}
OUTCOMES = {"accepted", "rejected", "modified", None}
MIN_EPISODES, MIN_QUESTIONS = 320, 110
PER_DOCTOR_RANGE = (60, 100)  # "roughly 80 each"
MIN_KIND_SHARE = 0.15  # "around 25% per kind, roughly"
COPY_FAIL_NGRAM = 5  # a question sharing this many consecutive words with its episode fails

EPISODE_KEYS = {"id", "doctor", "patient_id", "query", "response", "created_at", "outcome"}
QUESTION_KEYS = {"id", "doctor", "query", "relevant", "kind"}  # + optional patient_id

# --- PHI heuristics -------------------------------------------------------------------------
FIRST_NAMES = """james john robert michael william david richard joseph thomas charles christopher
daniel matthew anthony mark donald steven paul andrew joshua kevin brian george edward ronald
timothy jason jeffrey ryan jacob gary nicholas eric jonathan stephen larry justin scott brandon
mary patricia jennifer linda elizabeth barbara susan jessica sarah karen lisa nancy betty sandra
margaret ashley kimberly emily donna michelle carol amanda melissa deborah stephanie rebecca
sharon laura cynthia kathleen amy angela anna maria emma olivia sophia ramon gita carlos jose
juan luis ahmed mohammed fatima priya raj wei li chen yuki hiroshi olga ivan pierre""".split()
NAME_PAIR = re.compile(r"\b(" + "|".join(n.capitalize() for n in FIRST_NAMES) + r")\s+[A-Z][a-z]{2,}\b")
PHI_PATTERNS = {
    "first+last name": NAME_PAIR,
    "doctor name": re.compile(r"\b(?:Dr|Doctor)\.?\s+[A-Z][a-z]+"),
    "phone": re.compile(r"(?:\(\d{3}\)\s*|\b\d{3}[-.\s])\d{3}[-.\s]\d{4}\b"),
    "SSN": re.compile(r"\b\d{3}-\d{2}-\d{4}\b"),
    "MRN/ID": re.compile(r"\b(?:MRN|medical record)\b|#\s?\d{5,}|\b\d{7,}\b", re.I),
    "date n/n/n": re.compile(r"\b\d{1,2}/\d{1,2}/(?:19|20)?\d{2}\b|\b\d{1,2}[.-]\d{1,2}[.-](?:19|20)\d{2}\b"),
    "ISO date": re.compile(r"\b(?:19|20)\d{2}-\d{2}-\d{2}\b"),
    "month+day": re.compile(r"\b(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|"
                            r"Aug(?:ust)?|Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)"
                            r"\.?\s+\d{1,2}(?:st|nd|rd|th)?\b"),
    "email": re.compile(r"\b[\w.+-]+@[\w-]+\.[\w.]+\b"),
    "age over 89": re.compile(r"\b(?:9\d|1[01]\d)\s?(?:yo|y/o|-year|\s?years?\s+old|M\b|F\b)", re.I),
    "street address": re.compile(r"\b\d{1,5}\s+[A-Z][a-z]+\s+(?:Street|St|Avenue|Ave|Road|Rd|Lane|Drive)\b"),
}
ALLOWED_PLACEHOLDER = re.compile(r"\[(?:NAME|DATE|HOSPITAL|LOCATION|AGE|ID|PHONE)\]")

errors: list[str] = []
warnings: list[str] = []


def fail(msg: str) -> None:
    errors.append(msg)


def load(name: str) -> list[dict]:
    rows = []
    with open(HERE / name, encoding="utf-8") as fh:
        for n, line in enumerate(fh, 1):
            if not line.strip():
                fail(f"{name}:{n}: blank line")
                continue
            try:
                rows.append(json.loads(line))
            except json.JSONDecodeError as exc:
                fail(f"{name}:{n}: invalid JSON ({exc})")
    return rows


def words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+(?:[.'/-][a-z0-9]+)*", text.lower())


def longest_shared_run(a: list[str], b: list[str]) -> int:
    best, prev = 0, [0] * (len(b) + 1)
    for x in a:
        cur = [0] * (len(b) + 1)
        for j, y in enumerate(b, 1):
            if x == y:
                cur[j] = prev[j - 1] + 1
                best = max(best, cur[j])
        prev = cur
    return best


def main() -> int:
    episodes = load("episodes.jsonl")
    questions = load("questions.jsonl")

    # --- episodes ---
    ep_by_id: dict[str, dict] = {}
    for e in episodes:
        eid = e.get("id")
        if set(e) != EPISODE_KEYS:
            fail(f"{eid}: keys {sorted(set(e) ^ EPISODE_KEYS)} missing/unexpected")
        if not isinstance(eid, str) or not re.fullmatch(r"e\d{3,}", eid):
            fail(f"bad episode id {eid!r}")
        if eid in ep_by_id:
            fail(f"duplicate episode id {eid}")
        ep_by_id[eid] = e
        if e.get("doctor") not in DOCTORS:
            fail(f"{eid}: bad doctor {e.get('doctor')!r}")
        pid = e.get("patient_id")
        if pid is not None and not (isinstance(pid, str) and re.fullmatch(r"P-\d{4}", pid)):
            fail(f"{eid}: bad patient_id {pid!r}")
        for f in ("query", "response"):
            if not isinstance(e.get(f), str) or len(e[f].strip()) < 8:
                fail(f"{eid}: empty/short {f}")
        ts = e.get("created_at", "")
        if not isinstance(ts, str) or not re.fullmatch(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z", ts):
            fail(f"{eid}: created_at not ISO-8601 UTC ('...Z'): {ts!r}")
        else:
            try:
                year = datetime.strptime(ts, "%Y-%m-%dT%H:%M:%SZ").year
                if year not in (2025, 2026):
                    fail(f"{eid}: created_at outside 2025-2026: {ts}")
            except ValueError:
                fail(f"{eid}: unparseable created_at {ts!r}")
        if e.get("outcome") not in OUTCOMES:
            fail(f"{eid}: bad outcome {e.get('outcome')!r}")
        n_sent = len(re.findall(r"[.!?](?:\s|$)", e.get("response", "")))
        if not 1 <= n_sent <= 6:
            warnings.append(f"{eid}: response has ~{n_sent} sentences")

    # --- questions ---
    q_ids = set()
    for q in questions:
        qid = q.get("id")
        keys = set(q)
        if not QUESTION_KEYS <= keys or keys - QUESTION_KEYS - {"patient_id"}:
            fail(f"{qid}: keys {sorted(keys ^ QUESTION_KEYS)} missing/unexpected")
        if not isinstance(qid, str) or not re.fullmatch(r"q\d{3,}", qid):
            fail(f"bad question id {qid!r}")
        if qid in q_ids:
            fail(f"duplicate question id {qid}")
        q_ids.add(qid)
        if q.get("doctor") not in DOCTORS:
            fail(f"{qid}: bad doctor {q.get('doctor')!r}")
        if q.get("kind") not in KINDS:
            fail(f"{qid}: bad kind {q.get('kind')!r}")
        pid = q.get("patient_id")
        if "patient_id" in q and pid is not None and not (isinstance(pid, str) and re.fullmatch(r"P-\d{4}", pid)):
            fail(f"{qid}: bad patient_id {pid!r}")
        rel = q.get("relevant")
        if not isinstance(rel, list) or not 1 <= len(rel) <= 3 or len(set(rel)) != len(rel):
            fail(f"{qid}: relevant must be 1-3 distinct ids, got {rel!r}")
            continue
        for rid in rel:
            ep = ep_by_id.get(rid)
            if ep is None:
                fail(f"{qid}: relevant id {rid} does not exist")
            elif ep["doctor"] != q.get("doctor"):
                fail(f"{qid}: relevant {rid} belongs to {ep['doctor']}, question is {q.get('doctor')}")
        if pid and not any(ep_by_id.get(r, {}).get("patient_id") == pid for r in rel):
            fail(f"{qid}: patient_id {pid} matches none of its relevant episodes")
        # paraphrase discipline: the question must not copy a phrase from its episode(s)
        qw = words(q.get("query", ""))
        for rid in rel:
            ep = ep_by_id.get(rid)
            if not ep:
                continue
            run = max(longest_shared_run(qw, words(ep["query"])), longest_shared_run(qw, words(ep["response"])))
            if run >= COPY_FAIL_NGRAM:
                fail(f"{qid}: shares {run} consecutive words with {rid} (copied, not paraphrased)")
            elif run == COPY_FAIL_NGRAM - 1:
                warnings.append(f"{qid}: shares {run} consecutive words with {rid}")
        if q.get("query", "").strip().lower() in {ep_by_id[r]["query"].strip().lower() for r in rel if r in ep_by_id}:
            fail(f"{qid}: query identical to its episode's query")

    # --- PHI heuristics over all free text ---
    texts = [(e["id"], f, e.get(f, "")) for e in episodes for f in ("query", "response")]
    texts += [(q["id"], "query", q.get("query", "")) for q in questions]
    phi_hits = 0
    for oid, field, text in texts:
        if not isinstance(text, str):
            continue
        scrubbed = ALLOWED_PLACEHOLDER.sub(" ", text)
        for label, pat in PHI_PATTERNS.items():
            m = pat.search(scrubbed)
            if m:
                phi_hits += 1
                fail(f"{oid}.{field}: possible PHI ({label}): {m.group(0)!r}")

    # --- counts ---
    by_doc = Counter(e["doctor"] for e in episodes)
    q_by_doc = Counter(q.get("doctor") for q in questions)
    kinds = Counter(q.get("kind") for q in questions)
    outcomes = Counter(e["outcome"] for e in episodes)
    if len(episodes) < MIN_EPISODES:
        fail(f"only {len(episodes)} episodes (< {MIN_EPISODES})")
    if len(questions) < MIN_QUESTIONS:
        fail(f"only {len(questions)} questions (< {MIN_QUESTIONS})")
    for d in sorted(DOCTORS):
        lo, hi = PER_DOCTOR_RANGE
        if not lo <= by_doc[d] <= hi:
            fail(f"{d}: {by_doc[d]} episodes, outside {lo}-{hi}")
        if q_by_doc[d] == 0:
            fail(f"{d}: no questions")
    for k in sorted(KINDS):
        if questions and kinds[k] / len(questions) < MIN_KIND_SHARE:
            fail(f"kind {k}: only {kinds[k]} questions")
    if outcomes["rejected"] == 0:
        fail("no rejected episodes")

    # accepted/rejected pairs that a question points at together
    pairs = 0
    for q in questions:
        outs = {ep_by_id[r]["outcome"] for r in q.get("relevant", []) if r in ep_by_id}
        if {"accepted", "rejected"} <= outs:
            pairs += 1

    rel_sizes = Counter(len(q.get("relevant", [])) for q in questions)
    with_pid = sum(1 for e in episodes if e["patient_id"])
    print(f"episodes: {len(episodes)}  (with patient_id: {with_pid}, general: {len(episodes) - with_pid})")
    print("  per doctor: " + ", ".join(f"{d}={by_doc[d]}" for d in sorted(DOCTORS)))
    print("  outcomes:   " + ", ".join(f"{k or 'null'}={outcomes[k]}" for k in ("accepted", "modified", "rejected", None)))
    years = Counter(e["created_at"][:4] for e in episodes)
    print("  years:      " + ", ".join(f"{y}={n}" for y, n in sorted(years.items())))
    print(f"questions: {len(questions)}")
    print("  per doctor: " + ", ".join(f"{d}={q_by_doc[d]}" for d in sorted(DOCTORS)))
    print("  per kind:   " + ", ".join(f"{k}={kinds[k]}" for k in sorted(KINDS)))
    table = Counter((q.get("doctor"), q.get("kind")) for q in questions)
    print("  doctor x kind:")
    for d in sorted(DOCTORS):
        print(f"    {d}: " + ", ".join(f"{k}={table[(d, k)]}" for k in sorted(KINDS)))
    print("  relevant list sizes: " + ", ".join(f"{n}={c}" for n, c in sorted(rel_sizes.items())))
    print(f"  questions whose relevant set holds an accepted+rejected pair: {pairs}")
    print(f"PHI pattern hits: {phi_hits}")
    for w in warnings:
        print(f"WARN {w}")
    for e in errors:
        print(f"FAIL {e}")
    print(f"{'FAILED' if errors else 'OK'}: {len(errors)} failure(s), {len(warnings)} warning(s)")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
