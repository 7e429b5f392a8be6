"""Context assembly within a token budget, most stable part first (DESIGN §6).

    1 static system instruction            never cut
    2 doctor's long-term summary, session milestones   capped at its share
    3 the patient's safety-critical facts  never cut
    4 retrieved episodes (date, relevance, outcome)    oldest-shown, then lowest-ranked dropped first
    5 the session's recent turns           oldest dropped first; the newest is truncated, never dropped
    6 the current question (+ checklist)   never cut

Model prefix caches hit only on identical prefixes, so the layout keeps what changes least in front:
the memories a session has already shown stay where they were, with the relevance they were shown
with ("pinned"), and newly retrieved ones are appended after them; when over their share the
oldest-shown half goes at once. The window of recent turns likewise starts at a multiple of
TURN_BLOCK, so it moves in blocks rather than on every turn. Consecutive prompts then share
everything up to the first new memory or the end of the turn window.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime

from jarvis.agent.instructions import CHECKLIST_INSTRUCTION, SYSTEM_INSTRUCTION
from jarvis.agent.models.base import Content
from jarvis.agent.tokens import TokenCounter
from jarvis.memory.types import PatientFact

TURN_BLOCK = 4


@dataclass(frozen=True, slots=True)
class MemoryItem:
    episode_id: str
    created_at: datetime
    summary: str
    similarity: float
    outcome: str | None


@dataclass(frozen=True, slots=True)
class Turn:
    question: str
    answer: str


@dataclass(frozen=True, slots=True)
class ContextInput:
    question: str
    doctor_summary: str | None = None
    session_milestones: str | None = None
    safety_facts: Sequence[PatientFact] = ()
    memories: Sequence[MemoryItem] = ()  # newly retrieved, best first
    turns: Sequence[Turn] = ()  # oldest first
    checklist_items: int = 1
    pinned: Sequence[MemoryItem] = ()  # shown earlier in this session, in the order first shown


@dataclass(frozen=True, slots=True)
class Budget:
    """Input-token budget and the shares of the cuttable parts (the rest is for parts 1, 3, 6).

    Memories get the larger share: they stay in place across a session, while the turn window
    moves, so a larger memory part means a longer prefix shared by consecutive prompts. Turns may
    also use what memories leave unused, up to both shares together. Measured over the 60 turns of
    bench/agent_bench.py (mean stable-prefix ratio): 0.59 with 0.40/0.25, 0.65 with 0.45/0.20,
    0.67 with 0.50/0.15; 0.45/0.20 still leaves the turn window at least a fifth of the budget."""

    total: int
    summary_share: float = 0.10
    memories_share: float = 0.45
    turns_share: float = 0.20


@dataclass(slots=True)
class ContextReport:
    tokens: dict[str, int] = field(default_factory=dict)
    dropped_memories: int = 0
    dropped_turns: int = 0
    truncated_messages: int = 0
    over_budget: bool = False  # the parts that are never cut exceed the budget on their own
    shown_memories: list[MemoryItem] = field(default_factory=list)  # in prompt order

    @property
    def estimated_total(self) -> int:
        return sum(self.tokens.values())

    @property
    def truncated(self) -> bool:
        return bool(self.dropped_memories or self.dropped_turns or self.truncated_messages)


def _facts_block(facts: Sequence[PatientFact]) -> str:
    if not facts:
        return "None recorded for this patient."
    return "\n".join(
        f"- {f.category.value.replace('_', ' ')}: {f.text} (recorded {f.recorded_at:%Y-%m-%d})" for f in facts
    )


def _memory_line(m: MemoryItem) -> str:
    outcome = f"; advice {m.outcome}" if m.outcome else ""
    return f"- [{m.created_at:%Y-%m-%d}] (relevance {m.similarity:.2f}{outcome}) {m.summary}"


def _memories_within(
    pinned: Sequence[MemoryItem], new: Sequence[MemoryItem], cap: int, counter: TokenCounter
) -> tuple[list[MemoryItem], int]:
    """Pinned memories (oldest-shown dropped first, in blocks) then new ones (lowest-ranked dropped
    first) within `cap` tokens; returns them in prompt order with their cost."""
    fresh: list[MemoryItem] = []
    used = 0
    for m in new:  # best first: the lowest-ranked are the ones that fall off
        c = counter.count(_memory_line(m))
        if used + c > cap:
            break
        fresh.append(m)
        used += c
    cost = [counter.count(_memory_line(m)) for m in pinned]
    start = 0
    if sum(cost) > cap - used:
        # Evict the older half at once rather than a few at a time: every eviction changes the
        # prompt from here on, so fewer, larger evictions keep more prompts' prefixes identical.
        start = max(len(pinned) // 2, TURN_BLOCK)
        while start < len(pinned) and sum(cost[start:]) > cap - used:
            start += TURN_BLOCK
    kept = list(pinned[start:])
    return kept + fresh, used + sum(cost[start:])


def _turns_window(turns: Sequence[Turn], budget: int, counter: TokenCounter) -> tuple[list[Turn], int, int]:
    """The newest turns that fit, starting at a block boundary; (window, dropped, truncated)."""
    cost = [counter.count(t.question) + counter.count(t.answer) for t in turns]
    for start in range(0, len(turns), TURN_BLOCK):
        if sum(cost[start:]) <= budget:
            return list(turns[start:]), start, 0
    # Not even the last block fits: keep the newest turns that do, then the newest alone, truncated.
    window: list[Turn] = []
    used = 0
    for turn, c in zip(reversed(turns), reversed(cost), strict=True):
        if used + c > budget:
            break
        window.insert(0, turn)
        used += c
    if window:
        return window, len(turns) - len(window), 0
    newest = turns[-1]
    half = max(budget // 2, 1)
    cut = Turn(counter.truncate(newest.question, half), counter.truncate(newest.answer, half))
    return [cut], len(turns) - 1, 1


def assemble(
    inp: ContextInput, budget: Budget, counter: TokenCounter
) -> tuple[str, list[Content], ContextReport]:
    """(system instruction, contents, report): the prompt of one ask, within the budget."""
    report = ContextReport()
    question = inp.question
    if inp.checklist_items > 1:
        question = f"{question}\n\n{CHECKLIST_INSTRUCTION.format(count=inp.checklist_items)}"
    facts = _facts_block(inp.safety_facts)
    fixed = counter.count(SYSTEM_INSTRUCTION) + counter.count(facts) + counter.count(question) + 40
    report.over_budget = fixed > budget.total
    free = max(budget.total - fixed, 0)

    summary_parts = [p for p in (inp.doctor_summary, inp.session_milestones) if p]
    summary = "\n\n".join(summary_parts)
    summary_cap = int(free * budget.summary_share)
    if summary and counter.count(summary) > summary_cap:
        summary = counter.truncate(summary, summary_cap) if summary_cap > 0 else ""
        report.truncated_messages += 1

    # Memories and turns share what the summary left, each up to its share; turns may use what
    # memories leave unused (and the other way round), so a quiet part does not waste the budget.
    left = free - counter.count(summary)
    memories_cap = min(int(free * budget.memories_share), left)
    shown, used = _memories_within(inp.pinned, inp.memories, memories_cap, counter)
    report.dropped_memories = len(inp.pinned) + len(inp.memories) - len(shown)
    report.shown_memories = shown
    turns_cap = max(left - used, 0)
    turns_cap = min(turns_cap, int(free * (budget.turns_share + budget.memories_share)) - used)
    window, report.dropped_turns, truncated = (
        _turns_window(inp.turns, max(turns_cap, 0), counter) if inp.turns else ([], 0, 0)
    )
    report.truncated_messages += truncated

    memories_block = "\n".join(_memory_line(m) for m in shown)
    context = (
        f"# Clinician's long-term summary and session milestones\n{summary or 'None yet.'}\n\n"
        f"# Safety-critical facts for this patient\n{facts}\n\n"
        f"# Relevant past interactions with this clinician\n{memories_block or 'None found.'}"
    )
    contents = [Content("user", context)]
    for turn in window:
        contents += [Content("user", turn.question), Content("model", turn.answer)]
    contents.append(Content("user", f"# Current question\n{question}"))
    report.tokens = {
        "system": counter.count(SYSTEM_INSTRUCTION),
        "summary": counter.count(summary),
        "safety_facts": counter.count(facts),
        "memories": counter.count(memories_block),
        "recent_turns": sum(counter.count(t.question) + counter.count(t.answer) for t in window),
        "question": counter.count(question),
    }
    rendered = counter.count(SYSTEM_INSTRUCTION) + sum(counter.count(c.text) for c in contents)
    report.tokens["framing"] = max(rendered - sum(report.tokens.values()), 0)  # headers, separators
    return SYSTEM_INSTRUCTION, contents, report
