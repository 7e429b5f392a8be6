"""Places of care named without a head word, and counties (Safe Harbor B).

Many facilities are known by a bare name: "referral to Moorfields", "TRANSPORTED TO NORTHSIDE
GWINNETT", "Pediatric Discharge Summary — CHOP", "transferred to mgh". No word list holds them all,
so they are found by where they stand: after a preposition of place, or after the title of a note
on its first line; and only when a word of the name is rare in English and not clinical, so "to
ICU", "at Bedtime", "referred to Nephrology" or "Discharge Summary — Cardiology" name no place.
Two British shapes are named by their own words: health boards ("NHS Lothian") and general
practices ("The Elms Surgery", but not "Day Surgery").
"""

from __future__ import annotations

import re
from typing import ClassVar

from presidio_analyzer import RecognizerResult
from presidio_analyzer.nlp_engine import NlpArtifacts

from deid.lexicon import Lexicon
from deid.recognizers.base import RegexRecognizer
from deid.recognizers.dates import HOLIDAYS, MONTH, WEEKDAY
from deid.recognizers.facilities import CONNECTORS, GENERIC, FacilityRecognizer
from deid.recognizers.name_words import ENGLISH_ENDINGS, NOT_NAMES, ROLES, TITLES
from deid.text import Case, case_at, text_case
from deid.types import LOCATION

# A word rarer than this (wordfreq Zipf) may name a place by itself; "Moorfields" is 1.9,
# "Quest" 4.3.
RARE_ZIPF = 3.0
# After a verb of care ("transferred to Mercy", "admitted to Methodist") a less rare word will do.
CARE_VERB_RARE_ZIPF = 4.5
# The units and stations of any hospital, where a patient is admitted, seen or moved to: no place.
UNITS = frozenset(
    """ed er icu micu sicu ccu cvicu nicu picu or pacu ward unit floor dept department division service
    emergency clinic lab echo room bed suite level block wing tower pod bay observation obs stepdown
    step-down tele telemetry preop pre-op postop post-op holding recovery triage resus theatre theatres
    medicine surgery hospitalist""".split()
)
WHEN = re.compile(rf"(?:{MONTH}|{WEEKDAY}|{HOLIDAYS})\.?", re.IGNORECASE)
NAME_WORD = r"(?:[A-Z][\w'’&.-]*|[A-Z]{2,})"


def place_words(
    text: str,
    start: int,
    end: int,
    lexicon: Lexicon,
    *,
    acronyms: bool = False,
    rare_zipf: float = RARE_ZIPF,
) -> tuple[int, int] | None:
    """The span of the proper name in text[start:end], trimmed of descriptive words at its end,
    or None when no word of it is a rare, non-clinical word: only such a word names a place.
    With `acronyms`, any capitalised abbreviation that is not a medical one counts as rare;
    `rare_zipf` is how rare (wordfreq Zipf) a word must be, lower the weaker the cue."""
    words = list(re.finditer(r"\S+", text[start:end]))
    for i, word in enumerate(words):
        bare = _bare(word.group())
        if i and (bare in TITLES or (bare in NOT_NAMES and bare not in INNER_WORDS)):
            words = words[:i]  # "referral to Moorfields for Mr Hussain", "FROM INVERNESS ON THE WARD"
            break
        if word.group().endswith(".") and len(word.group()) > 4:
            words = words[: i + 1]  # a sentence ends: "AT DAVITA RIVERSIDE. PRE WT"
            break
    while words and (generic_word(words[-1].group(), lexicon) or _bare(words[-1].group()) in CONNECTORS):
        words.pop()
    upper = case_at(text, start) is Case.UPPER
    rare = [
        w
        for w in words
        if _rare_name(w.group(), lexicon, acronyms=acronyms and not upper, rare_zipf=rare_zipf)
    ]
    # in capitals every word looks like an acronym and many rare words are clinical shorthand:
    # there a name needs two words ("AT DAVITA RIVERSIDE"), not one ("VIA PHONE", "NO TUNNELING")
    if not rare or (upper and len(words) < 2):
        return None
    if lexicon.is_place_word(" ".join(w.group() for w in words)):
        return None  # a state or a country
    last = words[-1].group()
    cut = len(last) - len(last.rstrip(".,;:)")) if len(last.rstrip(".,;:)")) > 3 else 0
    return start + words[0].start(), start + words[-1].end() - cut


