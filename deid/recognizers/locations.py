"""Geography smaller than a state (Safe Harbor B): street addresses, cities, ZIP codes, hospitals,
clinics, wards, rooms and beds. States and countries are kept (Safe Harbor allows them).
"""

from __future__ import annotations

import re
from typing import ClassVar

from presidio_analyzer import EntityRecognizer, RecognizerResult
from presidio_analyzer.nlp_engine import NlpArtifacts

from deid.lexicon import Lexicon
from deid.recognizers.base import RegexRecognizer
from deid.recognizers.names import NOT_NAMES
from deid.text import Case, Token, tokenize
from deid.types import LOCATION

STREET_SUFFIX = (
    r"(?:street|st|avenue|ave|road|rd|boulevard|blvd|lane|ln|drive|dr|court|ct|way|place|pl|terrace|ter|"
    r"parkway|pkwy|highway|hwy|circle|cir|square|sq|trail|trl|turnpike|tpke|row|path|alley|crescent|"
    r"close|plaza|heights|hts|commons|green|landing|pike|run|walk|wharf|park)"
)
UNIT = r"(?:,?\s*(?:apt|apartment|unit|suite|ste|#|fl|floor|rm|room|bldg|building)\.?\s*#?\s*[A-Z0-9-]+)?"
STATE_WORDS = "|".join(
    [
        r"A[LKZR]|C[AOT]|D[EC]|FL|GA|HI|I[DLNA]|K[SY]|LA|M[EDAINSOT]|N[EVHJMYCD]|O[HKR]|PA|RI|S[CD]|T[NX]|UT|V[TA]|W[AVIY]|PR"
    ]
)
FACILITY_SUFFIX = (
    r"(?:hospital|hosp|medical\s+center|medical\s+centre|med\s+ctr|med\s+center|health\s+center|health\s+system|"
    r"healthcare|health\s+care|clinic|infirmary|nursing\s+home|nursing\s+(?:and\s+rehab(?:ilitation)?\s+)?(?:center|facility)|"
    r"rehab(?:ilitation)?\s+(?:center|hospital|facility)|care\s+center|hospice|pharmacy|urgent\s+care|"
    r"memorial|medical\s+group|surgery\s+center|surgical\s+center|cancer\s+(?:center|institute)|"
    r"heart\s+institute|institute|manor|assisted\s+living|senior\s+living|living\s+center|dialysis(?:\s+center|\s+unit)?|"
    r"home\s+health|home\s+care|health|labs?|laboratories|radiology|imaging|family\s+practice|"
    r"primary\s+care|pediatrics|associates|va|vamc|general|children'?s)"
)
# Generic heads that are not names of a place: "outside hospital", "the clinic", "our rehab".
GENERIC = frozenset(
    """outside osh local community other another same different this that the our their his her your
    a an any nearby previous prior home new old main state county city regional university general
    teaching academic tertiary referring receiving transferring accepting skilled nursing rehab
    cardiology oncology dialysis radiology pediatric primary urgent walk-in walk in outpatient inpatient
    va hospital clinic pharmacy health care medical center surgery surgical memorial children's
    family specialty follow-up followup f/u""".split()
)


class StreetAddressRecognizer(RegexRecognizer):
    ENTITY = LOCATION
    PATTERNS = (
        (
            "street",
            rf"(?<![\d/.,:-])\b\d{{1,6}}[A-Z]?\s+(?:(?:N|S|E|W|NE|NW|SE|SW|north|south|east|west)\.?\s+)?"
            rf"(?:[A-Z0-9][\w'-]*\.?\s+){{1,3}}{STREET_SUFFIX}\b\.?{UNIT}",
            0.85,
        ),
        ("po_box", r"\bp\.?\s?o\.?\s+box\s+\d+\b", 0.9),
    )

    def validate(self, text: str, start: int, end: int, pattern: str) -> bool:
        if pattern != "street":
            return True
        words = re.findall(r"[A-Za-z]+", text[start:end])
        # "2 tabs po dr" or "40 mg iv push st" are orders: a street name is not a clinical word.
        name_words = words[:-1] if len(words) > 1 else words
        return not any(
            w.lower() in NOT_NAMES or (self.lexicon.is_clinical(w) and w.lower() not in _STREETISH)
            for w in name_words
        )


