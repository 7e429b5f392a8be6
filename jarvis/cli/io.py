"""Input and output helpers shared by the commands: files or stdin, JSON lines, progress."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from typing import Any, TextIO


def read_input(path: str) -> TextIO:
    if path == "-":
        return sys.stdin
    try:
        return open(path, encoding="utf-8")  # noqa: SIM115 - closed by the caller
    except OSError as exc:
        raise SystemExit(f"cannot read {path}: {exc.strerror}") from None


def jsonl_records(stream: TextIO) -> Iterator[tuple[int, dict[str, Any]]]:
    """(line number, object) for every non-blank line; a bad line stops with its number, not its text."""
    for number, line in enumerate(stream, start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError:
            raise SystemExit(f"line {number}: not valid JSON") from None
        if not isinstance(record, dict):
            raise SystemExit(f"line {number}: not a JSON object")
        yield number, record


def write_json(obj: object, out: TextIO | None = None) -> None:
    (out or sys.stdout).write(json.dumps(obj, ensure_ascii=False, default=str) + "\n")


class Progress:
    """A progress bar on stderr when it is a terminal; silent otherwise (logs and pipes stay clean)."""

    def __init__(self, total: int, label: str, stream: TextIO | None = None) -> None:
        self.total, self.label, self.done = total, label, 0
        self._stream = stream or sys.stderr
        self._enabled = self._stream.isatty()

    def advance(self, count: int) -> None:
        self.done += count
        if self._enabled:
            width = 30
            filled = int(width * self.done / max(self.total, 1))
            bar = "#" * filled + "-" * (width - filled)
            self._stream.write(f"\r{self.label} [{bar}] {self.done}/{self.total}")
            self._stream.flush()

    def close(self) -> None:
        if self._enabled:
            self._stream.write("\n")