def _bare(word: str) -> str:
    return word.strip(".,;:()'’\"").removesuffix("'s").removesuffix("’s").lower()


# Services of a hospital, not places: "referred to Nephrology", "from Orthopaedics".
SPECIALTY = re.compile(r"(?:ology|iatry|iatrics|therapy|p(?:a)?edics|surgery|graphy|scopy)$")


def generic_word(word: str, lexicon: Lexicon) -> bool:
    """A word that describes a place without naming it: a service, a facility head, a clinical word."""
    low = _bare(word)
    return (
        not low
        or SPECIALTY.search(low) is not None
        or low in GENERIC
        or low in NOT_NAMES
        or low in TITLES
        or low in ROLES  # "admitted to the Hospitalist service"
        or lexicon.is_clinical(low)
        or FacilityRecognizer.HEAD.fullmatch(low) is not None
    )


def _rare_name(word: str, lexicon: Lexicon, *, acronyms: bool, rare_zipf: float = RARE_ZIPF) -> bool:
    bare = word.strip(".,;:()'’\"").removesuffix("'s").removesuffix("’s")
    low = bare.lower()
    if generic_word(word, lexicon) or low in lexicon.eponyms or low in lexicon.medical_words:
        return False
    if bare.isupper() and len(bare) <= 6:
        # an abbreviation: in a note's heading one not medical ("CHOP", "AIIMS"); elsewhere only
        # one shaped like a hospital's ("UCH", "BIDMC"), not "RUSB", "LAD" or "PACS"
        if bare in lexicon.state_abbrevs or len(bare) < 3:
            return False
        return acronyms or FacilityRecognizer.HOSPITAL_ACRONYM.match(bare) is not None
    if not bare.isupper() and any(c.isupper() and bare[i - 1] != "-" for i, c in enumerate(bare) if i):
        return False  # brands and units: "CareLink", "AirView", "KCl", "IADLs"; not "Dana-Farber"
    if bare.isupper() and ENGLISH_ENDINGS.search(low) and not lexicon.is_town(low):
        return False  # in capitals, inflected words: "TUNNELING", "INTERMITTENTLY" (not "Deaconess")
    if rare_zipf > RARE_ZIPF and (WHEN.fullmatch(low) or low in UNITS):
        return False  # after a verb of care: "seen in June", "admitted to Observation"
    return lexicon.is_town(low) or lexicon.zipf(low) < rare_zipf


# Small words inside a place's name: "Hospital for Special Surgery", "Dana-Farber at South Shore".
INNER_WORDS = frozenset({"of", "at", "for", "and", "&"})
# What follows "NHS" when it names no region: "NHS Trust", "NHS number", "NHS England".
NOT_BOARDS = frozenset(
    "trust trusts foundation number no digital direct choices england scotland wales".split()
)


