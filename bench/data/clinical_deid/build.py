"""Build notes.jsonl from the marked-up sources in src/.

Each src/*.txt file holds notes separated by header lines:

    === id=caps-001 style=nursing_caps split=test
    PT AMB WITH ⟦NAME:JIM⟧ ...

PHI is marked inline as ⟦ENTITY:text⟧ with ENTITY one of ENTITIES below. The builder strips the
markup, records character offsets into the clean text, checks every note, and writes one JSON object
per line: {"id", "style", "split", "text", "phi": [{"start", "end", "entity", "text"}]}.

Run: python bench/data/clinical_deid/build.py   (writes notes.jsonl beside this file)

What is labelled (every author of src/ follows this; the evaluation depends on it):

- NAME: every person's name: patients, relatives, friends, clinicians, transcriptionists, in any
  case or form (full, first only, surname only, "LAST,FIRST", initials with a surname like "J. Smith",
  a lower-case name or user name in a signature or dictation line). Titles and credentials stay
  outside the span ("Dr. ⟦NAME:Hobbs⟧", "⟦NAME:Gilbert Perez⟧, M.D."). Bare initials of two or three
  letters standing alone (e.g. "GPP") are NOT labelled; a user name that mixes letters and digits is
  labelled NAME.
- DATE: every date element finer than a year: full dates, month+day, month+year ("3/80", "May 2081",
  "8/79"), a month name alone ("since November"), day ordinals ("on the 22nd"), holidays ("Christmas").
  NOT labelled: a year alone, weekdays alone, times of day, durations, seasons.
- AGE: only ages of 90 or over (then label the number/words of the age only). Younger ages: not PHI.
- LOCATION: street addresses, towns and cities, counties, ZIP/postal codes, and the names of hospitals,
  clinics, practices, nursing homes, labs, pharmacies, schools, employers and other organisations,
  including abbreviations of them ("BIDMC", "GH"); room and bed numbers. Label the name with its head
  word ("⟦LOCATION:Silver Ridge Hospital⟧"); a generic unit after a name stays outside if it is a
  generic department ("⟦LOCATION:SILVER RIDGE⟧ EMERGENCY DEPT VISIT"). NOT labelled: US states and their
  abbreviations, countries, generic departments alone ("the emergency department", "cardiology clinic").
- PHONE: phone, fax and pager numbers, extensions and short internal pagers ("pager 84710", "x4-1234").
- ID: medical record numbers, account, unit, encounter, document/dictation/job numbers, accession numbers,
  licence, DEA, NPI, health-plan and insurance numbers, device serials, any other unique code.
- EMAIL, URL, IP as named.
- NOT PHI: professions, drug names, doses, lab values, vital signs, eponymous diseases/tests/signs
  (Parkinson's, Babinski, Apgar, Glasgow), times, durations, generic clinical words.

Mark every occurrence (a name repeated five times is marked five times). Be exact and consistent:
a wrong or missing label is worse than a missing note.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

ENTITIES = {"NAME", "DATE", "AGE", "LOCATION", "PHONE", "EMAIL", "ID", "URL", "IP"}
HEADER = re.compile(r"^=== id=(?P<id>[\w.-]+) style=(?P<style>\w+) split=(?P<split>dev|dev2|dev3|dev4|dev5|dev6|dev7|test|holdout|holdout2|holdout3|holdout4|holdout5|holdout6|holdout7|holdout8|dev8|dev9|dev10|dev11|dev12|dev13|dev14|dev15|dev16|dev17|dev18|holdout9|holdout10|dev19|dev20|dev21|holdout11|holdout12|dev22|dev23|holdout13|dev24|dev25|dev26|holdout14|holdout15|dev27|dev28|holdout16|holdout17|dev29|dev30|holdout18|holdout19|holdout20|holdout21)\s*$")
MARK = re.compile(r"⟦(?P<entity>[A-Z]+):(?P<text>[^⟦⟧]+)⟧")
HERE = Path(__file__).resolve().parent


def parse_note(marked: str) -> tuple[str, list[dict[str, object]]]:
    """Strip the markup of one note; return the clean text and its PHI spans."""
    out: list[str] = []
    spans: list[dict[str, object]] = []
    pos = 0
    length = 0
    for match in MARK.finditer(marked):
        before = marked[pos : match.start()]
        out.append(before)
        length += len(before)
        entity, value = match["entity"], match["text"]
        if entity not in ENTITIES:
            raise ValueError(f"unknown entity {entity!r}")
        spans.append({"start": length, "end": length + len(value), "entity": entity, "text": value})
        out.append(value)
        length += len(value)
        pos = match.end()
    out.append(marked[pos:])
    text = "".join(out)
    if "⟦" in text or "⟧" in text:
        raise ValueError("unbalanced markup")
    return text, spans


def read_sources(src_dir: Path) -> list[dict[str, object]]:
    notes: list[dict[str, object]] = []
    for path in sorted(src_dir.glob("*.txt")):
        header: dict[str, str] | None = None
        body: list[str] = []
        lines = path.read_text(encoding="utf-8").splitlines()
        for line in [*lines, "=== end"]:
            if line.startswith("==="):
                if header is not None:
                    marked = "\n".join(body).strip("\n")
                    try:
                        text, spans = parse_note(marked)
                    except ValueError as exc:
                        raise SystemExit(f"{path.name} {header['id']}: {exc}") from exc
                    notes.append({**header, "text": text, "phi": spans})
                if line == "=== end":
                    break
                found = HEADER.match(line)
                if not found:
                    raise SystemExit(f"{path.name}: bad header {line!r}")
                header = found.groupdict()
                body = []
            else:
                body.append(line)
    ids = [n["id"] for n in notes]
    if len(ids) != len(set(ids)):
        raise SystemExit("duplicate note ids")
    return notes


def main() -> None:
    notes = read_sources(HERE / "src")
    with (HERE / "notes.jsonl").open("w", encoding="utf-8") as fh:
        for note in notes:
            fh.write(json.dumps(note, ensure_ascii=False) + "\n")
    by_entity: dict[str, int] = {}
    for note in notes:
        for span in note["phi"]:  # type: ignore[attr-defined]
            by_entity[span["entity"]] = by_entity.get(span["entity"], 0) + 1
    sys.stdout.write(f"{len(notes)} notes; PHI spans by entity: {json.dumps(by_entity, sort_keys=True)}\n")


if __name__ == "__main__":
    main()
