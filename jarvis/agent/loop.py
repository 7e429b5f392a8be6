"""The agent loop: one question, end to end (DESIGN §1).

de-identify -> retrieve -> safety facts -> assemble the context -> model (+ tool rounds) -> save ->
extract safety facts -> refresh summaries -> answer.

Degradation: when the vector index or the embedder is down, the answer is given without retrieved
memory and marked `degraded`; the record store (safety facts, recent turns) is required — an answer
about a treatment without the patient's allergies is worse than no answer. The model being down is
an UnavailableError and nothing is saved. With memory switched off there is no retrieval and no saving.
"""

from __future__ import annotations

import logging
import secrets
from concurrent.futures import ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from datetime import UTC, datetime

from deid import Deidentifier, DeidError
from jarvis.agent.context import Budget, ContextInput, ContextReport, MemoryItem, Turn, assemble
from jarvis.agent.instructions import count_questions
from jarvis.agent.models.base import ChatModel, Content, ModelReply, Prompt, Usage
from jarvis.agent.models.offline import MODEL_ID as OFFLINE
from jarvis.agent.safety_facts import ExtractedFact, extract_safety_facts
from jarvis.agent.summaries import Summaries
from jarvis.agent.tokens import TokenCounter, raw_estimate
from jarvis.agent.tools import ToolBox
from jarvis.errors import DeidentificationFailed, JarvisError, UnavailableError
from jarvis.memory import validation
from jarvis.memory.records.tables import EpisodeRow
from jarvis.memory.retrieval import aware
from jarvis.memory.service import Clean, MemoryService
from jarvis.memory.text import extractive_summary
from jarvis.memory.types import SAFETY_CATEGORIES, EpisodeDraft, PatientFact

logger = logging.getLogger(__name__)

RECENT_TURNS_LOADED = 40
PATIENT_FIRST = 3  # of the k memories, up to this many are the patient's own


@dataclass(frozen=True, slots=True)
class AgentConfig:
    budget: Budget
    max_output_tokens: int = 1024
    checklist_output_tokens: int = 2048
    max_tool_rounds: int = 3
    temperature: float = 0.2
    k: int = 5
    min_similarity: float = 0.25
    summary_every: int = 25


@dataclass(frozen=True, slots=True)
class AskRequest:
    doctor_id: str
    query: str
    patient_id: str | None = None
    patient_name: str | None = None
    session_id: str | None = None
    doctor_name: str | None = None


@dataclass(slots=True)
class AskResult:
    answer: str
    episode_id: str | None
    session_id: str
    memories: list[MemoryItem]
    safety_facts: list[PatientFact]
    degraded: bool
    model: str
    usage: dict[str, object] = field(default_factory=dict)
    tools_used: list[str] = field(default_factory=list)
    tool_reads: list[str] = field(default_factory=list)  # episode ids the model's tools read