class CarePlaceRecognizer(RegexRecognizer):
    """A bare proper name where the text puts a place of care: "referral to Moorfields", "listed at
    Sunnybrook", "ON CHAIR 11 AT DAVITA RIVERSIDE", "TRANSPORTED TO NORTHSIDE GWINNETT"."""

    ENTITY = LOCATION
    FLAGS = 0
    PATTERNS: ClassVar[tuple[tuple[str, str, float], ...]] = (
        (
            "care_cue",
            r"(?i:\b(?:at|to|from|via)\s+(?:the\s+)?)"
            rf"(?P<phi>{NAME_WORD}(?:[ ](?:{NAME_WORD}|of|at|for|and|&)){{0,4}})",
            0.6,
        ),
        # a health board or trust by its region: "NHS Lothian", "NHS Greater Glasgow and Clyde"
        ("health_board", r"\b(?P<phi>NHS[ ][A-Z][a-z]+(?:[ ](?:[A-Z][a-z]+|and)){0,3})", 0.6),
        # a British general practice, named for its building or street: "The Elms Surgery"
        ("gp_surgery", r"\b(?P<phi>(?:The[ ])?[A-Z][a-z'’]+(?:[ ][A-Z][a-z'’]+)?[ ]Surgery)\b", 0.6),
    )

    def analyze(
        self, text: str, entities: list[str], nlp_artifacts: NlpArtifacts | None = None
    ) -> list[RecognizerResult]:
        out = []
        for res in super().analyze(text, entities, nlp_artifacts):
            if self._whole(text, res.start, res.end):
                out.append(res)  # validated whole: a health board, a general practice
                continue
            span = place_words(text, res.start, res.end, self.lexicon)
            if span:
                out.append(RecognizerResult(LOCATION, span[0], span[1], res.score))
        return out

    def _whole(self, text: str, start: int, end: int) -> bool:
        """A match of the health board or general practice pattern, which is taken as it is."""
        if text.startswith("NHS ", start):
            return self.validate(text, start, end, "health_board")
        gp = next(regex for name, regex, _ in self._compiled if name == "gp_surgery").fullmatch(
            text, start, end
        )
        return gp is not None and self.validate(text, start, end, "gp_surgery")

    def validate(self, text: str, start: int, end: int, pattern: str) -> bool:
        if pattern == "gp_surgery":
            # "Oakwood Surgery", not a kind of surgery: "Cardiac", "Day", "Plastic", "Orthopaedic"
            words = [w for w in text[start:end].split()[:-1] if w != "The"]
            lex = self.lexicon
            return all(
                not generic_word(w, lex)
                and w.lower() not in lex.eponyms
                and w.lower() not in lex.medical_words
                and not re.search(r"(?:ic|al|ary|ive|ous|ed|ing)$", w)
                and (lex.is_town(w.lower()) or lex.zipf(w.lower()) < 3.5)
                for w in words
            )
        if pattern == "health_board":
            # a region, not a country or a kind of body: "NHS Lothian", not "NHS England", "NHS Trust"
            region = text[start + 4 : end]
            words = [_bare(w) for w in region.split()]
            return not self.lexicon.is_place_word(region) and not any(
                w in GENERIC or w in NOT_NAMES or w in NOT_BOARDS for w in words[:1]
            )
        first = text[start:end].split()[0]
        # the first word must itself be part of the name: "at Moorfields", not "to Dr Smith"
        return not generic_word(first, self.lexicon) and first[0].isupper()


class CareVerbPlaceRecognizer(CarePlaceRecognizer):
    """A bare proper name after a verb that says where care was given, where a less rare word is
    taken than after a preposition alone: "transferred from Mercy", "admitted to Methodist",
    "2 nights at Providence". Months, units and departments name no place ("seen in June",
    "admitted to Observation", "transferred to Medicine"); brands written with an inner capital
    ("went to LabCorp") are still left, as after a preposition (place_words)."""

    PATTERNS = (
        (
            "care_verb",
            r"(?i:\b(?:transferred|transfer|admitted|readmitted|hospitali[sz]ed|seen|evaluated|treated|"
            r"presented|discharged|accepted|delivered|born|followed|stayed|died|went|taken|brought|"
            r"flown|airlifted|transported|nights?|stay|rehab|dialy[sz]es|dialysis)"
            r"\s+(?:at|to|from|in)\s+(?:the\s+)?)"
            rf"(?P<phi>{NAME_WORD}(?:[ ](?:{NAME_WORD}|of|at|for|and|&)){{0,4}})",
            0.6,
        ),
    )

    def analyze(
        self, text: str, entities: list[str], nlp_artifacts: NlpArtifacts | None = None
    ) -> list[RecognizerResult]:
        out = []
        for res in RegexRecognizer.analyze(self, text, entities, nlp_artifacts):
            span = place_words(text, res.start, res.end, self.lexicon, rare_zipf=CARE_VERB_RARE_ZIPF)
            if span:
                out.append(RecognizerResult(LOCATION, span[0], span[1], res.score))
        return out


class LowerCarePlaceRecognizer(RegexRecognizer):
    """The same in notes written in lower case, where no capital marks a name: "transferred to
    mgh", "was at sunnybrook last yr". Only a rare word that is nothing else (not clinical, not an
    English or census word) or a hospital-shaped acronym is taken: "to icu", "at baseline" are kept."""

    ENTITY = LOCATION
    FLAGS = 0
    PATTERNS = (
        ("care_cue_lower", r"\b(?:at|to|from|via)\s+(?:the\s+)?(?P<phi>[a-z][a-z'-]{2,})\b(?![-/])", 0.55),
    )
    # Rarer than this (wordfreq Zipf) and a lower-case word is a name here: "sunnybrook" is 2.0
    LOWER_RARE_ZIPF = 2.5

    def analyze(
        self, text: str, entities: list[str], nlp_artifacts: NlpArtifacts | None = None
    ) -> list[RecognizerResult]:
        if text_case(text) is not Case.LOWER:
            return []
        return super().analyze(text, entities, nlp_artifacts)

    def validate(self, text: str, start: int, end: int, pattern: str) -> bool:  # noqa: ARG002
        word = text[start:end]
        lex = self.lexicon
        if (
            generic_word(word, lex)
            or word in lex.eponyms
            or word in lex.medical_words
            or word in lex.state_names
        ):
            return False
        if len(word) <= 5 and FacilityRecognizer.HOSPITAL_ACRONYM.match(word.upper()):
            return word.upper() not in lex.state_abbrevs  # "mgh", "bidmc"
        return (
            len(word) >= 4
            and lex.zipf(word) < self.LOWER_RARE_ZIPF
            and not lex.is_census_name(word)
            and not ENGLISH_ENDINGS.search(word)
        )


