"""Context assembly: DESIGN §6 order, shares, what is cut first, what is never cut."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from jarvis.agent.context import TURN_BLOCK, Budget, ContextInput, MemoryItem, Turn, assemble
from jarvis.agent.instructions import SYSTEM_INSTRUCTION
from jarvis.agent.tokens import TokenCounter
from jarvis.memory.types import FactCategory, PatientFact

T0 = datetime(2025, 7, 1, tzinfo=UTC)
FACT = PatientFact("f1", FactCategory.ALLERGY, "penicillin: anaphylaxis", T0, None)


def memories(n: int, words: int = 30) -> list[MemoryItem]:
    return [
        MemoryItem(f"ep{i}", T0 + timedelta(days=i), f"memory {i} " + "detail " * words, 0.9 - i / 100, None)
        for i in range(n)
    ]


def turns(n: int, words: int = 40) -> list[Turn]:
    return [Turn(f"question {i} " + "word " * words, f"answer {i} " + "word " * words) for i in range(n)]


def rendered_tokens(system: str, contents: list, counter: TokenCounter) -> int:
    return counter.count(system) + sum(counter.count(c.text) for c in contents)


def test_parts_come_in_the_design_order() -> None:
    counter = TokenCounter()
    system, contents, _ = assemble(
        ContextInput("current q?", "DOCTOR-SUMMARY", "SESSION-MILESTONES", [FACT], memories(2), turns(2)),
        Budget(6000),
        counter,
    )
    assert system == SYSTEM_INSTRUCTION
    context = contents[0].text
    order = [context.index(x) for x in ("DOCTOR-SUMMARY", "SESSION-MILESTONES", "penicillin", "memory 0")]
    assert order == sorted(order)
    assert [c.role for c in contents[1:]] == ["user", "model", "user", "model", "user"]
    assert contents[1].text.startswith("question 0") and contents[-1].text.endswith("current q?")


def test_over_budget_cuts_old_turns_and_low_ranked_memories_but_never_facts_or_question() -> None:
    counter = TokenCounter()
    system, contents, report = assemble(
        ContextInput("current q?", None, None, [FACT], memories(20), turns(30)), Budget(2500), counter
    )
    text = "\n".join(c.text for c in contents)
    assert rendered_tokens(system, contents, counter) <= 2500
    assert report.dropped_turns > 0 and report.dropped_memories > 0 and report.truncated
    assert "penicillin: anaphylaxis" in text and text.endswith("current q?")
    assert "question 29" in text  # the newest turn stays
    assert "memory 0 " in text and "memory 19 " not in text  # the best-ranked memory stays, the worst goes


def test_a_single_oversized_turn_is_truncated_not_dropped() -> None:
    counter = TokenCounter()
    huge = [Turn("the latest question " + "blah " * 3000, "its answer " + "blah " * 3000)]
    system, contents, report = assemble(ContextInput("q?", turns=huge), Budget(2000), counter)
    assert report.truncated_messages == 1 and report.dropped_turns == 0
    assert "the latest question" in contents[1].text and "[…truncated]" in contents[1].text
    assert rendered_tokens(system, contents, counter) <= 2000


def test_never_cut_parts_are_kept_even_over_budget() -> None:
    counter = TokenCounter()
    many_facts = [
        PatientFact(f"f{i}", FactCategory.MEDICATION, f"drug{i} 5 mg daily " * 20, T0, None)
        for i in range(60)
    ]
    _, contents, report = assemble(
        ContextInput("q?", facts := None or "s", None, many_facts), Budget(1000), counter
    )
    assert report.over_budget
    assert all(f"drug{i} " in contents[0].text for i in range(60))
    assert contents[-1].text.endswith("q?") and facts == "s"


def test_the_turn_window_moves_in_blocks_so_prompts_share_their_start() -> None:
    counter = TokenCounter()
    history = turns(40)
    starts = []
    for n in range(20, 40):
        _, contents, report = assemble(ContextInput("q?", turns=history[:n]), Budget(3000), counter)
        starts.append(report.dropped_turns)
    assert all(s % TURN_BLOCK == 0 for s in starts)
    assert len(set(starts)) < len(starts) // 2  # the start stays put for several turns at a time


def test_memories_shown_earlier_stay_in_place_and_new_ones_are_appended() -> None:
    counter = TokenCounter()
    first_set = memories(3)
    _, first, report = assemble(ContextInput("q1?", memories=first_set), Budget(6000), counter)
    newcomer = MemoryItem("new", T0, "a newly relevant memory", 0.95, None)
    # Next turn: a different ranking, a new best memory; what was shown before keeps its place.
    _, second, _ = assemble(
        ContextInput("q2?", memories=[newcomer], pinned=report.shown_memories), Budget(6000), counter
    )
    old_block = first[0].text.split("# Relevant past interactions with this clinician\n")[1]
    new_block = second[0].text.split("# Relevant past interactions with this clinician\n")[1]
    assert new_block.startswith(old_block) and new_block.endswith("a newly relevant memory")


def test_over_their_share_the_oldest_shown_half_of_the_memories_goes_at_once() -> None:
    counter = TokenCounter()
    pinned = memories(12, words=60)
    fresh = MemoryItem("fresh", T0, "the newly retrieved memory", 0.9, None)
    _, _, report = assemble(ContextInput("q?", memories=[fresh], pinned=pinned), Budget(3000), counter)
    kept_pinned = [m for m in report.shown_memories if m in pinned]
    dropped = len(pinned) - len(kept_pinned)
    assert dropped >= len(pinned) // 2 and kept_pinned == pinned[dropped:]
    assert report.shown_memories[-1] == fresh  # the freshly retrieved one is kept