_STREETISH = frozenset(
    "main oak elm pine maple cedar birch park lake hill high church school mill spring".split()
)


class ZipCodeRecognizer(RegexRecognizer):
    ENTITY = LOCATION
    FLAGS = 0
    PATTERNS = (
        (
            "zip_after_state",
            rf"(?:\b(?:{STATE_WORDS})\b|[A-Z][a-z]+)\.?,?\s+(?P<phi>\d{{5}}(?:-\d{{4}})?)\b",
            0.85,
        ),
        ("zip_label", r"(?i:\bzip(?:\s*code)?)\s*[:#]?\s*(?P<phi>\d{5}(?:-\d{4})?)\b", 0.9),
    )

    def validate(self, text: str, start: int, end: int, pattern: str) -> bool:  # noqa: ARG002
        if pattern == "zip_after_state":
            word = re.findall(r"[A-Za-z]+", text[max(0, start - 25) : start])
            return bool(word) and (
                word[-1].upper() in self.lexicon.state_abbrevs or self.lexicon.is_place_word(word[-1])
            )
        return True


class CityStateRecognizer(RegexRecognizer):
    """ "Dorchester, MA", "SPRINGFIELD, OHIO": the city before a state is PHI, the state is not."""

    ENTITY = LOCATION
    FLAGS = 0
    PATTERNS = (
        (
            "city_state",
            rf"(?P<phi>\b[A-Za-z][A-Za-z.'-]+(?:\s+[A-Za-z][A-Za-z.'-]+){{0,2}}),\s*(?:{STATE_WORDS})\b(?![a-z])",
            0.8,
        ),
    )

    def validate(self, text: str, start: int, end: int, pattern: str) -> bool:  # noqa: ARG002
        words = text[start:end].split()
        # Keep only the capitalised tail: "lives in Dorchester, MA" -> "Dorchester".
        return bool(words) and not all(
            w.lower() in NOT_NAMES or self.lexicon.is_clinical_term(w) for w in words
        )

    def analyze(
        self, text: str, entities: list[str], nlp_artifacts: NlpArtifacts | None = None
    ) -> list[RecognizerResult]:
        out = []
        for res in super().analyze(text, entities, nlp_artifacts):
            tokens = tokenize(text[res.start : res.end])
            keep = _trailing_name_tokens(tokens, self.lexicon)
            if keep:
                out.append(RecognizerResult(LOCATION, res.start + keep[0].start, res.end, res.score))
        return out


class FacilityRecognizer(EntityRecognizer):
    """Hospitals, clinics, nursing homes, pharmacies: up to four name words before a facility word
    ("CALVERT HOSP", "St. Mary's Medical Center"), or a hospital-style acronym after a place cue
    ("transferred from GH", "at BIDMC")."""

    SUFFIX = re.compile(rf"\b{FACILITY_SUFFIX}\b", re.IGNORECASE)
    ACRONYM = re.compile(
        r"\b(?:at|from|to|in|@|transferred\s+from|transfer\s+from|tx\s+from|admitted\s+to|seen\s+at|followed\s+at)\s+"
        r"(?:the\s+)?(?P<phi>[A-Z]{2,6})\b(?!-)",
    )
    SAINT = re.compile(
        r"\b(?:st|saint|mt|mount)\.?\s+[A-Z][a-z]+(?:'s)?(?:\s+(?:hospital|medical|regional|general))?",
        re.IGNORECASE,
    )
    HOSPITAL_ACRONYM = re.compile(r"^(?:[A-Z]{0,4}(?:H|MC|HC|MH|GH|CH|RH|UH|VA|VAMC)|[A-Z]{2,3}MC)$")
    SCORE: ClassVar[float] = 0.8

    def __init__(self, lexicon: Lexicon) -> None:
        self.lexicon = lexicon
        super().__init__(supported_entities=[LOCATION], supported_language="en")

    def load(self) -> None:
        """Patterns are class attributes."""

    def analyze(
        self, text: str, entities: list[str], nlp_artifacts: NlpArtifacts | None = None
    ) -> list[RecognizerResult]:
        results: list[RecognizerResult] = []
        for match in self.SUFFIX.finditer(text):
            start = self._name_start(text, match.start())
            if start is not None:
                results.append(RecognizerResult(LOCATION, start, match.end(), self.SCORE))
        for match in self.ACRONYM.finditer(text):
            word = match.group("phi")
            if self._is_hospital_acronym(word):
                results.append(RecognizerResult(LOCATION, match.start("phi"), match.end("phi"), 0.7))
        for match in self.SAINT.finditer(text):
            results.append(RecognizerResult(LOCATION, match.start(), match.end(), 0.6))
        return results

    def _name_start(self, text: str, suffix_start: int) -> int | None:
        """Where the facility's name begins, walking back over name words; None if there is none."""
        tokens = tokenize(text[max(0, suffix_start - 80) : suffix_start])
        offset = max(0, suffix_start - 80)
        if tokens and text[tokens[-1].end + offset : suffix_start].strip(" .'’-&") != "":
            return None  # "hospital" not preceded directly by a word: "(hospital)", "hospital."
        name: list[Token] = []
        for tok in reversed(tokens[-4:]):
            low = tok.lower.rstrip("'s").rstrip("’s")
            if low in GENERIC or tok.lower in NOT_NAMES or self.lexicon.is_clinical_term(tok.text):
                break
            if tok.case is Case.MIXED and not tok.text[0].isupper():
                break
            if (
                tok.case is not Case.MIXED
                and self.lexicon.zipf(low) >= 4.5
                and not self.lexicon.is_census_name(low)
            ):
                break
            name.insert(0, tok)
        if not name:
            return None
        return offset + name[0].start

    def _is_hospital_acronym(self, word: str) -> bool:
        low = word.lower()
        if low in self.lexicon.medical_words or word in self.lexicon.state_abbrevs:
            return False
        return bool(self.HOSPITAL_ACRONYM.match(word))