class HeaderPlaceRecognizer(RegexRecognizer):
    """The place named after a note's title on its first line: "Pediatric Discharge Summary —
    CHOP", "XR CHEST PA — Addenbrooke's", "Medical Ward Progress Note, UCH Ibadan"."""

    ENTITY = LOCATION
    FLAGS = 0
    # The first line: a title in capitalised words, a dash or comma, then the place and nothing
    # after it but the end of the line or a comma ("— Sunnybrook, Bed C4-12").
    PATTERNS = (
        (
            "header",
            r"\A(?:[A-Z0-9][^\s,:.—–]*[ ]){0,6}?"
            r"(?i:note|summary|report|test|letter|consult(?:ation)?|xr|x-ray|ct|mri|ultrasound|"
            r"echo(?:cardiogram)?|ecg|ekg|scan|referral|record|results?|pa|ap|"
            # a nurse's or paramedic's headed entry: "NURSES NOTE 0800 - APOLLO JUBILEE HILLS, MICU",
            # "HANDOVER 1915 - SUNNYBROOK TRAUMA WARD D5", "ED TRIAGE 1122 - HCMC POD B"
            r"handover|hand-over|assessment|triage|update|log)"
            r"(?:[ ][A-Z0-9(/][^\s,:.—–]*){0,4}"
            r"(?:[ ][—–-][ ]|,[ ])(?P<phi>[A-Z][^\n,(—–:]{1,60}?)[ ]*(?=\n|\Z|,)",
            0.6,
        ),
    )

    def analyze(
        self, text: str, entities: list[str], nlp_artifacts: NlpArtifacts | None = None
    ) -> list[RecognizerResult]:
        out = []
        for res in super().analyze(text, entities, nlp_artifacts):
            span = place_words(text, res.start, res.end, self.lexicon, acronyms=True)
            if span:
                end = FacilityRecognizer.town_end(text, span[1], self.lexicon)
                out.append(RecognizerResult(LOCATION, span[0], end, res.score))
        return out


class CountyRecognizer(RegexRecognizer):
    """A county, smaller than a state: "Sonoma County", "RIVERSIDE COUNTY", "Co. Kerry",
    "County Mayo" (Irish counties are written with the word first)."""

    ENTITY = LOCATION
    FLAGS = 0
    GUARD = re.compile(r"(?i:county|co\.\s)")
    PATTERNS = (
        ("county_after", r"\b(?P<phi>(?:[A-Z][a-z]+\s){1,2}County|(?:[A-Z]{3,}\s){1,2}COUNTY)\b", 0.75),
        ("county_before", r"\b(?P<phi>(?:County|COUNTY|Co\.)\s[A-Z][a-z]+)\b", 0.75),
    )

    def analyze(
        self, text: str, entities: list[str], nlp_artifacts: NlpArtifacts | None = None
    ) -> list[RecognizerResult]:
        if not self.GUARD.search(text):
            return []
        return super().analyze(text, entities, nlp_artifacts)

    def extend(self, text: str, start: int, end: int, pattern: str) -> tuple[int, int]:  # noqa: ARG002
        """Drop words before the county's name that the pattern took in: "FROM SONOMA COUNTY"."""
        words = list(re.finditer(r"\S+", text[start:end]))
        if pattern == "county_after" and len(words) == 3 and _bare(words[0].group()) in NOT_NAMES | GENERIC:
            return start + words[1].start(), end
        return start, end

    def validate(self, text: str, start: int, end: int, pattern: str) -> bool:  # noqa: ARG002
        # "the County" names none; "Orange County" does: a county's own name is often a common word
        words = [_bare(w) for w in text[start:end].split() if w.lower() not in ("county", "co.")]
        return bool(words) and words[-1] not in NOT_NAMES and words[-1] not in GENERIC
