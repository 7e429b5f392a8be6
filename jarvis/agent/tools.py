"""Memory tools the model may call during an ask, bound to the asking doctor and patient.

The doctor and patient come from the request, never from the model's arguments, so a tool call can
reach nothing the doctor could not. Tool results carry de-identified text only. A failing tool
answers {"error": ...} to the model instead of failing the ask.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from jarvis.agent.models.base import FunctionCall, FunctionResponse, ToolSpec
from jarvis.errors import JarvisError
from jarvis.memory.service import MemoryService
from jarvis.memory.types import FactCategory

logger = logging.getLogger(__name__)

SEARCH_MEMORY = ToolSpec(
    "search_memory",
    "Search this clinician's past interactions with the assistant by meaning. Returns dated summaries.",
    {
        "type": "object",
        "properties": {
            "query": {"type": "string", "description": "what to look for, in clinical terms"},
            "k": {"type": "integer", "description": "how many results (1-10, default 5)"},
        },
        "required": ["query"],
    },
)
PATIENT_HISTORY = ToolSpec(
    "patient_history",
    "This clinician's past interactions about the current patient, newest first.",
    {"type": "object", "properties": {"limit": {"type": "integer", "description": "1-20, default 10"}}},
)
RECORD_PATIENT_FACT = ToolSpec(
    "record_patient_fact",
    "Record a safety-critical fact about the current patient that the clinician stated.",
    {
        "type": "object",
        "properties": {
            "category": {"type": "string", "enum": [c.value for c in FactCategory]},
            "text": {
                "type": "string",
                "description": "e.g. 'penicillin: anaphylaxis' or 'metformin 500 mg bid'",
            },
        },
        "required": ["category", "text"],
    },
)


def _bounded(value: Any, default: int, low: int, high: int) -> int:
    return min(max(value, low), high) if isinstance(value, int) else default


class ToolBox:
    def __init__(self, memory: MemoryService, doctor_id: str, patient_id: str | None) -> None:
        self.memory, self.doctor_id, self.patient_id = memory, doctor_id, patient_id
        self.used: list[str] = []
        self.read: list[str] = []  # episode ids returned to the model, for the ask's audit event

    @property
    def specs(self) -> list[ToolSpec]:
        return [SEARCH_MEMORY, PATIENT_HISTORY, RECORD_PATIENT_FACT] if self.patient_id else [SEARCH_MEMORY]

    def run(self, call: FunctionCall) -> FunctionResponse:
        if call.name not in {s.name for s in self.specs}:
            return FunctionResponse(call.name, {"error": "unknown tool"}, call.call_id)
        if call.name not in self.used:
            self.used.append(call.name)
        try:
            result = self._dispatch(call.name, call.args)
        except JarvisError as exc:
            logger.warning("tool %s failed (%s)", call.name, exc.code)
            result = {"error": exc.message}
        return FunctionResponse(call.name, result, call.call_id)

    def _dispatch(self, name: str, args: Mapping[str, Any]) -> dict[str, Any]:
        if name == "search_memory":
            query = args.get("query")
            if not isinstance(query, str) or not query.strip():
                return {"error": "query is required"}
            hits = self.memory.search(self.doctor_id, query, k=_bounded(args.get("k"), 5, 1, 10))
            self.read += [h.episode_id for h in hits]
            return {
                "results": [
                    {
                        "date": f"{h.created_at:%Y-%m-%d}",
                        "summary": h.summary,
                        "relevance": h.similarity,
                        "outcome": h.outcome,
                    }
                    for h in hits
                ]
            }
        assert self.patient_id is not None  # the patient tools are only offered with a patient
        if name == "patient_history":
            episodes = self.memory.history(
                self.doctor_id, self.patient_id, _bounded(args.get("limit"), 10, 1, 20)
            )
            self.read += [e.episode_id for e in episodes]
            return {
                "episodes": [
                    {"date": f"{e.created_at:%Y-%m-%d}", "summary": e.summary, "outcome": e.outcome}
                    for e in episodes
                ]
            }
        fact = self.memory.add_fact(
            self.doctor_id, self.patient_id, str(args.get("category", "")), str(args.get("text", ""))
        )
        return {"recorded": {"category": fact.category.value, "text": fact.text}}