class RoomBedRecognizer(RegexRecognizer):
    ENTITY = LOCATION
    PATTERNS = (
        (
            "room",
            r"\b(?:room|rm|bed|bay|bldg|building|ward|suite|ste|pod|cubicle|stretcher)\s*(?:no\.?|number|#)?\s*[:#]?\s*"
            r"(?P<phi>\d{1,5}[A-Z]?(?:-?[A-Z0-9]{1,3})?|[A-Z]\d{1,4}|\d{1,2}\s?[NSEW]\b)",
            0.75,
        ),
    )


class PlaceContextRecognizer(RegexRecognizer):
    """A town after "lives in", "from", "moved to": the words up to the next punctuation."""

    ENTITY = LOCATION
    PATTERNS = (
        (
            "place_cue",
            r"\b(?:lives|living|resides|residing|resident|born|raised|moved|relocated|visiting|travel(?:l?ed)?|"
            r"trip|vacation|home|house|native|originally|hometown|works?|employed)\s+(?:in|at|to|from|of)\s+"
            r"(?:the\s+)?(?P<phi>[A-Za-z][A-Za-z.'-]*(?:\s+[A-Za-z][A-Za-z.'-]*){0,2})",
            0.7,
        ),
    )

    def analyze(
        self, text: str, entities: list[str], nlp_artifacts: NlpArtifacts | None = None
    ) -> list[RecognizerResult]:
        out = []
        for res in super().analyze(text, entities, nlp_artifacts):
            tokens = tokenize(text[res.start : res.end])
            keep = _leading_place_tokens(tokens, self.lexicon)
            if keep:
                out.append(
                    RecognizerResult(LOCATION, res.start + keep[0].start, res.start + keep[-1].end, res.score)
                )
        return out


def _trailing_name_tokens(tokens: list[Token], lexicon: Lexicon) -> list[Token]:
    keep: list[Token] = []
    for tok in reversed(tokens):
        if (
            tok.lower in NOT_NAMES
            or lexicon.is_clinical_term(tok.text)
            or (tok.case is Case.MIXED and not tok.text[0].isupper())
        ):
            break
        keep.insert(0, tok)
    return keep


def _leading_place_tokens(tokens: list[Token], lexicon: Lexicon) -> list[Token]:
    keep: list[Token] = []
    for tok in tokens:
        low = tok.lower
        if low in NOT_NAMES or lexicon.is_clinical_term(tok.text) or (lexicon.zipf(low) >= 4.5 and not keep):
            break
        if tok.case is Case.MIXED and not tok.text[0].isupper():
            break
        keep.append(tok)
    if keep and lexicon.is_place_word(" ".join(t.text for t in keep)):
        return []  # a state or country: not PHI
    return keep
