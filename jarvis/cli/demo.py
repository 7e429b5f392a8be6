"""`jarvis demo`: a scripted walk-through on a throw-away data directory, for newcomers.

It shows recall across sessions, safety facts that are never dropped from context, outcome
feedback changing what ranks first, and retention forgetting on schedule (legal holds respected). Everything runs locally (offline responder unless a Gemini key is set).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TextIO

from jarvis.agent.factory import build_agent
from jarvis.agent.loop import Agent, AskRequest, AskResult
from jarvis.audit.log import AuditLog
from jarvis.config import Settings
from jarvis.memory.factory import build_deidentifier, open_memory
from jarvis.memory.service import MemoryService
from jarvis.memory.types import EpisodeDraft
from jarvis.security.keys import load_secrets
from jobs import retention

DOCTOR = "dr-demo"
PATIENT, NAME = "00482913", "Gita Bhat"
UNRELATED = [
    ("Target INR for a mechanical mitral valve?", "2.5-3.5 for a mechanical mitral valve."),
    ("Maintenance fluids for a 70 kg adult?", "About 25-30 mL/kg/day of balanced crystalloid."),
    ("When to repeat troponin in chest pain?", "At 1-3 hours with a high-sensitivity assay."),
    ("First-line treatment for status epilepticus?", "A benzodiazepine: lorazepam 4 mg IV, repeat once."),
    ("How to correct hyponatraemia safely?", "No more than 8-10 mmol/L in 24 hours."),
]


def _say(out: TextIO, text: str) -> None:
    out.write(f"\n== {text}\n")


def _show(out: TextIO, result: AskResult) -> None:
    for line in result.answer.splitlines():
        out.write(f"   | {line}\n")
    out.write(f"   model={result.model} session={result.session_id} episode={result.episode_id}\n")


def run_demo(agent: Agent, memory: MemoryService, out: TextIO) -> None:
    _say(out, f"Session 1. {DOCTOR} asks about a patient and mentions her allergy and medication in passing.")
    first = agent.ask(
        AskRequest(
            DOCTOR,
            f"{NAME} is allergic to penicillin - anaphylaxis. On metformin 500 mg bid. Fever and dysuria, what now?",
            patient_id=PATIENT,
            patient_name=NAME,
            session_id="demo-session-1",
        )
    )
    _show(out, first)
    stored = memory.get(DOCTOR, str(first.episode_id))
    out.write(f"   stored de-identified: {stored.query_deid!r}\n")
    out.write(f"   patient stored only as a keyed hash: {stored.patient_ref}\n")
    out.write(
        f"   safety facts extracted: {[f'{f.category.value}: {f.text}' for f in memory.facts(DOCTOR, PATIENT)]}\n"
    )

    _say(out, "The doctor accepts the advice; outcomes change future ranking.")
    memory.set_outcome(DOCTOR, str(first.episode_id), "accepted", note="Started nitrofurantoin instead")

    _say(out, f"{len(UNRELATED)} unrelated questions follow, in other sessions.")
    memory.save_batch(
        DOCTOR, [EpisodeDraft(q, a, session_id=f"demo-busy-{i}") for i, (q, a) in enumerate(UNRELATED)]
    )

    _say(out, "Session 2, days later: what did we discuss about this patient?")
    recall = agent.ask(
        AskRequest(
            DOCTOR, "What did we discuss about this patient earlier?", patient_id=PATIENT, session_id="demo-2"
        )
    )
    _show(out, recall)
    out.write(f"   memories used: {[(m.episode_id, m.similarity, m.outcome) for m in recall.memories]}\n")

    _say(out, "A treatment question: the allergy is in context although it was said long ago.")
    treat = agent.ask(
        AskRequest(
            DOCTOR, "Can I give amoxicillin for her sinusitis?", patient_id=PATIENT, session_id="demo-2"
        )
    )
    _show(out, treat)

    _say(out, "Another doctor asks the same: memory is per doctor, so nothing is found.")
    other = agent.ask(
        AskRequest("dr-other", "What did we discuss about this patient earlier?", patient_id=PATIENT)
    )
    out.write(f"   memories: {other.memories}  safety facts: {other.safety_facts}\n")


def retention_step(memory: MemoryService, settings: Settings, out: TextIO) -> None:
    """Forgetting on schedule: 91 days later the default policy (90 days) purges everything but the
    held patient's episodes and facts; the purge is audited with counts only."""
    _say(out, "Retention, 91 days later. The patient is under legal hold; everything else expires.")
    stores = retention.Stores.of(memory, chroma_path=settings.data_dir / "chroma")
    audit = AuditLog(memory.store.engine, load_secrets(settings).audit)
    later = datetime.now(UTC) + timedelta(days=91)
    stores.retention.add_hold([r.ref for r in memory.pseudonyms.refs_for(PATIENT)], datetime.now(UTC))
    dry = retention.run(stores, audit, now=later, dry_run=True)
    out.write(f"   dry run: {dry.candidates} episodes would go, {dry.held} are held; nothing changed\n")
    report = retention.run(stores, audit, now=later)
    out.write(
        f"   purged {report.deleted} episodes (their data keys too), kept {report.held} held ones;"
        f" {report.doctors_compacted} vector collections rebuilt so no purged vector stays on disk\n"
    )
    kept = memory.history(DOCTOR, PATIENT)
    out.write(
        f"   {DOCTOR} still has {len(kept)} episodes of the held patient; {memory.store.count()} in all\n"
    )
    out.write(f"   audit log verifies: {audit.verify()['ok']}\n")


def cmd_demo(_args: argparse.Namespace, settings: Settings) -> int:
    with tempfile.TemporaryDirectory(prefix="jarvis-demo-") as tmp:
        demo_settings = settings.model_copy(update={"data_dir": Path(tmp) / "data", "memory_enabled": True})
        deid = build_deidentifier(demo_settings)
        memory = open_memory(demo_settings, deid=deid)
        assert memory is not None
        run_demo(build_agent(demo_settings, memory=memory, deid=deid), memory, sys.stdout)
        retention_step(memory, demo_settings, sys.stdout)
        sys.stdout.write("\nDone. The data directory was temporary and is deleted now.\n")
        memory.store.engine.dispose()
    return 0


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    demo = sub.add_parser("demo", help="a scripted walk-through on a throw-away data directory")
    demo.set_defaults(handler=cmd_demo)
