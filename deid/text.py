"""Word tokens and letter case of clinical text, shared by the recognizers and the NER step.

Capitalisation is evidence of a name only where the writer uses case: in ALL-CAPS nursing notes and
all-lower-case quick notes it says nothing, so each line is classified first.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum

WORD = re.compile(r"[A-Za-z](?:[A-Za-z'’-]*[A-Za-z])?")


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

    @property
    def lower(self) -> str:
        return self.text.lower()

    @property
    def bare(self) -> str:
        """Without a possessive: "Smith's" -> "Smith"."""
        for suffix in ("'s", "’s"):
            if self.text.lower().endswith(suffix):
                return self.text[: -len(suffix)]
        return self.text.rstrip("'’")

    def is_capitalised(self) -> bool:
        return self.text[0].isupper() and (
            len(self.text) == 1 or not self.text.isupper() or len(self.text) <= 3
        )


def line_case(line: str) -> Case:
    letters = [c for c in line if c.isalpha()]
    if len(letters) < 6:
        return Case.MIXED
    upper = sum(c.isupper() for c in letters) / len(letters)
    if upper >= 0.85:
        return Case.UPPER
    if upper <= 0.02:
        return Case.LOWER
    return Case.MIXED


def tokenize(text: str) -> list[Token]:
    tokens: list[Token] = []
    line_start = 0
    for line in text.splitlines(keepends=True):
        case = line_case(line)
        for match in WORD.finditer(line):
            tokens.append(Token(line_start + match.start(), line_start + match.end(), match.group(), case))
        line_start += len(line)
    return tokens


def is_sentence_start(text: str, start: int) -> bool:
    """True when only punctuation, bullets or spaces separate the position from a sentence end."""
    i = start - 1
    while i >= 0 and text[i] in " \t\"'([-*•#>":
        i -= 1
    return i < 0 or text[i] in ".!?:;\n"
