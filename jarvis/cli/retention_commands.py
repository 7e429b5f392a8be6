"""`jarvis retention run`, `jarvis patients erase`, `jarvis legal-holds add|remove` (actor "cli").

In embedded mode Chroma lives in this process: run these while `jarvis serve` is stopped (or use
the admin API, which runs them inside the server); with a Chroma server they are safe at any time.
"""

from __future__ import annotations

import argparse
import sys
from datetime import UTC, datetime

from jarvis.audit.log import AuditLog
from jarvis.cli.io import Progress, write_json
from jarvis.cli.memory_commands import _memory
from jarvis.config import Settings
from jarvis.errors import NotFoundError
from jarvis.memory.service import MemoryService
from jarvis.security.keys import load_secrets
from jobs import retention
from jobs.erasure import erase_patient


def _open(settings: Settings) -> tuple[MemoryService, retention.Stores, AuditLog]:
    memory = _memory(settings)
    stores = retention.Stores.for_deployment(memory, settings)
    return memory, stores, AuditLog(memory.store.engine, load_secrets(settings).audit)


def cmd_run(args: argparse.Namespace, settings: Settings) -> int:
    _, stores, audit = _open(settings)
    progress: Progress | None = None

    def advance(done: int, total: int) -> None:
        nonlocal progress
        progress = progress or Progress(total, "purging")
        progress.advance(done - progress.done)

    report = retention.run(
        stores, audit, now=datetime.now(UTC), dry_run=args.dry_run, actor="cli", role="cli", progress=advance
    )
    if progress is not None:
        progress.close()
    if args.json:
        write_json(report.to_dict())
    else:
        what = "would delete" if report.dry_run else "deleted"
        sys.stdout.write(
            f"cutoff {report.cutoff:%Y-%m-%d %H:%M} UTC: {what} {report.candidates if report.dry_run else report.deleted}"
            f" episodes and {report.facts_deleted} facts; {report.held} episodes held;"
            f" {report.doctors_compacted} collections compacted; {report.seconds:.1f} s\n"
        )
    return 0


def cmd_erase(args: argparse.Namespace, settings: Settings) -> int:
    memory, stores, audit = _open(settings)
    refs = [r.ref for r in memory.pseudonyms.refs_for(args.patient_id)]
    report = erase_patient(stores, audit, refs, now=datetime.now(UTC), actor="cli", role="cli")
    if args.json:
        write_json(report.to_dict())
    else:
        sys.stdout.write(
            f"erased {report.episodes} episodes and {report.facts} facts across {report.doctors} doctors\n"
        )
    return 0


def cmd_hold(args: argparse.Namespace, settings: Settings) -> int:
    memory, stores, audit = _open(settings)
    refs = [r.ref for r in memory.pseudonyms.refs_for(args.patient_id)]
    if args.action == "add":
        created = stores.retention.add_hold(refs, datetime.now(UTC))
        audit.record(action="C", name="legalhold.create", actor="cli", role="cli", patient_refs=refs)
        sys.stdout.write("legal hold added\n" if created else "legal hold already in place\n")
        return 0
    if not stores.retention.remove_hold(refs):
        raise NotFoundError("no legal hold for this patient")
    audit.record(action="D", name="legalhold.delete", actor="cli", role="cli", patient_refs=refs)
    sys.stdout.write("legal hold removed\n")
    return 0


def add_parsers(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    ret = sub.add_parser("retention", help="forget expired memory")
    ret_actions = ret.add_subparsers(dest="action", required=True)
    run = ret_actions.add_parser("run", help="purge expired episodes and facts now (held patients kept)")
    run.add_argument("--dry-run", action="store_true", help="count what would be purged; change nothing")
    run.add_argument("--json", action="store_true", help="print the retention report as JSON")
    run.set_defaults(handler=cmd_run)

    patients = sub.add_parser("patients", help="patient-level operations")
    patient_actions = patients.add_subparsers(dest="action", required=True)
    erase = patient_actions.add_parser("erase", help="erase every episode and fact of a patient, all doctors")
    erase.add_argument("--patient-id", required=True, help="the patient's MRN (never stored)")
    erase.add_argument("--json", action="store_true", help="print the counts as JSON")
    erase.set_defaults(handler=cmd_erase)

    holds = sub.add_parser("legal-holds", help="exempt a patient from retention")
    hold_actions = holds.add_subparsers(dest="action", required=True)
    for action in ("add", "remove"):
        command = hold_actions.add_parser(action, help=f"{action} a legal hold")
        command.add_argument("--patient-id", required=True, help="the patient's MRN (never stored)")
        command.set_defaults(handler=cmd_hold)
