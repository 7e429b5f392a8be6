"""Places of care and work named without a head word, known by the town written after them (Safe
Harbor B): "DISCHARGE SUMMARY — Children's Mercy, Kansas City", "Erasmus MC, Rotterdam",
"MICROBIOLOGY REPORT — Lancet Laboratories, Nairobi", "a syncope at his workplace (SAP, Walldorf)",
"CT done at RadNet in Encino", "stocks shelves at Tractor Supply in Columbia".

A proper name followed by a gazetteer town names a place in that town whatever its words are, so
the name is taken where a name of a place stands (the start of a line, after a dash, a bracket, a
label's colon, or "at", "to", "from") and when one of its words is a name word: not generic, not
clinical, not a title. "Seen by Cardiology, Boston", "Dr Patel, Leeds" and "Hodgkin, Denver" name
no place of their own.
"""

from __future__ import annotations

import re

from presidio_analyzer import RecognizerResult
from presidio_analyzer.nlp_engine import NlpArtifacts

from deid.recognizers.base import RegexRecognizer
from deid.recognizers.care_places import NAME_WORD, RARE_ZIPF, SPECIALTY
from deid.recognizers.dates import HOLIDAYS, MONTH
from deid.recognizers.facilities import CONNECTORS, GENERIC, FacilityRecognizer
from deid.recognizers.name_words import NOT_NAMES, TITLES
from deid.text import Case, case_at
from deid.types import LOCATION

# A place's name: capitalised words and the small words inside one ("Harrison & Sons").
PLACE_NAME = rf"{NAME_WORD}(?:[ ](?:{NAME_WORD}|of|and|&)){{0,4}}"
# Words that begin the name of a hospital's service, not of a place: "Department of Pathology, Leeds"
SERVICES = frozenset("department dept division service services section unit ward team".split())
# A time, not a place: "at Christmas in Boston", "from March, ..."
WHEN = re.compile(rf"(?i:{HOLIDAYS}|{MONTH})")
# Where a town may follow a place's name; how far back its name may begin.
TOWN_CUE = re.compile(r"(?:,|[ ]in)[ ](?=(?P<word>[A-Z][\w'’-]+))")
WINDOW = 120
TOWN_WORDS = re.compile(r"[A-Z][\w'’-]+(?:[ ][A-Z][\w'’-]+)?")
# More common in English than this (wordfreq Zipf), a word alone does not make a name.
COMMON_ZIPF = 4.5


class TownNamedPlaceRecognizer(RegexRecognizer):
    """A proper name with its town after a comma, or after "at" with "in" and its town."""

    ENTITY = LOCATION
    FLAGS = re.MULTILINE
    PATTERNS = (
        (
            "name_comma_town",
            rf"(?:^[ \t]*|[—–(][ \t]*|:[ \t]+|(?i:\b(?:at|to|from|via)\s+(?:the\s+)?))(?P<phi>{PLACE_NAME}),[ ]",
            0.6,
        ),
        ("at_name_in_town", rf"(?i:\bat\s+(?:the\s+)?)(?P<phi>{PLACE_NAME})[ ]in[ ]", 0.6),
    )

    def analyze(
        self, text: str, entities: list[str], nlp_artifacts: NlpArtifacts | None = None
    ) -> list[RecognizerResult]:
        # Read from the towns back: the patterns are tried only before a word that begins a town,
        # on its line, and must end where the town begins.
        out = []
        for cue in TOWN_CUE.finditer(text):
            town_start = cue.end()
            if not self.lexicon.starts_place(cue["word"]):
                continue
            window = max(text.rfind("\n", 0, cue.start()) + 1, cue.start() - WINDOW)
            for _, regex, score in self._compiled:
                for match in regex.finditer(text, window, town_start):
                    if match.end() == town_start and self._is_place(
                        text, match.start("phi"), match.end("phi")
                    ):
                        out.append(RecognizerResult(LOCATION, match.start("phi"), match.end("phi"), score))
        return out

    def _is_place(self, text: str, start: int, end: int) -> bool:
        town_start = end + len(", " if text[end] == "," else " in ")
        # in capitals every word looks like an acronym and a town: "CAP LEFT LL, DAY 3"
        capitals = case_at(text, start) is Case.UPPER
        return self._town_at(text, town_start, capitals) and self._names_a_place(text[start:end], capitals)

    def _town_at(self, text: str, start: int, capitals: bool) -> bool:
        """A gazetteer town of one or two words begins at `start` (not a state or a country); in
        capitals not one named like a common English word ("DAY", "READING")."""
        words = TOWN_WORDS.match(text, start)
        if not words:
            return False
        split = words.group().split()
        if capitals and self.lexicon.zipf(split[0]) >= COMMON_ZIPF:
            return False
        phrases = (" ".join(split[:n]) for n in (2, 1) if len(split) >= n)
        return any(self.lexicon.is_town(p) and not self.lexicon.is_place_word(p) for p in phrases)

    def _names_a_place(self, name: str, capitals: bool) -> bool:
        """Some word of the name is a name word, and none makes it a person or a service."""
        words = [w.strip(".'’").removesuffix("'s").removesuffix("’s") for w in name.split()]
        words = [w for w in words if w.lower() not in CONNECTORS]
        lex = self.lexicon
        if not words or any(w.lower() in TITLES | NOT_NAMES | SERVICES for w in words[:1]):
            return False  # "Dr Patel, Leeds", "Department of Cellular Pathology, St James's"
        if lex.is_place_word(name) or any(w.lower() in lex.eponyms for w in words):
            return False  # a state or a country; "Hodgkin, Denver"
        if WHEN.fullmatch(name):
            return False  # "at Christmas in Boston"
        if any(self._name_word(w, capitals) for w in words):
            return True
        # a name of words common in English that ends in a facility's head: "National Jewish Health"
        head = FacilityRecognizer.HEAD.fullmatch(words[-1]) is not None
        return head and len(words) > 1 and not all(w.lower() in GENERIC for w in words[:-1])

    def _name_word(self, word: str, capitals: bool) -> bool:
        """Not generic, not a service, not a drug or clinical word: a rare or census word, or an
        acronym that is not medical ("SAP", not "ICU"); in capitals only a rare word."""
        low = word.lower()
        lex = self.lexicon
        if low in GENERIC or SPECIALTY.search(low) or FacilityRecognizer.HEAD.fullmatch(word):
            return False
        if capitals:
            return lex.zipf(low) < RARE_ZIPF and not lex.is_clinical(low)
        if word.isupper():
            return len(word) >= 2 and low not in lex.medical_words and word not in lex.state_abbrevs
        if lex.is_clinical_term(low):
            return False
        return lex.zipf(low) < COMMON_ZIPF or lex.is_census_name(low)
