"""Word tokens and letter case of clinical text, shared by the recognizers and the NER step.

Capitalisation is evidence of a name only where the writer uses case: in ALL-CAPS nursing notes and
all-lower-case quick notes it says nothing, so each line is classified first.
"""

from __future__ import annotations

import re
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
def tokenize(text: str) -> tuple[Token, ...]:
    """The words of a text with the case of their lines. Cached: every recognizer of a request
    reads the same tokens (the cache is keyed by the text and holds immutable tokens)."""
    tokens: list[Token] = []
    line_start = 0
    whole = text_case(text)  # short lines ("- jd pa-c") are written like the rest of the note
    for line in text.splitlines(keepends=True):
        case = line_case(line, whole)
        for match in WORD.finditer(line):
            tokens.append(Token.of(line_start + match.start(), line_start + match.end(), match.group(), case))
        line_start += len(line)
    return tuple(tokens)


@lru_cache(maxsize=32)
def token_starts(text: str) -> tuple[int, ...]:
    """Where the words of `tokenize(text)` start, for bisecting (cached alike)."""
    return tuple(tok.start for tok in tokenize(text))


def case_at(text: str, pos: int) -> Case:
    """The letter case of the line that holds position `pos`."""
    line_start = text.rfind("\n", 0, pos) + 1
    line_end = text.find("\n", pos)
    return line_case(text[line_start : len(text) if line_end < 0 else line_end], text_case(text))


def is_sentence_start(text: str, start: int) -> bool:
    """True when only punctuation, bullets or spaces separate the position from a sentence end."""
    i = start - 1
    while i >= 0 and text[i] in " \t\"'([-*•#>":
        i -= 1
    return i < 0 or text[i] in ".!?:;\n"
