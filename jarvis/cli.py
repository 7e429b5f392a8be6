"""The `jarvis` command. It runs on the server host with direct access to the stores (trusted).

jarvis deid [FILE|-] [--jsonl --field F] [--known-name NAME ...] [--spans] [--json]
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
from collections.abc import Iterator, Sequence
from typing import TextIO

from jarvis.config import get_settings
from jarvis.logging_setup import configure_logging

logger = logging.getLogger(__name__)


def _span_dicts(result: object) -> list[dict[str, object]]:
    from deid import DeidResult

    assert isinstance(result, DeidResult)
    return [
        {"start": s.start, "end": s.end, "entity": s.entity, "score": round(s.score, 3)} for s in result.spans
    ]


def _read_input(path: str) -> TextIO:
    if path == "-":
        return sys.stdin
    return open(path, encoding="utf-8")  # noqa: SIM115 - closed by the caller


def _jsonl_records(stream: TextIO, field: str) -> Iterator[tuple[int, dict[str, object]]]:
    for number, line in enumerate(stream, start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError:
            raise SystemExit(f"line {number}: not valid JSON") from None
        if not isinstance(record, dict) or not isinstance(record.get(field), str):
            raise SystemExit(f"line {number}: no string field {field!r}")
        yield number, record


def cmd_deid(args: argparse.Namespace) -> int:
    from deid import Deidentifier, DeidError

    settings = get_settings()
    deid = Deidentifier(model_name=settings.deid_spacy_model, max_chars=settings.deid_max_chars)
    out = sys.stdout
    with _read_input(args.file) as stream:
        try:
            if args.jsonl:
                for _, record in _jsonl_records(stream, args.field):
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


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="jarvis", description="Jarvis memory command line")
    parser.add_argument("--data-dir", help="data directory (default: JARVIS_DATA_DIR or ./data)")
    sub = parser.add_subparsers(dest="command", required=True)

    deid = sub.add_parser("deid", help="de-identify clinical text")
    deid.add_argument("file", nargs="?", default="-", help="a text file, or - for standard input")
    deid.add_argument("--jsonl", action="store_true", help="input is JSON lines; de-identify one field")
    deid.add_argument("--field", default="text", help="the field to de-identify with --jsonl (default: text)")
    deid.add_argument("--known-name", action="append", default=[], metavar="NAME", help="a name to remove")
    deid.add_argument("--spans", action="store_true", help="also print what was found where")
    deid.add_argument("--json", action="store_true", help="print one JSON object")
    deid.set_defaults(handler=cmd_deid)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    settings = get_settings()
    configure_logging(settings.log_level, settings.log_json)
    code: int = args.handler(args)
    return code


if __name__ == "__main__":
    sys.exit(main())
