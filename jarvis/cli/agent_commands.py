"""`jarvis ask` (the /v1/ask response from the command line) and `jarvis demo`.

jarvis ask --doctor ID [--patient-id P [--patient-name N]] [--session S] [--json] TEXT
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from jarvis.agent.factory import build_agent
from jarvis.agent.loop import AskRequest, AskResult
from jarvis.cli.audit_commands import record_cli
from jarvis.cli.io import write_json
from jarvis.config import Settings
from jarvis.errors import InputError
from jarvis.memory.factory import build_deidentifier, open_memory


def ask_payload(result: AskResult) -> dict[str, Any]:
    """The shape of the POST /v1/ask response (DESIGN §5)."""
    return {
        "answer": result.answer,
        "episode_id": result.episode_id,
        "session_id": result.session_id,
        "memories": [
            {
                "episode_id": m.episode_id,
                "created_at": m.created_at.isoformat(),
                "summary": m.summary,
                "similarity": m.similarity,
                "outcome": m.outcome,
            }
            for m in result.memories
        ],
        "safety_facts": [
            {"category": f.category.value, "text": f.text, "recorded_at": f.recorded_at.isoformat()}
            for f in result.safety_facts
        ],
        "degraded": result.degraded,
        "model": result.model,
        "usage": result.usage,
    }


def cmd_ask(args: argparse.Namespace, settings: Settings) -> int:
    if args.patient_name and not args.patient_id:
        raise InputError("--patient-name needs --patient-id")
    deid = build_deidentifier(settings)
    memory = open_memory(settings, deid=deid)
    agent = build_agent(settings, memory=memory, deid=deid)
    result = agent.ask(
        AskRequest(
            doctor_id=args.doctor,
            query=args.text,
            patient_id=args.patient_id,
            patient_name=args.patient_name,
            session_id=args.session,
        )
    )
    if memory is not None:
        written = [result.episode_id] if result.episode_id else []
        record_cli(
            settings,
            memory.store.engine,
            "E",
            "ask",
            episode_ids=[m.episode_id for m in result.memories] + result.tool_reads + written,
        )
    if args.json:
        write_json(ask_payload(result))
        return 0
    out = sys.stdout
    out.write(result.answer.rstrip() + "\n\n")
    flag = " (DEGRADED: answered without memory)" if result.degraded else ""
    out.write(f"model: {result.model}{flag}  session: {result.session_id}  episode: {result.episode_id}\n")
    return 0


def add_parsers(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    ask = sub.add_parser("ask", help="ask the assistant (the /v1/ask response)")
    ask.add_argument("text", help="the question")
    ask.add_argument("--doctor", required=True, help="the asking doctor's id")
    ask.add_argument("--patient-id", help="the patient's MRN (stored only as a keyed hash)")
    ask.add_argument("--patient-name", help="the patient's name (removed from text, stored encrypted)")
    ask.add_argument("--session", help="continue this session (default: a new one)")
    ask.add_argument("--json", action="store_true", help="print the response as one JSON object")
    ask.set_defaults(handler=cmd_ask)
