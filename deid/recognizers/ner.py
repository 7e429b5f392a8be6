"""Names and places found by the spaCy NER model, with the clinical false positives taken out.

The model runs once per text in the NLP engine (on the case-normalised text, same offsets); this
recognizer reads its entities from the NlpArtifacts, the way Presidio's SpacyRecognizer does.
"""

from __future__ import annotations

import re
from typing import ClassVar

from presidio_analyzer import RecognizerResult
from presidio_analyzer.nlp_engine import NlpArtifacts

from deid.recognizers.base import LexiconRecognizer
from deid.recognizers.care_places import SPECIALTY
from deid.recognizers.facilities import CONNECTORS, GENERIC, FacilityRecognizer
from deid.recognizers.name_words import ENGLISH_ENDINGS, NOT_NAMES
from deid.text import Case, case_at
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
    r"hemorrhage|ileus|type|variant|rules?|risk|classification)\b",
    re.IGNORECASE,
)
PLACE_LABELS = {"GPE": LOCATION, "LOC": LOCATION, "FAC": LOCATION}
# What puts an organisation in its place: a preposition of place, or a referral or transfer to it.
ORG_CUE = re.compile(
    r"\b(?:at|via|from|employer|employed\s+by|works?\s+for|referral|referred\s+to|sent\s+to|"
    r"transferred\s+to|followed\s+by)\s*:?\s*(?:the\s+)?$",
    re.IGNORECASE,
)
FACILITY_WORDS = re.compile(
    r"\b(?:hospital|hosp|medical|clinic|health|healthcare|infirmary|nursing|rehab|hospice|pharmacy|"
    r"center|centre|institute|manor|care|labs?|associates|practice|group|home|services|university|college|school|inc|llc|corp|company|co)\b",
    re.IGNORECASE,
)


