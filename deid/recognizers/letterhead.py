"""The place in a note's letterhead: the heading lines at its top (or after its "Record date:"
line, where an export runs notes together) that name the practice or hospital it was written in:
"LAKESIDE MEDICAL - INTERNAL MEDICINE", "CARDIOLOGY - SILVER RIDGE", "FAIRVIEW RENAL ASSOCIATES";
and the hospital's code in an exported record's header line.

Such a line is a name in capitals or capitalised words, alone on its line, maybe in parts split by
a dash. A part names a place when a word of it is neither descriptive (a service, a facility head,
a clinical or section word) nor frequent in English; a heading such as "DISCHARGE SUMMARY" or
"HOME SLEEP APNEA TEST - INTERPRETATION" has no such word.
"""

from __future__ import annotations

import re

from presidio_analyzer import RecognizerResult
from presidio_analyzer.nlp_engine import NlpArtifacts

from deid.recognizers.base import LexiconRecognizer, RegexRecognizer
from deid.recognizers.care_places import generic_word
from deid.recognizers.name_words import PATIENT
from deid.types import LOCATION

# Where a heading block starts: the text's start, or the line after an export's record date.
BLOCK_START = re.compile(r"\A|^[ \t]*record\s+date\s*:[^\n]*\n", re.IGNORECASE | re.MULTILINE)
# A heading line: capitalised words (and "&", "of", "and", "at", "the"), dashes between parts.
HEADING_LINE = re.compile(
    r"[ \t]*(?P<body>[A-Z][\w'’.&]*(?:[ ]{1,2}(?:[A-Z][\w'’.&-]*|&|of|and|at|the|[-–—]))*)[ \t]*(?:\n|\Z)"
)
PART_SEPARATOR = re.compile(r"[ ]+[-–—][ ]+")
HEADING_LINES = 4  # non-blank lines of a block read for a letterhead
# Words of a document's or a section's title: a part with one is a title, not a place ("CHAPLAINCY
# NOTE", "PRIOR AUTHORIZATION REQUEST", "OPERATIVE REPORT", "CHIEF COMPLAINT").
SECTION_WORDS = frozenset(
    """note notes summary report visit consult consultation letter progress discharge admission
    addendum interpretation operative procedure procedures findings impression assessment plan history
    complaint chief illness present examination exam physical review systems medications allergies
    diagnosis diagnoses problem problems reason interval data results labs studies study test tests
    indication indications technique comparison signature instructions follow-up followup brief
    preliminary final amended patient information log record form request referral notification
    reconciliation triage message consent enrolment enrollment handoff handover hand-off transfer
    authorization interrogation inbound outbound telehealth telephone encounter orders""".split()
)
# Endings of English and medical words rather than of names: "TRANSTHORACIC", "ECHOCARDIOGRAM",
# "DENSITY", "DISPENSING".
WORD_ENDING = re.compile(
    r"(?:ed|ing|ly|tion|sion|ness|ment|ity|ous|ive|able|ible|ism|ize|ise|ful|less|ary|ic|al|ular|gram|ance|ence|ure|ory)$"
)
HEADING_WORDS = 6  # a letterhead is a name, not a sentence
# Frequent words are headings ("GENERAL", "INTERNAL"); a name has a word rarer than this, or a
# town's name: "Lakeside" is 3.0, "Ridge" 4.0, "Internal" 4.6.
NAME_ZIPF = 4.2


class LetterheadRecognizer(LexiconRecognizer):
    ENTITIES = (LOCATION,)

    def analyze(
        self, text: str, entities: list[str], nlp_artifacts: NlpArtifacts | None = None
    ) -> list[RecognizerResult]:
        results: list[RecognizerResult] = []
        for block in BLOCK_START.finditer(text):
            pos, seen = block.end(), 0
            while seen < HEADING_LINES and pos < len(text):
                line_end = text.find("\n", pos)
                line_end = len(text) if line_end < 0 else line_end
                if text[pos:line_end].strip():
                    seen += 1
                    heading = HEADING_LINE.match(text, pos)
                    if heading is not None:
                        results += self._places(text, heading.start("body"), heading.end("body"))
                pos = line_end + 1
        return results

    def _places(self, text: str, start: int, end: int) -> list[RecognizerResult]:
        out: list[RecognizerResult] = []
        body = text[start:end]
        bounds = [0, *(p for m in PART_SEPARATOR.finditer(body) for p in m.span()), len(body)]
        if len(body.split()) > HEADING_WORDS or re.search(r"[.:;,]", body):  # a sentence, not a name
            return out
        if body.split()[0].lower() in PATIENT:
            return out  # a nursing note's first line: "PT WILL GRANT REFUSING LOVENOX"
        for part_start, part_end in zip(bounds[::2], bounds[1::2], strict=True):
            words = [w.strip(".,'’").lower() for w in body[part_start:part_end].split()]
            if not any(w in SECTION_WORDS for w in words) and any(self._names(w) for w in words):
                out.append(RecognizerResult(LOCATION, start + part_start, start + part_end, 0.6))
        return out

    def _names(self, low: str) -> bool:
        lex = self.lexicon
        if len(low) < 5 or not low.isalpha() or generic_word(low, lex) or lex.is_clinical_term(low):
            return False  # "H&P", "SPLIT-NIGHT", "DXA": acronyms and short words are left to other rules
        if lex.is_place_word(low):
            return False  # a state or a country
        return lex.is_town(low) or (lex.zipf(low) < NAME_ZIPF and not WORD_ENDING.search(low))


class RecordHeaderRecognizer(RegexRecognizer):
    """The hospital's code in the header of an exported record, the field after the record's number:
    "621883704 | SRH | 02551147 | | 7733041 | 4/19/2087 12:00:00 AM | ...", or with each field on
    its own line at the record's top ("741029384 FIH", "9948213", "44019/2k77", ...)."""

    ENTITY = LOCATION
    FLAGS = re.MULTILINE
    PATTERNS = (
        ("record_header", r"^[ \t]*\d{5,}[ \t]*\|[ \t]*(?P<phi>[A-Z]{2,6})[ \t]*\|(?=[^\n]*\|[^\n]*\|)", 0.7),
        # the same with its fields on lines of their own, at the record's top: "741029384 FIH\n9948213\n"
        (
            "record_header_lines",
            r"\A[ \t]*\d{6,}[ \t]+(?P<phi>[A-Z]{2,6})[ \t]*\n(?=[ \t]*\d{5,}[ \t]*\n)",
            0.7,
        ),
    )

    def validate(self, text: str, start: int, end: int, pattern: str) -> bool:  # noqa: ARG002
        code = text[start:end]
        return code.lower() not in self.lexicon.medical_words and code not in self.lexicon.state_abbrevs
