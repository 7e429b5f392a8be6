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
    """How a line uses case; a line too short to tell ("- jd") takes `default`."""
    n_upper = sum(map(str.isupper, line))
    n_letters = n_upper + sum(map(str.islower, line))
    if n_letters < 6:
        return default
    upper = n_upper / n_letters
    if upper >= 0.85:
        return Case.UPPER
    if upper <= 0.02:
        return Case.LOWER
    return Case.MIXED


@lru_cache(maxsize=32)
def tokenize(text: str) -> tuple[Token, ...]:
    """The words of a text with the case of their lines. Cached: every recognizer of a request
    reads the same tokens (the cache is keyed by the text and holds immutable tokens)."""
    tokens: list[Token] = []
    line_start = 0
    whole = line_case(text)  # short lines ("- jd pa-c") are written like the rest of the note
    for line in text.splitlines(keepends=True):
        case = line_case(line, whole)
        for match in WORD.finditer(line):
            tokens.append(Token.of(line_start + match.start(), line_start + match.end(), match.group(), case))
        line_start += len(line)
    return tuple(tokens)


def is_sentence_start(text: str, start: int) -> bool:
    """True when only punctuation, bullets or spaces separate the position from a sentence end."""
    i = start - 1
    while i >= 0 and text[i] in " \t\"'([-*•#>":
        i -= 1
    return i < 0 or text[i] in ".!?:;\n"
