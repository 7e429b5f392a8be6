"""Word tokens and letter case of clinical text, shared by the recognizers and the NER step.

Capitalisation is evidence of a name only where the writer uses case: in ALL-CAPS nursing notes and
all-lower-case quick notes it says nothing, so each line is classified first.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass
from enum import Enum
from functools import lru_cache

# Letters of any script ("Lucía", "Zoë"), with inner apostrophes and hyphens ("O'Connor", "Hyun-woo").
WORD = re.compile(r"[^\W\d_]+(?:['’-][^\W\d_]+)*")
# A capitalised word: the writer uses case ("Pt", "Dr Healey"), not only acronyms ("CT", "BID").
TITLED = re.compile(r"(?<![^\W\d_])[^\W\d_a-zß-ÿ][^\W\d_A-ZÀ-Þ]")
LOWER_WORD = re.compile(r"(?<![^\W\d_])[^\W\d_A-Z]{2,}")
MIN_LOWER_WORDS = 5


class Case(Enum):
    MIXED = "mixed"
    UPPER = "upper"
    LOWER = "lower"


@dataclass(frozen=True, slots=True)
class Token:
    start: int
    end: int
    text: str
    case: Case  # of the line the token is on
    lower: str  # computed once: every recognizer reads these of every token
    bare: str  # without a possessive: "Smith's" -> "Smith"

    @classmethod
    def of(cls, start: int, end: int, text: str, case: Case) -> Token:
        return cls(start, end, text, case, text.lower(), _without_possessive(text))

    def is_capitalised(self) -> bool:
        return self.text[0].isupper() and (
            len(self.text) == 1 or not self.text.isupper() or len(self.text) <= 3
        )


def _without_possessive(text: str) -> str:
    for suffix in ("'s", "’s"):
        if text.lower().endswith(suffix):
            return text[: -len(suffix)]
    return text.rstrip("'’")


def line_case(line: str, default: Case = Case.MIXED) -> Case:
    """How a line uses case; a line too short to tell ("- jd") takes `default`, and so does a line
    whose only capitals are acronyms when `default` is not mixed: a writer who capitalises nothing
    but "CT" and "BID" writes names in lower case too ("plan for frankie's stone - CT 4/11?")."""
    n_upper = sum(map(str.isupper, line))
    n_letters = n_upper + sum(map(str.islower, line))
    if n_letters < 6:
        return default
    upper = n_upper / n_letters
    if upper >= 0.85:
        return Case.UPPER
    if upper <= 0.02:
        return Case.LOWER
    if default is not Case.MIXED and not TITLED.search(line):
        return default  # capitals only in acronyms ("CT", "POD 3"), as in the rest of the text
    return Case.MIXED


def text_case(text: str) -> Case:
    """How a whole text uses case: lower case also when its only capitals are acronyms, if it has
    words enough to tell (a recognizer may tokenize a snippet such as "LV thrombus")."""
    case = line_case(text)
    if case is Case.MIXED and not TITLED.search(text) and len(LOWER_WORD.findall(text)) >= MIN_LOWER_WORDS:
        return Case.LOWER
    return case


@lru_cache(maxsize=32)
def line_cases(text: str) -> tuple[tuple[int, Case], ...]:
    """(start, case) of each line of a text. Short lines ("- jd pa-c") are written like the rest of
    the note. In a note whose writer capitalises names and drugs mid-sentence, a line of few capitals
    is still mixed case when it has a capitalised word ("Normocephalic, atraumatic, pupils equal")
    or carries on the sentence of a wrapped line before it ("testicles are nontender.")."""
    whole = text_case(text)
    uses_case = whole is Case.MIXED and _capitalises_mid_sentence(text)
    cases: list[tuple[int, Case]] = []
    line_start = 0
    for line in text.splitlines(keepends=True):
        case = line_case(line, whole)
        if case is Case.LOWER and uses_case and (TITLED.search(line) or _carries_on(text, line_start, line)):
            case = Case.MIXED
        cases.append((line_start, case))
        line_start += len(line)
    return tuple(cases)


def _carries_on(text: str, line_start: int, line: str) -> bool:
    """Whether a line carries on the sentence of a wrapped line before it."""
    before = line_start  # the end of the last word before the line (not text[:line_start].rstrip():
    while before > 0 and text[before - 1].isspace():  # that would copy the text for every line)
        before -= 1
    return (
        before > 0
        and text[before - 1] not in SENTENCE_END
        and is_wrap(text, before, line_start + len(line) - len(line.lstrip()))
    )


SENTENCE_END = ".:;!?"
MID_SENTENCE_TITLED = re.compile(r"(?:(?<=[^\W\d_])|(?<=,)) +[^\W\d_a-zß-ÿ][^\W\d_A-ZÀ-Þ]")


def _capitalises_mid_sentence(text: str) -> bool:
    """Whether the writer uses case: three or more capitalised words right after a word or a comma
    ("seen by Dr Hobbs", "Zestril, Zocor"), which a writer of lower-case notes does not write."""
    found = 0
    for _ in MID_SENTENCE_TITLED.finditer(text):
        found += 1
        if found >= 3:
            return True
    return False


@lru_cache(maxsize=32)
def tokenize(text: str) -> tuple[Token, ...]:
    """The words of a text with the case of their lines. Cached: every recognizer of a request
    reads the same tokens (the cache is keyed by the text and holds immutable tokens)."""
    tokens: list[Token] = []
    for line, (line_start, case) in zip(text.splitlines(keepends=True), line_cases(text), strict=True):
        for match in WORD.finditer(line):
            tokens.append(Token.of(line_start + match.start(), line_start + match.end(), match.group(), case))
    return tuple(tokens)


@lru_cache(maxsize=32)
def token_starts(text: str) -> tuple[int, ...]:
    """Where the words of `tokenize(text)` start, for bisecting (cached alike)."""
    return tuple(tok.start for tok in tokenize(text))


def case_at(text: str, pos: int) -> Case:
    """The letter case of the line that holds position `pos` (as `line_cases` reads it)."""
    cases = line_cases(text)
    if not cases:
        return text_case(text)
    return cases[max(bisect_right(cases, pos, key=lambda line: line[0]) - 1, 0)][1]


# Dictated notes are hard-wrapped at ~65-80 columns (some exports put a blank line after every line):
# a line break after a line this long is the editor's, not the end of a heading or a list item.
WRAP_WIDTH = 40
WRAP_GAP = re.compile(r"[ \t]*\r?\n(?:[ \t]*\r?\n)?[ \t]*")


def is_wrap(text: str, start: int, end: int) -> bool:
    """Whether the gap text[start:end] between two words is only the line break of a wrapped line:
    "...lives with her husband\nMarvin", "...seen by Dr.\nHobbs"."""
    if start < 0 or WRAP_GAP.fullmatch(text, start, end) is None:
        return False
    return start - (text.rfind("\n", 0, start) + 1) >= WRAP_WIDTH


def is_sentence_start(text: str, start: int) -> bool:
    """True when only punctuation, bullets or spaces separate the position from a sentence end."""
    i = start - 1
    while i >= 0 and text[i] in " \t\"'([-*•#>":
        i -= 1
    return i < 0 or text[i] in ".!?:;\n"
