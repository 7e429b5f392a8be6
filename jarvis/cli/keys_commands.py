"""`jarvis keys ...`: key management on the server host.

    jarvis keys create --role clinician|admin|auditor [--subject ID] [--json]   an API key, shown once
    jarvis keys revoke KEY_ID
    jarvis keys rewrap [--json]   re-wrap every episode data key under the current master key

Master-key rotation: add a new version to JARVIS_MASTER_KEYS (or the secrets file), e.g.
"v2:<new>,v1:<old>", run `jarvis keys rewrap`, then drop v1. Field ciphertexts are not touched.
"""

from __future__ import annotations

import argparse
import sys

from jarvis.cli.audit_commands import record_cli
from jarvis.cli.io import write_json
from jarvis.config import Settings
from jarvis.errors import NotFoundError, UnavailableError
from jarvis.memory.factory import open_memory, prepare_data_dir
from jarvis.memory.records.database import default_url, make_engine, migrate
from jarvis.security.api_keys import ApiKeys
from jarvis.security.keys import load_secrets


def cmd_rewrap(args: argparse.Namespace, settings: Settings) -> int:
    memory = open_memory(settings)
    if memory is None:
        raise UnavailableError("memory is disabled (JARVIS_MEMORY_ENABLED=false)")
    count = memory.rewrap_data_keys()
    record_cli(settings, memory.store.engine, "E", "keys.rewrap", detail={"rewrapped": count})
    version = memory.cipher.current_master_version
    if args.json:
        write_json({"rewrapped": count, "master_key_version": version})
    else:
        sys.stdout.write(f"re-wrapped {count} data keys under master key v{version}\n")
    return 0


def _api_keys(settings: Settings) -> ApiKeys:
    prepare_data_dir(settings)
    load_secrets(settings)
    engine = make_engine(settings.database_url or default_url(settings.data_dir))
    migrate(engine)
    return ApiKeys(engine)


def cmd_create(args: argparse.Namespace, settings: Settings) -> int:
    keys = _api_keys(settings)
    key = keys.create(args.role, args.subject)
    record_cli(settings, keys.engine, "C", "apikey.create")
    if args.json:
        write_json({"key_id": key.key_id, "token": key.token, "role": key.role.value, "subject": key.subject})
    else:
        sys.stdout.write(
            f"key id: {key.key_id}\nrole:   {key.role.value}\ntoken:  {key.token}\n(shown once)\n"
        )
    return 0


def cmd_revoke(args: argparse.Namespace, settings: Settings) -> int:
    keys = _api_keys(settings)
    if not keys.revoke(args.key_id):
        raise NotFoundError("no such active key")
    record_cli(settings, keys.engine, "D", "apikey.revoke")
    sys.stdout.write(f"revoked {args.key_id}\n")
    return 0


def add_parsers(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    keys = sub.add_parser("keys", help="key management")
    actions = keys.add_subparsers(dest="action", required=True)
    create = actions.add_parser("create", help="create an API key (the token is shown once)")
    create.add_argument("--role", required=True, choices=["clinician", "admin", "auditor"])
    create.add_argument("--subject", help="the doctor id (required for clinicians)")
    create.add_argument("--json", action="store_true", help="print one JSON object")
    create.set_defaults(handler=cmd_create)
    revoke = actions.add_parser("revoke", help="revoke an API key")
    revoke.add_argument("key_id")
    revoke.set_defaults(handler=cmd_revoke)
    rewrap = actions.add_parser("rewrap", help="re-wrap data keys under the current master key")
    rewrap.add_argument("--json", action="store_true", help="print one JSON object")
    rewrap.set_defaults(handler=cmd_rewrap)
