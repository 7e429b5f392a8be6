"""Names that a text spells twice: once as words, once inside an email address ("Dana Roux emailed
... dana.roux@gmail.com", "sunita rao, gc, srao@..."). An address's local part is made of its
owner's names and initials, so a word of the text that matches one of them is that person's name,
whatever its case or dictionary standing ("Roux" is also a surgical eponym, "rao" a rare word).
"""

from __future__ import annotations

import re
from typing import ClassVar

from presidio_analyzer import RecognizerResult
from presidio_analyzer.nlp_engine import NlpArtifacts

from deid.recognizers.contact import EmailRecognizer
from deid.recognizers.names import NameWordsRecognizer
from deid.text import tokenize
from deid.types import NAME

EMAIL = re.compile(EmailRecognizer.PATTERNS[0][1], re.IGNORECASE)
MIN_PART = 3


class EmailEchoRecognizer(NameWordsRecognizer):
    """Words of the text that are the names in an email address of the same text."""

    SCORE: ClassVar[float] = 0.7

    def analyze(
        self, text: str, entities: list[str], nlp_artifacts: NlpArtifacts | None = None
    ) -> list[RecognizerResult]:
        if "@" not in text:
            return []
        names: set[str] = set()
        initialled: dict[str, str] = {}  # "srao" -> {"rao": "s"}: an initial run into a surname
        for match in EMAIL.finditer(text):
            local = match.group().split("@", 1)[0].lower()
            for part in re.split(r"[^a-z]+", local):
                if len(part) >= MIN_PART and self._may_be_name(part):
                    names.add(part)
                if len(part) > MIN_PART and self._may_be_name(part[1:]):
                    initialled[part[1:]] = part[0]
        if not names and not initialled:
            return []
        tokens = tokenize(text)
        results: list[RecognizerResult] = []
        for i, tok in enumerate(tokens):
            low = tok.bare.lower()
            if self.words.excluded(tok, surname_ok=True) or "@" in text[tok.end : tok.end + 1]:
                continue
            if tok.text.isupper() and len(tok.text) <= 5 and not self.lexicon.is_census_name(low):
                continue  # an acronym that also names a mailbox: "OPAT REFERRAL SENT TO OPAT.NURSES@"
            start = tok.start
            if low in initialled and i > 0:
                prev = tokens[i - 1]
                if prev.lower.startswith(initialled[low]) and text[prev.end : tok.start] in (" ", ". "):
                    start = prev.start  # "sunita rao" of "srao@"
            elif low not in names:
                continue
            if _inside_email(text, tok.start):
                continue
            results.append(RecognizerResult(NAME, start, tok.start + len(tok.bare), self.SCORE))
        return results

    def _may_be_name(self, part: str) -> bool:
        """Mailboxes are also named for what they are ("referrals", "info", "cardiology")."""
        lex = self.lexicon
        if lex.is_census_name(part):
            return lex.zipf(part) < 5.0 or lex.name_likelihood(part) > 0
        return lex.zipf(part) < 3.0 and not lex.is_clinical(part)


def _inside_email(text: str, pos: int) -> bool:
    """The word is part of an address itself (its local part or its domain)."""
    left = text.rfind(" ", 0, pos) + 1
    right = text.find(" ", pos)
    return "@" in text[left : len(text) if right < 0 else right]
