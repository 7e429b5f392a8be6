"""`jarvis audit verify [--json]`, and the audit trail of the CLI's own actions (actor "cli")."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from sqlalchemy import Engine

from jarvis.audit.commands import verify_command
from jarvis.audit.log import AuditLog
from jarvis.cli.io import write_json
from jarvis.config import Settings
from jarvis.security.keys import load_secrets


def record_cli(
    settings: Settings,
    engine: Engine,
    action: str,
    name: str,
    *,
    episode_ids: Sequence[str] = (),
    patient_refs: Sequence[str] = (),
    detail: dict[str, int] | None = None,
) -> None:
    """One audit event for a CLI action; the CLI is trusted but not unaccountable."""
    log = AuditLog(engine, load_secrets(settings).audit)
    for start in range(0, max(len(episode_ids), 1), 500):  # events hold at most 1,000 ids
        log.record(
            action=action, name=name, actor="cli", role="cli", episode_ids=episode_ids[start : start + 500],
            patient_refs=patient_refs, detail=detail,
        )  # fmt: skip


def cmd_verify(args: argparse.Namespace, settings: Settings) -> int:
    result = verify_command(settings)
    if args.json:
        write_json(dict(result))
    else:
        state = "OK" if result["ok"] else f"BROKEN at seq {result['first_bad_seq']} ({result['reason']})"
        sys.stdout.write(
            f"audit log {state}: {result['events_checked']} events checked, head {result['head']}\n"
        )
    return 0 if result["ok"] else 2


def add_parsers(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    audit = sub.add_parser("audit", help="the audit log")
    actions = audit.add_subparsers(dest="action", required=True)
    verify = actions.add_parser("verify", help="check the hash chain and checkpoints (exit 2 if broken)")
    verify.add_argument("--json", action="store_true", help="print the /v1/audit/verify result")
    verify.set_defaults(handler=cmd_verify)
