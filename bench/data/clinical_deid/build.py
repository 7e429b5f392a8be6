"""Build notes.jsonl from the marked-up sources in src/.

Each src/*.txt file holds notes separated by header lines:

    === id=caps-001 style=nursing_caps split=test
    PT AMB WITH ⟦NAME:JIM⟧ ...

PHI is marked inline as ⟦ENTITY:text⟧ with ENTITY one of ENTITIES below. The builder strips the
markup, records character offsets into the clean text, checks every note, and writes one JSON object
per line: {"id", "style", "split", "text", "phi": [{"start", "end", "entity", "text"}]}.

Run: python bench/data/clinical_deid/build.py   (writes notes.jsonl beside this file)
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

ENTITIES = {"NAME", "DATE", "AGE", "LOCATION", "PHONE", "EMAIL", "ID", "URL", "IP"}
HEADER = re.compile(r"^=== id=(?P<id>[\w.-]+) style=(?P<style>\w+) split=(?P<split>dev|dev2|dev3|test|holdout|holdout2)\s*$")
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
