"""The offline responder: the default model when no Gemini key is configured.

Deterministic, no network, and labelled as what it is: it does not write clinical advice. It
reads the assembled context back to the clinician — the safety-critical facts on record and the
relevant past interactions, with their dates and outcomes — so that the whole loop (retrieval,
safety facts, budget, saving, outcomes) is usable and testable without a model.
"""

from __future__ import annotations

import re

from jarvis.agent.models.base import ModelReply, Prompt, Usage
from jarvis.agent.tokens import raw_estimate

MODEL_ID = "offline"
LABEL = "[Offline responder: no language model is configured, so no clinical advice is generated.]"
_SECTION = re.compile(r"^# (?P<title>.+)$\n(?P<body>(?:(?!^# ).*\n?)*)", re.MULTILINE)


def _sections(text: str) -> dict[str, str]:
    return {m.group("title").strip().lower(): m.group("body").strip() for m in _SECTION.finditer(text)}


class OfflineResponder:
    @property
    def model_id(self) -> str:
        return MODEL_ID

    def generate(self, prompt: Prompt) -> ModelReply:
        context = _sections(prompt.contents[0].text) if prompt.contents else {}
        question = _sections(prompt.contents[-1].text).get("current question", "") if prompt.contents else ""
        facts = context.get("safety-critical facts for this patient", "")
        memories = context.get("relevant past interactions with this clinician", "")
        lines = [LABEL, f"Question received: {question.splitlines()[0] if question else '(none)'}"]
        lines.append("Safety-critical facts on record for this patient:")
        lines.append(facts or "None recorded for this patient.")
        lines.append("Relevant past interactions:")
        lines.append(memories or "None found.")
        if "checklist" in question.lower():
            lines.append("Several questions were asked; each needs a clinician's answer.")
        text = "\n".join(lines)
        prompt_tokens = raw_estimate(prompt.system_instruction) + sum(
            raw_estimate(c.text) for c in prompt.contents
        )
        return ModelReply(
            text=text,
            usage=Usage(input_tokens=prompt_tokens, output_tokens=raw_estimate(text)),
            model=MODEL_ID,
            finish_reason="STOP",
        )