class SpacyNerRecognizer(LexiconRecognizer):
    ENTITIES: ClassVar[tuple[str, ...]] = (
        NAME,
        LOCATION,
    )

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
            elif label in PLACE_LABELS or (label == "ORG" and self._org_is_place(text, start, end)):
                if self._is_place(text, start, end, label):
                    results.append(RecognizerResult(LOCATION, start, end, 0.75 if label != "ORG" else 0.6))
        return results

    def accept(self, text: str, start: int, end: int, entity: str) -> tuple[int, int] | None:
        """The span of a name or a place that another model (deid.tagger) found, trimmed as this
        recognizer trims the NER model's, or None when it is a clinical look-alike. A place of
        letters is tested as a phrase only: the tagger has read its words already (in capitals,
        "RAPID CITY"; by acronym, "OHSU"), which this recognizer's word test is too strict for."""
        if entity == NAME:
            return self._trim_person(text, start, end)
        if re.search(r"\d", text[start:end]) and not re.search(r"[^\W\d_]{2}", text[start:end]):
            return (start, end)  # a ZIP code, a room's number ("318-A")
        if self._names_a_place(text, start, end) and self._may_name_a_place(text, start, end, "LOC"):
            return (start, end)
        return None

    def _names_a_place(self, text: str, start: int, end: int) -> bool:
        """Whether a run of words another model read as a place can name one: not a kind of place
        alone ("the Clinic", "LOCAL MEDICAL CENTER", "the Area Agency on Aging", "Heart Hospital"),
        no drug or clinical abbreviation in lower case in it ("2nd rd of chemo"), not one clinical
        word qualifying the word after it ("Beach chair position")."""
        words = re.findall(r"[^\W\d_]+(?:['’][^\W\d_]+)?", text[start:end])
        rest = list(words)
        while rest and rest[0].lower() in QUALIFIERS:
            rest.pop(0)
        if not rest or FacilityRecognizer.HEAD.fullmatch(" ".join(rest)):
            return False
        if (
            len(rest) == 2
            and self._clinical_not_eponym(rest[0])
            and FacilityRecognizer.HEAD.fullmatch(rest[1])
        ):
            return False  # a kind of care and a kind of place: "Heart Hospital", "Cancer Center"
        if any(w.islower() and self.lexicon.is_clinical_term(w) for w in words):
            return False
        return not (
            len(words) == 1 and self.lexicon.is_clinical(words[0]) and re.match(r" [a-z]", text[end:])
        )

    def _clinical_not_eponym(self, word: str) -> bool:
        # an eponym is a person's name first, and places are named after people ("Pemberton Field");
        # a town is a place whatever else its name means ("Sugar Land")
        low = word.lower()
        return (
            self.lexicon.is_clinical(low)
            and low not in self.lexicon.eponyms
            and not self.lexicon.is_town(low)
        )

    def _org_is_place(self, text: str, start: int, end: int) -> bool:
        """An organisation is a place of care, work or study by its words ("Lahey Clinic") or where
        the text puts it: "listed at Beth Israel Deaconess", "referral: Care Dimensions"."""
        return (
            FACILITY_WORDS.search(text, start, end) is not None
            or ORG_CUE.search(text, max(0, start - 40), start) is not None
        )

    def _trim_person(self, text: str, start: int, end: int) -> tuple[int, int] | None:
        """Drop titles and roles at the edges, then reject clinical words and eponyms."""
        words = list(re.finditer(r"[^\s]+", text[start:end]))
        while words and _strip(words[0].group()).lower() in _EDGE_WORDS:
            words.pop(0)
        while words and (
            _strip(words[-1].group()).lower() in _EDGE_WORDS
            or not any(c.isalpha() for c in words[-1].group())
        ):
            words.pop()  # a role, or no word at all: "angela brown ->"
        if not words:
            return None
        s, e = start + words[0].start(), start + words[-1].end()
        e = s + len(text[s:e].rstrip(".,;:)'’").removesuffix("'s").removesuffix("’s"))
        if any(c.isdigit() for c in text[s:e]):
            return None  # "BRCA1", "HER2": names carry no digits
        tokens = re.findall(r"[^\W\d_]+", text[s:e])
        case = case_at(text, s)
        if not any(self._looks_like_name(t, case) for t in tokens) or re.match(r"-[^\W\d_]", text[e:]):
            return None  # no word of it is name-like; or part of a compound: "Amp-sulbactam"
        if EPONYM_HEAD.match(text, e) and any(
            t.lower() in self.lexicon.eponyms or self.lexicon.is_clinical(t) for t in tokens
        ):
            return None
        if re.match(r"['’]s?\b", text[e:]) and all(
            self.lexicon.is_clinical(t + "'s") or t.lower() in self.lexicon.eponyms for t in tokens
        ):
            return None  # "Crohn's", "Parkinson's" alone
        return (s, e) if s < e else None

    def _looks_like_name(self, word: str, case: Case) -> bool:
        """Evidence that a word of a PERSON entity is a name: the model alone mistakes clinical
        acronyms ("PMH", "RVP"), lower-case words ("nomogram") and medical terms for names."""
        low = word.lower()
        lex = self.lexicon
        likely = lex.name_likelihood(low)
        if low in NOT_NAMES or len(word) < 2 or (lex.is_clinical(low) and likely == 0):
            return False
        if SPECIALTY.search(low) and likely == 0:
            return False  # "Discussed with Neurology"
        if lex.zipf(low) >= 5.0 and not lex.is_census_name(low):
            return False
        if case is Case.MIXED:
            if not word[0].isupper():
                return False
            return likely > 0 or not (word.isupper() and len(word) <= 6)
        if lex.is_first_name(low) and lex.zipf(low) < 5.5 and not lex.is_clinical_term(low):
            return True  # "GEORGE", "april": the model saw a name where case could not help it
        return likely > 0 or (lex.zipf(low) < 3.0 and not ENGLISH_ENDINGS.search(low))

    def _is_place(self, text: str, start: int, end: int, label: str) -> bool:
        if not self._may_name_a_place(text, start, end, label):
            return False
        words = re.findall(r"[^\W\d_]+", text[start:end])
        case = case_at(text, start)
        return any(self._looks_like_place(w, case) for w in words)

    def _may_name_a_place(self, text: str, start: int, end: int, label: str) -> bool:
        """Not a state or a country, a heading, a hospital's service or an eponymous scale."""
        phrase = re.sub(r"^(?:the)\s+", "", text[start:end].strip(), flags=re.IGNORECASE)
        words = re.findall(r"[^\W\d_]+", phrase)
        if not words or self.lexicon.is_place_word(phrase) or phrase.upper() in self.lexicon.state_abbrevs:
            return False
        if label == "ORG" and NOTE_TITLE.search(phrase):
            return False  # "Pediatric Hospital Medicine Discharge Summary": a heading
        if all(SPECIALTY.search(w.lower()) for w in words):
            return False  # a hospital's service: "referred to Nephrology"
        return not (
            any(w.lower() in self.lexicon.eponyms for w in words)
            and re.match(r"\s*(?:\d|[IV]+\b)|" + EPONYM_HEAD.pattern, text[end:], re.IGNORECASE)
        )  # "Paris 0-IIa", "Ottawa rules", "Garden IV": eponymous scales

    def _looks_like_place(self, word: str, case: Case) -> bool:
        lex = self.lexicon
        low = word.lower()
        if case is not Case.UPPER and word.isupper() and len(word) <= 5:
            # where the writer does not write in capitals, a short word in them is an abbreviation
            # ("LIMA to LAD"), or a hospital's by its shape ("UCH")
            return FacilityRecognizer.HOSPITAL_ACRONYM.match(word) is not None
        if lex.is_town(low):
            return True
        if low in NOT_NAMES or lex.is_clinical(low) or lex.is_clinical_term(low):
            return False
        if case is Case.MIXED:
            return word[0].isupper()
        return lex.zipf(low) < 4.5 or lex.is_census_name(low)


_EDGE_WORDS = frozenset(
    "dr dr. mr mr. mrs mrs. ms ms. miss doctor prof husband wife son daughter mother father mom dad "
    "brother sister pt patient nurse rn np md pa per the".split()
)


# Words before a kind of place that do not name it: "the", "local", "area" ("the area hospital").
QUALIFIERS = GENERIC | CONNECTORS | {"area"}

NOTE_TITLE = re.compile(r"\b(?:note|summary|visit|consult|report|h&p|progress|admission)\b", re.IGNORECASE)


def _strip(word: str) -> str:
    return word.strip(".,;:()'’\"")
