"""`jarvis deid [FILE|-] [--jsonl --field F] [--known-name NAME ...] [--spans] [--json]`."""

from __future__ import annotations

import argparse
import json
import sys

from jarvis.cli.io import jsonl_records, read_input
from jarvis.config import Settings


def _span_dicts(result: object) -> list[dict[str, object]]:
    from deid import DeidResult

    assert isinstance(result, DeidResult)
    return [
        {"start": s.start, "end": s.end, "entity": s.entity, "score": round(s.score, 3)} for s in result.spans
    ]


def cmd_deid(args: argparse.Namespace, settings: Settings) -> int:
    from deid import Deidentifier, DeidError

    deid = Deidentifier(model_name=settings.deid_spacy_model, max_chars=settings.deid_max_chars)
    out = sys.stdout
    with read_input(args.file) as stream:
        try:
            if args.jsonl:
                for number, record in jsonl_records(stream):
                    if not isinstance(record.get(args.field), str):
                        raise SystemExit(f"line {number}: no string field {args.field!r}")
                    result = deid.deidentify(str(record[args.field]), known_names=args.known_name)
                    record[args.field] = result.text
                    if args.spans:
                        record[f"{args.field}_spans"] = _span_dicts(result)
                    out.write(json.dumps(record, ensure_ascii=False) + "\n")
                return 0
            result = deid.deidentify(stream.read(), known_names=args.known_name)
        except DeidError as exc:
            # The message never quotes the input; nothing de-identified is printed for a failed text.
            sys.stderr.write(f"jarvis deid: {exc}\n")
            return 1
    if args.json:
        payload: dict[str, object] = {"text": result.text}
        if args.spans:
            payload["spans"] = _span_dicts(result)
        out.write(json.dumps(payload, ensure_ascii=False) + "\n")
        return 0
    out.write(result.text if result.text.endswith("\n") else result.text + "\n")
    if args.spans:
        for span in result.spans:
            out.write(f"{span.start:>6} {span.end:>6}  {span.entity:<9} {span.score:.2f}\n")
    return 0


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    deid = sub.add_parser("deid", help="de-identify clinical text")
    deid.add_argument("file", nargs="?", default="-", help="a text file, or - for standard input")
    deid.add_argument("--jsonl", action="store_true", help="input is JSON lines; de-identify one field")
    deid.add_argument("--field", default="text", help="the field to de-identify with --jsonl (default: text)")
    deid.add_argument("--known-name", action="append", default=[], metavar="NAME", help="a name to remove")
    deid.add_argument("--spans", action="store_true", help="also print what was found where")
    deid.add_argument("--json", action="store_true", help="print one JSON object")
    deid.set_defaults(handler=cmd_deid)
