"""Names that other recognizers split or cannot read (Safe Harbor A): names joined by a particle
("Pádraig de Búrca", "Cormac Ó Briain", "Seán Mac Giolla Phádraig", "Ahmad bin Yusuf", "Ma.
Cristina dela Rosa", "Rosa María Cárdenas de León"), and names echoed in their own script ("Wei
Zhang (張偉)").

Spanish, Portuguese, Filipino, French, Dutch, German, Italian, Irish and Arabic surnames carry a
particle that other recognizers read as an English word, so they stop at it or never start. Given
names before a particle and a capitalised surname after it are a name when none of the words is
clinical or a common English word: "Torsades de Pointes" and "acquired von Willebrand" are kept.
"""

from __future__ import annotations

import re

from presidio_analyzer import RecognizerResult
from presidio_analyzer.nlp_engine import NlpArtifacts

from deid.recognizers.base import RegexRecognizer
from deid.recognizers.care_places import SPECIALTY
from deid.recognizers.facilities import FacilityRecognizer
from deid.recognizers.name_words import ENGLISH_ENDINGS, NOT_NAMES, TITLES
from deid.types import NAME

PARTICLES = (
    r"de|del|dela|de\s+la|de\s+las|de\s+los|della|di|da|das|do|dos|du|le|la|van|von|der|den|ten|ter|"
    r"van\s+der|van\s+den|von\s+der|bin|binti|bint|ibn|al|el|abu|ap|y|"
    r"Mac|Mc|Ó|Ní|Nic|Ua|Uí|Mhic|Bean"  # Irish: Ó Briain, Ní Bhriain, Mac Giolla Phádraig
)
UPPER = r"[A-ZÀ-ÖØ-Þ]"
WORD = rf"{UPPER}[\w'’-]+\.?"
# A common English word (Zipf) is a name here only when the census lists it ("Rosa", "Will").
COMMON_ZIPF = 4.0


class ParticleNameRecognizer(RegexRecognizer):
    ENTITY = NAME
    FLAGS = 0
    PATTERNS = (
        (
            "particle_name",
            rf"(?<![\w'’-])(?P<phi>(?:{WORD}|{UPPER}\.)(?:[ ]{WORD}){{0,2}}[ ](?:{PARTICLES})[ ]{WORD}(?:[ ]{WORD})?)"
            r"(?![\w'’-])",
            0.7,
        ),
        # a surname with its particle straight after a title, in any case: "ACCEPTING DR DE VRIES"
        (
            "titled_particle",
            rf"(?i:\b(?:dr|mr|mrs|ms|prof|dhr|mevr|herr|frau)\.?[ ])(?P<phi>(?i:{PARTICLES})[ ]{WORD})(?![\w'’-])",
            0.7,
        ),
    )

    def validate(self, text: str, start: int, end: int, pattern: str) -> bool:
        if pattern == "titled_particle":
            return self._may_be_name(text[start:end].split()[-1].rstrip("."))
        words = self._name_words(text[start:end])
        return bool(words) and all(
            self._may_be_name(w.rstrip(".")) for w in words if not (_particle(w) or _initial(w))
        )

    def extend(self, text: str, start: int, end: int, pattern: str) -> tuple[int, int]:
        """Start at the first given name: "GI Progress Note Cormac Ó Briain" -> "Cormac Ó Briain"."""
        if pattern == "titled_particle":
            return start, end
        words = self._name_words(text[start:end])
        return end - len(" ".join(words)), end

    def _name_words(self, phrase: str) -> list[str]:
        """The words of the name, without words before it that are not names ("Progress Note")."""
        words = phrase.split()
        first = next(i for i, w in enumerate(words) if _particle(w))
        while (
            words
            and first
            and (
                words[0].lower() in TITLES
                or not (_initial(words[0]) or self._may_be_name(words[0].rstrip(".")))
            )
        ):
            words, first = words[1:], first - 1
        return words if first else []

    def _may_be_name(self, word: str) -> bool:
        lex = self.lexicon
        low = word.lower().removesuffix("'s").removesuffix("’s")
        if low in NOT_NAMES or lex.is_clinical(low) or low in lex.eponyms or lex.is_place_word(low):
            return False
        if lex.is_census_name(low):
            return True
        return lex.zipf(low) < COMMON_ZIPF and not ENGLISH_ENDINGS.search(low)


def _initial(word: str) -> bool:
    return len(word) == 2 and word[0].isupper() and word[1] == "."


def _particle(word: str) -> bool:
    return re.fullmatch(rf"(?:{PARTICLES})", word) is not None


# Letters of the scripts a name is most often echoed in: Cyrillic, Hebrew, Arabic, Devanagari,
# Bengali, Tamil, Thai, Hangul, kana and CJK ideographs.
NON_LATIN = (
    r"\u0400-\u04FF\u0590-\u05FF\u0600-\u06FF\u0900-\u097F\u0980-\u09FF\u0B80-\u0BFF\u0E00-\u0E7F"
    r"\u1100-\u11FF\u3040-\u30FF\u3400-\u4DBF\u4E00-\u9FFF\uAC00-\uD7AF"
)


class ScriptNameRecognizer(RegexRecognizer):
    """A name written again in its own script, in brackets: "Wei Zhang (張偉)", "Olga (Ольга)".
    In an English note, a bracketed word of another script is a name far more often than not."""

    ENTITY = NAME
    FLAGS = 0
    PATTERNS = (("script_name", rf"\((?P<phi>[{NON_LATIN}][{NON_LATIN}\s·・.-]{{0,30}})\)", 0.6),)


