"""`jarvis keys ...`: key management on the server host.

    jarvis keys rewrap [--json]   re-wrap every episode data key under the current master key

Master-key rotation: add a new version to JARVIS_MASTER_KEYS (or the secrets file), e.g.
"v2:<new>,v1:<old>", run `jarvis keys rewrap`, then drop v1. Field ciphertexts are not touched.
"""

from __future__ import annotations

import argparse
import sys

from jarvis.cli.io import write_json
from jarvis.config import Settings
from jarvis.errors import UnavailableError
from jarvis.memory.factory import open_memory


def cmd_rewrap(args: argparse.Namespace, settings: Settings) -> int:
    memory = open_memory(settings)
    if memory is None:
        raise UnavailableError("memory is disabled (JARVIS_MEMORY_ENABLED=false)")
    count = memory.rewrap_data_keys()
    version = memory.cipher.current_master_version
    if args.json:
        write_json({"rewrapped": count, "master_key_version": version})
    else:
        sys.stdout.write(f"re-wrapped {count} data keys under master key v{version}\n")
    return 0


def add_parsers(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    keys = sub.add_parser("keys", help="key management")
    actions = keys.add_subparsers(dest="action", required=True)
    rewrap = actions.add_parser("rewrap", help="re-wrap data keys under the current master key")
    rewrap.add_argument("--json", action="store_true", help="print one JSON object")
    rewrap.set_defaults(handler=cmd_rewrap)
