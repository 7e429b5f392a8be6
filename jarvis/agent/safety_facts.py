"""Safety-critical facts stated by the clinician: allergies, adverse reactions, contraindications,
current medications. Extracted from the de-identified question of each exchange (never from the
model's answer: advice is not a fact about the patient) and kept per doctor and patient.

Patterns, not a model: a missed fact can still be recorded explicitly (tool or API), and an
extracted one is shown verbatim with its source, so a wrong extraction is visible, not silent.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from jarvis.memory.types import FactCategory

_END = r"(?=[.;,\n)]|\s+(?:and|but|since|because|so)\b|$)"
_THING = r"(?P<what>[A-Za-z][\w\-/]*(?:\s+[A-Za-z][\w\-/]*)?)"
_WORD = r"(?P<what>[A-Za-z][\w\-/]+)"
_REACTION = r"(?:\s*(?:[-—–:(]|with|causing|causes|gave|giving)\s*(?P<reaction>[A-Za-z][\w\- ]{1,30}?))?"
_DOSE = r"\d+(?:\.\d+)?\s*(?:mg|mcg|µg|g|units?|iu|ml|mmol|meq)\b(?:\s*/\s*\w+)?"
_FREQ = r"(?:\s+(?:po|iv|im|sc|sq|sl|pr|inh|daily|bid|tid|qid|qd|qhs|qam|qpm|prn|weekly|nightly|q\d+h|once daily|twice daily|at night|in the morning))*"
_MED_CUE = re.compile(r"\b(?:on|takes|taking|started|continues?|meds?|medications?|home meds)\b", re.I)
_MED = re.compile(rf"\b(?P<what>[A-Za-z][\w\-]{{2,30}}\s+{_DOSE}{_FREQ})", re.I)
_SENTENCE = re.compile(r"[^.;\n]+")
_ALLERGY_LIST = re.compile(r"\ballerg(?:y|ies)\s*:\s*(?P<list>[^.;\n]+)", re.I)

_PATTERNS: list[tuple[FactCategory, re.Pattern[str]]] = [
    (
        FactCategory.ALLERGY,
        re.compile(rf"\b(?:allergic|allergy|allergies)\s+to\s+{_THING}{_REACTION}{_END}", re.I),
    ),
    (FactCategory.ALLERGY, re.compile(rf"\b{_WORD}\s+allergy{_REACTION}{_END}", re.I)),
    (FactCategory.ALLERGY, re.compile(r"\b(?P<what>NKDA|no known (?:drug )?allergies)\b", re.I)),
    (
        FactCategory.ADVERSE_REACTION,
        re.compile(
            rf"\b(?:had|developed|got|reaction to|intolerant (?:of|to))\s+(?:an?\s+)?(?P<reaction>[\w\- ]{{2,30}}?)\s+(?:on|with|after|from|to)\s+{_WORD}",
            re.I,
        ),
    ),
    (FactCategory.CONTRAINDICATION, re.compile(rf"\b{_WORD}\s+(?:is|are)\s+contraindicated", re.I)),
    (
        FactCategory.CONTRAINDICATION,
        re.compile(rf"\bcontraindicat(?:ed|ions?)\s*(?::|to|for)\s+{_THING}{_END}", re.I),
    ),
]
_ADVERSE_WORDS = re.compile(
    r"anaphylaxis|angioedema|rash|hives|urticaria|swelling|sjs|stevens|bleed|bleeding|hyperkal|hypoglyc|"
    r"qt|delirium|confusion|nausea|vomiting|diarrh|cough|aki|kidney|neutropenia|reaction|intoleran|myalgia|"
    r"rhabdo|seizure|dystonia|serotonin",
    re.I,
)
_STOP_WORDS = {"the", "a", "an", "any", "no", "none", "it", "this", "that", "what", "which"}


@dataclass(frozen=True, slots=True)
class ExtractedFact:
    category: FactCategory
    text: str


def _clean(value: str | None) -> str:
    return " ".join((value or "").split()).strip(" ,-:")


def extract_safety_facts(text: str) -> list[ExtractedFact]:
    """Facts stated in a de-identified clinician's text, in order, without duplicates."""
    found: list[ExtractedFact] = []
    for category, pattern in _PATTERNS:
        for match in pattern.finditer(text):
            what = _clean(match.group("what"))
            reaction = _clean(match.groupdict().get("reaction"))
            if not what or what.lower() in _STOP_WORDS or "[" in what:
                continue
            if category is FactCategory.ADVERSE_REACTION and not _ADVERSE_WORDS.search(reaction):
                continue
            fact_text = f"{what}: {reaction}" if reaction else what
            if category is FactCategory.ALLERGY and what.lower().startswith(("nkda", "no known")):
                fact_text = "no known drug allergies"
            _add(found, ExtractedFact(category, fact_text))
    for match in _ALLERGY_LIST.finditer(text):
        for item in re.split(r",|\band\b", match.group("list")):
            if (what := _clean(item)) and what.lower() not in _STOP_WORDS and "[" not in what:
                _add(found, ExtractedFact(FactCategory.ALLERGY, what))
    for sentence in _SENTENCE.finditer(text):
        if _MED_CUE.search(sentence.group(0)):
            for match in _MED.finditer(sentence.group(0)):
                _add(found, ExtractedFact(FactCategory.MEDICATION, _clean(match.group("what"))))
    return found


def _add(found: list[ExtractedFact], fact: ExtractedFact) -> None:
    if all(f.text.lower() != fact.text.lower() for f in found):
        found.append(fact)