class RecordNameRecognizer(RegexRecognizer):
    """ "Surname, Given" opening a line of a report or list, followed by the record's numbers:
    "Okonkwo, Chidinma   ID 5538821", "NWOSU, EMEKA  MRN 55120938", "Villanueva, Rosario (F)",
    "OROZCO,KYLE   560-40-78-5"."""

    ENTITY = NAME
    FLAGS = re.MULTILINE
    PATTERNS = (
        (
            "record_name",
            # after the label of the person a record or letter is about: "RE: DUBROVSKY, MIECZYSLAW"
            r"^[ \t]*(?i:(?:pt|patient|client|member|resident|re|name)[ \t]*:[ \t]*)?"
            # (two surnames, and up to two more given names or initials: "Ordóñez Chavarría, Wilmer",
            # "DIMACULANGAN, MA. CRISTINA R.")
            rf"(?P<phi>(?:(?:ST|St|SAINT|Saint)\.?[ ]|(?:al|el|Al|El|AL|EL)-)?{UPPER}[\w'’-]+(?:[ ]{UPPER}[\w'’-]+)?,[ ]?"
            rf"{UPPER}[\w'’-]+\.?(?:[ ]{UPPER}[\w'’-]*\.?){{0,2}})"
            r"(?=[ \t]{2,}|[ \t]*\(|[ \t]*[|]|[ \t]*$|[ \t]+(?i:id|mrn|mr\#|dob|nhs|hosp|uhid|age|sex|ward|bed|unit|acct|chart)\b)",
            0.7,
        ),
        # in a lower-case note, after the patient's label: "pt: pelletier, roland   dob 6/6/1999"
        (
            "record_name_lower",
            r"(?:^|(?<=\s))(?:pt|patient|name|re)[ \t]*:[ \t]*(?P<phi>[a-z][a-z'’-]+,[ ]?[a-z][a-z'’-]+)"
            r"(?=[ \t]{2,}|[ \t]*$|[ \t]+(?:dob|mrn|id|age)\b)",
            0.6,
        ),
    )

    def validate(self, text: str, start: int, end: int, pattern: str) -> bool:
        lex = self.lexicon
        words = [w.strip(",.").lower() for w in re.split(r"[\s,]+", text[start:end]) if w]
        if pattern == "record_name_lower":  # both words names, neither a clinical word
            return all(lex.is_census_name(w) and not lex.is_clinical(w) for w in words)
        words = [w.removeprefix("al-").removeprefix("el-") for w in words if w not in ("st", "saint")]
        # a clinical word is no name unless the census has it: "CHURCH,ABIGAIL"
        if any(
            w in NOT_NAMES or lex.is_place_word(w) or (lex.is_clinical(w) and not lex.is_census_name(w))
            for w in words
        ):
            return False
        # Written without the space ("OROZCO,KYLE"), it could be a list of terms: a name must show.
        return ", " in text[start:end] or any(lex.is_census_name(w) for w in words)


class SignOffNameRecognizer(RegexRecognizer):
    """A first name signing off a message after a dash, at its very end: "if u need me — kat",
    "pls call back -- maria"; and a patient named by the room they are in: "see rodriguez in 1412"."""

    ENTITY = NAME
    PATTERNS = (
        # (with the writer's role after it: "mitts? -jess rn")
        (
            "sign_off",
            r"(?:^|\s)(?:—|–|--?)\s*(?P<phi>[A-Za-z][a-z'’-]{1,14})"
            r"(?:\s+(?i:rn|np|md|do|pa|lpn|cna|rrt|rph|pharmd|msw|lcsw|cm))?\s*\.?\s*\Z",
            0.6,
        ),
        (
            "patient_in_room",
            r"\b(?:see|seeing|saw|check\s+on|round\s+on|visit)\s+(?P<phi>[A-Za-z][a-z'’-]{2,})\s+in\s+"
            r"(?:rm\s+|room\s+|bed\s+)?\d{1,4}[a-z]?\b",
            0.6,
        ),
    )

    def analyze(
        self, text: str, entities: list[str], nlp_artifacts: NlpArtifacts | None = None
    ) -> list[RecognizerResult]:
        results = []
        for name, regex, score in self._compiled:
            # a sign-off is at the end: read only the last words, not the whole text
            pos = max(0, len(text) - 24) if name == "sign_off" else 0
            for match in regex.finditer(text, pos):
                start, end = match.span("phi")
                if self.validate(text, start, end, name):
                    results.append(RecognizerResult(NAME, start, end, score))
        return results

    def validate(self, text: str, start: int, end: int, pattern: str) -> bool:
        word = text[start:end].lower()
        lex = self.lexicon
        if word in NOT_NAMES or word in TITLES or lex.is_clinical(word) or word in lex.eponyms:
            return False
        if (
            SPECIALTY.search(word)
            or FacilityRecognizer.HEAD.fullmatch(word)
            or not re.search("[aeiouy]", word)
        ):
            return False  # "— Cardiology", "— thx"
        if pattern == "sign_off":
            zipf = lex.zipf(word)  # "— kat", "-- maria"; not "— ok", "— done", "— improving"
            return (lex.is_first_name(word) and zipf < 4.5) or (
                zipf < 3.6 and not ENGLISH_ENDINGS.search(word)
            )
        return lex.is_census_name(word) or lex.zipf(word) < 3.5
