"""Logging, configured once per process (CLI entry or server start-up).

Log lines carry ids and counts only: callers pass %-style arguments that are never clinical text.
"""

from __future__ import annotations

import json
import logging
import sys
import time

_configured = False


class JsonFormatter(logging.Formatter):
    """One JSON object per line, for log shippers."""

    def format(self, record: logging.LogRecord) -> str:
        payload = {
            "ts": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
            + f".{int(record.msecs):03d}Z",
            "level": record.levelname,
            "logger": record.name,
            "msg": record.getMessage(),
        }
        if record.exc_info and record.exc_info[0] is not None:
            # The exception type only: messages of third-party exceptions may quote their input.
            payload["exc_type"] = record.exc_info[0].__name__
        return json.dumps(payload)


class TypeOnlyFormatter(logging.Formatter):
    """Plain-text lines; a traceback is reduced to the exception type for the same reason."""

    def formatException(self, ei: object) -> str:  # noqa: N802 (logging API name)
        exc_type = ei[0] if isinstance(ei, tuple) else None
        return f"exception: {getattr(exc_type, '__name__', 'unknown')}"


def configure_logging(level: str = "INFO", json_lines: bool = False) -> None:
    """Install one stderr handler on the root logger; later calls only change the level."""
    global _configured
    root = logging.getLogger()
    root.setLevel(level)
    if _configured:
        return
    handler = logging.StreamHandler(sys.stderr)
    if json_lines:
        handler.setFormatter(JsonFormatter())
    else:
        handler.setFormatter(TypeOnlyFormatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    root.addHandler(handler)
    # Third-party libraries that log their inputs at INFO/DEBUG stay at WARNING.
    for noisy in (
        "presidio-analyzer",
        "presidio-anonymizer",
        "chromadb",
        "httpx",
        "httpx2",
        "alembic",
        "google_genai",
    ):
        logging.getLogger(noisy).setLevel(logging.WARNING)
    _configured = True