class Agent:
    def __init__(
        self, *, memory: MemoryService | None, deid: Deidentifier, model: ChatModel, config: AgentConfig
    ) -> None:
        self.memory, self.deid, self.model, self.config = memory, deid, model, config
        self.tokens = TokenCounter()
        self.summaries = Summaries(memory.store, model, every=config.summary_every) if memory else None
        self._readers = ThreadPoolExecutor(max_workers=4, thread_name_prefix="agent-context")

    def ask(self, request: AskRequest) -> AskResult:
        validation.doctor_id(request.doctor_id)
        limit = self.memory.limits.max_query_chars if self.memory else 8_000
        validation.text(request.query, "query", limit)
        session_id = (
            validation.session_id(request.session_id)
            if request.session_id
            else f"ses_{secrets.token_urlsafe(12)}"
        )
        names = tuple(n for n in (request.patient_name, request.doctor_name) if n and n.strip())
        try:
            question = self.deid.deidentify(request.query, known_names=names).text
        except DeidError:
            raise DeidentificationFailed("de-identification failed; nothing was sent or stored") from None

        # The record-store reads of the context do not depend on retrieval: they run alongside it
        # (embedding, Chroma and SQLite all release the GIL), which takes them off the ask's latency.
        context = self._readers.submit(self._load_context, request, session_id)
        try:
            memories, degraded = self._retrieve(request, question)
        except BaseException:
            wait([context])  # no reader outlives its ask
            raise
        facts, turns, doctor_summary, milestones, pinned = context.result()
        # Facts stated in this very question count at once (they are stored after the save).
        stated = extract_safety_facts(question) if request.patient_id else []
        known = {(f.category, f.text.lower()) for f in facts}
        facts += [
            PatientFact("", f.category, f.text, _now(), None)
            for f in stated
            if (f.category, f.text.lower()) not in known
        ]
        system, contents, report = assemble(
            ContextInput(
                question=question,
                doctor_summary=doctor_summary,
                session_milestones=milestones,
                safety_facts=facts,
                memories=[m for m in memories if m.episode_id not in {p.episode_id for p in pinned}],
                pinned=pinned,
                turns=turns,
                checklist_items=count_questions(question),
            ),
            self.config.budget,
            self.tokens,
        )
        toolbox = (
            ToolBox(self.memory, request.doctor_id, request.patient_id)
            if self.memory and not degraded
            else None
        )
        checklist = count_questions(question) > 1
        reply, usage, rounds = self._call_model(system, contents, toolbox, checklist)
        self._reconcile(system, contents, usage)

        episode_id = None
        if self.memory is not None:
            episode_id, degraded = self._save(
                request, session_id, question, reply, toolbox, degraded, report.shown_memories
            )
            if episode_id is not None:
                try:
                    self._complete(request, session_id, episode_id, stated)
                except JarvisError:
                    # The ask fails (the caller sees an error): it must not leave its episode saved.
                    self.memory.undo_save(request.doctor_id, [episode_id])
                    raise
        return AskResult(
            answer=reply.text,
            episode_id=episode_id,
            session_id=session_id,
            memories=report.shown_memories,
            safety_facts=facts,
            degraded=degraded,
            model=reply.model or self.model.model_id,
            usage=_usage(usage, report, rounds, self.config.budget.total),
            tools_used=list(toolbox.used) if toolbox else [],
            tool_reads=list(toolbox.read) if toolbox else [],
        )

    def _retrieve(self, request: AskRequest, question: str) -> tuple[list[MemoryItem], bool]:
        if self.memory is None:
            return [], False
        refs = (
            [r.ref for r in self.memory.pseudonyms.refs_for(request.patient_id)]
            if request.patient_id
            else None
        )
        retriever, k = self.memory.retriever, self.config.k
        try:
            vector = self.memory.embedder.embed_query(question)
            if refs:
                # The patient's own most relevant episodes come first, whatever their similarity:
                # "what did we discuss about this patient?" is similar to nothing in particular.
                hits, first = retriever.search_with_patient(
                    request.doctor_id,
                    question,
                    refs,
                    k=k,
                    patient_k=PATIENT_FIRST,
                    min_similarity=self.config.min_similarity,
                    vector=vector,
                )
                seen = {h.episode_id for h in first}
                hits = (first + [h for h in hits if h.episode_id not in seen])[:k]
            else:
                hits = retriever.search(
                    request.doctor_id, question, k=k, min_similarity=self.config.min_similarity, vector=vector
                )
        except UnavailableError as exc:
            logger.warning("retrieval unavailable (%s); answering without memory", exc.code)
            return [], True
        items = [
            MemoryItem(
                h.episode_id, h.created_at, h.summary, h.similarity, h.outcome.value if h.outcome else None
            )
            for h in hits
        ]
        return items, False

    def _load_context(
        self, request: AskRequest, session_id: str
    ) -> tuple[list[PatientFact], list[Turn], str | None, str | None, list[MemoryItem]]:
        if self.memory is None or self.summaries is None:
            return [], [], None, None, []
        facts = []
        if request.patient_id:
            facts = [
                f
                for f in self.memory.facts(request.doctor_id, request.patient_id)
                if f.category in SAFETY_CATEGORIES
            ]
        rows = self.memory.store.session_turns(request.doctor_id, session_id, RECENT_TURNS_LOADED)
        turns = [Turn(r.query_deid, r.response_deid) for r in rows]
        doctor_summary, milestones = self.summaries.current(request.doctor_id, session_id)
        return facts, turns, doctor_summary, milestones, self._pinned(request.doctor_id, rows)

    def _pinned(self, doctor_id: str, rows: list[EpisodeRow]) -> list[MemoryItem]:
        """The memories the session's last prompt showed, in that order and with the relevance they
        were shown with, minus any deleted since: they stay put so the prompt prefix stays stable."""
        assert self.memory is not None
        shown = [(str(e), float(sim)) for e, sim in (rows[-1].memories_used or [])] if rows else []
        found = self.memory.store.by_ids(doctor_id, [e for e, _ in shown])
        return [
            MemoryItem(e, aware(found[e].created_at), found[e].summary, sim, found[e].outcome)
            for e, sim in shown
            if e in found
        ]

    def _call_model(
        self, system: str, contents: list[Content], toolbox: ToolBox | None, checklist: bool
    ) -> tuple[ModelReply, Usage, int]:
        max_tokens = self.config.checklist_output_tokens if checklist else self.config.max_output_tokens
        tools = toolbox.specs if toolbox else []
        usage, rounds = Usage(), 0
        while True:
            reply = self.model.generate(
                Prompt(
                    system,
                    list(contents),
                    tools,
                    max_output_tokens=max_tokens,
                    temperature=self.config.temperature,
                )
            )
            usage = usage + reply.usage
            if not reply.function_calls or toolbox is None or rounds >= self.config.max_tool_rounds:
                return reply, usage, rounds
            rounds += 1
            contents.append(Content("model", reply.text, function_calls=reply.function_calls))
            contents.append(
                Content("user", function_responses=tuple(toolbox.run(c) for c in reply.function_calls))
            )

    def _reconcile(self, system: str, contents: list[Content], usage: Usage) -> None:
        if usage.input_tokens and self.model.model_id != OFFLINE:
            self.tokens.reconcile(
                raw_estimate(system) + sum(raw_estimate(c.text) for c in contents), usage.input_tokens
            )

    def _save(
        self,
        request: AskRequest,
        session_id: str,
        question: str,
        reply: ModelReply,
        toolbox: ToolBox | None,
        degraded: bool,
        shown: list[MemoryItem],
    ) -> tuple[str | None, bool]:
        assert self.memory is not None and self.summaries is not None
        offline = reply.model == OFFLINE
        # The offline responder only reads the de-identified context back: its text is already clean
        # and says nothing worth summarising, so the summary is the question's.
        summary = f"Q: {extractive_summary(' '.join(question.split()), '')[3:]}" if offline else None
        draft = EpisodeDraft(
            query=request.query,
            response=reply.text or "(no answer)",
            summary=summary,
            patient_id=request.patient_id,
            patient_name=request.patient_name,
            session_id=session_id,
            tools_used=tuple(toolbox.used) if toolbox else (),
            memories_used=tuple((m.episode_id, m.similarity) for m in shown),
        )
        clean = Clean(query=question, response=draft.response if offline else None, summary=summary)
        try:
            episode_id = self.memory.save(
                request.doctor_id, draft, doctor_name=request.doctor_name, already_clean=clean
            )
        except UnavailableError as exc:
            logger.warning("episode not saved (%s); answer returned degraded", exc.code)
            return None, True
        return episode_id, degraded

    def _complete(
        self, request: AskRequest, session_id: str, episode_id: str, stated: list[ExtractedFact]
    ) -> None:
        """After the save: record the safety facts stated in the question, refresh the summaries."""
        assert self.memory is not None and self.summaries is not None
        if request.patient_id:
            for fact in stated:
                self.memory.add_fact(
                    request.doctor_id,
                    request.patient_id,
                    fact.category,
                    fact.text,
                    source_episode_id=episode_id,
                )
        self.summaries.refresh(request.doctor_id, session_id)


def _now() -> datetime:
    return datetime.now(UTC)


def _usage(usage: Usage, report: ContextReport, rounds: int, budget: int) -> dict[str, object]:
    return {
        "input_tokens": usage.input_tokens,
        "output_tokens": usage.output_tokens,
        "cached_tokens": usage.cached_tokens,
        "estimated_input_tokens": report.estimated_total,
        "budget_tokens": budget,
        "truncated": report.truncated,
        "dropped_memories": report.dropped_memories,
        "dropped_turns": report.dropped_turns,
        "truncated_messages": report.truncated_messages,
        "tool_rounds": rounds,
    }
