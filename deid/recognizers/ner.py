"""Names and places found by the spaCy NER model, with the clinical false positives taken out.

The model runs once per text in the NLP engine (on the case-normalised text, same offsets); this
recognizer reads its entities from the NlpArtifacts, the way Presidio's SpacyRecognizer does.
"""

from __future__ import annotations

import re

from presidio_analyzer import EntityRecognizer, RecognizerResult
from presidio_analyzer.nlp_engine import NlpArtifacts

from deid.lexicon import Lexicon
from deid.recognizers.names import NOT_NAMES
from deid.types import LOCATION, NAME

# What follows an eponym: "Parkinson's disease", "Murphy sign", "Jackson-Pratt drain".
EPONYM_HEAD = re.compile(
    r"(?:['’]s?)?[\s-]*(?:disease|syndrome|sign|test|maneuver|manoeuvre|palsy|fracture|score|scale|criteria|"
    r"classification|triad|procedure|operation|repair|catheter|drain|tube|cyst|ulcer|node|nodes|pouch|"
    r"formula|lamp|reflex|phenomenon|disorder|lymphoma|sarcoma|tumou?r|esophagus|diverticulum|contracture|"
    r"neuroma|stain|fundoplication|anastomosis|bag|mask|retractor|forceps|ligament|duct|canal|gland|"
    r"cells?|bod(?:y|ies)|spots?|nodules|striae|murmur|respirations?|breathing|rhythm|block|waves?|coma|"
    r"encephalopathy|thyroiditis|esophagitis|arthritis|chorea|dementia|dystrophy|anomaly|deformity|"
    r"position|incision|line|valve|shunt|filter|stocking|splint|boot|collar|flap|graft|technique|"
    r"lesions?|infarct|aneurysm|hernia|paralysis|phenomena|ratio|index|grade|stage|system|method|"
    r"hemorrhage|ileus|type|variant)\b",
    re.IGNORECASE,
)
PLACE_LABELS = {"GPE": LOCATION, "LOC": LOCATION, "FAC": LOCATION}
FACILITY_WORDS = re.compile(
    r"\b(?:hospital|hosp|medical|clinic|health|healthcare|infirmary|nursing|rehab|hospice|pharmacy|"
    r"center|centre|institute|manor|care|labs?|associates|practice|group|home|services|university|college|school|inc|llc|corp|company|co)\b",
    re.IGNORECASE,
)


class SpacyNerRecognizer(EntityRecognizer):
    def __init__(self, lexicon: Lexicon) -> None:
        self.lexicon = lexicon
        super().__init__(supported_entities=[NAME, LOCATION], supported_language="en")

    def load(self) -> None:
        """The model lives in the NLP engine."""

    def analyze(
        self, text: str, entities: list[str], nlp_artifacts: NlpArtifacts | None = None
    ) -> list[RecognizerResult]:
        if nlp_artifacts is None:
            return []
        results: list[RecognizerResult] = []
        for ent in nlp_artifacts.entities:
            start, end = ent.start_char, ent.end_char
            label = ent.label_
            if label == "PERSON":
                span = self._trim_person(text, start, end)
                if span:
                    results.append(RecognizerResult(NAME, span[0], span[1], 0.85))
            elif label in PLACE_LABELS or (label == "ORG" and FACILITY_WORDS.search(text[start:end])):
                if self._is_place(text, start, end):
                    results.append(RecognizerResult(LOCATION, start, end, 0.75 if label != "ORG" else 0.6))
        return results

    def _trim_person(self, text: str, start: int, end: int) -> tuple[int, int] | None:
        """Drop titles and roles at the edges, then reject clinical words and eponyms."""
        words = list(re.finditer(r"[^\s]+", text[start:end]))
        while words and _strip(words[0].group()).lower() in _EDGE_WORDS:
            words.pop(0)
        while words and _strip(words[-1].group()).lower() in _EDGE_WORDS:
            words.pop()
        if not words:
            return None
        s, e = start + words[0].start(), start + words[-1].end()
        e = s + len(text[s:e].rstrip(".,;:)'’").removesuffix("'s").removesuffix("’s"))
        if any(c.isdigit() for c in text[s:e]):
            return None  # "BRCA1", "HER2": names carry no digits
        tokens = re.findall(r"[A-Za-z]+", text[s:e])
        if not tokens or all(self._not_a_name(t) for t in tokens):
            return None
        if EPONYM_HEAD.match(text, e) and any(
            t.lower() in self.lexicon.eponyms or self.lexicon.is_clinical(t) for t in tokens
        ):
            return None
        if re.match(r"['’]s?\b", text[e:]) and all(
            self.lexicon.is_clinical(t + "'s") or t.lower() in self.lexicon.eponyms for t in tokens
        ):
            return None  # "Crohn's", "Parkinson's" alone
        return (s, e) if s < e else None

    def _not_a_name(self, word: str) -> bool:
        low = word.lower()
        return (
            low in NOT_NAMES
            or len(word) < 2
            or (self.lexicon.is_clinical(low) and self.lexicon.name_likelihood(low) == 0)
            or (self.lexicon.zipf(low) >= 5.0 and not self.lexicon.is_census_name(low))
        )

    def _is_place(self, text: str, start: int, end: int) -> bool:
        phrase = re.sub(r"^(?:the)\s+", "", text[start:end].strip(), flags=re.IGNORECASE)
        words = re.findall(r"[A-Za-z]+", phrase)
        if not words or self.lexicon.is_place_word(phrase) or phrase.upper() in self.lexicon.state_abbrevs:
            return False
        return not all(w.lower() in NOT_NAMES or self.lexicon.is_clinical_term(w) for w in words)


_EDGE_WORDS = frozenset(
    "dr dr. mr mr. mrs mrs. ms ms. miss doctor prof husband wife son daughter mother father mom dad "
    "brother sister pt patient nurse rn np md pa per the".split()
)


def _strip(word: str) -> str:
    return word.strip(".,;:()'’\"")
